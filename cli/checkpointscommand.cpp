#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/project/checkpoints.h>
#include <app/project/pendingnotes.h>
#include <app/store/conversationstore.h>

#include <QCommandLineParser>
#include <QDateTime>

namespace Sandcastle::Cli {

namespace {

struct CheckpointsAction
{
    Checkpoints &checkpoints;
    ConversationStore &store;
    QString conversationId;
    QStringList words; // after the conversation id
    bool json = false;
    bool yes = false;
    bool before = false;
};

nlohmann::ordered_json changeJson(const CheckpointChange &change)
{
    return {{"path", utf8(change.path)},
            {"status", std::string(1, change.status)},
            {"added", change.added},
            {"removed", change.removed},
            {"binary", change.binary}};
}

QString changeLine(const CheckpointChange &change)
{
    return change.binary ? QStringLiteral("  %1 %2 (binary)\n")
                               .arg(QLatin1Char(change.status))
                               .arg(change.path)
                         : QStringLiteral("  %1 %2 +%3 -%4\n")
                               .arg(QLatin1Char(change.status))
                               .arg(change.path)
                               .arg(change.added)
                               .arg(change.removed);
}

QString skippedNote(const Checkpoint &step)
{
    QStringList names;
    for (const SkippedFile &file : step.skipped)
        names << QStringLiteral("%1 (%2 MB)").arg(file.path).arg(file.size / (1024 * 1024));
    return names.isEmpty() ? QString()
                           : QStringLiteral("  not recorded (over the size cap): %1\n")
                                 .arg(names.join(QStringLiteral(", ")));
}

int list(const CheckpointsAction &a)
{
    const Result<QList<Checkpoint>> steps = a.checkpoints.list();
    if (!steps)
        return failure(steps.error());
    for (const Checkpoint &step : steps.value()) {
        const Result<QList<CheckpointChange>> changes = a.checkpoints.changes(step);
        if (!changes)
            return failure(changes.error());
        int added = 0;
        int removed = 0;
        for (const CheckpointChange &change : changes.value()) {
            added += change.added;
            removed += change.removed;
        }
        if (a.json) {
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            for (const CheckpointChange &change : changes.value())
                files.push_back(changeJson(change));
            nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
            for (const SkippedFile &file : step.skipped)
                skipped.push_back({{"path", utf8(file.path)}, {"size", file.size}});
            emitJson({{"type", "checkpoint"},
                      {"number", step.number},
                      {"id", utf8(step.id)},
                      {"before", utf8(step.before)},
                      {"kind", utf8(step.kind)},
                      {"label", utf8(step.label)},
                      {"turn", step.turn},
                      {"time_ms", step.timeMs},
                      {"files", files},
                      {"added", added},
                      {"removed", removed},
                      {"skipped", skipped}});
            continue;
        }
        writeOut(QStringLiteral("%1  %2  %3  %4 files changed, +%5 -%6  %7\n")
                     .arg(step.number, 3)
                     .arg(QDateTime::fromMSecsSinceEpoch(step.timeMs)
                              .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")),
                          step.kind.leftJustified(7))
                     .arg(changes.value().size())
                     .arg(added)
                     .arg(removed)
                     .arg(step.label.section(QLatin1Char('\n'), 0, 0).left(60)));
        for (const CheckpointChange &change : changes.value())
            writeOut(changeLine(change));
        writeOut(skippedNote(step));
    }
    return kExitOk;
}

Result<Checkpoint> step(const CheckpointsAction &a, const QString &shape)
{
    if (a.words.size() < 1)
        return Result<Checkpoint>::failure(QStringLiteral("which checkpoint? checkpoints ")
                                           + shape);
    return a.checkpoints.find(a.words.at(0));
}

int diff(const CheckpointsAction &a)
{
    if (a.words.size() > 2)
        return usageError(QStringLiteral("checkpoints diff ID N [FILE]"));
    const Result<Checkpoint> found = step(a, QStringLiteral("diff ID N [FILE]"));
    if (!found)
        return failure(found.error());
    const QString file = a.words.value(1);
    const Result<QByteArray> patch
        = a.checkpoints.diff(found.value().before, found.value().id, file);
    if (!patch)
        return failure(patch.error());
    if (a.json) {
        const Result<QList<CheckpointChange>> changes = a.checkpoints.changes(found.value());
        if (!changes)
            return failure(changes.error());
        nlohmann::ordered_json files = nlohmann::ordered_json::array();
        for (const CheckpointChange &change : changes.value()) {
            if (file.isEmpty() || change.path == file)
                files.push_back(changeJson(change));
        }
        emitJson({{"type", "diff"},
                  {"number", found.value().number},
                  {"files", files},
                  {"patch", patch.value().toStdString()}});
    } else {
        writeOut(QString::fromUtf8(patch.value()));
        writeOut(skippedNote(found.value()));
    }
    return kExitOk;
}

// Asks first: a change of the person's since the last step, or a later step's, would be lost.
bool mayOverwrite(const CheckpointsAction &a, const QStringList &edited, const QStringList &later)
{
    if (a.yes || (edited.isEmpty() && later.isEmpty()))
        return true;
    if (!edited.isEmpty())
        writeErr(QStringLiteral("sandcastle: changed since the last checkpoint (not by the agent): "
                                "%1\n")
                     .arg(edited.join(QStringLiteral(", "))));
    if (!later.isEmpty())
        writeErr(QStringLiteral("sandcastle: changed again by a later step: %1\n")
                     .arg(later.join(QStringLiteral(", "))));
    writeErr(QStringLiteral("sandcastle: these changes would be overwritten; run again with --yes "
                            "to go ahead (the undo itself can be undone)\n"));
    return false;
}

int report(const CheckpointsAction &a, const Result<Checkpoint> &done, const QString &what)
{
    if (!done)
        return failure(done.error());
    const Result<QList<CheckpointChange>> changes = a.checkpoints.changes(done.value());
    const QList<CheckpointChange> files = changes ? changes.value() : QList<CheckpointChange>();
    // The agent hears of it with the next message of this conversation.
    PendingNotes::append(
        a.store,
        a.conversationId,
        PendingNotes::restored(what + QStringLiteral(" (from the command line)"), files));
    if (a.json) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const CheckpointChange &change : files)
            list.push_back(changeJson(change));
        emitJson({{"type", "restored"}, {"number", done.value().number}, {"files", list}});
    } else {
        writeOut(QStringLiteral("%1: %2 files put back (checkpoint %3; undo it with `checkpoints "
                                "undo %4 %3`)\n")
                     .arg(what)
                     .arg(files.size())
                     .arg(done.value().number)
                     .arg(a.conversationId));
        writeOut(QStringLiteral("Variables in the Python session were not rewound.\n"));
    }
    return kExitOk;
}

