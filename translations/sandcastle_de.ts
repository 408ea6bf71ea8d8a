<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>FilePreview</name>
    <message>
        <source>Not shown: %1</source>
        <translation>Nicht angezeigt: %1</translation>
    </message>
    <message>
        <source>This image is larger than %1; open it outside Sandcastle.</source>
        <translation>Dieses Bild ist größer als %1; öffnen Sie es außerhalb von Sandcastle.</translation>
    </message>
    <message>
        <source>Cannot show this SVG image (it is broken, or the Qt SVG plugin, libqt6svg6, is missing).</source>
        <translation>Dieses SVG-Bild kann nicht angezeigt werden (es ist beschädigt, oder das Qt-SVG-Plugin libqt6svg6 fehlt).</translation>
    </message>
    <message>
        <source>Cannot show this image: it is not a valid %1 file.</source>
        <translation>Dieses Bild kann nicht angezeigt werden: keine gültige %1-Datei.</translation>
    </message>
    <message>
        <source>A binary file (%1); no preview.</source>
        <translation>Eine Binärdatei (%1); keine Vorschau.</translation>
    </message>
    <message>
        <source>Not UTF-8 text; no preview.</source>
        <translation>Kein UTF-8-Text; keine Vorschau.</translation>
    </message>
    <message numerus="yes">
        <source>Showing the first %n row(s).</source>
        <translation>
            <numerusform>Die erste Zeile wird gezeigt.</numerusform>
            <numerusform>Die ersten %n Zeilen werden gezeigt.</numerusform>
        </translation>
    </message>
    <message>
        <source>This file is larger than %1; open it outside Sandcastle to read it.</source>
        <translation>Diese Datei ist größer als %1; öffnen Sie sie außerhalb von Sandcastle.</translation>
    </message>
</context>
<context>
    <name>Sandcastle::AboutDialog</name>
    <message>
        <source>asking…</source>
        <translation>wird erfragt…</translation>
    </message>
    <message>
        <source>About Sandcastle</source>
        <translation>Über Sandcastle</translation>
    </message>
    <message>
        <source>A desktop IDE in which a language model writes code, runs it in a container on your machine, reads the output and fixes its own mistakes while you watch and take part.</source>
        <translation>Eine Desktop-IDE, in der ein Sprachmodell Code schreibt, ihn in einem Container auf Ihrem Rechner ausführt, die Ausgabe liest und seine eigenen Fehler behebt, während Sie zusehen und mitmachen.</translation>
    </message>
    <message>
        <source>Copy versions</source>
        <translation>Versionen kopieren</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ApprovalBar</name>
    <message numerus="yes">
        <source>
… (%n more characters)</source>
        <translation>
            <numerusform>
… (%n weiteres Zeichen)</numerusform>
            <numerusform>
… (%n weitere Zeichen)</numerusform>
        </translation>
    </message>
    <message>
        <source>The agent wants to run this code. Edit it if you like, then:</source>
        <translation>Der Agent möchte diesen Code ausführen. Ändern Sie ihn, wenn Sie möchten, dann:</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Don&apos;t run</source>
        <translation>Nicht ausführen</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; wants to run its tool &quot;%2&quot; on this computer, outside the sandbox, with these arguments:</source>
        <translation>Der MCP-Server „%1“ möchte sein Tool „%2“ auf diesem Rechner ausführen, außerhalb der Sandbox, mit diesen Argumenten:</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ChatPane</name>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop everything</source>
        <translation>Alles stoppen</translation>
    </message>
    <message>
        <source>Stop only the running code (the agent goes on)</source>
        <translation>Nur den laufenden Code stoppen (der Agent macht weiter)</translation>
    </message>
    <message>
        <source>Stop after this step</source>
        <translation>Nach diesem Schritt stoppen</translation>
    </message>
    <message>
        <source>Other ways to stop</source>
        <translation>Andere Arten zu stoppen</translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation>Code kopieren</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>Alles kopieren</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>Zuklappen</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>Aufklappen</translation>
    </message>
    <message>
        <source>Sandcastle — %1</source>
        <translation>Sandcastle — %1</translation>
    </message>
    <message>
        <source>Open as text</source>
        <translation>Als Text öffnen</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CheckpointReview</name>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>type changed</source>
        <translation>Typ geändert</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Runde %1</translation>
    </message>
    <message>
        <source>Your run</source>
        <translation>Ihr Lauf</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n file(s) changed, +%2 −%3</source>
        <translation>
            <numerusform>%1 · eine Datei geändert, +%2 −%3</numerusform>
            <numerusform>%1 · %n Dateien geändert, +%2 −%3</numerusform>
        </translation>
    </message>
    <message>
        <source>Review: %1</source>
        <translation>Prüfen: %1</translation>
    </message>
    <message>
        <source>%1 (%2 MB)</source>
        <translation>%1 (%2 MB)</translation>
    </message>
    <message>
        <source>Not recorded, too big for a checkpoint: %1</source>
        <translation>Nicht aufgezeichnet, zu groß für einen Prüfpunkt: %1</translation>
    </message>
    <message>
        <source>Undo and Restore put files back; variables in the Python session are not rewound.</source>
        <translation>Rückgängig und Wiederherstellen setzen Dateien zurück; Variablen der Python-Sitzung werden nicht zurückgesetzt.</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <source>&amp;Undo this turn</source>
        <translation>Diese Runde &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>&amp;Undo this step</source>
        <translation>Diesen Schritt &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>Restore to &amp;here</source>
        <translation>Bis &amp;hierher wiederherstellen</translation>
    </message>
    <message>
        <source>Put the whole folder back as it was after this step: every later change is undone</source>
        <translation>Den ganzen Ordner so zurücksetzen, wie er nach diesem Schritt war: jede spätere Änderung wird rückgängig gemacht</translation>
    </message>
    <message>
        <source>Restore to &amp;before</source>
        <translation>Auf den Stand &amp;davor zurücksetzen</translation>
    </message>
    <message>
        <source>Put the whole folder back as it was before this step</source>
        <translation>Den ganzen Ordner so zurücksetzen, wie er vor diesem Schritt war</translation>
    </message>
    <message>
        <source>This step changed no files.</source>
        <translation>Dieser Schritt hat keine Dateien geändert.</translation>
    </message>
    <message>
        <source>%1 is a binary file (%2): its content is not shown.</source>
        <translation>%1 ist eine Binärdatei (%2): ihr Inhalt wird nicht angezeigt.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>your own edits since the last step: %1</source>
        <translation>Ihre eigenen Änderungen seit dem letzten Schritt: %1</translation>
    </message>
    <message>
        <source>changes a later step made: %1</source>
        <translation>Änderungen eines späteren Schritts: %1</translation>
    </message>
    <message>
        <source>Undoing this would overwrite %1.

Go ahead? (The undo can itself be undone.)</source>
        <translation>Das Rückgängigmachen würde %1 überschreiben.

