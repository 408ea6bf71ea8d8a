<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>FilePreview</name>
    <message>
        <source>Not shown: %1</source>
        <translation>Non affiché : %1</translation>
    </message>
    <message>
        <source>This image is larger than %1; open it outside Sandcastle.</source>
        <translation>Cette image dépasse %1 ; ouvrez-la hors de Sandcastle.</translation>
    </message>
    <message>
        <source>Cannot show this SVG image (it is broken, or the Qt SVG plugin, libqt6svg6, is missing).</source>
        <translation>Impossible d&apos;afficher cette image SVG (elle est endommagée, ou le module Qt SVG, libqt6svg6, manque).</translation>
    </message>
    <message>
        <source>Cannot show this image: it is not a valid %1 file.</source>
        <translation>Impossible d&apos;afficher cette image : ce n&apos;est pas un fichier %1 valide.</translation>
    </message>
    <message>
        <source>A binary file (%1); no preview.</source>
        <translation>Un fichier binaire (%1) ; pas d’aperçu.</translation>
    </message>
    <message>
        <source>Not UTF-8 text; no preview.</source>
        <translation>Pas du texte UTF-8 ; pas d’aperçu.</translation>
    </message>
    <message numerus="yes">
        <source>Showing the first %n row(s).</source>
        <translation>
            <numerusform>Affichage de la première %n ligne.</numerusform>
            <numerusform>Affichage des %n premières lignes.</numerusform>
        </translation>
    </message>
    <message>
        <source>This file is larger than %1; open it outside Sandcastle to read it.</source>
        <translation>Ce fichier dépasse %1 ; ouvrez-le hors de Sandcastle pour le lire.</translation>
    </message>
</context>
<context>
    <name>Sandcastle::AboutDialog</name>
    <message>
        <source>asking…</source>
        <translation>demande en cours…</translation>
    </message>
    <message>
        <source>About Sandcastle</source>
        <translation>À propos de Sandcastle</translation>
    </message>
    <message>
        <source>A desktop IDE in which a language model writes code, runs it in a container on your machine, reads the output and fixes its own mistakes while you watch and take part.</source>
        <translation>Un EDI de bureau dans lequel un modèle de langage écrit du code, l&apos;exécute dans un conteneur sur votre machine, lit la sortie et corrige ses propres erreurs pendant que vous regardez et participez.</translation>
    </message>
    <message>
        <source>Copy versions</source>
        <translation>Copier les versions</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ApprovalBar</name>
    <message numerus="yes">
        <source>
… (%n more characters)</source>
        <translation>
            <numerusform>
… (%n caractère de plus)</numerusform>
            <numerusform>
… (%n caractères de plus)</numerusform>
        </translation>
    </message>
    <message>
        <source>The agent wants to run this code. Edit it if you like, then:</source>
        <translation>L&apos;agent veut exécuter ce code. Modifiez-le si vous le souhaitez, puis :</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécuter</translation>
    </message>
    <message>
        <source>Don&apos;t run</source>
        <translation>Ne pas exécuter</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; wants to run its tool &quot;%2&quot; on this computer, outside the sandbox, with these arguments:</source>
        <translation>Le serveur MCP « %1 » veut exécuter son outil « %2 » sur cet ordinateur, hors du bac à sable, avec ces arguments :</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Autoriser</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Refuser</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ChatPane</name>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Stop everything</source>
        <translation>Tout arrêter</translation>
    </message>
    <message>
        <source>Stop only the running code (the agent goes on)</source>
        <translation>Arrêter seulement le code en cours (l&apos;agent continue)</translation>
    </message>
    <message>
        <source>Stop after this step</source>
        <translation>Arrêter après cette étape</translation>
    </message>
    <message>
        <source>Other ways to stop</source>
        <translation>D&apos;autres façons d&apos;arrêter</translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation>Copier le code</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>Tout copier</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Ouvrir dans l&apos;éditeur</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>Replier</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>Déplier</translation>
    </message>
    <message>
        <source>Sandcastle — %1</source>
        <translation>Sandcastle — %1</translation>
    </message>
    <message>
        <source>Open as text</source>
        <translation>Ouvrir comme texte</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CheckpointReview</name>
    <message>
        <source>new</source>
        <translation>nouveau</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>type changed</source>
        <translation>type modifié</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>modifié</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Tour %1</translation>
    </message>
    <message>
        <source>Your run</source>
        <translation>Votre exécution</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n file(s) changed, +%2 −%3</source>
        <translation>
            <numerusform>%1 · %n fichier modifié, +%2 −%3</numerusform>
            <numerusform>%1 · %n fichiers modifiés, +%2 −%3</numerusform>
        </translation>
    </message>
    <message>
        <source>Review: %1</source>
        <translation>Revue : %1</translation>
    </message>
    <message>
        <source>%1 (%2 MB)</source>
        <translation>%1 (%2 Mo)</translation>
    </message>
    <message>
        <source>Not recorded, too big for a checkpoint: %1</source>
        <translation>Non enregistré, trop gros pour un point de contrôle : %1</translation>
    </message>
    <message>
        <source>Undo and Restore put files back; variables in the Python session are not rewound.</source>
        <translation>Annuler et Restaurer remettent les fichiers ; les variables de la session Python ne sont pas rembobinées.</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>binaire</translation>
    </message>
    <message>
        <source>&amp;Undo this turn</source>
        <translation>&amp;Annuler ce tour</translation>
    </message>
    <message>
        <source>&amp;Undo this step</source>
        <translation>&amp;Annuler cette étape</translation>
    </message>
    <message>
        <source>Restore to &amp;here</source>
        <translation>Restaurer jusqu’&amp;ici</translation>
    </message>
    <message>
        <source>Put the whole folder back as it was after this step: every later change is undone</source>
        <translation>Remettre tout le dossier tel qu’il était après cette étape : toute modification ultérieure est annulée</translation>
    </message>
    <message>
        <source>Restore to &amp;before</source>
        <translation>Restaurer &amp;avant</translation>
    </message>
    <message>
        <source>Put the whole folder back as it was before this step</source>
        <translation>Remettre tout le dossier tel qu’il était avant cette étape</translation>
    </message>
    <message>
        <source>This step changed no files.</source>
        <translation>Cette étape n’a modifié aucun fichier.</translation>
    </message>
    <message>
        <source>%1 is a binary file (%2): its content is not shown.</source>
        <translation>%1 est un fichier binaire (%2) : son contenu n’est pas affiché.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Chargement…</translation>
    </message>
    <message>
        <source>your own edits since the last step: %1</source>
        <translation>vos propres modifications depuis la dernière étape : %1</translation>
    </message>
    <message>
        <source>changes a later step made: %1</source>
        <translation>les modifications d’une étape ultérieure : %1</translation>
    </message>
    <message>
        <source>Undoing this would overwrite %1.

Go ahead? (The undo can itself be undone.)</source>
        <translation>Annuler ceci écraserait %1.

