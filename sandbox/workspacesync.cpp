#include "workspacesync.h"

#include "blockingjobs.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>
#include <limits>

namespace Sandcastle {

namespace {

using VolumeSteps::Manifest;

// A host file and the volume's copy hold the same bytes as far as size and time tell.
bool same(const WorkspaceSnapshot::Entry &host, const Manifest &remote, const QString &path)
{
    const auto it = remote.find(path);
    return it != remote.end() && it->type == 'f' && it->size == host.size
           && it->mtime == host.mtimeNs / 1000000000;
}

} // namespace

Result<bool> WorkspaceSync::sendAndRemove(const SandboxEngine &engine,
                                          const QString &container,
                                          const QString &root,
                                          Step &step,
                                          const QStringList &send,
                                          const QStringList &remove)
{
    // A name that is not UTF-8 on one side cannot be said on the other: it stays where it is.
    const QStringList sendable = VolumeSteps::travelling(send);
    const QStringList removable = VolumeSteps::travelling(remove);
    Result<bool> ok = VolumeSteps::removeRemote(engine, container, removable);
    if (ok)
        ok = VolumeSteps::pushFiles(engine, container, root, sendable);
    if (!ok)
        return ok;
    // The volume now holds what was sent as it is here (tar keeps the seconds of the times):
    // known without listing it again, which over ssh costs a connection.
    for (const QString &path : removable)
        step.remote.remove(path);
    for (const QString &path : sendable) {
        const WorkspaceSnapshot::Entry entry = step.host.entries().value(path);
        step.remote.insert(path, {'f', entry.size, entry.mtimeNs / 1000000000});
    }
    return ok;
}

void WorkspaceSync::recoverCutRun(const SandboxEngine &engine,
                                  const QString &container,
                                  const SandboxConfig &config,
                                  const WorkspaceSnapshot &lastHost,
                                  const Manifest &lastRemote,
                                  const Manifest &there,
                                  Step &step)
{
    // What a run changed in the volume but could not bring back (its container or
    // connection went first), where the person has not changed the file since.
    QStringList fetch;
    for (auto it = there.begin(); it != there.end(); ++it) {
        const auto was = lastRemote.find(it.key());
        if (it->type != 'f' || (was != lastRemote.end() && *was == it.value())
            || !VolumeSteps::nameTravels(it.key()))
            continue;
        const auto here = step.host.entries().find(it.key());
        const auto then = lastHost.entries().find(it.key());
        const bool untouchedHere = here == step.host.entries().end()
                                       ? then == lastHost.entries().end()
                                       : then != lastHost.entries().end()
                                             && here->size == then->size
                                             && here->mtimeNs == then->mtimeNs;
        if (untouchedHere)
            fetch << it.key();
    }
    if (fetch.isEmpty())
        return;
    const qint64 quota = config.workspaceQuotaBytes > 0 ? config.workspaceQuotaBytes
                                                        : std::numeric_limits<qint64>::max() / 2;
    step.pulled = VolumeSteps::pullFiles(engine,
                                         container,
                                         config.workspace,
                                         fetch,
                                         qMax<qint64>(0, quota - step.host.totalBytes()),
                                         VolumeSteps::hostOwner(config));
    step.host = WorkspaceSnapshot::take(config.workspace);
}

WorkspaceSync::WorkspaceSync(SandboxConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_engine(SandboxEngine::forConfig(m_config))
{}

void WorkspaceSync::onPool(const std::function<Step()> &work,
                           const std::function<void(const Step &step)> &done)
{
    QPointer<WorkspaceSync> self(this);
    blockingJobs()->start([self, work, done] {
        const Step step = work();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, step, done] {
                if (self)
                    done(step);
            },
            Qt::QueuedConnection);
    });
}

void WorkspaceSync::pushAll(const Done &done)
{
    const SandboxConfig config = m_config;
    const std::shared_ptr<const SandboxEngine> engine = m_engine;
    const QString container = m_container;
    const bool known = m_known;
    const WorkspaceSnapshot lastHost = m_host;
    const Manifest lastRemote = m_remote;
    onPool(
        [config, engine, container, known, lastHost, lastRemote] {
            Step step;
            step.host = WorkspaceSnapshot::take(config.workspace);
            Result<Manifest> there = VolumeSteps::readManifest(*engine, container);
            if (!there) {
                step.error = there.error();
                return step;
            }
            if (known)
                recoverCutRun(
                    *engine, container, config, lastHost, lastRemote, there.value(), step);
            QStringList send;
            const auto &files = step.host.entries();
            for (auto it = files.begin(); it != files.end(); ++it) {
                if (!same(it.value(), there.value(), it.key()))
                    send << it.key();
            }
            QStringList remove;
            for (auto it = there.value().begin(); it != there.value().end(); ++it) {
                if (it->type != 'd' && !files.contains(it.key()))
                    remove << it.key();
            }
            step.remote = there.value();
            if (const Result<bool> ok
                = sendAndRemove(*engine, container, config.workspace, step, send, remove);
                !ok)
                step.error = ok.error();
            return step;
        },
        [this, done](const Step &step) {
            if (step.error.isEmpty()
                && (!step.pulled.files.isEmpty() || !step.pulled.error.isEmpty()))
                qInfo(
                    "sandbox: %lld file(s) an ended run left in the volume came back%s",
                    qint64(step.pulled.files.size()),
                    step.pulled.error.isEmpty()
                        ? ""
                        : qPrintable(QStringLiteral(" (") + step.pulled.error + QLatin1Char(')')));
            settle(step, done);
        });
}