Fortfahren? (Es lässt sich selbst rückgängig machen.)</translation>
    </message>
    <message>
        <source>; and </source>
        <translation>; und </translation>
    </message>
    <message>
        <source>Put every file of the folder back as it was %1? Later changes are undone (this can itself be undone).</source>
        <translation>Jede Datei des Ordners auf den Stand %1 zurücksetzen? Spätere Änderungen werden rückgängig gemacht (das lässt sich selbst rückgängig machen).</translation>
    </message>
    <message>
        <source>before this step</source>
        <translation>vor diesem Schritt</translation>
    </message>
    <message>
        <source>after this step</source>
        <translation>nach diesem Schritt</translation>
    </message>
    <message>
        <source>Put every file of the folder back as it was %1? This overwrites your own edits since the last step: %2 (the restore can itself be undone).</source>
        <translation>Jede Datei des Ordners auf den Stand %1 zurücksetzen? Das überschreibt Ihre eigenen Änderungen seit dem letzten Schritt: %2 (das Wiederherstellen lässt sich selbst rückgängig machen).</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CodeEditor</name>
    <message>
        <source># Not shown: this code has a line of more than %L1 characters, too long to show
# and edit here. The transcript has it whole (right-click, Open as text).
</source>
        <translation># Nicht angezeigt: Dieser Code hat eine Zeile mit mehr als %L1 Zeichen, zu lang, um sie
# hier anzuzeigen und zu bearbeiten. Der Verlauf enthält ihn ganz (Rechtsklick, Als Text öffnen).
</translation>
    </message>
</context>
<context>
    <name>Sandcastle::CommandPalette</name>
    <message>
        <source>Commands</source>
        <translation>Befehle</translation>
    </message>
    <message>
        <source>Type a command</source>
        <translation>Befehl eingeben</translation>
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
        <translation>Hier erscheint die Ausgabe des Codes</translation>
    </message>
    <message>
        <source>Find…</source>
        <translation>Suchen…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Save output…</source>
        <translation>Ausgabe speichern…</translation>
    </message>
    <message>
        <source>Save the console output</source>
        <translation>Konsolenausgabe speichern</translation>
    </message>
    <message>
        <source>Not saved: %1
</source>
        <translation>Nicht gespeichert: %1
</translation>
    </message>
    <message numerus="yes">
        <source>[… %n line(s) not shown here; the run&apos;s log has everything …]</source>
        <translation>
            <numerusform>[… %n Zeile hier nicht gezeigt; das Protokoll des Laufs enthält alles …]</numerusform>
            <numerusform>[… %n Zeilen hier nicht gezeigt; das Protokoll des Laufs enthält alles …]</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>failed (exit code %1)</source>
        <translation>fehlgeschlagen (Exit-Code %1)</translation>
    </message>
    <message>
        <source>stopped: the time limit was reached</source>
        <translation>gestoppt: das Zeitlimit wurde erreicht</translation>
    </message>
    <message>
        <source>killed: out of memory</source>
        <translation>beendet: kein Speicher mehr</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>could not run (container engine error)</source>
        <translation>konnte nicht laufen (Fehler der Container-Engine)</translation>
    </message>
    <message>
        <source>■ %1 in %2</source>
        <translation>■ %1 in %2</translation>
    </message>
    <message>
        <source> · the sandbox was restarted: variables are gone</source>
        <translation> · die Sandbox wurde neu gestartet: Variablen sind verloren</translation>
    </message>
    <message>
        <source> · full output in %1</source>
        <translation> · vollständige Ausgabe in %1</translation>
    </message>
    <message>
        <source> [… %1 more characters on this line; the run&apos;s log has them all]</source>
        <translation> [… %1 weitere Zeichen in dieser Zeile; das Protokoll des Laufs enthält sie alle]</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ConversationListModel</name>
    <message numerus="yes">
        <source>%1
last change %2 · %n message(s)</source>
        <translation>
            <numerusform>%1
zuletzt geändert %2 · %n Nachricht</numerusform>
            <numerusform>%1
zuletzt geändert %2 · %n Nachrichten</numerusform>
        </translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>works in %1</source>
        <translation>arbeitet in %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ConversationsPane</name>
    <message>
        <source>Search conversations</source>
        <translation>Gespräche durchsuchen</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>New conversation (Ctrl+N)</source>
        <translation>Neues Gespräch (Strg+N)</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Gespräche</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Gespräch löschen</translation>
    </message>
    <message>
        <source>Delete “%1”, its workspace files and its sandbox? This cannot be undone.</source>
        <translation>„%1“, die Dateien des Arbeitsbereichs und die Sandbox löschen? Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>Als Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export as a folder that re-runs…</source>
        <translation>Als wiederausführbaren Ordner exportieren…</translation>
    </message>
    <message>
        <source>Show the conversations of one folder</source>
        <translation>Die Unterhaltungen eines Ordners zeigen</translation>
    </message>
    <message>
        <source>All folders</source>
        <translation>Alle Ordner</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EditActions</name>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Ausschneiden</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>E&amp;infügen</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>A&amp;lles auswählen</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EditorPane</name>
    <message>
        <source>Tell the agent</source>
        <translation>Dem Agenten mitteilen</translation>
    </message>
    <message>
        <source>Earlier attempt</source>
        <translation>Früherer Versuch</translation>
    </message>
    <message>
        <source>Later attempt</source>
        <translation>Späterer Versuch</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <source>Compare with the attempt before, or your edit with the agent&apos;s version</source>
        <translation>Mit dem vorigen Versuch vergleichen, oder Ihre Änderung mit der Version des Agenten</translation>
    </message>
    <message>
        <source>Your runs and edits reach the agent with your next message (as a diff)</source>
        <translation>Ihre Läufe und Änderungen erreichen den Agenten mit Ihrer nächsten Nachricht (als Diff)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Run the code (Ctrl+Enter); the selection only: Ctrl+Shift+Enter</source>
        <translation>Code ausführen (Strg+Eingabe); nur die Auswahl: Strg+Umschalt+Eingabe</translation>
    </message>
    <message>
        <source>Your code</source>
        <translation>Ihr Code</translation>
    </message>
    <message>
        <source>Attempt %1 of %2</source>
        <translation>Versuch %1 von %2</translation>
    </message>
    <message>
        <source>Attempt %1 of %2 · %3</source>
        <translation>Versuch %1 von %2 · %3</translation>
    </message>
    <message>
        <source># Attempt 1: nothing earlier to compare with.
</source>
        <translation># Versuch 1: nichts Früheres zum Vergleichen.
