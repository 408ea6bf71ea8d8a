#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationmanager.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>

#include <QCommandLineParser>

namespace Sandcastle::Cli {

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
    parser.addOptions({json, markdownFile, bundleDir});
    if (!parseOptions(parser, QStringLiteral("conversations"), args))
        return kExitUsage;
    const QStringList words = parser.positionalArguments();
    const QString action = words.value(0, QStringLiteral("list"));
    auto needs = [&](int count, const QString &shape) {
        if (words.size() == count)
            return true;
        usageError(QStringLiteral("conversations ") + shape);
        return false;
    };
    const AppSettings settings = AppSettings::load();
    ConversationStore store;
    const Result<bool> opened = openStore(store, settings);
    if (!opened) {
        writeErr(QStringLiteral("sandcastle: ") + opened.error() + QLatin1Char('\n'));
        return kExitFailure;
    }
    auto fail = [](const QString &message) {
        writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
        return kExitFailure;
    };
    if (action == QLatin1String("list"))
        return needs(words.isEmpty() ? 0 : 1, QStringLiteral("list"))
                   ? listConversations(store, parser.isSet(json))
                   : kExitUsage;
    if (action == QLatin1String("search")) {
        if (words.size() < 2)
            return usageError(QStringLiteral("conversations search TEXT"));
        const Result<QList<SearchHit>> hits = store.search(words.mid(1).join(QLatin1Char(' ')));
        if (!hits)
            return fail(hits.error());
        for (const SearchHit &hit : hits.value()) {
            if (parser.isSet(json))
                emitJson({{"type", "hit"},
                          {"conversation", utf8(hit.conversationId)},
                          {"title", utf8(hit.title)},
                          {"role", utf8(hit.role)},
                          {"snippet", utf8(hit.snippet)}});
            else
                writeOut(
                    QStringLiteral("%1  %2  (%3) %4\n")
                        .arg(hit.conversationId, hit.title, hit.role, hit.snippet.simplified()));
        }
        return hits.value().isEmpty() ? kExitFailure : kExitOk;
    }
    if (action == QLatin1String("show")) {
        if (!needs(2, QStringLiteral("show ID")))
            return kExitUsage;
        const Result<QString> text = ConversationExport::markdown(store, words.at(1));
        if (!text)
            return fail(text.error());
        writeOut(text.value());
        return kExitOk;
    }
    if (action == QLatin1String("rename")) {
        if (words.size() < 3)
            return usageError(QStringLiteral("conversations rename ID TITLE"));
        const Result<bool> renamed = store.rename(words.at(1), words.mid(2).join(QLatin1Char(' ')));
        return renamed ? kExitOk : fail(renamed.error());
    }
    if (action == QLatin1String("delete")) {
        if (!needs(2, QStringLiteral("delete ID")))
            return kExitUsage;
        const Result<QString> removed
            = ConversationManager::remove(store,
                                          ContainerEngine(settings.engine, settings.engineContext),
                                          settings.dataDir,
                                          words.at(1));
        if (!removed)
            return fail(removed.error());
        if (!removed.value().isEmpty())
            writeErr(QStringLiteral("sandcastle: note: ") + removed.value() + QLatin1Char('\n'));
        return kExitOk;
    }
    if (action == QLatin1String("export")) {
        if (!needs(2, QStringLiteral("export ID (--markdown FILE | --bundle DIR)")))
            return kExitUsage;
        if (parser.isSet(markdownFile) == parser.isSet(bundleDir))
            return usageError(
                QStringLiteral("export takes either --markdown FILE or --bundle DIR"));
        const QString id = words.at(1);
        if (parser.isSet(bundleDir)) {
            const Result<QStringList> written
                = ConversationExport::bundle(store, id, parser.value(bundleDir));
            if (!written)
                return fail(written.error());
            writeOut(QStringLiteral("exported %1 files to %2\n")
                         .arg(written.value().size())
                         .arg(parser.value(bundleDir)));
            return kExitOk;
        }
        const Result<bool> written
            = ConversationExport::writeMarkdown(store, id, parser.value(markdownFile));
        if (!written)
            return fail(written.error());
        return kExitOk;
    }
    return usageError(QStringLiteral("unknown conversations action: ") + action);
}

} // namespace Sandcastle::Cli