void WorkspaceSync::settle(const Step &step, const Done &done)
{
    if (!step.error.isEmpty()) {
        done(Result<bool>::failure(step.error));
        return;
    }
    m_host = step.host;
    m_remote = step.remote;
    m_known = true;
    done(Result<bool>::ok(true));
}

void WorkspaceSync::pushChanges(const Done &done)
{
    const SandboxConfig config = m_config;
    const std::shared_ptr<const SandboxEngine> engine = m_engine;
    const QString container = m_container;
    const WorkspaceSnapshot before = m_host;
    const Manifest remote = m_remote;
    onPool(
        [config, engine, container, before, remote] {
            Step step;
            step.host = WorkspaceSnapshot::take(config.workspace);
            step.remote = remote;
            const QStringList send = WorkspaceSnapshot::changedFiles(before, step.host);
            QStringList remove;
            for (auto it = before.entries().begin(); it != before.entries().end(); ++it) {
                if (!step.host.entries().contains(it.key()))
                    remove << it.key();
            }
            if (send.isEmpty() && remove.isEmpty())
                return step;
            if (const Result<bool> ok
                = sendAndRemove(*engine, container, config.workspace, step, send, remove);
                !ok)
                step.error = ok.error();
            return step;
        },
        [this, done](const Step &step) { settle(step, done); });
}

Result<Manifest> WorkspaceSync::volumeAfterRun(const SandboxEngine &engine,
                                               const QString &container,
                                               const Manifest &before,
                                               const std::optional<KernelEvent> &report)
{
    if (!report || report->overflow)
        return VolumeSteps::readManifest(engine, container);
    Manifest now = before;
    for (const QString &path : report->removed)
        now.remove(path);
    for (const ReportedFile &file : report->changed)
        now.insert(file.path, {file.type, file.size, file.mtime});
    return Result<Manifest>::ok(now);
}

void WorkspaceSync::pull(const std::optional<KernelEvent> &report,
                         const std::function<void(const VolumeSteps::Pulled &pulled)> &done)
{
    const SandboxConfig config = m_config;
    const std::shared_ptr<const SandboxEngine> engine = m_engine;
    const QString container = m_container;
    const WorkspaceSnapshot host = m_host;
    const Manifest before = m_remote;
    if (report && !report->overflow && report->removed.isEmpty()
        && std::all_of(report->changed.begin(), report->changed.end(), [&](const ReportedFile &f) {
               const auto was = before.find(f.path);
               return f.type == 'd'
                      || (was != before.end() && was->type == f.type && was->size == f.size
                          && was->mtime == f.mtime);
           })) {
        // Nothing to bring back: no step on the pool, no call to the engine.
        QMetaObject::invokeMethod(
            this, [done] { done(VolumeSteps::Pulled()); }, Qt::QueuedConnection);
        return;
    }
    onPool(
        [config, engine, container, host, before, report] {
            Step step;
            step.remote = before;
            const Result<Manifest> now = volumeAfterRun(*engine, container, before, report);
            if (!now) {
                step.pulled.error = now.error();
                step.host = host;
                return step;
            }
            step.remote = now.value();
            QStringList fetch;
            qint64 replaced = 0;
            for (auto it = now.value().begin(); it != now.value().end(); ++it) {
                const auto was = before.find(it.key());
                if (was != before.end() && *was == it.value())
                    continue;
                if (it->type == 'f' && !VolumeSteps::nameTravels(it.key())) {
                    step.pulled.refused << it.key()
                                               + QStringLiteral(": the name is not UTF-8 (shown "
                                                                "with \uFFFD), so it cannot be "
                                                                "named back; left in the sandbox");
                } else if (it->type == 'f') {
                    fetch << it.key();
                    replaced += host.entries().value(it.key()).size;
                } else if (it->type != 'd') {
                    step.pulled.refused << it.key()
                                               + QStringLiteral(": not a regular file (find type "
                                                                "'%1'), not copied")
                                                     .arg(QLatin1Char(it->type));
                }
            }
            QStringList gone;
            for (auto it = before.begin(); it != before.end(); ++it) {
                if (it->type == 'f' && !now.value().contains(it.key()))
                    gone << it.key();
            }
            const qint64 quota = config.workspaceQuotaBytes > 0
                                     ? config.workspaceQuotaBytes
                                     : std::numeric_limits<qint64>::max() / 2;
            const qint64 room = qMax<qint64>(0, quota - host.totalBytes() + replaced);
            VolumeSteps::Pulled pulled = VolumeSteps::pullFiles(
                *engine, container, config.workspace, fetch, room, VolumeSteps::hostOwner(config));
            pulled.refused = step.pulled.refused + pulled.refused;
            step.pulled = pulled;
            VolumeSteps::removeLocal(config.workspace, gone);
            step.host = WorkspaceSnapshot::take(config.workspace);
            return step;
        },
        [this, done](const Step &step) {
            m_host = step.host;
            // Files that did not come back are looked for again when a container starts next.
            if (step.pulled.error.isEmpty())
                m_remote = step.remote;
            done(step.pulled);
        });
}

} // namespace Sandcastle
