#pragma once

#include "environmentspec.h"

#include <base/result.h>

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>
#include <memory>

namespace Sandcastle {

// A project's environment: an image built FROM the default one with what requirements.txt and
// apt.txt ask for, tagged by a hash of those files, the base image and the wheelhouse, so that
// every conversation with the same files uses the same image.
struct EnvironmentImage
{
    enum class Origin { Reused, Built, Missing };
    Origin origin = Origin::Missing;
    QString tag;      // sandcastle-env:<hash>
    QString hash;     // 64 hex digits
    QString packages; // the org.sandcastle.packages label (empty when Missing)
    QString logFile;  // the build's log (Built; on failure the error names it)
    qint64 elapsedMs = 0;
};

struct EnvironmentRequest
{
    QString engine = QStringLiteral("docker");
    QString context; // docker --context; empty for the default
    QString baseImage = QStringLiteral("sandcastle-sandbox:latest");
    QString workspace;
    EnvironmentSpec spec;
    // A folder of wheels and source archives: the build installs from it alone (--no-index),
    // so a machine without a package index still installs. Empty: the network's index.
    QString wheelhouse;
    bool build = true;      // false: only say whether the image is there (Reused or Missing)
    bool confirmed = false; // the person accepted the spec's confirmable concerns
    int timeoutMs = 15 * 60 * 1000;
    QString logFile; // where the build's whole output is kept
};

// Finds or builds a project's environment without blocking: every step is a process of the
// engine's CLI (inspect the base, look for the tag, docker build with the network the build has,
// then label the result with its package list). The tag appears only once the image is whole: the
// build goes to a temporary tag that the labelling step replaces. A build that passes the time
// limit is stopped (killing the CLI cancels the daemon's build) and its log kept.
class EnvironmentBuild : public QObject
{
    Q_OBJECT

public:
    explicit EnvironmentBuild(EnvironmentRequest request, QObject *parent = nullptr);
    ~EnvironmentBuild() override;

    void start();
    void cancel();
    bool isRunning() const { return m_running; }
    const EnvironmentRequest &request() const { return m_request; }

    static QString tagFor(const QString &hash);
    // The image's hash: what the files ask for, the base image's id and the wheelhouse's files.
    static QString
    imageHash(const EnvironmentSpec &spec, const QString &baseImageId, const QString &wheelhouse);
    // The Dockerfile of the build (pure).
    static QByteArray
    dockerfile(const QString &baseImageId, const EnvironmentSpec &spec, bool withWheelhouse);

    // The first line of a failed build's message: where it stopped and the installer's error
    // ("… at step 7/12 (RUN python3 -m pip install …): ERROR: No matching distribution …").
    static QString failureSummary(const QStringList &tail, const QString &step);

signals:
    void output(const QString &text);
    // "Step 2/6 : RUN …" of the build, for a progress bar.
    void progress(int step, int steps, const QString &instruction);
    void finished(const Sandcastle::Result<Sandcastle::EnvironmentImage> &result);

private:
    using Then = std::function<void(int exitCode, const QByteArray &out)>;
    void runStep(const QStringList &args, const QByteArray &input, bool stream, const Then &then);
    void onBaseInspected(int exitCode, const QByteArray &out);
    void onTagInspected(int exitCode, const QByteArray &out);
    Result<bool> prepareContext();
    void startBuild();
    void onBuilt(int exitCode);
    void label(const QByteArray &summary);
    void streamLine(const QString &text);
    void finish(const Result<EnvironmentImage> &result);
    void fail(const QString &message);

    EnvironmentRequest m_request;
    QString m_baseId;
    EnvironmentImage m_image;
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QTemporaryDir> m_context;
    QFile m_log;
    QTimer m_deadline;
    QElapsedTimer m_clock;
    QByteArray m_pending; // a partial line of build output
    QStringList m_tail;   // the last lines, quoted when the build fails
    QString m_step;       // the step under way, for the failure's summary
    bool m_running = false;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_partialTagged = false; // the build made its image under the temporary tag
};

} // namespace Sandcastle