</translation>
    </message>
    <message>
        <source>Snippet %1</source>
        <translation>Schnipsel %1</translation>
    </message>
    <message>
        <source>Close %1</source>
        <translation>%1 schließen</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved.</source>
        <translation>%1 hat ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <source>%1 (not saved; Ctrl+S)</source>
        <translation>%1 (nicht gespeichert; Strg+S)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EnginePage</name>
    <message>
        <source>%1 could not be started: is it installed?</source>
        <translation>%1 konnte nicht gestartet werden: Ist es installiert?</translation>
    </message>
    <message>
        <source>The container engine&apos;s command: docker, podman, or a path to either</source>
        <translation>Der Befehl der Container-Engine: docker, podman oder ein Pfad zu einem von beiden</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(Standard)</translation>
    </message>
    <message>
        <source>Decide from the engine</source>
        <translation>Nach der Engine entscheiden</translation>
    </message>
    <message>
        <source>Mount the folder (the engine is on this machine)</source>
        <translation>Den Ordner einhängen (die Engine läuft auf diesem Rechner)</translation>
    </message>
    <message>
        <source>Copy the folder in and the changes back</source>
        <translation>Den Ordner hinein- und die Änderungen zurückkopieren</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <source>&amp;Send the image there</source>
        <translation>Image dorthin &amp;senden</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <source>A Docker context (docker context create NAME --docker host=ssh://me@box) or a Podman connection. On an engine that cannot see this machine&apos;s folders, the workspace is copied in and what runs change comes back.</source>
        <translation>Ein Docker-Kontext (docker context create NAME --docker host=ssh://ich@rechner) oder eine Podman-Verbindung. Auf einer Engine, die die Ordner dieses Rechners nicht sieht, wird der Arbeitsbereich hineinkopiert, und was Läufe ändern, kommt zurück.</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Arbeitsbereich</translation>
    </message>
    <message>
        <source>Asking %1…</source>
        <translation>%1 wird gefragt…</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 unter %2</translation>
    </message>
    <message>
        <source>It sees this machine&apos;s folders: the workspace is mounted.</source>
        <translation>Sie sieht die Ordner dieses Rechners: Der Arbeitsbereich wird eingehängt.</translation>
    </message>
    <message>
        <source>It cannot see this machine&apos;s folders: the workspace is copied in, and what runs change comes back.</source>
        <translation>Sie sieht die Ordner dieses Rechners nicht: Der Arbeitsbereich wird hineinkopiert, und was Läufe ändern, kommt zurück.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is there.</source>
        <translation>Das Sandbox-Image %1 ist dort vorhanden.</translation>
    </message>
    <message>
        <source>Another build of %1 is there; Send replaces it with this machine&apos;s.</source>
        <translation>Dort liegt ein anderer Build von %1; Senden ersetzt ihn durch den dieses Rechners.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not there: Send it from this machine.</source>
        <translation>Das Sandbox-Image %1 ist dort nicht vorhanden: Senden Sie es von diesem Rechner.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is neither there nor here: build it first.</source>
        <translation>Das Sandbox-Image %1 ist weder dort noch hier: Bauen Sie es zuerst.</translation>
    </message>
    <message>
        <source>Sending %1…</source>
        <translation>%1 wird gesendet…</translation>
    </message>
    <message>
        <source>Sending the image: %1 MB of about %2 MB</source>
        <translation>Das Image wird gesendet: %1 MB von etwa %2 MB</translation>
    </message>
    <message>
        <source>The image is there now.</source>
        <translation>Das Image ist jetzt dort.</translation>
    </message>
    <message>
        <source>Could not send the image: %1</source>
        <translation>Das Image konnte nicht gesendet werden: %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::EnvironmentBar</name>
    <message>
        <source>Show changes</source>
        <translation>Änderungen zeigen</translation>
    </message>
    <message>
        <source>Cancel build</source>
        <translation>Bau abbrechen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Schritt %1 von %2</translation>
    </message>
    <message>
        <source>pip: %1</source>
        <translation>pip: %1</translation>
    </message>
    <message>
        <source>apt: %1</source>
        <translation>apt: %1</translation>
    </message>
    <message>
        <source>The agent asks to install %1.
Its reason: %2
They are added to the project&apos;s requirements.txt / apt.txt and the environment is rebuilt; the build uses the network, the runs stay offline, and the Python session restarts.</source>
        <translation>Der Agent möchte %1 installieren.
Seine Begründung: %2
Sie werden in requirements.txt / apt.txt des Projekts eingetragen und die Umgebung wird neu gebaut; der Bau nutzt das Netzwerk, die Läufe bleiben offline, und die Python-Sitzung startet neu.</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>Installieren</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>This folder&apos;s requirements.txt / apt.txt ask for packages that are not built: %1.
Building the environment uses the network; the runs stay offline, and the Python session restarts on it.</source>
        <translation>requirements.txt / apt.txt dieses Ordners verlangen Pakete, die noch nicht gebaut sind: %1.
Der Bau der Umgebung nutzt das Netzwerk; die Läufe bleiben offline, und die Python-Sitzung startet darauf neu.</translation>
    </message>
    <message>
        <source>Build environment</source>
        <translation>Umgebung bauen</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Nicht jetzt</translation>
    </message>
    <message>
        <source>Check these lines, which reach beyond the package index: %1</source>
        <translation>Prüfen Sie diese Zeilen, die über den Paketindex hinausgreifen: %1</translation>
    </message>
    <message>
        <source>Building the environment… (the log is in the console)</source>
        <translation>Die Umgebung wird gebaut… (das Protokoll steht in der Konsole)</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>Protokoll zeigen</translation>
    </message>
    <message>
        <source>Hide log</source>
        <translation>Protokoll ausblenden</translation>
    </message>
    <message>
        <source>Hide changes</source>
        <translation>Änderungen ausblenden</translation>
    </message>
    <message>
        <source>The environment was not built: %1</source>
        <translation>Die Umgebung wurde nicht gebaut: %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::FilesPane</name>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 wird geladen…</translation>
    </message>
    <message>
        <source>%1 × %2 pixels</source>
        <translation>%1 × %2 Pixel</translation>
    </message>
    <message>
        <source>Not opened: %1</source>
        <translation>Nicht geöffnet: %1</translation>
    </message>
    <message>
        <source>Save a copy</source>
        <translation>Kopie speichern</translation>
    </message>
    <message>
        <source>Saved a copy as %1</source>
        <translation>Kopie gespeichert als %1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Open with the default application</source>
        <translation>Mit der Standardanwendung öffnen</translation>
    </message>
    <message>
        <source>Save a copy…</source>
        <translation>Kopie speichern…</translation>
    </message>
    <message>
        <source>Show in the file manager</source>
        <translation>Im Dateimanager zeigen</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message>
        <source>Show ignored files (grey), or hide them</source>
        <translation>Ignorierte Dateien zeigen (grau) oder ausblenden</translation>
    </message>
    <message>
        <source>Show ignored files</source>
        <translation>Ignorierte Dateien zeigen</translation>
    </message>
    <message>
        <source>Files — </source>
        <translation>Dateien — </translation>
    </message>
</context>
<context>
    <name>Sandcastle::FindBox</name>
    <message>
        <source>Find (Enter: next, Shift+Enter: previous)</source>
        <translation>Suchen (Eingabe: weiter, Umschalt+Eingabe: zurück)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ImageBar</name>
    <message>
        <source>Build the image</source>
        <translation>Image bauen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Nicht jetzt</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on this machine: code cannot run until it is built. Building takes a few minutes (Debian&apos;s packages are downloaded once; after that it works offline).</source>
        <translation>Das Sandbox-Image %1 ist nicht auf diesem Rechner: Code kann erst laufen, wenn es gebaut ist. Der Bau dauert einige Minuten (Debians Pakete werden einmal heruntergeladen; danach geht es offline).</translation>
    </message>
    <message>
        <source>Building the sandbox image %1… (the log is in the console)</source>
        <translation>Das Sandbox-Image %1 wird gebaut… (das Protokoll steht in der Konsole)</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Send it from this machine</source>
        <translation>Von diesem Rechner senden</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on %2, where Sandcastle runs code now: send it from this machine (docker save | docker load over the same connection), or build it there (a few minutes; Debian&apos;s packages are downloaded there).</source>
        <translation>Das Sandbox-Image %1 ist nicht auf %2, wo Sandcastle jetzt Code ausführt: senden Sie es von diesem Rechner (docker save | docker load über dieselbe Verbindung) oder bauen Sie es dort (einige Minuten; Debians Pakete werden dort heruntergeladen).</translation>
    </message>
    <message>
        <source>The sandbox image %1 is not on %2, where Sandcastle runs code now, nor on this machine to send: build it there (a few minutes; Debian&apos;s packages are downloaded there).</source>
        <translation>Das Sandbox-Image %1 ist weder auf %2, wo Sandcastle jetzt Code ausführt, noch auf diesem Rechner zum Senden: bauen Sie es dort (einige Minuten; Debians Pakete werden dort heruntergeladen).</translation>
    </message>
    <message>
        <source>Build it there</source>
        <translation>Dort bauen</translation>
    </message>
    <message>
        <source>Sending the sandbox image %1 to %2…</source>
        <translation>Das Sandbox-Image %1 wird an %2 gesendet…</translation>
    </message>
    <message>
        <source>%1 MB of about %2 MB sent</source>
        <translation>%1 MB von etwa %2 MB gesendet</translation>
    </message>
    <message>
        <source>The sandbox image is not there: %1</source>
        <translation>Das Sandbox-Image ist nicht dort: %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::MainWindow</name>
    <message>
        <source>Conversations are not being saved: %1</source>
        <translation>Gespräche werden nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Neues Gespräch</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New conversation</source>
        <translation>&amp;Neues Gespräch</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>&amp;Run the editor&apos;s code</source>
        <translation>Code des Editors &amp;ausführen</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stopp</translation>
    </message>
    <message>
        <source>Stop the running &amp;code</source>
        <translation>Laufenden &amp;Code stoppen</translation>
    </message>
    <message>
        <source>Stop after this &amp;step</source>
        <translation>Nach diesem &amp;Schritt stoppen</translation>
    </message>
    <message>
        <source>Export to a new folder</source>
        <translation>In einen neuen Ordner exportieren</translation>
    </message>
    <message>
        <source>Export as Markdown</source>
        <translation>Als Markdown exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Model busy, retrying in %1 s (attempt %2): %3</source>
        <translation>Modell ausgelastet, neuer Versuch in %1 s (Versuch %2): %3</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>Agent: %1</translation>
    </message>
    <message>
        <source>Code run by hand</source>
        <translation>Von Hand ausgeführter Code</translation>
    </message>
    <message>
        <source>your code</source>
        <translation>Ihr Code</translation>
    </message>
    <message>
        <source>sandbox restarted with the new settings</source>
        <translation>Sandbox mit den neuen Einstellungen neu gestartet</translation>
    </message>
    <message>
        <source>Stop the agent or the run before switching conversations.</source>
        <translation>Stoppen Sie den Agenten oder den Lauf, bevor Sie das Gespräch wechseln.</translation>
    </message>
    <message>
        <source>Stop the agent or the run before deleting this conversation.</source>
        <translation>Stoppen Sie den Agenten oder den Lauf, bevor Sie dieses Gespräch löschen.</translation>
    </message>
    <message>
        <source>Could not delete the conversation: %1</source>
        <translation>Das Gespräch konnte nicht gelöscht werden: %1</translation>
    </message>
    <message>
        <source>Could not export the conversation: %1</source>
        <translation>Das Gespräch konnte nicht exportiert werden: %1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
    <message>
        <source>Sandbox: stopped</source>
        <translation>Sandbox: gestoppt</translation>
    </message>
    <message>
        <source>Sandbox: starting…</source>
        <translation>Sandbox: startet…</translation>
    </message>
    <message>
        <source>Sandbox: ready</source>
        <translation>Sandbox: bereit</translation>
    </message>
    <message>
        <source>Sandbox: running</source>
        <translation>Sandbox: läuft</translation>
    </message>
    <message>
        <source>  ·  network %1  ·  memory %2</source>
        <translation>  ·  Netzwerk %1  ·  Speicher %2</translation>
    </message>
    <message>
        <source>ON</source>
        <translation>AN</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Model: %1 at %2</source>
        <translation>Modell: %1 auf %2</translation>
    </message>
    <message>
        <source>Sandcastle: a run finished</source>
        <translation>Sandcastle: ein Lauf ist fertig</translation>
    </message>
    <message>
        <source>%1 after %2 s in “%3”</source>
        <translation>%1 nach %2 s in „%3“</translation>
    </message>
    <message>
        <source>%L1 tokens</source>
        <translation>%L1 Tokens</translation>
    </message>
    <message>
        <source> · $%1</source>
        <translation> · $%1</translation>
    </message>
    <message>
        <source>turn %1 of %2</source>
        <translation>Runde %1 von %2</translation>
    </message>
    <message>
        <source>Not added to the workspace: %1</source>
        <translation>Nicht zum Arbeitsbereich hinzugefügt: %1</translation>
    </message>
    <message>
        <source>(I put these files in the workspace: %1)</source>
        <translation>(Ich habe diese Dateien in den Arbeitsbereich gelegt: %1)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Command palette…</source>
        <translation>&amp;Befehlspalette…</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Using %1 with %2</source>
        <translation>%1 mit %2 wird verwendet</translation>
    </message>
    <message>
        <source>The sandbox needs Docker: %1. Start it (for example `sudo systemctl start docker`), or run `scripts/setup`, which installs and starts it.</source>
        <translation>Die Sandbox braucht Docker: %1. Starten Sie es (zum Beispiel `sudo systemctl start docker`) oder führen Sie `scripts/setup` aus, das es installiert und startet.</translation>
    </message>
    <message>
        <source>The sandbox image %1 is missing: run `sandcastle image build` (it works offline, a few minutes).</source>
        <translation>Das Sandbox-Image %1 fehlt: führen Sie `sandcastle image build` aus (geht offline, einige Minuten).</translation>
    </message>
    <message>
        <source>Sandbox: failed — %1</source>
        <translation>Sandbox: fehlgeschlagen — %1</translation>
    </message>
    <message>
        <source>Agent command</source>
        <translation>Befehl des Agenten</translation>
    </message>
    <message>
        <source>Agent code</source>
        <translation>Code des Agenten</translation>
    </message>
    <message>
        <source>it is larger than %1 MB</source>
        <translation>sie ist größer als %1 MB</translation>
    </message>
    <message>
        <source>it is not a text file</source>
        <translation>sie ist keine Textdatei</translation>
    </message>
    <message>
        <source>Cannot edit %1: %2</source>
        <translation>%1 kann nicht bearbeitet werden: %2</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message numerus="yes">
        <source>%n older tool result(s) summarised so that the conversation fits the model&apos;s context window (about %1 tokens now).</source>
        <translation>
            <numerusform>%n älteres Werkzeugergebnis zusammengefasst, damit das Gespräch in das Kontextfenster des Modells passt (jetzt etwa %1 Tokens).</numerusform>
            <numerusform>%n ältere Werkzeugergebnisse zusammengefasst, damit das Gespräch in das Kontextfenster des Modells passt (jetzt etwa %1 Tokens).</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Open Folder…</source>
        <translation>&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>&amp;Recent folders</source>
        <translation>&amp;Zuletzt geöffnete Ordner</translation>
    </message>
    <message>
        <source>No folder opened yet</source>
        <translation>Noch kein Ordner geöffnet</translation>
    </message>
    <message>
        <source>Open a folder to work in</source>
        <translation>Einen Ordner zum Arbeiten öffnen</translation>
    </message>
    <message>
        <source>Cannot open %1 while the agent or a run is busy.</source>
        <translation>%1 kann nicht geöffnet werden, solange der Agent oder ein Lauf beschäftigt ist.</translation>
    </message>
    <message>
        <source>Working in %1</source>
        <translation>Arbeitet in %1</translation>
    </message>
    <message>
        <source>One folder at a time, and files on their own: %1 was opened; not opened or added: %2</source>
        <translation>Ein Ordner auf einmal, Dateien für sich: %1 wurde geöffnet; nicht geöffnet oder hinzugefügt: %2</translation>
    </message>
    <message>
        <source>%1 is read-only (a read-only mount, or no permission to write): the agent can read it and run code, but cannot change its files.</source>
        <translation>%1 ist schreibgeschützt (eine schreibgeschützte Einbindung oder keine Schreibberechtigung): der Agent kann ihn lesen und Code ausführen, aber seine Dateien nicht ändern.</translation>
    </message>
    <message>
        <source>Re&amp;view the last changes…</source>
        <translation>Letzte Änderungen &amp;prüfen…</translation>
    </message>
    <message>
        <source>&amp;Go to File…</source>
        <translation>&amp;Gehe zu Datei…</translation>
    </message>
    <message>
        <source>No changes recorded in this conversation yet.</source>
        <translation>In dieser Unterhaltung sind noch keine Änderungen aufgezeichnet.</translation>
    </message>
    <message>
        <source>Building the environment</source>
        <translation>Bau der Umgebung</translation>
    </message>
    <message>
        <source>The environment was not built: %1</source>
        <translation>Die Umgebung wurde nicht gebaut: %1</translation>
    </message>
    <message>
        <source>The sandbox now runs on the environment %1; the Python session restarted, so variables from before are gone.</source>
        <translation>Die Sandbox läuft jetzt auf der Umgebung %1; die Python-Sitzung wurde neu gestartet, Variablen von vorher sind verloren.</translation>
    </message>
    <message>
        <source>Sandbox: building environment…</source>
        <translation>Sandbox: Umgebung wird gebaut…</translation>
    </message>
    <message>
        <source>Tokens and cost of this conversation; input the server had cached is priced at the model&apos;s cached-input price (prices from models.json)</source>
        <translation>Tokens und Kosten dieser Unterhaltung; Eingaben, die der Server zwischengespeichert hatte, werden zum Preis für zwischengespeicherte Eingaben des Modells berechnet (Preise aus models.json)</translation>
    </message>
    <message>
        <source> (%L1 cached)</source>
        <translation> (%L1 zwischengespeichert)</translation>
    </message>
    <message>
        <source>&amp;Upload files…</source>
        <translation>Dateien &amp;hochladen…</translation>
    </message>
    <message>
        <source>&amp;Export conversation as Markdown…</source>
        <translation>Unterhaltung als Markdown &amp;exportieren…</translation>
    </message>
    <message>
        <source>Export conversation as a folder that re-&amp;runs…</source>
        <translation>Unterhaltung als wieder&amp;ausführbaren Ordner exportieren…</translation>
    </message>
    <message>
        <source>&amp;About Sandcastle</source>
        <translation>Ü&amp;ber Sandcastle</translation>
    </message>
    <message>
        <source>Upload files into the workspace</source>
        <translation>Dateien in den Arbeitsbereich hochladen</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Conversations</source>
        <translation>&amp;Unterhaltungen</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>C&amp;hat</translation>
    </message>
    <message>
        <source>&amp;Editor</source>
        <translation>&amp;Editor</translation>
    </message>
    <message>
        <source>Co&amp;nsole</source>
        <translation>&amp;Konsole</translation>
    </message>
    <message>
        <source>&amp;Files</source>
        <translation>&amp;Dateien</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Vergrößern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>&amp;Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>As the &amp;system</source>
        <translation>Wie das &amp;System</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>F&amp;ull Screen</source>
        <translation>Voll&amp;bild</translation>
    </message>
    <message>
        <source>One pane at least stays shown.</source>
        <translation>Mindestens ein Bereich bleibt sichtbar.</translation>
    </message>
    <message>
        <source>Show Sandcastle&apos;s o&amp;wn files (.sandcastle)</source>
        <translation>Sandcastles eigene Dateien zei&amp;gen (.sandcastle)</translation>
    </message>
    <message>
        <source>Building the sandbox image</source>
        <translation>Bau des Sandbox-Images</translation>
    </message>
    <message>
        <source>Sandbox: building the image…</source>
        <translation>Sandbox: Image wird gebaut…</translation>
    </message>
    <message>
        <source>The sandbox image is built.</source>
        <translation>Das Sandbox-Image ist gebaut.</translation>
    </message>
    <message>
        <source>Run &amp;All Cells</source>
        <translation>&amp;Alle Zellen ausführen</translation>
    </message>
    <message>
        <source>Run the opened notebook&apos;s cells one after another</source>
        <translation>Die Zellen des geöffneten Notebooks nacheinander ausführen</translation>
    </message>
    <message>
        <source>Open a Jupyter notebook</source>
        <translation>Ein Jupyter-Notebook öffnen</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb);;All files (*)</source>
        <translation>Jupyter-Notebooks (*.ipynb);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Wait until Run All Cells has finished.</source>
        <translation>Warten Sie, bis „Alle Zellen ausführen“ fertig ist.</translation>
    </message>
    <message>
        <source>Could not open the notebook %1: %2</source>
        <translation>Das Notebook %1 ließ sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>The notebook %1 has no code or Markdown cells.</source>
        <translation>Das Notebook %1 hat keine Code- oder Markdown-Zellen.</translation>
    </message>
    <message>
        <source>Cell %1</source>
        <translation>Zelle %1</translation>
    </message>
    <message numerus="yes">
        <source>Opened the notebook %1: %n code cell(s) in the editor (run one with Run, all with Run → Run All Cells); its Markdown below goes to the agent with your next message.</source>
        <translation>
            <numerusform>Notebook %1 geöffnet: %n Code-Zelle im Editor (eine mit Ausführen, alle mit Ausführen → Alle Zellen ausführen); sein Markdown unten geht mit Ihrer nächsten Nachricht an den Agenten.</numerusform>
            <numerusform>Notebook %1 geöffnet: %n Code-Zellen im Editor (eine mit Ausführen, alle mit Ausführen → Alle Zellen ausführen); sein Markdown unten geht mit Ihrer nächsten Nachricht an den Agenten.</numerusform>
        </translation>
    </message>
    <message>
        <source>No notebook cells to run: open a notebook first (File → Open Notebook…).</source>
        <translation>Keine Notebook-Zellen zum Ausführen: öffnen Sie zuerst ein Notebook (Datei → Notebook öffnen…).</translation>
    </message>
    <message>
        <source>Wait until the agent or the run has finished.</source>
        <translation>Warten Sie, bis der Agent oder der Lauf fertig ist.</translation>
    </message>
    <message>
        <source>Notebook cells</source>
        <translation>Notebook-Zellen</translation>
    </message>
    <message>
        <source>Export as a Jupyter notebook</source>
        <translation>Als Jupyter-Notebook exportieren</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb)</source>
        <translation>Jupyter-Notebooks (*.ipynb)</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: %2 — its tools are left out until it starts again.</source>
        <translation>MCP-Server „%1“: %2 — seine Tools fehlen, bis er wieder startet.</translation>
    </message>
    <message>
        <source>Open No&amp;tebook…</source>
        <translation>No&amp;tebook öffnen…</translation>
    </message>
    <message>
        <source>Export conversation as a Note&amp;book…</source>
        <translation>Gespräch als Note&amp;book exportieren…</translation>
    </message>
    <message>
        <source>Sandbox: sending the image…</source>
        <translation>Sandbox: Image wird gesendet…</translation>
    </message>
    <message>
        <source>The sandbox image is there now.</source>
        <translation>Das Sandbox-Image ist jetzt dort.</translation>
    </message>
    <message numerus="yes">
        <source>The sandbox was stopped after %n minute(s) unused, to free its memory: variables from earlier runs are gone. The next run starts a new one; the files are kept.</source>
        <translation>
            <numerusform>Die Sandbox wurde nach %n Minute ohne Benutzung angehalten, um ihren Speicher freizugeben: Variablen früherer Läufe sind weg. Der nächste Lauf startet eine neue; die Dateien bleiben.</numerusform>
            <numerusform>Die Sandbox wurde nach %n Minuten ohne Benutzung angehalten, um ihren Speicher freizugeben: Variablen früherer Läufe sind weg. Der nächste Lauf startet eine neue; die Dateien bleiben.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sandboxes of this data folder running now (other windows&apos; and the one kept ready included) and the memory they use; an unused one stops after the time the settings give</source>
        <translation>Sandboxes dieses Datenordners, die gerade laufen (die anderer Fenster und die bereitgehaltene eingeschlossen), und der Speicher, den sie belegen; eine unbenutzte hält nach der in den Einstellungen angegebenen Zeit an</translation>
    </message>
    <message>
        <source>Sandboxes: %1</source>
        <translation>Sandboxes: %1</translation>
    </message>
    <message>
        <source>%L1 MB</source>
        <translation>%L1 MB</translation>
    </message>
