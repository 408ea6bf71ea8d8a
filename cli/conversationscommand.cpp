#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/notebook/notebookexport.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>

#include <QCommandLineParser>

namespace Sandcastle::Cli {

namespace {

// One `conversations` action: the words after `conversations` and what it needs.
struct Action
{
    const AppSettings &settings;
    ConversationStore &store;
    const QStringList &words;
    bool json = false;
    QString markdownFile; // export --markdown
    QString bundleDir;    // export --bundle
    QString notebookFile; // export --notebook
    bool exportMarkdown = false;
    bool exportBundle = false;
    bool exportNotebook = false;

    // True when there are exactly `count` words; otherwise prints the shape and says no.
    bool needs(int count, const QString &shape) const
    {
        if (words.size() == count)
            return true;
        usageError(QStringLiteral("conversations ") + shape);
        return false;
    }
};

int search(const Action &a)
{
    if (a.words.size() < 2)
        return usageError(QStringLiteral("conversations search TEXT"));
    const Result<QList<SearchHit>> hits = a.store.search(a.words.mid(1).join(QLatin1Char(' ')));
    if (!hits)
        return failure(hits.error());
    for (const SearchHit &hit : hits.value()) {
        if (a.json)
            emitJson({{"type", "hit"},
                      {"conversation", utf8(hit.conversationId)},
                      {"title", utf8(hit.title)},
                      {"role", utf8(hit.role)},
                      {"snippet", utf8(hit.snippet)}});
        else
            writeOut(QStringLiteral("%1  %2  (%3) %4\n")
                         .arg(hit.conversationId, hit.title, hit.role, hit.snippet.simplified()));
    }
    return hits.value().isEmpty() ? kExitFailure : kExitOk;
}

int showConversation(const Action &a)
{
    if (!a.needs(2, QStringLiteral("show ID")))
        return kExitUsage;
    const Result<QString> text = ConversationExport::markdown(a.store, a.words.at(1));
    if (!text)
        return failure(text.error());
    writeOut(text.value());
    return kExitOk;
}

int rename(const Action &a)
{
    if (a.words.size() < 3)
        return usageError(QStringLiteral("conversations rename ID TITLE"));
    const Result<bool> renamed
        = a.store.rename(a.words.at(1), a.words.mid(2).join(QLatin1Char(' ')));
    return renamed ? kExitOk : failure(renamed.error());
}

int remove(const Action &a)
{
    if (!a.needs(2, QStringLiteral("delete ID")))
        return kExitUsage;
    // The command line may wait for the engine: nothing else waits for it.
    const Result<QString> removed
        = ConversationRemoval::remove(a.store,
                                      ContainerEngine(a.settings.engine, a.settings.engineContext),
                                      a.settings.dataDir,
                                      a.words.at(1));
    if (!removed)
        return failure(removed.error());
    if (!removed.value().isEmpty())
        writeErr(QStringLiteral("sandcastle: note: ") + removed.value() + QLatin1Char('\n'));
    return kExitOk;
}

int exportTo(const Action &a)
{
    if (!a.needs(2, QStringLiteral("export ID (--markdown FILE | --bundle DIR | --notebook FILE)")))
        return kExitUsage;
    if (int(a.exportMarkdown) + int(a.exportBundle) + int(a.exportNotebook) != 1)
        return usageError(QStringLiteral(
            "export takes exactly one of --markdown FILE, --bundle DIR and --notebook FILE"));
    const QString id = a.words.at(1);
    if (a.exportNotebook) {
        const Result<bool> written = NotebookExport::writeNotebook(a.store, id, a.notebookFile);
        return written ? kExitOk : failure(written.error());
    }
    if (a.exportBundle) {
        const Result<QStringList> written = ConversationExport::bundle(a.store, id, a.bundleDir);
        if (!written)
            return failure(written.error());
        writeOut(QStringLiteral("exported %1 files to %2\n")
                     .arg(written.value().size())
                     .arg(a.bundleDir));
        return kExitOk;
    }
    const Result<bool> written = ConversationExport::writeMarkdown(a.store, id, a.markdownFile);
    return written ? kExitOk : failure(written.error());
}

} // namespace

int runConversations(const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("one JSON object per line"));
    const QCommandLineOption markdownFile(
        QStringLiteral("markdown"), QStringLiteral("export as Markdown"), QStringLiteral("FILE"));
    const QCommandLineOption bundleDir(QStringLiteral("bundle"),
                                       QStringLiteral("export as a re-runnable folder"),
                                       QStringLiteral("DIR"));
    const QCommandLineOption notebookFile(QStringLiteral("notebook"),
                                          QStringLiteral("export as a Jupyter notebook (.ipynb)"),
                                          QStringLiteral("FILE"));
    parser.addOptions({json, markdownFile, bundleDir, notebookFile});
    if (!parseOptions(parser, QStringLiteral("conversations"), args))
        return kExitUsage;
    const QStringList words = parser.positionalArguments();
    const QString action = words.value(0, QStringLiteral("list"));
    const AppSettings settings = AppSettings::load();
    ConversationStore store;
    const Result<bool> opened = openStore(store, settings);
    if (!opened)
        return failure(opened.error());
    const Action a{settings,
                   store,
                   words,
                   parser.isSet(json),
                   parser.value(markdownFile),
                   parser.value(bundleDir),
                   parser.value(notebookFile),
                   parser.isSet(markdownFile),
                   parser.isSet(bundleDir),
                   parser.isSet(notebookFile)};
    if (action == QLatin1String("list"))
        return a.needs(words.isEmpty() ? 0 : 1, QStringLiteral("list"))
                   ? listConversations(store, a.json)
                   : kExitUsage;
    if (action == QLatin1String("search"))
        return search(a);
    if (action == QLatin1String("show"))
        return showConversation(a);
    if (action == QLatin1String("rename"))
        return rename(a);
    if (action == QLatin1String("delete"))
        return remove(a);
    if (action == QLatin1String("export"))
        return exportTo(a);
    return usageError(QStringLiteral("unknown conversations action: ") + action);
}

} // namespace Sandcastle::Cli