Continuer ? (L’annulation peut elle-même être annulée.)</translation>
    </message>
    <message>
        <source>; and </source>
        <translation> ; et </translation>
    </message>
    <message>
        <source>Put every file of the folder back as it was %1? Later changes are undone (this can itself be undone).</source>
        <translation>Remettre chaque fichier du dossier tel qu’il était %1 ? Les modifications ultérieures sont annulées (cela peut lui-même être annulé).</translation>
    </message>
    <message>
        <source>before this step</source>
        <translation>avant cette étape</translation>
    </message>
    <message>
        <source>after this step</source>
        <translation>après cette étape</translation>
    </message>
    <message>
        <source>Put every file of the folder back as it was %1? This overwrites your own edits since the last step: %2 (the restore can itself be undone).</source>
        <translation>Remettre chaque fichier du dossier tel qu’il était %1 ? Cela écrase vos propres modifications depuis la dernière étape : %2 (la restauration peut elle-même être annulée).</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CodeEditor</name>
    <message>
        <source># Not shown: this code has a line of more than %L1 characters, too long to show
# and edit here. The transcript has it whole (right-click, Open as text).
</source>
        <translation># Non affiché : ce code a une ligne de plus de %L1 caractères, trop longue pour être
# affichée et modifiée ici. La conversation le contient en entier (clic droit, Ouvrir comme texte).
</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CommandPalette</name>
    <message>
        <source>Commands</source>
        <translation>Commandes</translation>
    </message>
    <message>
        <source>Type a command</source>
        <translation>Tapez une commande</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ConsolePane</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Output of the code appears here</source>
        <translation>La sortie du code apparaît ici</translation>
    </message>
    <message>
        <source>Find…</source>
        <translation>Rechercher…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Effacer</translation>
    </message>
    <message>
        <source>Save output…</source>
        <translation>Enregistrer la sortie…</translation>
    </message>
    <message>
        <source>Save the console output</source>
        <translation>Enregistrer la sortie de la console</translation>
    </message>
    <message>
        <source>Not saved: %1
</source>
        <translation>Non enregistré : %1
</translation>
    </message>
    <message numerus="yes">
        <source>[… %n line(s) not shown here; the run&apos;s log has everything …]</source>
        <translation>
            <numerusform>[… %n ligne non affichée ici ; le journal de l’exécution contient tout …]</numerusform>
            <numerusform>[… %n lignes non affichées ici ; le journal de l’exécution contient tout …]</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminé</translation>
    </message>
    <message>
        <source>failed (exit code %1)</source>
        <translation>échec (code de sortie %1)</translation>
    </message>
    <message>
        <source>stopped: the time limit was reached</source>
        <translation>arrêté : la limite de temps a été atteinte</translation>
    </message>
    <message>
        <source>killed: out of memory</source>
        <translation>tué : mémoire épuisée</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêté</translation>
    </message>
    <message>
        <source>could not run (container engine error)</source>
        <translation>n&apos;a pas pu s&apos;exécuter (erreur du moteur de conteneurs)</translation>
    </message>
    <message>
        <source>■ %1 in %2</source>
        <translation>■ %1 en %2</translation>
    </message>
    <message>
        <source> · the sandbox was restarted: variables are gone</source>
        <translation> · le bac à sable a redémarré : les variables sont perdues</translation>
    </message>
    <message>
        <source> · full output in %1</source>
        <translation> · sortie complète dans %1</translation>
    </message>
    <message>
        <source> [… %1 more characters on this line; the run&apos;s log has them all]</source>
        <translation> [… %1 caractères de plus sur cette ligne ; le journal de l&apos;exécution les contient tous]</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ConversationListModel</name>
    <message numerus="yes">
        <source>%1
last change %2 · %n message(s)</source>
        <translation>
            <numerusform>%1
dernière modification %2 · %n message</numerusform>
            <numerusform>%1
dernière modification %2 · %n messages</numerusform>
        </translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>dans %1</translation>
    </message>
    <message>
        <source>works in %1</source>
        <translation>travaille dans %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ConversationsPane</name>
    <message>
        <source>Search conversations</source>
        <translation>Rechercher dans les conversations</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Nouvelle</translation>
    </message>
    <message>
        <source>New conversation (Ctrl+N)</source>
        <translation>Nouvelle conversation (Ctrl+N)</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Conversations</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Supprimer la conversation</translation>
    </message>
    <message>
        <source>Delete “%1”, its workspace files and its sandbox? This cannot be undone.</source>
        <translation>Supprimer « %1 », les fichiers de son espace de travail et son bac à sable ? Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ouvrir</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Renommer</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>Exporter en Markdown…</translation>
    </message>
    <message>
        <source>Export as a folder that re-runs…</source>
        <translation>Exporter en dossier ré-exécutable…</translation>
    </message>
    <message>
        <source>Show the conversations of one folder</source>
        <translation>Afficher les conversations d’un dossier</translation>
    </message>
    <message>
        <source>All folders</source>
        <translation>Tous les dossiers</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EditActions</name>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Annuler</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Rétablir</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>Co&amp;uper</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copier</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>C&amp;oller</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>&amp;Tout sélectionner</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>Rec&amp;hercher…</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EditorPane</name>
    <message>
        <source>Tell the agent</source>
        <translation>Informer l&apos;agent</translation>
    </message>
    <message>
        <source>Earlier attempt</source>
        <translation>Tentative précédente</translation>
    </message>
    <message>
        <source>Later attempt</source>
        <translation>Tentative suivante</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <source>Compare with the attempt before, or your edit with the agent&apos;s version</source>
        <translation>Comparer avec la tentative précédente, ou votre modification avec la version de l&apos;agent</translation>
    </message>
    <message>
        <source>Your runs and edits reach the agent with your next message (as a diff)</source>
        <translation>Vos exécutions et modifications parviennent à l&apos;agent avec votre prochain message (sous forme de diff)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécuter</translation>
    </message>
    <message>
        <source>Run the code (Ctrl+Enter); the selection only: Ctrl+Shift+Enter</source>
        <translation>Exécuter le code (Ctrl+Entrée) ; la sélection seule : Ctrl+Maj+Entrée</translation>
    </message>
    <message>
        <source>Your code</source>
        <translation>Votre code</translation>
    </message>
    <message>
        <source>Attempt %1 of %2</source>
        <translation>Tentative %1 sur %2</translation>
    </message>
    <message>
        <source>Attempt %1 of %2 · %3</source>
        <translation>Tentative %1 sur %2 · %3</translation>
    </message>
    <message>
        <source># Attempt 1: nothing earlier to compare with.
</source>
        <translation># Tentative 1 : rien d’antérieur à comparer.
