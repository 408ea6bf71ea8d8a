#pragma once

#include "environmentrecord.h"

#include <app/appsettings.h>
#include <sandbox/environmentbuild.h>
#include <sandbox/environmentspec.h>

#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

namespace Sandcastle {

// The environment of the conversation's folder: which image its sandbox runs on, and the
// person's say over every build that uses the network. The files (requirements.txt, apt.txt)
// are read when the folder is opened and again after each turn, run or save (refresh()); a
// content the person has not approved waits for approve() with a diff against what they last
// approved, whoever wrote it. An approved build runs with the network; the runs never have
// it. A failed build keeps the image in use. install() is the install_packages tool: it always
// asks, then adds the packages to the files and builds.
class ProjectEnvironment : public QObject
{
    Q_OBJECT
public:
    enum class State { Default, Ready, AwaitingApproval, Building, Failed };
    Q_ENUM(State)

    struct Approval
    {
        enum class Kind { FolderFiles, Install };
        Kind kind = Kind::FolderFiles;
        QString summary;      // what the build would install, in a line
        QString diff;         // the files against what was last approved (unified diff)
        QStringList concerns; // lines that reach beyond the package index
        QStringList pip;      // Install: what the agent asks for
        QStringList apt;
        QString reason;
    };
    using InstallDone = std::function<void(const Result<QString> &packages)>;

    explicit ProjectEnvironment(QObject *parent = nullptr);
    ~ProjectEnvironment() override;

    // A new folder: its image now (the last good build, or the default), then a look at its
    // files in the background (imageChanged() when they name another built image; an
    // approval when they ask for one not built).
    void setTarget(const AppSettings &settings, const QString &workspace);
    void setSettings(const AppSettings &settings);
    // Whether a face can ask the person (the window can; `sandcastle chat` cannot, so there a
    // build that needs approval is not started, and install() answers why).
    void setCanAsk(bool canAsk) { m_canAsk = canAsk; }
    // The files may have changed: read them again.
    void refresh();
    // While held, refresh() only remembers that it was asked (the window holds the first
    // look-up, a `docker image inspect`, until its first frame is painted: the engine's CLI
    // takes the CPU the frame needs). Let go, a remembered refresh() runs.
    void holdLookUps(bool hold);
    void approve();
    void decline();
    void cancelBuild();
    // The agent that asked to install is gone (stopped): its question is withdrawn unanswered.
    void withdrawInstall();
    // Asks the person, adds `pip` and `apt` to the files, builds; `done` gets the image's
    // packages, or why not (declined, refused lines, a failed build with its log).
    void install(const QStringList &pip,
                 const QStringList &apt,
                 const QString &reason,
                 InstallDone done);

    State state() const { return m_state; }
    QString image() const { return m_image; }
    QString packages() const { return m_packages; }
    QString workspace() const { return m_workspace; }
    const std::optional<Approval> &pendingApproval() const { return m_approval; }
    QString lastLog() const { return m_lastLog; }
    // install() is waiting for the person or its build.
    bool isInstalling() const { return bool(m_installDone); }

    // The lines of `current` not in `approved`, for the approval's summary.
    static QString describe(const EnvironmentSpec &spec);
    // Appends what `pip` and `apt` name and the files do not have yet; an error for a name
    // that is no package (an option, a path, a URL).
    static Result<std::pair<QByteArray, QByteArray>>
    withPackages(const EnvironmentSpec &spec, const QStringList &pip, const QStringList &apt);

Q_SIGNALS:
    // The sandbox should run on `image` from now on (after a build: `rebuilt`, the session
    // restarts and its variables are gone).
    void imageChanged(const QString &image, const QString &packages, bool rebuilt);
    void stateChanged(Sandcastle::ProjectEnvironment::State state);
    void approvalNeeded(const Sandcastle::ProjectEnvironment::Approval &approval);
    void buildOutput(const QString &text);
    void buildProgress(int step, int steps, const QString &instruction);
    // A build ended: `message` says what was built, or why not (and where the log is).
    void buildFinished(bool ok, const QString &message);

private:
    void lookUp(const EnvironmentSpec &spec);
    void onLookedUp(const EnvironmentSpec &spec, const Result<EnvironmentImage> &found);
    void ask(const EnvironmentSpec &spec, Approval approval);
    void build(const EnvironmentSpec &spec, bool confirmed);
    void onBuilt(const EnvironmentSpec &spec, const Result<EnvironmentImage> &built);
    void setState(State state);
    void finishInstall(const Result<QString> &outcome);
    Result<EnvironmentSpec> writeFiles(const QByteArray &requirements, const QByteArray &apt);

    AppSettings m_settings;
    QString m_workspace;
    EnvironmentRecord m_record;
    State m_state = State::Default;
    QString m_image;
    QString m_packages;
    QString m_lastLog;
    QString m_seenHash; // the content last looked at (refresh() is a no-op while it stays)
    QStringList m_declined;
    std::optional<Approval> m_approval;
    std::optional<EnvironmentSpec> m_pendingSpec; // what approve() builds
    QPointer<EnvironmentBuild> m_build;
    // install(): the files to write once approved, and whom to answer.
    QByteArray m_installRequirements;
    QByteArray m_installApt;
    InstallDone m_installDone;
    quint64 m_generation = 0; // a lookup of an older target is ignored
    bool m_canAsk = false;
    bool m_held = false;
    bool m_refreshAsked = false; // while held
};

} // namespace Sandcastle

Q_DECLARE_METATYPE(Sandcastle::ProjectEnvironment::Approval)