int undo(const CheckpointsAction &a)
{
    if (a.words.size() != 1)
        return usageError(QStringLiteral("checkpoints undo ID N [--yes]"));
    const Result<Checkpoint> found = step(a, QStringLiteral("undo ID N"));
    if (!found)
        return failure(found.error());
    const Result<Checkpoints::UndoPlan> plan = a.checkpoints.planUndo(found.value());
    if (!plan)
        return failure(plan.error());
    if (!mayOverwrite(a, plan.value().editedSince, plan.value().changedLater))
        return kExitFailure;
    return report(a,
                  a.checkpoints.undo(found.value()),
                  QStringLiteral("undid checkpoint %1").arg(found.value().number));
}

int restore(const CheckpointsAction &a)
{
    if (a.words.size() != 1)
        return usageError(QStringLiteral("checkpoints restore ID N [--before] [--yes]"));
    const Result<Checkpoint> found = step(a, QStringLiteral("restore ID N"));
    if (!found)
        return failure(found.error());
    const Result<QStringList> edited = a.checkpoints.editedSinceLast();
    if (!edited)
        return failure(edited.error());
    if (!mayOverwrite(a, edited.value(), {}))
        return kExitFailure;
    const Checkpoint &target = found.value();
    const QString what
        = a.before
              ? QStringLiteral("restored the folder to before checkpoint %1").arg(target.number)
              : QStringLiteral("restored the folder to checkpoint %1").arg(target.number);
    return report(a,
                  a.checkpoints.restore(a.before ? target.before : target.id,
                                        what.left(1).toUpper() + what.mid(1)),
                  what);
}

} // namespace

int runCheckpoints(const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("one JSON object per line"));
    const QCommandLineOption yes(QStringLiteral("yes"),
                                 QStringLiteral("overwrite changes made since without asking"));
    const QCommandLineOption before(QStringLiteral("before"),
                                    QStringLiteral("restore to the state before the checkpoint"));
    parser.addOptions({json, yes, before});
    if (!parseOptions(parser, QStringLiteral("checkpoints"), args))
        return kExitUsage;
    const QStringList words = parser.positionalArguments();
    const QString action = words.value(0);
    static const QStringList actions{QStringLiteral("list"),
                                     QStringLiteral("diff"),
                                     QStringLiteral("undo"),
                                     QStringLiteral("restore")};
    if (!actions.contains(action))
        return usageError(action.isEmpty()
                              ? QStringLiteral("checkpoints needs list, diff, undo or restore")
                              : QStringLiteral("unknown checkpoints action: ") + action);
    if (words.size() < 2)
        return usageError(QStringLiteral("checkpoints %1 needs a conversation ID").arg(action));
    if (parser.isSet(before) && action != QLatin1String("restore"))
        return usageError(QStringLiteral("--before goes with restore"));
    const AppSettings settings = AppSettings::load();
    ConversationStore store;
    const Result<bool> opened = openStore(store, settings);
    if (!opened)
        return failure(opened.error());
    const Result<ConversationInfo> info = store.conversation(words.at(1));
    if (!info)
        return failure(info.error());
    Checkpoints checkpoints(settings.dataDir, info.value().workspace, info.value().id);
    const CheckpointsAction a{checkpoints,
                              store,
                              info.value().id,
                              words.mid(2),
                              parser.isSet(json),
                              parser.isSet(yes),
                              parser.isSet(before)};
    if (action == QLatin1String("list"))
        return a.words.isEmpty() ? list(a) : usageError(QStringLiteral("checkpoints list ID"));
    if (action == QLatin1String("diff"))
        return diff(a);
    if (action == QLatin1String("undo"))
        return undo(a);
    return restore(a);
}

} // namespace Sandcastle::Cli