</translation>
    </message>
    <message>
        <source>Snippet %1</source>
        <translation>Extrait %1</translation>
    </message>
    <message>
        <source>Close %1</source>
        <translation>Fermer %1</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved.</source>
        <translation>%1 contient des modifications non enregistrées.</translation>
    </message>
    <message>
        <source>%1 (not saved; Ctrl+S)</source>
        <translation>%1 (non enregistré ; Ctrl+S)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EnginePage</name>
    <message>
        <source>%1 could not be started: is it installed?</source>
        <translation>%1 n&apos;a pas pu être lancé : est-il installé ?</translation>
    </message>
    <message>
        <source>The container engine&apos;s command: docker, podman, or a path to either</source>
        <translation>La commande du moteur de conteneurs : docker, podman, ou le chemin de l&apos;un des deux</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(par défaut)</translation>
    </message>
    <message>
        <source>Decide from the engine</source>
        <translation>Décider d&apos;après le moteur</translation>
    </message>
    <message>
        <source>Mount the folder (the engine is on this machine)</source>
        <translation>Monter le dossier (le moteur est sur cette machine)</translation>
    </message>
    <message>
        <source>Copy the folder in and the changes back</source>
        <translation>Copier le dossier et rapatrier les modifications</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Tester</translation>
    </message>
    <message>
        <source>&amp;Send the image there</source>
        <translation>&amp;Envoyer l&apos;image là-bas</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Moteur</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contexte</translation>
    </message>
    <message>
        <source>A Docker context (docker context create NAME --docker host=ssh://me@box) or a Podman connection. On an engine that cannot see this machine&apos;s folders, the workspace is copied in and what runs change comes back.</source>
        <translation>Un contexte Docker (docker context create NOM --docker host=ssh://moi@machine) ou une connexion Podman. Sur un moteur qui ne voit pas les dossiers de cette machine, l&apos;espace de travail y est copié et ce que les exécutions modifient revient.</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Espace de travail</translation>
    </message>
    <message>
        <source>Asking %1…</source>
        <translation>Interrogation de %1…</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 à %2</translation>
    </message>
    <message>
        <source>It sees this machine&apos;s folders: the workspace is mounted.</source>
        <translation>Il voit les dossiers de cette machine : l&apos;espace de travail est monté.</translation>
    </message>
    <message>
        <source>It cannot see this machine&apos;s folders: the workspace is copied in, and what runs change comes back.</source>
        <translation>Il ne voit pas les dossiers de cette machine : l&apos;espace de travail y est copié, et ce que les exécutions modifient revient.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is there.</source>
        <translation>L&apos;image du bac à sable %1 y est.</translation>
    </message>
    <message>
        <source>Another build of %1 is there; Send replaces it with this machine&apos;s.</source>
        <translation>Une autre construction de %1 y est ; Envoyer la remplace par celle de cette machine.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not there: Send it from this machine.</source>
        <translation>L&apos;image du bac à sable %1 n&apos;y est pas : envoyez-la depuis cette machine.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is neither there nor here: build it first.</source>
        <translation>L&apos;image du bac à sable %1 n&apos;est ni là-bas ni ici : construisez-la d&apos;abord.</translation>
    </message>
    <message>
        <source>Sending %1…</source>
        <translation>Envoi de %1…</translation>
    </message>
    <message>
        <source>Sending the image: %1 MB of about %2 MB</source>
        <translation>Envoi de l&apos;image : %1 Mo sur environ %2 Mo</translation>
    </message>
    <message>
        <source>The image is there now.</source>
        <translation>L&apos;image y est maintenant.</translation>
    </message>
    <message>
        <source>Could not send the image: %1</source>
        <translation>Impossible d&apos;envoyer l&apos;image : %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EnvironmentBar</name>
    <message>
        <source>Show changes</source>
        <translation>Voir les changements</translation>
    </message>
    <message>
        <source>Cancel build</source>
        <translation>Annuler la construction</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Étape %1 sur %2</translation>
    </message>
    <message>
        <source>pip: %1</source>
        <translation>pip : %1</translation>
    </message>
    <message>
        <source>apt: %1</source>
        <translation>apt : %1</translation>
    </message>
    <message>
        <source>The agent asks to install %1.
Its reason: %2
They are added to the project&apos;s requirements.txt / apt.txt and the environment is rebuilt; the build uses the network, the runs stay offline, and the Python session restarts.</source>
        <translation>L’agent demande à installer %1.
Sa raison : %2
Ils sont ajoutés aux fichiers requirements.txt / apt.txt du projet et l’environnement est reconstruit ; la construction utilise le réseau, les exécutions restent hors ligne, et la session Python redémarre.</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>Installer</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>Refuser</translation>
    </message>
    <message>
        <source>This folder&apos;s requirements.txt / apt.txt ask for packages that are not built: %1.
Building the environment uses the network; the runs stay offline, and the Python session restarts on it.</source>
        <translation>Les fichiers requirements.txt / apt.txt de ce dossier demandent des paquets qui ne sont pas construits : %1.
La construction de l’environnement utilise le réseau ; les exécutions restent hors ligne, et la session Python y redémarre.</translation>
    </message>
    <message>
        <source>Build environment</source>
        <translation>Construire l’environnement</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Pas maintenant</translation>
    </message>
    <message>
        <source>Check these lines, which reach beyond the package index: %1</source>
        <translation>Vérifiez ces lignes, qui vont au-delà de l’index des paquets : %1</translation>
    </message>
    <message>
        <source>Building the environment… (the log is in the console)</source>
        <translation>Construction de l’environnement… (le journal est dans la console)</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>Voir le journal</translation>
    </message>
    <message>
        <source>Hide log</source>
        <translation>Masquer le journal</translation>
    </message>
    <message>
        <source>Hide changes</source>
        <translation>Masquer les changements</translation>
    </message>
    <message>
        <source>The environment was not built: %1</source>
        <translation>L’environnement n’a pas été construit : %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::FilesPane</name>
    <message>
        <source>Files</source>
        <translation>Fichiers</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Chargement de %1…</translation>
    </message>
    <message>
        <source>%1 × %2 pixels</source>
        <translation>%1 × %2 pixels</translation>
    </message>
    <message>
        <source>Not opened: %1</source>
        <translation>Non ouvert : %1</translation>
    </message>
    <message>
        <source>Save a copy</source>
        <translation>Enregistrer une copie</translation>
    </message>
    <message>
        <source>Saved a copy as %1</source>
        <translation>Copie enregistrée sous %1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Non enregistré : %1</translation>
    </message>
    <message>
        <source>Open with the default application</source>
        <translation>Ouvrir avec l&apos;application par défaut</translation>
    </message>
    <message>
        <source>Save a copy…</source>
        <translation>Enregistrer une copie…</translation>
    </message>
    <message>
        <source>Show in the file manager</source>
        <translation>Afficher dans le gestionnaire de fichiers</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Ouvrir dans l&apos;éditeur</translation>
    </message>
    <message>
        <source>Show ignored files (grey), or hide them</source>
        <translation>Afficher les fichiers ignorés (en gris), ou les masquer</translation>
    </message>
    <message>
        <source>Show ignored files</source>
        <translation>Afficher les fichiers ignorés</translation>
    </message>
    <message>
        <source>Files — </source>
        <translation>Fichiers — </translation>
    </message>
</context>
<context>
    <name>Sandcastle::FindBox</name>
    <message>
        <source>Find (Enter: next, Shift+Enter: previous)</source>
        <translation>Rechercher (Entrée : suivant, Maj+Entrée : précédent)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ImageBar</name>
    <message>
        <source>Build the image</source>
        <translation>Construire l&apos;image</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Pas maintenant</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on this machine: code cannot run until it is built. Building takes a few minutes (Debian&apos;s packages are downloaded once; after that it works offline).</source>
        <translation>L&apos;image du bac à sable %1 n&apos;est pas sur cette machine : le code ne peut pas s&apos;exécuter avant qu&apos;elle soit construite. La construction prend quelques minutes (les paquets de Debian sont téléchargés une fois ; ensuite tout fonctionne hors ligne).</translation>
    </message>
    <message>
        <source>Building the sandbox image %1… (the log is in the console)</source>
        <translation>Construction de l&apos;image du bac à sable %1… (le journal est dans la console)</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Send it from this machine</source>
        <translation>L’envoyer depuis cette machine</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on %2, where Sandcastle runs code now: send it from this machine (docker save | docker load over the same connection), or build it there (a few minutes; Debian&apos;s packages are downloaded there).</source>
        <translation>L’image de bac à sable %1 n’est pas sur %2, où Sandcastle exécute le code maintenant : envoyez-la depuis cette machine (docker save | docker load sur la même connexion), ou construisez-la là-bas (quelques minutes ; les paquets de Debian y sont téléchargés).</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on %2, where Sandcastle runs code now, nor on this machine to send: build it there (a few minutes; Debian&apos;s packages are downloaded there).</source>
        <translation>L’image de bac à sable %1 n’est ni sur %2, où Sandcastle exécute le code maintenant, ni sur cette machine pour l’envoyer : construisez-la là-bas (quelques minutes ; les paquets de Debian y sont téléchargés).</translation>
    </message>
    <message>
        <source>Build it there</source>
        <translation>La construire là-bas</translation>
    </message>
    <message>
        <source>Sending the sandbox image %1 to %2…</source>
        <translation>Envoi de l’image de bac à sable %1 à %2…</translation>
    </message>
    <message>
        <source>%1 MB of about %2 MB sent</source>
        <translation>%1 Mo sur environ %2 Mo envoyés</translation>
    </message>
    <message>
        <source>The sandbox image is not there: %1</source>
        <translation>L’image de bac à sable n’est pas là-bas : %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::MainWindow</name>
    <message>
        <source>Conversations are not being saved: %1</source>
        <translation>Les conversations ne sont pas enregistrées : %1</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;New conversation</source>
        <translation>&amp;Nouvelle conversation</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Exécution</translation>
    </message>
    <message>
        <source>&amp;Run the editor&apos;s code</source>
        <translation>&amp;Exécuter le code de l&apos;éditeur</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Arrêter</translation>
    </message>
    <message>
        <source>Stop the running &amp;code</source>
        <translation>Arrêter le &amp;code en cours</translation>
    </message>
    <message>
        <source>Stop after this &amp;step</source>
        <translation>Arrêter après cette ét&amp;ape</translation>
    </message>
    <message>
        <source>Export to a new folder</source>
        <translation>Exporter dans un nouveau dossier</translation>
    </message>
    <message>
        <source>Export as Markdown</source>
        <translation>Exporter en Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Model busy, retrying in %1 s (attempt %2): %3</source>
        <translation>Modèle occupé, nouvel essai dans %1 s (essai %2) : %3</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>Agent : %1</translation>
    </message>
    <message>
        <source>Code run by hand</source>
        <translation>Code exécuté à la main</translation>
    </message>
    <message>
        <source>your code</source>
        <translation>votre code</translation>
    </message>
    <message>
        <source>sandbox restarted with the new settings</source>
        <translation>bac à sable redémarré avec les nouveaux paramètres</translation>
    </message>
    <message>
        <source>Stop the agent or the run before switching conversations.</source>
        <translation>Arrêtez l&apos;agent ou l&apos;exécution avant de changer de conversation.</translation>
    </message>
    <message>
        <source>Stop the agent or the run before deleting this conversation.</source>
        <translation>Arrêtez l&apos;agent ou l&apos;exécution avant de supprimer cette conversation.</translation>
    </message>
    <message>
        <source>Could not delete the conversation: %1</source>
        <translation>La conversation n&apos;a pas pu être supprimée : %1</translation>
    </message>
    <message>
        <source>Could not export the conversation: %1</source>
        <translation>La conversation n&apos;a pas pu être exportée : %1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exporté vers %1</translation>
    </message>
    <message>
        <source>Sandbox: stopped</source>
        <translation>Bac à sable : arrêté</translation>
    </message>
    <message>
        <source>Sandbox: starting…</source>
        <translation>Bac à sable : démarrage…</translation>
    </message>
    <message>
        <source>Sandbox: ready</source>
        <translation>Bac à sable : prêt</translation>
    </message>
    <message>
        <source>Sandbox: running</source>
        <translation>Bac à sable : en cours</translation>
    </message>
    <message>
        <source>  ·  network %1  ·  memory %2</source>
        <translation>  ·  réseau %1  ·  mémoire %2</translation>
    </message>
    <message>
        <source>ON</source>
        <translation>ACTIF</translation>
    </message>
    <message>
        <source>off</source>
        <translation>coupé</translation>
    </message>
    <message>
        <source>Model: %1 at %2</source>
        <translation>Modèle : %1 sur %2</translation>
    </message>
    <message>
        <source>Sandcastle: a run finished</source>
        <translation>Sandcastle : une exécution est terminée</translation>
    </message>
    <message>
        <source>%1 after %2 s in “%3”</source>
        <translation>%1 après %2 s dans « %3 »</translation>
    </message>
    <message>
        <source>%L1 tokens</source>
        <translation>%L1 jetons</translation>
    </message>
    <message>
        <source> · $%1</source>
        <translation> · %1 $</translation>
    </message>
    <message>
        <source>turn %1 of %2</source>
        <translation>tour %1 sur %2</translation>
    </message>
    <message>
        <source>Not added to the workspace: %1</source>
        <translation>Non ajouté à l&apos;espace de travail : %1</translation>
    </message>
    <message>
        <source>(I put these files in the workspace: %1)</source>
        <translation>(J&apos;ai mis ces fichiers dans l&apos;espace de travail : %1)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;Command palette…</source>
        <translation>Palette de &amp;commandes…</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>Raccourcis &amp;clavier</translation>
    </message>
    <message>
        <source>Using %1 with %2</source>
        <translation>Utilisation de %1 avec %2</translation>
    </message>
    <message>
        <source>The sandbox needs Docker: %1. Start it (for example `sudo systemctl start docker`), or run `scripts/setup`, which installs and starts it.</source>
        <translation>Le bac à sable a besoin de Docker : %1. Démarrez-le (par exemple `sudo systemctl start docker`) ou lancez `scripts/setup`, qui l’installe et le démarre.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is missing: run `sandcastle image build` (it works offline, a few minutes).</source>
        <translation>L&apos;image du bac à sable %1 manque : lancez `sandcastle image build` (fonctionne hors ligne, quelques minutes).</translation>
    </message>
    <message>
        <source>Sandbox: failed — %1</source>
        <translation>Bac à sable : échec — %1</translation>
    </message>
    <message>
        <source>Agent command</source>
        <translation>Commande de l&apos;agent</translation>
    </message>
    <message>
        <source>Agent code</source>
        <translation>Code de l&apos;agent</translation>
    </message>
    <message>
        <source>it is larger than %1 MB</source>
        <translation>il dépasse %1 Mo</translation>
    </message>
    <message>
        <source>it is not a text file</source>
        <translation>ce n&apos;est pas un fichier texte</translation>
    </message>
    <message>
        <source>Cannot edit %1: %2</source>
        <translation>Impossible de modifier %1 : %2</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Non enregistré : %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 enregistré</translation>
    </message>
    <message numerus="yes">
        <source>%n older tool result(s) summarised so that the conversation fits the model&apos;s context window (about %1 tokens now).</source>
        <translation>
            <numerusform>%n ancien résultat d&apos;outil résumé pour que la conversation tienne dans la fenêtre de contexte du modèle (environ %1 jetons maintenant).</numerusform>
            <numerusform>%n anciens résultats d&apos;outils résumés pour que la conversation tienne dans la fenêtre de contexte du modèle (environ %1 jetons maintenant).</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Open Folder…</source>
        <translation>&amp;Ouvrir un dossier…</translation>
    </message>
    <message>
        <source>&amp;Recent folders</source>
        <translation>Dossiers &amp;récents</translation>
    </message>
    <message>
        <source>No folder opened yet</source>
        <translation>Aucun dossier ouvert pour l’instant</translation>
    </message>
    <message>
        <source>Open a folder to work in</source>
        <translation>Ouvrir un dossier où travailler</translation>
    </message>
    <message>
        <source>Cannot open %1 while the agent or a run is busy.</source>
        <translation>Impossible d’ouvrir %1 tant que l’agent ou une exécution est occupé.</translation>
    </message>
    <message>
        <source>Working in %1</source>
        <translation>Travail dans %1</translation>
    </message>
    <message>
        <source>One folder at a time, and files on their own: %1 was opened; not opened or added: %2</source>
        <translation>Un dossier à la fois, et les fichiers seuls : %1 a été ouvert ; ni ouverts ni ajoutés : %2</translation>
    </message>
    <message>
        <source>%1 is read-only (a read-only mount, or no permission to write): the agent can read it and run code, but cannot change its files.</source>
        <translation>%1 est en lecture seule (un montage en lecture seule, ou pas de droit d’écriture) : l’agent peut le lire et exécuter du code, mais pas modifier ses fichiers.</translation>
    </message>
    <message>
        <source>Re&amp;view the last changes…</source>
        <translation>E&amp;xaminer les dernières modifications…</translation>
    </message>
    <message>
        <source>&amp;Go to File…</source>
        <translation>&amp;Aller au fichier…</translation>
    </message>
    <message>
        <source>No changes recorded in this conversation yet.</source>
        <translation>Aucune modification enregistrée dans cette conversation pour l’instant.</translation>
    </message>
    <message>
        <source>Building the environment</source>
        <translation>Construction de l’environnement</translation>
    </message>
    <message>
        <source>The environment was not built: %1</source>
        <translation>L’environnement n’a pas été construit : %1</translation>
    </message>
    <message>
        <source>The sandbox now runs on the environment %1; the Python session restarted, so variables from before are gone.</source>
        <translation>Le bac à sable tourne maintenant sur l’environnement %1 ; la session Python a redémarré, les variables d’avant sont perdues.</translation>
    </message>
    <message>
        <source>Sandbox: building environment…</source>
        <translation>Bac à sable : construction de l’environnement…</translation>
    </message>
    <message>
        <source>Tokens and cost of this conversation; input the server had cached is priced at the model&apos;s cached-input price (prices from models.json)</source>
        <translation>Jetons et coût de cette conversation ; l&apos;entrée que le serveur avait en cache est comptée au prix de l&apos;entrée en cache du modèle (prix tirés de models.json)</translation>
    </message>
    <message>
        <source> (%L1 cached)</source>
        <translation> (%L1 en cache)</translation>
    </message>
    <message>
        <source>&amp;Upload files…</source>
        <translation>&amp;Téléverser des fichiers…</translation>
    </message>
    <message>
        <source>&amp;Export conversation as Markdown…</source>
        <translation>&amp;Exporter la conversation en Markdown…</translation>
    </message>
    <message>
        <source>Export conversation as a folder that re-&amp;runs…</source>
        <translation>Exporter la conversation en dossier ré&amp;exécutable…</translation>
    </message>
    <message>
        <source>&amp;About Sandcastle</source>
        <translation>À &amp;propos de Sandcastle</translation>
    </message>
    <message>
        <source>Upload files into the workspace</source>
        <translation>Téléverser des fichiers dans l&apos;espace de travail</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>É&amp;dition</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Conversations</source>
        <translation>&amp;Conversations</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>C&amp;hat</translation>
    </message>
    <message>
        <source>&amp;Editor</source>
        <translation>É&amp;diteur</translation>
    </message>
    <message>
        <source>Co&amp;nsole</source>
        <translation>Co&amp;nsole</translation>
    </message>
    <message>
        <source>&amp;Files</source>
        <translation>&amp;Fichiers</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Zoom a&amp;vant</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Zoom a&amp;rrière</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Ré&amp;initialiser le zoom</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Thème</translation>
    </message>
    <message>
        <source>As the &amp;system</source>
        <translation>Comme le &amp;système</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Clair</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Sombre</translation>
    </message>
    <message>
        <source>F&amp;ull Screen</source>
        <translation>P&amp;lein écran</translation>
    </message>
    <message>
        <source>One pane at least stays shown.</source>
        <translation>Au moins un panneau reste affiché.</translation>
    </message>
    <message>
        <source>Show Sandcastle&apos;s o&amp;wn files (.sandcastle)</source>
        <translation>Afficher les fichiers &amp;propres à Sandcastle (.sandcastle)</translation>
    </message>
    <message>
        <source>Building the sandbox image</source>
        <translation>Construction de l&apos;image du bac à sable</translation>
    </message>
    <message>
        <source>Sandbox: building the image…</source>
        <translation>Bac à sable : construction de l&apos;image…</translation>
    </message>
    <message>
        <source>The sandbox image is built.</source>
        <translation>L&apos;image du bac à sable est construite.</translation>
    </message>
    <message>
        <source>Run &amp;All Cells</source>
        <translation>Exécuter &amp;toutes les cellules</translation>
    </message>
    <message>
        <source>Run the opened notebook&apos;s cells one after another</source>
        <translation>Exécuter les cellules du notebook ouvert l&apos;une après l&apos;autre</translation>
    </message>
    <message>
        <source>Open a Jupyter notebook</source>
        <translation>Ouvrir un notebook Jupyter</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb);;All files (*)</source>
        <translation>Notebooks Jupyter (*.ipynb);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Wait until Run All Cells has finished.</source>
        <translation>Attendez la fin de « Exécuter toutes les cellules ».</translation>
    </message>
    <message>
        <source>Could not open the notebook %1: %2</source>
        <translation>Impossible d&apos;ouvrir le notebook %1 : %2</translation>
    </message>
    <message>
        <source>The notebook %1 has no code or Markdown cells.</source>
        <translation>Le notebook %1 n&apos;a aucune cellule de code ni de Markdown.</translation>
    </message>
    <message>
        <source>Cell %1</source>
        <translation>Cellule %1</translation>
    </message>
    <message numerus="yes">
        <source>Opened the notebook %1: %n code cell(s) in the editor (run one with Run, all with Run → Run All Cells); its Markdown below goes to the agent with your next message.</source>
        <translation>
            <numerusform>Notebook %1 ouvert : %n cellule de code dans l&apos;éditeur (une avec Exécuter, toutes avec Exécuter → Exécuter toutes les cellules) ; son Markdown ci-dessous part à l&apos;agent avec votre prochain message.</numerusform>
            <numerusform>Notebook %1 ouvert : %n cellules de code dans l&apos;éditeur (une avec Exécuter, toutes avec Exécuter → Exécuter toutes les cellules) ; son Markdown ci-dessous part à l&apos;agent avec votre prochain message.</numerusform>
        </translation>
    </message>
    <message>
        <source>No notebook cells to run: open a notebook first (File → Open Notebook…).</source>
        <translation>Aucune cellule de notebook à exécuter : ouvrez d&apos;abord un notebook (Fichier → Ouvrir un notebook…).</translation>
    </message>
    <message>
        <source>Wait until the agent or the run has finished.</source>
        <translation>Attendez que l&apos;agent ou l&apos;exécution ait fini.</translation>
    </message>
    <message>
        <source>Notebook cells</source>
        <translation>Cellules du notebook</translation>
    </message>
    <message>
        <source>Export as a Jupyter notebook</source>
        <translation>Exporter en notebook Jupyter</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb)</source>
        <translation>Notebooks Jupyter (*.ipynb)</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: %2 — its tools are left out until it starts again.</source>
        <translation>Serveur MCP « %1 » : %2 — ses outils sont retirés jusqu&apos;à ce qu&apos;il redémarre.</translation>
    </message>
    <message>
        <source>Open No&amp;tebook…</source>
        <translation>Ouvrir un no&amp;tebook…</translation>
    </message>
    <message>
        <source>Export conversation as a Note&amp;book…</source>
        <translation>Exporter la conversation en note&amp;book…</translation>
    </message>
    <message>
        <source>Sandbox: sending the image…</source>
        <translation>Bac à sable : envoi de l’image…</translation>
    </message>
    <message>
        <source>The sandbox image is there now.</source>
        <translation>L’image de bac à sable est là-bas maintenant.</translation>
    </message>
    <message numerus="yes">
        <source>The sandbox was stopped after %n minute(s) unused, to free its memory: variables from earlier runs are gone. The next run starts a new one; the files are kept.</source>
        <translation>
            <numerusform>Le bac à sable a été arrêté après %n minute sans utilisation, pour libérer sa mémoire : les variables des exécutions précédentes sont perdues. La prochaine exécution en démarre un nouveau ; les fichiers sont conservés.</numerusform>
            <numerusform>Le bac à sable a été arrêté après %n minutes sans utilisation, pour libérer sa mémoire : les variables des exécutions précédentes sont perdues. La prochaine exécution en démarre un nouveau ; les fichiers sont conservés.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sandboxes of this data folder running now (other windows&apos; and the one kept ready included) and the memory they use; an unused one stops after the time the settings give</source>
        <translation>Bacs à sable de ce dossier de données en cours d’exécution (ceux des autres fenêtres et celui gardé prêt compris) et la mémoire qu’ils utilisent ; un bac inutilisé s’arrête après le délai des paramètres</translation>
    </message>
    <message>
        <source>Sandboxes: %1</source>
        <translation>Bacs à sable : %1</translation>
    </message>
    <message>
        <source>%L1 MB</source>
        <translation>%L1 Mo</translation>
    </message>