</context>
<context>
    <name>Sandcastle::McpPage</name>
    <message>
        <source>MCP servers run on this computer with your permissions, not in the sandbox: add only servers you trust. Their tools are offered to the agent beside its own; each server&apos;s calls wait for your approval as set below. The list is %1, in the &quot;mcpServers&quot; notation of Claude Desktop, Cursor and LM Studio.</source>
        <translation>MCP-Server laufen auf diesem Rechner mit Ihren Rechten, nicht in der Sandbox: fügen Sie nur Server hinzu, denen Sie vertrauen. Ihre Tools werden dem Agenten neben seinen eigenen angeboten; die Aufrufe jedes Servers warten auf Ihre Zustimmung wie unten eingestellt. Die Liste ist %1, in der „mcpServers“-Schreibweise von Claude Desktop, Cursor und LM Studio.</translation>
    </message>
    <message>
        <source>Left as they are (not understood): %1</source>
        <translation>Unverändert gelassen (nicht verstanden): %1</translation>
    </message>
    <message>
        <source>Program (stdio)</source>
        <translation>Programm (stdio)</translation>
    </message>
    <message>
        <source>Address (Streamable HTTP)</source>
        <translation>Adresse (Streamable HTTP)</translation>
    </message>
    <message>
        <source>Ask before every call</source>
        <translation>Vor jedem Aufruf fragen</translation>
    </message>
    <message>
        <source>Ask once per conversation</source>
        <translation>Einmal pro Gespräch fragen</translation>
    </message>
    <message>
        <source>Never ask</source>
        <translation>Nie fragen</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Runs as</source>
        <translation>Läuft als</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Zustimmung</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Testen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: a name is 1 to 64 letters, digits, &apos;_&apos; or &apos;-&apos;</source>
        <translation>MCP-Server „%1“: ein Name besteht aus 1 bis 64 Buchstaben, Ziffern, „_“ oder „-“</translation>
    </message>
    <message>
        <source>Two MCP servers are named &quot;%1&quot;</source>
        <translation>Zwei MCP-Server heißen „%1“</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: %2</source>
        <translation>MCP-Server „%1“: %2</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet…</translation>
    </message>
    <message numerus="yes">
        <source>Answered: %1 %2, MCP %3, %n tool(s):</source>
        <translation>
            <numerusform>Geantwortet: %1 %2, MCP %3, %n Tool:</numerusform>
            <numerusform>Geantwortet: %1 %2, MCP %3, %n Tools:</numerusform>
        </translation>
    </message>
    <message>
        <source>Did not answer: %1</source>
        <translation>Keine Antwort: %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::PromptEdit</name>
    <message>
        <source>Ask anything — Enter to send, Shift+Enter for a new line</source>
        <translation>Fragen Sie etwas — Eingabe sendet, Umschalt+Eingabe für eine neue Zeile</translation>
    </message>
