#include "checkpoints.h"

#include "checkpointfiles.h"
#include "shadowgit.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QSet>
#include <base/jsonfields.h>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

namespace Sandcastle {

namespace {

using json = nlohmann::json;

QString safeRefPart(const QString &conversationId)
{
    QString out;
    for (const QChar c : conversationId)
        out += c.isLetterOrNumber() || c == QLatin1Char('-') ? c : QLatin1Char('_');
    return out.isEmpty() ? QStringLiteral("_") : out;
}

qint64 integerOf(const json &object, const char *key, qint64 fallback)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<qint64>() : fallback;
}

json skippedJson(const QList<SkippedFile> &skipped)
{
    json list = json::array();
    for (const SkippedFile &file : skipped)
        list.push_back({{"path", file.path.toStdString()}, {"size", file.size}});
    return list;
}

QList<SkippedFile> skippedFrom(const json &list)
{
    QList<SkippedFile> skipped;
    if (!list.is_array())
        return skipped;
    for (const json &item : list) {
        if (item.is_object() && item.value("path", json()).is_string())
            skipped.append({QString::fromStdString(item["path"].get<std::string>()),
                            integerOf(item, "size", 0)});
    }
    return skipped;
}

// A commit's metadata: the last line of its message.
json metadataOf(const QByteArray &message)
{
    const QByteArray trimmed = message.trimmed();
    const QByteArray last = trimmed.mid(trimmed.lastIndexOf('\n') + 1);
    return json::parse(last.constData(), last.constData() + last.size(), nullptr, false);
}

} // namespace

Checkpoints::Checkpoints(const QString &dataDir,
                         const QString &workspace,
                         const QString &conversationId,
                         qint64 maxFileBytes)
    : m_workspace(QDir(workspace).absolutePath())
    , m_ref(QStringLiteral("refs/sandcastle/") + safeRefPart(conversationId))
    , m_maxFileBytes(maxFileBytes)
{
    const QString repo = repositoryFor(dataDir, m_workspace);
    m_git = new ShadowGit(
        repo, m_workspace, repo + QStringLiteral("/index-") + safeRefPart(conversationId));
}

Checkpoints::~Checkpoints()
{
    delete m_git;
}

QString Checkpoints::repositoryFor(const QString &dataDir, const QString &workspace)
{
    const QByteArray key = QCryptographicHash::hash(
        QFile::encodeName(QDir(workspace).absolutePath()), QCryptographicHash::Sha1);
    return dataDir + QStringLiteral("/checkpoints/") + QString::fromLatin1(key.toHex().left(20));
}

QString Checkpoints::repository() const
{
    return m_git->gitDir();
}

Result<bool> Checkpoints::forget()
{
    const QString repo = m_git->gitDir();
    if (!QFile::exists(repo + QStringLiteral("/HEAD")))
        return Result<bool>::ok(true);
    const Result<ShadowGit::Output> deleted = m_git->run(
        {QStringLiteral("update-ref"), QStringLiteral("-d"), m_ref}, QByteArray(), true);
    if (!deleted)
        return Result<bool>::failure(deleted.error());
    QFile::remove(m_git->indexFile());
    const Result<ShadowGit::Output> left = m_git->run(
        {QStringLiteral("for-each-ref"), QStringLiteral("--count=1"), QStringLiteral("refs/")});
    if (left && left.value().out.trimmed().isEmpty() && !QDir(repo).removeRecursively())
        return Result<bool>::failure(QStringLiteral("cannot remove %1").arg(repo));
    return Result<bool>::ok(true);
}