</context>
<context>
    <name>Sandcastle::McpPage</name>
    <message>
        <source>MCP servers run on this computer with your permissions, not in the sandbox: add only servers you trust. Their tools are offered to the agent beside its own; each server&apos;s calls wait for your approval as set below. The list is %1, in the &quot;mcpServers&quot; notation of Claude Desktop, Cursor and LM Studio.</source>
        <translation>Les serveurs MCP s&apos;exécutent sur cet ordinateur avec vos droits, pas dans le bac à sable : n&apos;ajoutez que des serveurs de confiance. Leurs outils sont proposés à l&apos;agent à côté des siens ; les appels de chaque serveur attendent votre accord comme réglé ci-dessous. La liste est %1, dans la notation « mcpServers » de Claude Desktop, Cursor et LM Studio.</translation>
    </message>
    <message>
        <source>Left as they are (not understood): %1</source>
        <translation>Laissés tels quels (non compris) : %1</translation>
    </message>
    <message>
        <source>Program (stdio)</source>
        <translation>Programme (stdio)</translation>
    </message>
    <message>
        <source>Address (Streamable HTTP)</source>
        <translation>Adresse (Streamable HTTP)</translation>
    </message>
    <message>
        <source>Ask before every call</source>
        <translation>Demander avant chaque appel</translation>
    </message>
    <message>
        <source>Ask once per conversation</source>
        <translation>Demander une fois par conversation</translation>
    </message>
    <message>
        <source>Never ask</source>
        <translation>Ne jamais demander</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Runs as</source>
        <translation>S&apos;exécute comme</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Commande</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Arguments</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Environnement</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>En-têtes</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Approbation</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Délai</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Tester</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: a name is 1 to 64 letters, digits, &apos;_&apos; or &apos;-&apos;</source>
        <translation>Serveur MCP « %1 » : un nom compte de 1 à 64 lettres, chiffres, « _ » ou « - »</translation>
    </message>
    <message>
        <source>Two MCP servers are named &quot;%1&quot;</source>
        <translation>Deux serveurs MCP s&apos;appellent « %1 »</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: %2</source>
        <translation>Serveur MCP « %1 » : %2</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>Démarrage de %1…</translation>
    </message>
    <message numerus="yes">
        <source>Answered: %1 %2, MCP %3, %n tool(s):</source>
        <translation>
            <numerusform>Réponse : %1 %2, MCP %3, %n outil :</numerusform>
            <numerusform>Réponse : %1 %2, MCP %3, %n outils :</numerusform>
        </translation>
    </message>
    <message>
        <source>Did not answer: %1</source>
        <translation>Pas de réponse : %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::PromptEdit</name>
    <message>
        <source>Ask anything — Enter to send, Shift+Enter for a new line</source>
        <translation>Posez une question — Entrée pour envoyer, Maj+Entrée pour une nouvelle ligne</translation>
    </message>