</context>
<context>
    <name>Sandcastle::QuickOpen</name>
    <message>
        <source>Go to file: type part of its path</source>
        <translation>Gehe zu Datei: einen Teil des Pfads eingeben</translation>
    </message>
    <message>
        <source>Reading the workspace&apos;s files…</source>
        <translation>Die Dateien des Arbeitsordners werden gelesen…</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
    <message>
        <source>(only the first %1 files were read)</source>
        <translation>(nur die ersten %1 Dateien wurden gelesen)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::SettingsDialog</name>
    <message>
        <source>Allow network access (off keeps code from reaching anything)</source>
        <translation>Netzwerkzugriff erlauben (aus: der Code erreicht nichts)</translation>
    </message>
    <message>
        <source>Run under gVisor (runsc) for a stronger boundary</source>
        <translation>Unter gVisor (runsc) ausführen, für eine stärkere Grenze</translation>
    </message>
    <message>
        <source>A fresh container for every run (slower; nothing kept between runs)</source>
        <translation>Ein frischer Container für jeden Lauf (langsamer; nichts bleibt zwischen Läufen)</translation>
    </message>
    <message>
        <source>Ask before running the agent&apos;s code (you can edit it first)</source>
        <translation>Vor dem Ausführen des Agenten-Codes fragen (Sie können ihn vorher ändern)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Ask the server which models it has</source>
        <translation>Den Server nach seinen Modellen fragen</translation>
    </message>
    <message>
        <source>set by the environment</source>
        <translation>durch die Umgebung gesetzt</translation>
    </message>
    <message>
        <source>stored in the system keychain</source>
        <translation>im Schlüsselbund des Systems gespeichert</translation>
    </message>
    <message>
        <source>Automatic (tool calls, else code blocks)</source>
        <translation>Automatisch (Tool-Aufrufe, sonst Codeblöcke)</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>Tool-Aufrufe</translation>
    </message>
    <message>
        <source>Code blocks (models without tool calling)</source>
        <translation>Codeblöcke (Modelle ohne Tool-Aufrufe)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Memory limit of the sandbox, e.g. 512m or 2g (swap is not added)</source>
        <translation>Speicherlimit der Sandbox, z. B. 512m oder 2g (ohne zusätzlichen Swap)</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>kein Limit</translation>
    </message>
    <message>
        <source>The Docker daemon has no runsc runtime</source>
        <translation>Der Docker-Daemon hat keine runsc-Laufzeit</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Tools</translation>
    </message>
    <message>
        <source>Turn limit</source>
        <translation>Rundenlimit</translation>
    </message>
    <message>
        <source>Token budget per run</source>
        <translation>Token-Budget pro Lauf</translation>
    </message>
    <message>
        <source>Run time limit</source>
        <translation>Zeitlimit pro Lauf</translation>
    </message>
    <message>
        <source>Sandbox memory</source>
        <translation>Speicher der Sandbox</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) on this server.</source>
        <translation>
            <numerusform>%n Modell auf diesem Server.</numerusform>
            <numerusform>%n Modelle auf diesem Server.</numerusform>
        </translation>
    </message>
    <message>
        <source> The key is used for this session only.</source>
        <translation> Der Schlüssel gilt nur für diese Sitzung.</translation>
    </message>
    <message>
        <source>Asking the server for its models…</source>
        <translation>Der Server wird nach seinen Modellen gefragt…</translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https://.</source>
        <translation>Die Basis-URL muss mit http:// oder https:// beginnen.</translation>
    </message>
    <message>
        <source>The memory limit is a size such as 512m or 2g.</source>
        <translation>Das Speicherlimit ist eine Größe wie 512m oder 2g.</translation>
    </message>
    <message>
        <source>Choose a model.</source>
        <translation>Wählen Sie ein Modell.</translation>
    </message>
    <message>
        <source>Prices come from models.json in the data folder</source>
        <translation>Die Preise stehen in models.json im Datenordner</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Takes effect when Sandcastle starts again</source>
        <translation>Wirkt beim nächsten Start von Sandcastle</translation>
    </message>
    <message>
        <source>Cost budget per run</source>
        <translation>Kostenbudget pro Lauf</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>How many of this machine&apos;s CPUs the sandbox may use</source>
        <translation>Wie viele CPUs dieses Rechners die Sandbox nutzen darf</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>A run that prints more than this is stopped</source>
        <translation>Ein Lauf, der mehr ausgibt, wird gestoppt</translation>
    </message>
    <message>
        <source>Sandbox CPUs</source>
        <translation>CPUs der Sandbox</translation>
    </message>
    <message>
        <source>Output cap per run</source>
        <translation>Ausgabegrenze pro Lauf</translation>
    </message>
    <message>
        <source>A run that fills the conversation&apos;s workspace past this is stopped</source>
        <translation>Ein Lauf, der den Arbeitsbereich der Unterhaltung darüber hinaus füllt, wird angehalten</translation>
    </message>
    <message>
        <source>Workspace quota</source>
        <translation>Kontingent des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>none: the package index, during the build only</source>
        <translation>keins: der Paketindex, nur während des Baus</translation>
    </message>
    <message>
        <source>A folder of wheels that a project&apos;s environment installs from alone (pip --no-index --find-links), for a machine without a package index</source>
        <translation>Ein Ordner mit Wheels, aus dem die Umgebung eines Projekts allein installiert (pip --no-index --find-links), für einen Rechner ohne Paketindex</translation>
    </message>
    <message>
        <source> min</source>
        <translation> Min.</translation>
    </message>
    <message>
        <source>A project environment&apos;s build is stopped past this, its log kept</source>
        <translation>Der Bau einer Projektumgebung wird danach gestoppt, sein Protokoll bleibt erhalten</translation>
    </message>
    <message>
        <source>Wheelhouse</source>
        <translation>Wheelhouse</translation>
    </message>
    <message>
        <source>Environment build limit</source>
        <translation>Zeitlimit für den Umgebungsbau</translation>
    </message>
    <message>
        <source>Prompt caching (Anthropic: mark the prompt so repeated input is billed less)</source>
        <translation>Prompt-Caching (Anthropic: den Prompt markieren, damit wiederholte Eingaben weniger kosten)</translation>
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
        <translation>Die API, über die das Modell aufgerufen wird. OpenAIs neueste Modelle gibt es über Responses, manche nur dort; Claude nutzt man am besten über Anthropic Messages; die meisten anderen Server sprechen Chat Completions.</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Tokens</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Anthropic extended thinking: how many tokens the model may think for before it answers (at least 1024; billed as output)</source>
        <translation>Erweitertes Denken bei Anthropic: wie viele Tokens das Modell nachdenken darf, bevor es antwortet (mindestens 1024; als Ausgabe berechnet)</translation>
    </message>
    <message>
        <source>OpenAI and most others cache by themselves; cached input shows in the status bar</source>
        <translation>OpenAI und die meisten anderen speichern von selbst zwischen; zwischengespeicherte Eingaben zeigt die Statusleiste</translation>
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
        <translation>Automatisch (%1)</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Thinking budget</source>
        <translation>Denkbudget</translation>
    </message>
    <message>
        <source>A thinking budget is at least 1024 tokens; 0 turns thinking off.</source>
        <translation>Ein Denkbudget hat mindestens 1024 Tokens; 0 schaltet das Denken aus.</translation>
    </message>
    <message>
        <source>Where the model runs: a hosted service, or a server on this machine</source>
        <translation>Wo das Modell läuft: ein gehosteter Dienst oder ein Server auf diesem Rechner</translation>
    </message>
    <message>
        <source>The server&apos;s address, up to and with /v1</source>
        <translation>Die Adresse des Servers, bis einschließlich /v1</translation>
    </message>
    <message>
        <source>Kept in the system keychain, never in a file; not needed on this machine&apos;s servers</source>
        <translation>Im Schlüsselbund des Systems gespeichert, nie in einer Datei; für Server auf diesem Rechner nicht nötig</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>How the agent runs code: tool calls, or code blocks for models without them</source>
        <translation>Wie der Agent Code ausführt: Tool-Aufrufe oder Codeblöcke für Modelle ohne sie</translation>
    </message>
    <message>
        <source>How many times one request may ask the model before the agent stops</source>
        <translation>Wie oft eine Anfrage das Modell fragen darf, bevor der Agent anhält</translation>
    </message>
    <message>
        <source>Tokens one request may use before the agent stops</source>
        <translation>Tokens, die eine Anfrage verbrauchen darf, bevor der Agent anhält</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>A run past this is stopped</source>
        <translation>Ein Lauf darüber hinaus wird gestoppt</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <source>The wheelhouse must be a folder: %1</source>
        <translation>Das Wheelhouse muss ein Ordner sein: %1</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Keep a sandbox ready for the next new conversation (not on battery)</source>
        <translation>Eine Sandbox für die nächste neue Unterhaltung bereithalten (nicht im Akkubetrieb)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Modules each new sandbox imports in the background, comma-separated, so that a first data run does not wait for them; one that is not installed is skipped</source>
        <translation>Module, die jede neue Sandbox im Hintergrund importiert, durch Kommas getrennt, damit ein erster Datenlauf nicht auf sie wartet; ein nicht installiertes wird übersprungen</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>A conversation&apos;s sandbox that is neither looked at nor used for this long is stopped to free its memory; its variables are lost and the next run starts a new one</source>
        <translation>Die Sandbox einer Unterhaltung, die so lange weder angesehen noch benutzt wird, wird angehalten, um ihren Speicher freizugeben; ihre Variablen gehen verloren und der nächste Lauf startet eine neue</translation>
    </message>
    <message>
        <source>Pre-imported modules</source>
        <translation>Vorab importierte Module</translation>
    </message>
    <message>
        <source>Stop an unused sandbox after</source>
        <translation>Unbenutzte Sandbox anhalten nach</translation>
    </message>