Result<Checkpoints::Snapshot> Checkpoints::snapshot()
{
    if (!QFileInfo(m_workspace).isDir())
        return Result<Snapshot>::failure(
            QStringLiteral("the folder %1 is gone (deleted or moved?)").arg(m_workspace));
    const Result<bool> ready = m_git->ensureRepository();
    if (!ready)
        return Result<Snapshot>::failure(ready.error());
    // What may have changed since the index last saw it: the only files looked at for size.
    const Result<ShadowGit::Output> candidates = m_git->run({QStringLiteral("ls-files"),
                                                             QStringLiteral("-z"),
                                                             QStringLiteral("-t"),
                                                             QStringLiteral("--modified"),
                                                             QStringLiteral("--deleted"),
                                                             QStringLiteral("--others"),
                                                             QStringLiteral("--exclude-standard")});
    if (!candidates)
        return Result<Snapshot>::failure(candidates.error());
    Snapshot snap;
    // Only these paths are given to the index: no second walk of the tree. Tagged by git:
    // "R " gone (deleted, or behind a link now: never looked at through it), "C " changed,
    // "? " new.
    QByteArray update;
    QByteArray remove;
    QSet<QByteArray> gone;
    const QList<QByteArray> tagged = ShadowGit::records(candidates.value().out);
    for (const QByteArray &entry : tagged) {
        if (entry.startsWith("R "))
            gone.insert(entry.mid(2));
    }
    for (const QByteArray &name : std::as_const(gone))
        remove += name + '\0';
    QSet<QByteArray> seen;
    for (const QByteArray &entry : tagged) {
        const QByteArray name = entry.mid(2);
        // A folder with a .git of its own is someone's other repository: not looked into.
        if (entry.startsWith("R ") || name.endsWith('/') || gone.contains(name)
            || seen.contains(name))
            continue;
        seen.insert(name);
        struct stat st
        {
        };
        const QByteArray full = QFile::encodeName(m_workspace) + '/' + name;
        const bool exists = ::lstat(full.constData(), &st) == 0;
        if (!exists || S_ISDIR(st.st_mode)) {
            remove += name + '\0'; // a file a folder took the place of: its files come as new
        } else if (S_ISREG(st.st_mode) && qint64(st.st_size) > m_maxFileBytes) {
            snap.skipped.append({QString::fromUtf8(name), qint64(st.st_size)});
            remove += name + '\0'; // out of the index, if it was small before
        } else {
            update += name + '\0';
        }
    }
    // Removals first: a folder the code replaced with a file (or a link) of the same name.
    const std::pair<QByteArray, QStringList> batches[]
        = {{remove, {QStringLiteral("--force-remove")}},
           {update, {QStringLiteral("--add"), QStringLiteral("--remove")}}};
    for (const auto &[paths, mode] : batches) {
        if (paths.isEmpty())
            continue;
        const Result<ShadowGit::Output> done
            = m_git->run(QStringList{QStringLiteral("update-index")} + mode
                             + QStringList{QStringLiteral("-z"), QStringLiteral("--stdin")},
                         paths);
        if (!done)
            return Result<Snapshot>::failure(done.error());
    }
    const Result<QString> tree = m_git->line({QStringLiteral("write-tree")});
    if (!tree)
        return Result<Snapshot>::failure(tree.error());
    snap.tree = tree.value();
    return Result<Snapshot>::ok(snap);
}

Result<Checkpoints::Head> Checkpoints::head() const
{
    Head tip;
    if (!QFile::exists(m_git->gitDir() + QStringLiteral("/HEAD")))
        return Result<Head>::ok(tip); // nothing recorded yet
    const Result<ShadowGit::Output> out = m_git->run({QStringLiteral("log"),
                                                      QStringLiteral("-1"),
                                                      QStringLiteral("--format=%H%x1f%P%x1f%B"),
                                                      m_ref,
                                                      QStringLiteral("--")},
                                                     QByteArray(),
                                                     true);
    if (!out)
        return Result<Head>::failure(out.error());
    if (out.value().exitCode != 0)
        return Result<Head>::ok(tip); // no step in this conversation yet
    const QList<QByteArray> fields = out.value().out.split('\x1f');
    tip.id = QString::fromLatin1(fields.value(0).trimmed());
    tip.parent = QString::fromLatin1(fields.value(1).trimmed().split(' ').value(0));
    tip.meta = metadataOf(fields.value(2));
    if (!tip.meta.is_object())
        tip.meta = json::object();
    return Result<Head>::ok(tip);
}