</context>
<context>
    <name>Sandcastle::QuickOpen</name>
    <message>
        <source>Go to file: type part of its path</source>
        <translation>Aller au fichier : tapez une partie de son chemin</translation>
    </message>
    <message>
        <source>Reading the workspace&apos;s files…</source>
        <translation>Lecture des fichiers de l’espace de travail…</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n fichier</numerusform>
            <numerusform>%n fichiers</numerusform>
        </translation>
    </message>
    <message>
        <source>(only the first %1 files were read)</source>
        <translation>(seuls les %1 premiers fichiers ont été lus)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::SettingsDialog</name>
    <message>
        <source>Allow network access (off keeps code from reaching anything)</source>
        <translation>Autoriser l&apos;accès réseau (coupé : le code n&apos;atteint rien)</translation>
    </message>
    <message>
        <source>Run under gVisor (runsc) for a stronger boundary</source>
        <translation>Exécuter sous gVisor (runsc) pour une frontière plus solide</translation>
    </message>
    <message>
        <source>A fresh container for every run (slower; nothing kept between runs)</source>
        <translation>Un conteneur neuf pour chaque exécution (plus lent ; rien ne persiste entre les exécutions)</translation>
    </message>
    <message>
        <source>Ask before running the agent&apos;s code (you can edit it first)</source>
        <translation>Demander avant d&apos;exécuter le code de l&apos;agent (vous pouvez le modifier d&apos;abord)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Ask the server which models it has</source>
        <translation>Demander au serveur quels modèles il propose</translation>
    </message>
    <message>
        <source>set by the environment</source>
        <translation>défini par l&apos;environnement</translation>
    </message>
    <message>
        <source>stored in the system keychain</source>
        <translation>stockée dans le trousseau du système</translation>
    </message>
    <message>
        <source>Automatic (tool calls, else code blocks)</source>
        <translation>Automatique (appels d&apos;outils, sinon blocs de code)</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>Appels d&apos;outils</translation>
    </message>
    <message>
        <source>Code blocks (models without tool calling)</source>
        <translation>Blocs de code (modèles sans appels d&apos;outils)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Memory limit of the sandbox, e.g. 512m or 2g (swap is not added)</source>
        <translation>Limite mémoire du bac à sable, par ex. 512m ou 2g (sans swap en plus)</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>aucune limite</translation>
    </message>
    <message>
        <source>The Docker daemon has no runsc runtime</source>
        <translation>Le démon Docker n&apos;a pas l&apos;environnement d&apos;exécution runsc</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>URL de base</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Clé d&apos;API</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Outils</translation>
    </message>
    <message>
        <source>Turn limit</source>
        <translation>Limite de tours</translation>
    </message>
    <message>
        <source>Token budget per run</source>
        <translation>Budget de jetons par exécution</translation>
    </message>
    <message>
        <source>Run time limit</source>
        <translation>Limite de temps d&apos;exécution</translation>
    </message>
    <message>
        <source>Sandbox memory</source>
        <translation>Mémoire du bac à sable</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) on this server.</source>
        <translation>
            <numerusform>%n modèle sur ce serveur.</numerusform>
            <numerusform>%n modèles sur ce serveur.</numerusform>
        </translation>
    </message>
    <message>
        <source> The key is used for this session only.</source>
        <translation> La clé ne sert que pour cette session.</translation>
    </message>
    <message>
        <source>Asking the server for its models…</source>
        <translation>Interrogation du serveur sur ses modèles…</translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https://.</source>
        <translation>L&apos;URL de base doit commencer par http:// ou https://.</translation>
    </message>
    <message>
        <source>The memory limit is a size such as 512m or 2g.</source>
        <translation>La limite mémoire est une taille comme 512m ou 2g.</translation>
    </message>
    <message>
        <source>Choose a model.</source>
        <translation>Choisissez un modèle.</translation>
    </message>
    <message>
        <source>Prices come from models.json in the data folder</source>
        <translation>Les prix viennent de models.json dans le dossier de données</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>Comme le système</translation>
    </message>
    <message>
        <source>Takes effect when Sandcastle starts again</source>
        <translation>Prend effet au prochain démarrage de Sandcastle</translation>
    </message>
    <message>
        <source>Cost budget per run</source>
        <translation>Budget de coût par exécution</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clair</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Thème</translation>
    </message>
    <message>
        <source>How many of this machine&apos;s CPUs the sandbox may use</source>
        <translation>Combien de processeurs de cette machine le bac à sable peut utiliser</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> Mo</translation>
    </message>
    <message>
        <source>A run that prints more than this is stopped</source>
        <translation>Une exécution qui affiche davantage est arrêtée</translation>
    </message>
    <message>
        <source>Sandbox CPUs</source>
        <translation>Processeurs du bac à sable</translation>
    </message>
    <message>
        <source>Output cap per run</source>
        <translation>Limite de sortie par exécution</translation>
    </message>
    <message>
        <source>A run that fills the conversation&apos;s workspace past this is stopped</source>
        <translation>Une exécution qui remplit l&apos;espace de travail de la conversation au-delà est arrêtée</translation>
    </message>
    <message>
        <source>Workspace quota</source>
        <translation>Quota de l&apos;espace de travail</translation>
    </message>
    <message>
        <source>none: the package index, during the build only</source>
        <translation>aucun : l’index des paquets, pendant la construction seulement</translation>
    </message>
    <message>
        <source>A folder of wheels that a project&apos;s environment installs from alone (pip --no-index --find-links), for a machine without a package index</source>
        <translation>Un dossier de wheels depuis lequel l’environnement d’un projet s’installe seul (pip --no-index --find-links), pour une machine sans index de paquets</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>A project environment&apos;s build is stopped past this, its log kept</source>
        <translation>La construction d’un environnement de projet est arrêtée au-delà, son journal est conservé</translation>
    </message>
    <message>
        <source>Wheelhouse</source>
        <translation>Wheelhouse</translation>
    </message>
    <message>
        <source>Environment build limit</source>
        <translation>Limite de construction de l’environnement</translation>
    </message>
    <message>
        <source>Prompt caching (Anthropic: mark the prompt so repeated input is billed less)</source>
        <translation>Cache du prompt (Anthropic : marquer le prompt pour que l&apos;entrée répétée coûte moins)</translation>
    </message>
    <message>
        <source>Chat Completions (/chat/completions)</source>
        <translation>Chat Completions (/chat/completions)</translation>
    </message>
    <message>
        <source>Responses (/responses)</source>
        <translation>Responses (/responses)</translation>
    </message>
    <message>
        <source>Anthropic Messages (/messages)</source>
        <translation>Anthropic Messages (/messages)</translation>
    </message>
    <message>
        <source>The API the model is called through. OpenAI&apos;s newest models are offered through Responses, some only there; Claude is best used through Anthropic Messages; most other servers speak Chat Completions.</source>
        <translation>L&apos;API par laquelle le modèle est appelé. Les modèles les plus récents d&apos;OpenAI sont proposés via Responses, certains uniquement là ; Claude s&apos;utilise au mieux via Anthropic Messages ; la plupart des autres serveurs parlent Chat Completions.</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> jetons</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivé</translation>
    </message>
    <message>
        <source>Anthropic extended thinking: how many tokens the model may think for before it answers (at least 1024; billed as output)</source>
        <translation>Réflexion étendue d&apos;Anthropic : combien de jetons le modèle peut réfléchir avant de répondre (au moins 1024 ; facturés comme sortie)</translation>
    </message>
    <message>
        <source>OpenAI and most others cache by themselves; cached input shows in the status bar</source>
        <translation>OpenAI et la plupart des autres mettent en cache d&apos;eux-mêmes ; l&apos;entrée en cache s&apos;affiche dans la barre d&apos;état</translation>
    </message>
    <message>
        <source>Responses</source>
        <translation>Responses</translation>
    </message>
    <message>
        <source>Anthropic Messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>Chat Completions</source>
        <translation>Chat Completions</translation>
    </message>
    <message>
        <source>Automatic (%1)</source>
        <translation>Automatique (%1)</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Thinking budget</source>
        <translation>Budget de réflexion</translation>
    </message>
    <message>
        <source>A thinking budget is at least 1024 tokens; 0 turns thinking off.</source>
        <translation>Un budget de réflexion compte au moins 1024 jetons ; 0 désactive la réflexion.</translation>
    </message>
    <message>
        <source>Where the model runs: a hosted service, or a server on this machine</source>
        <translation>Où le modèle s&apos;exécute : un service hébergé, ou un serveur sur cette machine</translation>
    </message>
    <message>
        <source>The server&apos;s address, up to and with /v1</source>
        <translation>L&apos;adresse du serveur, jusqu&apos;à /v1 inclus</translation>
    </message>
    <message>
        <source>Kept in the system keychain, never in a file; not needed on this machine&apos;s servers</source>
        <translation>Conservée dans le trousseau du système, jamais dans un fichier ; inutile pour les serveurs de cette machine</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>How the agent runs code: tool calls, or code blocks for models without them</source>
        <translation>Comment l&apos;agent exécute du code : appels d&apos;outils, ou blocs de code pour les modèles qui n&apos;en ont pas</translation>
    </message>
    <message>
        <source>How many times one request may ask the model before the agent stops</source>
        <translation>Combien de fois une demande peut interroger le modèle avant que l&apos;agent s&apos;arrête</translation>
    </message>
    <message>
        <source>Tokens one request may use before the agent stops</source>
        <translation>Jetons qu&apos;une demande peut utiliser avant que l&apos;agent s&apos;arrête</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>A run past this is stopped</source>
        <translation>Une exécution au-delà est arrêtée</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Apparence</translation>
    </message>
    <message>
        <source>The wheelhouse must be a folder: %1</source>
        <translation>Le wheelhouse doit être un dossier : %1</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>Serveurs MCP</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Moteur</translation>
    </message>
    <message>
        <source>Keep a sandbox ready for the next new conversation (not on battery)</source>
        <translation>Garder un bac à sable prêt pour la prochaine conversation (pas sur batterie)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Modules each new sandbox imports in the background, comma-separated, so that a first data run does not wait for them; one that is not installed is skipped</source>
        <translation>Modules que chaque nouveau bac à sable importe en arrière-plan, séparés par des virgules, pour qu’une première exécution sur des données ne les attende pas ; un module absent est ignoré</translation>
    </message>
    <message>
        <source>never</source>
        <translation>jamais</translation>
    </message>
    <message>
        <source>A conversation&apos;s sandbox that is neither looked at nor used for this long is stopped to free its memory; its variables are lost and the next run starts a new one</source>
        <translation>Le bac à sable d’une conversation ni regardée ni utilisée pendant ce temps est arrêté pour libérer sa mémoire ; ses variables sont perdues et la prochaine exécution en démarre un nouveau</translation>
    </message>
    <message>
        <source>Pre-imported modules</source>
        <translation>Modules pré-importés</translation>
    </message>
    <message>
        <source>Stop an unused sandbox after</source>
        <translation>Arrêter un bac à sable inutilisé après</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Raccourci</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>Envoyer la demande</translation>
    </message>
    <message>
        <source>New line in the prompt</source>
        <translation>Nouvelle ligne dans la demande</translation>
    </message>
    <message>
        <source>Earlier prompts</source>
        <translation>Demandes précédentes</translation>
    </message>
    <message>
        <source>Run the editor&apos;s code</source>
        <translation>Exécuter le code de l&apos;éditeur</translation>
    </message>
    <message>
        <source>Run the selection or line</source>
        <translation>Exécuter la sélection ou la ligne</translation>
    </message>
    <message>
        <source>Rename the conversation</source>
        <translation>Renommer la conversation</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TextViewer</name>
    <message>
        <source>Save as…</source>
        <translation>Enregistrer sous…</translation>
    </message>
    <message>
        <source>Save as</source>
        <translation>Enregistrer sous</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>Non enregistré</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Impossible d’écrire %1 : %2</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TranscriptDelegate</name>
    <message>
        <source>running…</source>
        <translation>en cours…</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>error</source>
        <translation>erreur</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>délai dépassé</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>mémoire épuisée</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêté</translation>
    </message>
    <message>
        <source>sandbox error</source>
        <translation>erreur du bac à sable</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>code de sortie %1</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Ouvrir dans l&apos;éditeur</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… %n ligne de plus</numerusform>
            <numerusform>… %n lignes de plus</numerusform>
        </translation>
    </message>
    <message>
        <source>Files: %1</source>
        <translation>Fichiers : %1</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Hide reasoning</source>
        <translation>Masquer le raisonnement</translation>
    </message>
    <message>
        <source>Show reasoning</source>
        <translation>Afficher le raisonnement</translation>
    </message>
    <message>
        <source>Long text: %1 of %2 table rows shown</source>
        <translation>Texte long : %1 lignes de tableau affichées sur %2</translation>
    </message>
    <message>
        <source>Long text: %1 of %2 characters shown</source>
        <translation>Texte long : %1 caractères affichés sur %2</translation>
    </message>
    <message>
        <source>Long reasoning: %1 of %2 characters shown</source>
        <translation>Raisonnement long : %1 caractères affichés sur %2</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>Tout afficher</translation>
    </message>
    <message>
        <source>Open as text</source>
        <translation>Ouvrir comme texte</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Enregistrer sous…</translation>
    </message>
    <message>
        <source>Open table as CSV</source>
        <translation>Ouvrir le tableau en CSV</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TranscriptModel</name>
    <message>
        <source>You</source>
        <translation>Vous</translation>
    </message>
    <message>
        <source>Sandcastle</source>
        <translation>Sandcastle</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Outil</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>not finished</source>
        <translation>non terminé</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>code de sortie %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Remarque</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Modifications</translation>
    </message>
    <message>
        <source>Changes — click to review</source>
        <translation>Modifications — cliquer pour examiner</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TreeMarks</name>
    <message>
        <source>Made or changed by the last run</source>
        <translation>Créé ou modifié par la dernière exécution</translation>
    </message>
    <message>
        <source>Changed by the agent in the last turn</source>
        <translation>Modifié par l’agent au dernier tour</translation>
    </message>
    <message>
        <source>Ignored (.gitignore)</source>
        <translation>Ignoré (.gitignore)</translation>
    </message>
    <message>
        <source>Modified since the last commit</source>
        <translation>Modifié depuis le dernier commit</translation>
    </message>
    <message>
        <source>Added to the index, not yet committed</source>
        <translation>Ajouté à l’index, pas encore commité</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>Supprimé</translation>
    </message>
    <message>
        <source>Renamed</source>
        <translation>Renommé</translation>
    </message>
    <message>
        <source>New: not tracked by git</source>
        <translation>Nouveau : non suivi par git</translation>
    </message>
    <message>
        <source>In conflict</source>
        <translation>En conflit</translation>
    </message>
    <message>
        <source>Contains changes since the last commit</source>
        <translation>Contient des modifications depuis le dernier commit</translation>
    </message>
    <message>
        <source>Deleted here since the last commit: %1</source>
        <translation>Supprimés ici depuis le dernier commit : %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::WelcomePanel</name>
    <message>
        <source>Welcome to Sandcastle</source>
        <translation>Bienvenue dans Sandcastle</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Use OpenAI or another provider…</source>
        <translation>Utiliser OpenAI ou un autre fournisseur…</translation>
    </message>
    <message>
        <source>Choose a model to talk to. Your code runs in a sandbox on this machine.</source>
        <translation>Choisissez un modèle. Votre code s’exécute dans un bac à sable sur cette machine.</translation>
    </message>
    <message>
        <source>Looking for model servers on this machine (Ollama, llama.cpp, LM Studio, vLLM)…</source>
        <translation>Recherche de serveurs de modèles sur cette machine (Ollama, llama.cpp, LM Studio, vLLM)…</translation>
    </message>
    <message>
        <source>No model server answers on this machine. Start one (for example `ollama serve`), or use a hosted provider:</source>
        <translation>Aucun serveur de modèles ne répond sur cette machine. Démarrez-en un (par exemple `ollama serve`) ou utilisez un fournisseur en ligne :</translation>
    </message>
    <message>
        <source>Found on this machine:</source>
        <translation>Trouvé sur cette machine :</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 et %n autre</numerusform>
            <numerusform>%1 et %n autres</numerusform>
        </translation>
    </message>
    <message>
        <source>Use %1 (%2)</source>
        <translation>Utiliser %1 (%2)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::WorkspaceModel</name>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Git</source>
        <translation>Git</translation>
    </message>
</context>
</TS>