</context>
<context>
    <name>Sandcastle::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>Eingabe senden</translation>
    </message>
    <message>
        <source>New line in the prompt</source>
        <translation>Neue Zeile in der Eingabe</translation>
    </message>
    <message>
        <source>Earlier prompts</source>
        <translation>Frühere Eingaben</translation>
    </message>
    <message>
        <source>Run the editor&apos;s code</source>
        <translation>Code des Editors ausführen</translation>
    </message>
    <message>
        <source>Run the selection or line</source>
        <translation>Auswahl oder Zeile ausführen</translation>
    </message>
    <message>
        <source>Rename the conversation</source>
        <translation>Gespräch umbenennen</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TextViewer</name>
    <message>
        <source>Save as…</source>
        <translation>Speichern unter…</translation>
    </message>
    <message>
        <source>Save as</source>
        <translation>Speichern unter</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>Nicht gespeichert</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TranscriptDelegate</name>
    <message>
        <source>running…</source>
        <translation>läuft…</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>kein Speicher mehr</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>sandbox error</source>
        <translation>Sandbox-Fehler</translation>
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
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… %n weitere Zeile</numerusform>
            <numerusform>… %n weitere Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Files: %1</source>
        <translation>Dateien: %1</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Hide reasoning</source>
        <translation>Überlegungen ausblenden</translation>
    </message>
    <message>
        <source>Show reasoning</source>
        <translation>Überlegungen zeigen</translation>
    </message>
    <message>
        <source>Long text: %1 of %2 table rows shown</source>
        <translation>Langer Text: %1 von %2 Tabellenzeilen angezeigt</translation>
    </message>
    <message>
        <source>Long text: %1 of %2 characters shown</source>
        <translation>Langer Text: %1 von %2 Zeichen angezeigt</translation>
    </message>
    <message>
        <source>Long reasoning: %1 of %2 characters shown</source>
        <translation>Lange Überlegung: %1 von %2 Zeichen angezeigt</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>Alles anzeigen</translation>
    </message>
    <message>
        <source>Open as text</source>
        <translation>Als Text öffnen</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Speichern unter…</translation>
    </message>
    <message>
        <source>Open table as CSV</source>
        <translation>Tabelle als CSV öffnen</translation>
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
        <translation>Du</translation>
    </message>
    <message>
        <source>Sandcastle</source>
        <translation>Sandcastle</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>not finished</source>
        <translation>nicht beendet</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>Changes — click to review</source>
        <translation>Änderungen — zum Prüfen klicken</translation>
    </message>
