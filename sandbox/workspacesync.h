#pragma once

#include "kernelprotocol.h"
#include "sandboxconfig.h"
#include "volumesteps.h"
#include "workspacesnapshot.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace Sandcastle {

// The workspace of a session on a remote engine (copy mode): the folder on this machine and
// the container's volume kept in step, one way at a time, on the blocking pool (the window
// never waits). pushAll() at the session's start sends what the volume lacks or holds
// differently and removes what the folder does not have; pushChanges() before each run sends
// what changed here since the last step (the person's edits, dropped files, an undo); pull()
// after each run brings back what the run changed there and removes what it removed, through
// TarExtractor: nothing the remote sends can land outside the folder or pass its quota.
class WorkspaceSync : public QObject
{
    Q_OBJECT
public:
    explicit WorkspaceSync(SandboxConfig config, QObject *parent = nullptr);

    const SandboxConfig &config() const { return m_config; }
    // Both configurations reach the same volume with the same folder through the same engine.
    static bool sameVolume(const SandboxConfig &a, const SandboxConfig &b)
    {
        return a.workspace == b.workspace && a.workspaceVolume() == b.workspaceVolume()
               && a.engine == b.engine && a.context == b.context && !a.workspaceVolume().isEmpty();
    }
    // The container whose /workspace the next steps reach (a new one after a restart: its
    // volume is the conversation's, so what an ended run left there is still in it).
    void setContainer(const QString &container) { m_container = container; }

    using Done = std::function<void(const Result<bool> &result)>;
    void pushAll(const Done &done);
    void pushChanges(const Done &done);
    // `report`: the kernel's word on what the run changed (then nothing is listed remotely,
    // and nothing is asked of the engine when nothing changed); without one (the kernel died,
    // or the report overflowed) the volume is listed.
    void pull(const std::optional<KernelEvent> &report,
              const std::function<void(const VolumeSteps::Pulled &pulled)> &done);

private:
    struct Step
    {
        WorkspaceSnapshot host;
        VolumeSteps::Manifest remote;
        QString error;
        VolumeSteps::Pulled pulled;
    };
    void onPool(const std::function<Step()> &work,
                const std::function<void(const Step &step)> &done);
    // A push step's end: its error to `done`, or the state it left kept.
    void settle(const Step &step, const Done &done);
    // Fetches what a cut run left changed in the volume where the file here is untouched.
    static void recoverCutRun(const SandboxEngine &engine,
                              const QString &container,
                              const SandboxConfig &config,
                              const WorkspaceSnapshot &lastHost,
                              const VolumeSteps::Manifest &lastRemote,
                              const VolumeSteps::Manifest &there,
                              Step &step);
    // Removes `remove` from the volume and sends `send` there; step.remote follows.
    static Result<bool> sendAndRemove(const SandboxEngine &engine,
                                      const QString &container,
                                      const QString &root,
                                      Step &step,
                                      const QStringList &send,
                                      const QStringList &remove);
    // The volume after a run: the last manifest with the kernel's report applied, or listed.
    static Result<VolumeSteps::Manifest> volumeAfterRun(const SandboxEngine &engine,
                                                        const QString &container,
                                                        const VolumeSteps::Manifest &before,
                                                        const std::optional<KernelEvent> &report);

    SandboxConfig m_config;
    std::shared_ptr<const SandboxEngine> m_engine; // its own, for the pool's threads
    QString m_container;
    WorkspaceSnapshot m_host;       // the folder as it was at the last step
    VolumeSteps::Manifest m_remote; // the volume as it was at the last step
    bool m_known = false;           // a step succeeded: m_host and m_remote say something
};

} // namespace Sandcastle