Checkpoint Checkpoints::stepFrom(const QString &id, const QString &parent, const json &meta)
{
    Checkpoint step;
    step.id = id;
    step.before = parent;
    step.number = int(integerOf(meta, "number", 0));
    step.kind = jsonString(meta, "kind");
    step.label = jsonString(meta, "label");
    step.turn = int(integerOf(meta, "turn", -1));
    step.timeMs = integerOf(meta, "time", 0);
    step.skipped = skippedFrom(meta.value("skipped", json()));
    step.undoes = jsonString(meta, "undoes");
    return step;
}

Result<QString> Checkpoints::commit(const QString &tree,
                                    const QString &parent,
                                    const QString &label,
                                    const QString &metadata)
{
    QStringList args{QStringLiteral("commit-tree"), tree};
    if (!parent.isEmpty())
        args << QStringLiteral("-p") << parent;
    args << QStringLiteral("-F") << QStringLiteral("-");
    QString firstLine = label.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (firstLine.isEmpty())
        firstLine = QStringLiteral("(no label)");
    Result<QString> id = m_git->line(
        args, (firstLine + QStringLiteral("\n\n") + metadata + QLatin1Char('\n')).toUtf8());
    if (!id)
        return id;
    // Only from the head this step saw: a second writer in between is an error, not a loss.
    const Result<ShadowGit::Output> moved = m_git->run(
        {QStringLiteral("update-ref"),
         m_ref,
         id.value(),
         parent.isEmpty() ? QStringLiteral("0000000000000000000000000000000000000000") : parent});
    if (!moved)
        return Result<QString>::failure(moved.error());
    return id;
}

Result<bool> Checkpoints::prepare()
{
    const Result<Snapshot> snap = snapshot();
    return snap ? Result<bool>::ok(true) : Result<bool>::failure(snap.error());
}

Result<QString> Checkpoints::begin(const QString &kind, const QString &label, int turn)
{
    return beginStep(kind, label, turn, QString());
}

Result<QString>
Checkpoints::beginStep(const QString &kind, const QString &label, int turn, const QString &undoes)
{
    const Result<Snapshot> snap = snapshot();
    if (!snap)
        return Result<QString>::failure(snap.error());
    const Result<Head> tip = head();
    if (!tip)
        return Result<QString>::failure(tip.error());
    // Numbered after the last step that ended (a begin a crash left alone counts for nothing).
    const json &last = tip.value().meta;
    int number = int(integerOf(last, "number", 0));
    if (last.value("phase", std::string()) == "begin")
        --number;
    const json meta{{"phase", "begin"},
                    {"number", number + 1},
                    {"kind", kind.toStdString()},
                    {"label", label.toStdString()},
                    {"turn", turn},
                    {"time", QDateTime::currentMSecsSinceEpoch()},
                    {"skipped", skippedJson(snap.value().skipped)},
                    {"undoes", undoes.toStdString()}};
    return commit(snap.value().tree, tip.value().id, label, QString::fromStdString(meta.dump()));
}

Result<Checkpoint> Checkpoints::end()
{
    const Result<Head> tip = head();
    if (!tip)
        return Result<Checkpoint>::failure(tip.error());
    json meta = tip.value().meta;
    if (tip.value().id.isEmpty() || meta.value("phase", std::string()) != "begin")
        return Result<Checkpoint>::failure(QStringLiteral("no step was begun"));
    const Result<Snapshot> snap = snapshot();
    if (!snap)
        return Result<Checkpoint>::failure(snap.error());
    meta["phase"] = "end";
    meta["time"] = QDateTime::currentMSecsSinceEpoch();
    meta["skipped"] = skippedJson(snap.value().skipped);
    const Result<QString> id = commit(snap.value().tree,
                                      tip.value().id,
                                      jsonString(meta, "label"),
                                      QString::fromStdString(meta.dump()));
    if (!id)
        return Result<Checkpoint>::failure(id.error());
    return Result<Checkpoint>::ok(stepFrom(id.value(), tip.value().id, meta));
}