</context>
<context>
    <name>Sandcastle::TreeMarks</name>
    <message>
        <source>Made or changed by the last run</source>
        <translation>Vom letzten Lauf erstellt oder geändert</translation>
    </message>
    <message>
        <source>Changed by the agent in the last turn</source>
        <translation>Im letzten Zug vom Agenten geändert</translation>
    </message>
    <message>
        <source>Ignored (.gitignore)</source>
        <translation>Ignoriert (.gitignore)</translation>
    </message>
    <message>
        <source>Modified since the last commit</source>
        <translation>Seit dem letzten Commit geändert</translation>
    </message>
    <message>
        <source>Added to the index, not yet committed</source>
        <translation>Zum Index hinzugefügt, noch nicht committet</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>Gelöscht</translation>
    </message>
    <message>
        <source>Renamed</source>
        <translation>Umbenannt</translation>
    </message>
    <message>
        <source>New: not tracked by git</source>
        <translation>Neu: von git nicht verfolgt</translation>
    </message>
    <message>
        <source>In conflict</source>
        <translation>Im Konflikt</translation>
    </message>
    <message>
        <source>Contains changes since the last commit</source>
        <translation>Enthält Änderungen seit dem letzten Commit</translation>
    </message>
    <message>
        <source>Deleted here since the last commit: %1</source>
        <translation>Hier seit dem letzten Commit gelöscht: %1</translation>
    </message>