Result<QList<Checkpoint>> Checkpoints::list() const
{
    const Result<Head> tip = head();
    if (!tip)
        return Result<QList<Checkpoint>>::failure(tip.error());
    QList<Checkpoint> steps;
    if (tip.value().id.isEmpty())
        return Result<QList<Checkpoint>>::ok(steps);
    const Result<ShadowGit::Output> log = m_git->run({QStringLiteral("log"),
                                                      QStringLiteral("--first-parent"),
                                                      QStringLiteral("--reverse"),
                                                      QStringLiteral("--format=%x1e%H%x1f%P%x1f%B"),
                                                      tip.value().id});
    if (!log)
        return Result<QList<Checkpoint>>::failure(log.error());
    for (const QByteArray &record : log.value().out.split('\x1e')) {
        const QList<QByteArray> fields = record.split('\x1f');
        if (fields.size() < 3)
            continue;
        const json meta = metadataOf(fields[2]);
        if (!meta.is_object() || meta.value("phase", std::string()) != "end")
            continue;
        steps << stepFrom(QString::fromLatin1(fields[0].trimmed()),
                          QString::fromLatin1(fields[1].trimmed().split(' ').value(0)),
                          meta);
        if (steps.last().number <= 0)
            steps.last().number = int(steps.size());
    }
    return Result<QList<Checkpoint>>::ok(steps);
}

Result<Checkpoint> Checkpoints::find(const QString &which) const
{
    const Result<QList<Checkpoint>> all = list();
    if (!all)
        return Result<Checkpoint>::failure(all.error());
    bool isNumber = false;
    const int number = which.toInt(&isNumber);
    QList<Checkpoint> found;
    for (const Checkpoint &step : all.value()) {
        if ((isNumber && step.number == number)
            || (!isNumber && which.size() >= 4 && step.id.startsWith(which)))
            found << step;
    }
    if (found.size() == 1)
        return Result<Checkpoint>::ok(found.first());
    if (found.isEmpty())
        return Result<Checkpoint>::failure(
            QStringLiteral("no checkpoint %1 (this conversation has %2)")
                .arg(which)
                .arg(all.value().size()));
    return Result<Checkpoint>::failure(
        QStringLiteral("%1 names more than one checkpoint").arg(which));
}

Result<QList<CheckpointChange>> Checkpoints::changes(const Checkpoint &step) const
{
    Result<QList<CheckpointChange>> all = changes(step.before, step.id);
    if (!all || step.skipped.isEmpty())
        return all;
    QSet<QString> skipped;
    for (const SkippedFile &file : step.skipped)
        skipped.insert(file.path);
    QList<CheckpointChange> kept;
    for (const CheckpointChange &change : all.value()) {
        if (!skipped.contains(change.path))
            kept << change;
    }
    return Result<QList<CheckpointChange>>::ok(kept);
}

Result<QList<CheckpointChange>> Checkpoints::changes(const QString &from, const QString &to) const
{
    const Result<ShadowGit::Output> out = m_git->run({QStringLiteral("diff-tree"),
                                                      QStringLiteral("-r"),
                                                      QStringLiteral("-z"),
                                                      QStringLiteral("--no-renames"),
                                                      QStringLiteral("--raw"),
                                                      QStringLiteral("--numstat"),
                                                      from,
                                                      to});
    if (!out)
        return Result<QList<CheckpointChange>>::failure(out.error());
    // Raw records (":old new a b S\0path\0") first, then numstat ones ("a\tb\tpath\0").
    QList<CheckpointChange> list;
    QHash<QString, qsizetype> at;
    const QList<QByteArray> parts = ShadowGit::records(out.value().out);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QByteArray &part = parts[i];
        if (part.startsWith(':') && i + 1 < parts.size()) {
            const QList<QByteArray> raw = part.split(' ');
            CheckpointChange change;
            change.path = QString::fromUtf8(parts[++i]);
            change.status = raw.value(4).isEmpty() ? 'M' : raw.value(4).at(0);
            at.insert(change.path, list.size());
            list << change;
        } else {
            const QList<QByteArray> stat = part.split('\t');
            if (stat.size() < 3)
                continue;
            const QString path = QString::fromUtf8(part.mid(stat[0].size() + stat[1].size() + 2));
            const auto it = at.constFind(path);
            if (it == at.cend())
                continue;
            CheckpointChange &change = list[it.value()];
            change.binary = stat[0] == "-";
            change.added = change.binary ? 0 : stat[0].toInt();
            change.removed = change.binary ? 0 : stat[1].toInt();
        }
    }
    std::sort(list.begin(), list.end(), [](const CheckpointChange &a, const CheckpointChange &b) {
        return a.path < b.path;
    });
    return Result<QList<CheckpointChange>>::ok(list);
}