</context>
<context>
    <name>Sandcastle::WelcomePanel</name>
    <message>
        <source>Welcome to Sandcastle</source>
        <translation>Willkommen bei Sandcastle</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Use OpenAI or another provider…</source>
        <translation>OpenAI oder einen anderen Anbieter verwenden…</translation>
    </message>
    <message>
        <source>Choose a model to talk to. Your code runs in a sandbox on this machine.</source>
        <translation>Wählen Sie ein Modell. Ihr Code läuft in einer Sandbox auf diesem Rechner.</translation>
    </message>
    <message>
        <source>Looking for model servers on this machine (Ollama, llama.cpp, LM Studio, vLLM)…</source>
        <translation>Suche nach Modellservern auf diesem Rechner (Ollama, llama.cpp, LM Studio, vLLM)…</translation>
    </message>
    <message>
        <source>No model server answers on this machine. Start one (for example `ollama serve`), or use a hosted provider:</source>
        <translation>Kein Modellserver antwortet auf diesem Rechner. Starten Sie einen (zum Beispiel `ollama serve`) oder nutzen Sie einen Anbieter im Netz:</translation>
    </message>
    <message>
        <source>Found on this machine:</source>
        <translation>Auf diesem Rechner gefunden:</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weiteres</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Use %1 (%2)</source>
        <translation>%1 verwenden (%2)</translation>
    </message>
</context>
<context>
    <name>Sandcastle::WorkspaceModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Git</source>
        <translation>Git</translation>
    </message>
</context>
</TS>