Result<QByteArray>
Checkpoints::diff(const QString &from, const QString &to, const QString &path) const
{
    QStringList args{QStringLiteral("diff"), QStringLiteral("--no-renames"), from, to};
    if (!path.isEmpty())
        args << QStringLiteral("--") << QString::fromUtf8(ShadowGit::literal(path));
    const Result<ShadowGit::Output> out = m_git->run(args);
    if (!out)
        return Result<QByteArray>::failure(out.error());
    return Result<QByteArray>::ok(out.value().out);
}

Result<QString> Checkpoints::lastState() const
{
    const Result<Head> tip = head();
    if (!tip)
        return Result<QString>::failure(tip.error());
    // A begin a crash left alone: the state before it is the last one recorded.
    return Result<QString>::ok(tip.value().meta.value("phase", std::string()) == "begin"
                                   ? tip.value().parent
                                   : tip.value().id);
}

Result<QStringList> Checkpoints::editedSinceLast()
{
    const Result<QString> last = lastState();
    if (!last)
        return Result<QStringList>::failure(last.error());
    const Result<Snapshot> now = snapshot();
    if (!now)
        return Result<QStringList>::failure(now.error());
    QStringList edited;
    if (last.value().isEmpty())
        return Result<QStringList>::ok(edited);
    const Result<QList<CheckpointChange>> changed = changes(last.value(), now.value().tree);
    if (!changed)
        return Result<QStringList>::failure(changed.error());
    for (const CheckpointChange &change : changed.value())
        edited << change.path;
    return Result<QStringList>::ok(edited);
}

Result<Checkpoints::UndoPlan> Checkpoints::planUndo(const Checkpoint &step)
{
    UndoPlan plan;
    const Result<QList<CheckpointChange>> files = changes(step);
    if (!files)
        return Result<UndoPlan>::failure(files.error());
    plan.files = files.value();
    const Result<QStringList> edited = editedSinceLast();
    if (!edited)
        return Result<UndoPlan>::failure(edited.error());
    const Result<QString> last = lastState();
    if (!last)
        return Result<UndoPlan>::failure(last.error());
    QSet<QString> touched;
    for (const CheckpointChange &change : plan.files)
        touched.insert(change.path);
    for (const QString &path : edited.value()) {
        if (touched.contains(path))
            plan.editedSince << path;
    }
    if (!last.value().isEmpty() && last.value() != step.id) {
        const Result<QList<CheckpointChange>> later = changes(step.id, last.value());
        if (!later)
            return Result<UndoPlan>::failure(later.error());
        for (const CheckpointChange &change : later.value()) {
            if (touched.contains(change.path))
                plan.changedLater << change.path;
        }
    }
    return Result<UndoPlan>::ok(plan);
}

Result<Checkpoint> Checkpoints::undo(const Checkpoint &step)
{
    const Result<QList<CheckpointChange>> files = changes(step);
    if (!files)
        return Result<Checkpoint>::failure(files.error());
    QStringList paths;
    for (const CheckpointChange &change : files.value())
        paths << change.path;
    const QString label = step.kind == QLatin1String("turn")
                              ? QStringLiteral("Undo turn %1").arg(step.turn + 1)
                              : QStringLiteral("Undo checkpoint %1").arg(step.number);
    return revert(step.before, paths, QStringLiteral("undo"), label, step.id);
}

Result<Checkpoint> Checkpoints::restore(const QString &state, const QString &label)
{
    const Result<Snapshot> now = snapshot();
    if (!now)
        return Result<Checkpoint>::failure(now.error());
    const Result<QList<CheckpointChange>> files = changes(state, now.value().tree);
    if (!files)
        return Result<Checkpoint>::failure(files.error());
    QStringList paths;
    for (const CheckpointChange &change : files.value())
        paths << change.path;
    return revert(state, paths, QStringLiteral("restore"), label, QString());
}

} // namespace Sandcastle
