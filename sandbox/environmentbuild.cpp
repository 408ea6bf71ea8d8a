#include "environmentbuild.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>

namespace Sandcastle {

namespace {

constexpr int kTailLines = 40;
constexpr qint64 kContextBytes = qint64(4) << 30; // the wheelhouse and local paths, in all
const QString kContextRoot = QStringLiteral("/tmp/sandcastle-env");

QString shellQuote(const QString &word)
{
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// Copies a file or a folder without following links (a link in a package folder could lead
// anywhere on this machine; it is left out of the build), regular files and folders only (a
// FIFO would never end), within `budget` bytes: false when something cannot be copied or the
// budget runs out.
bool copyTree(const QString &from, const QString &to, qint64 &budget)
{
    const QFileInfo info(from);
    if (info.isSymLink())
        return true;
    if (EnvironmentSpec::isRegularFile(from)) {
        budget -= info.size();
        return budget >= 0 && QDir().mkpath(QFileInfo(to).path()) && QFile::copy(from, to);
    }
    if (!info.isDir())
        return true; // a FIFO, socket or device: left out
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!copyTree(path, to + QLatin1Char('/') + it.fileName(), budget))
            return false;
    }
    return true;
}

QString aptName(const QString &package)
{
    return package.section(QLatin1Char('='), 0, 0);
}

} // namespace

EnvironmentBuild::EnvironmentBuild(EnvironmentRequest request, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_process)
            m_process->terminate(); // the daemon cancels the build when its client goes
        QTimer::singleShot(5000, this, [this] {
            if (m_process)
                m_process->kill();
        });
    });
}

EnvironmentBuild::~EnvironmentBuild()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(3000);
    }
}

QString EnvironmentBuild::tagFor(const QString &hash)
{
    return QStringLiteral("sandcastle-env:") + hash.left(16);
}

QString EnvironmentBuild::imageHash(const EnvironmentSpec &spec,
                                    const QString &baseImageId,
                                    const QString &wheelhouse)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(spec.contentHash().toLatin1());
    hash.addData(QByteArray(QByteArrayLiteral("\nbase ") + baseImageId.toUtf8()));
    if (!wheelhouse.isEmpty()) {
        // The wheelhouse's files by name, size and time: what the build may install.
        QDirIterator it(wheelhouse, QDir::Files, QDirIterator::Subdirectories);
        QStringList entries;
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            entries.append(QStringLiteral("%1 %2 %3")
                               .arg(info.filePath())
                               .arg(info.size())
                               .arg(info.lastModified().toMSecsSinceEpoch()));
        }
        entries.sort();
        hash.addData(QByteArray(QByteArrayLiteral("\nwheelhouse\n")
                                + entries.join(QLatin1Char('\n')).toUtf8()));
    }
    return QString::fromLatin1(hash.result().toHex());
}

QByteArray EnvironmentBuild::dockerfile(const QString &baseImageId,
                                        const EnvironmentSpec &spec,
                                        bool withWheelhouse)
{
    QStringList lines;
    lines << QStringLiteral(
        "# A Sandcastle project environment, made from requirements.txt and apt.txt.")
          << QStringLiteral("FROM ") + baseImageId << QStringLiteral("USER root")
          << QStringLiteral("ENV DEBIAN_FRONTEND=noninteractive")
          << QStringLiteral("COPY . ") + kContextRoot + QLatin1Char('/')
          << QStringLiteral("WORKDIR ") + kContextRoot;
    if (!spec.aptPackages.isEmpty()) {
        lines << QStringLiteral(
            "RUN apt-get update && xargs -a apt.txt apt-get install -y --no-install-recommends "
            "&& apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*");
    }
    if (!spec.requirementLines().isEmpty()) {
        QString pip = QStringLiteral(
            "RUN python3 -m pip install --break-system-packages --no-cache-dir "
            "--root-user-action=ignore --disable-pip-version-check --progress-bar off --no-color "
            "--timeout 30 --retries 2");
        // Offline: only the wheelhouse, and source packages built with the image's setuptools
        // (an isolated build would fetch its own from an index).
        if (withWheelhouse)
            pip += QStringLiteral(" --no-index --find-links wheelhouse --no-build-isolation");
        lines << pip + QStringLiteral(" -r requirements.txt");
    }
    QString scan = QStringLiteral(
        "RUN python3 /opt/sandcastle/packages.py scan --base /opt/sandcastle/packages.json");
    if (!spec.aptPackages.isEmpty()) {
        scan += QStringLiteral(" --apt");
        for (const QString &package : spec.aptPackages)
            scan += QLatin1Char(' ') + shellQuote(aptName(package));
    }
    if (!spec.pipNames.isEmpty()) {
        scan += QStringLiteral(" --pip");
        for (const QString &name : spec.pipNames)
            scan += QLatin1Char(' ') + shellQuote(name);
    }
    lines << scan
                 + QStringLiteral(" > /tmp/packages.json && mv /tmp/packages.json "
                                  "/opt/sandcastle/packages.json && rm -rf ")
                 + kContextRoot
          << QStringLiteral("WORKDIR /workspace") << QStringLiteral("USER sandbox");
    return lines.join(QLatin1Char('\n')).toUtf8() + '\n';
}

void EnvironmentBuild::start()
{
    if (m_running)
        return;
    m_running = true;
    m_clock.start();
    if (m_request.spec.hasRefusals()) {
        fail(QStringLiteral("the project's files ask for something that cannot be installed:\n")
             + m_request.spec.describeConcerns().join(QLatin1Char('\n')));
        return;
    }
    runStep({QStringLiteral("image"),
             QStringLiteral("inspect"),
             QStringLiteral("--format"),
             QStringLiteral("{{.Id}}"),
             m_request.baseImage},
            {},
            false,
            [this](int code, const QByteArray &text) { onBaseInspected(code, text); });
}

void EnvironmentBuild::cancel()
{
    if (!m_running)
        return;
    m_cancelled = true;
    if (m_process)
        m_process->terminate();
    else
        fail(QStringLiteral("the environment build was cancelled"));
}

void EnvironmentBuild::onBaseInspected(int exitCode, const QByteArray &out)
{
    m_baseId = QString::fromUtf8(out).trimmed();
    if (exitCode != 0 || m_baseId.isEmpty()) {
        fail(QStringLiteral("the base image %1 is not there (build it with: sandcastle image "
                            "build)")
                 .arg(m_request.baseImage));
        return;
    }
    m_image.hash = imageHash(m_request.spec, m_baseId, m_request.wheelhouse);
    m_image.tag = tagFor(m_image.hash);
    m_image.logFile = m_request.logFile;
    runStep({QStringLiteral("image"),
             QStringLiteral("inspect"),
             QStringLiteral("--format"),
             QStringLiteral("{{index .Config.Labels \"org.sandcastle.packages\"}}"),
             m_image.tag},
            {},
            false,
            [this](int code, const QByteArray &text) { onTagInspected(code, text); });
}

void EnvironmentBuild::onTagInspected(int exitCode, const QByteArray &out)
{
    if (exitCode == 0) {
        m_image.origin = EnvironmentImage::Origin::Reused;
        m_image.packages = QString::fromUtf8(out).trimmed();
        finish(Result<EnvironmentImage>::ok(m_image));
        return;
    }
    if (!m_request.build) {
        m_image.origin = EnvironmentImage::Origin::Missing;
        finish(Result<EnvironmentImage>::ok(m_image));
        return;
    }
    if (m_request.spec.needsConfirmation() && !m_request.confirmed) {
        fail(QStringLiteral("these lines need the person's confirmation before a build:\n")
             + m_request.spec.describeConcerns().join(QLatin1Char('\n')));
        return;
    }
    const Result<bool> prepared = prepareContext();
    if (!prepared) {
        fail(prepared.error());
        return;
    }
    startBuild();
}

Result<bool> EnvironmentBuild::prepareContext()
{
    m_context = std::make_unique<QTemporaryDir>();
    if (!m_context->isValid())
        return Result<bool>::failure(
            QStringLiteral("cannot create a temporary folder for the build"));
    const QDir dir(m_context->path());
    const bool wheelhouse = !m_request.wheelhouse.isEmpty();
    if (wheelhouse && !QFileInfo(m_request.wheelhouse).isDir())
        return Result<bool>::failure(
            QStringLiteral("the wheelhouse %1 is not a folder").arg(m_request.wheelhouse));
    const auto write = [&dir](const QString &name, const QByteArray &bytes) {
        QFile file(dir.filePath(name));
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    QByteArray apt;
    for (const QString &package : m_request.spec.aptPackages)
        apt += package.toUtf8() + '\n';
    if (!write(QStringLiteral("Dockerfile"), dockerfile(m_baseId, m_request.spec, wheelhouse))
        || !write(QStringLiteral("requirements.txt"), m_request.spec.rewrittenRequirements())
        || !write(QStringLiteral("apt.txt"), apt))
        return Result<bool>::failure(QStringLiteral("cannot write the build's files"));
    // What goes into the build's context is bounded: a path that names half the disk fails
    // here instead of filling it.
    qint64 budget = kContextBytes;
    if (!QDir().mkpath(dir.filePath(QStringLiteral("wheelhouse")))
        || (wheelhouse
            && !copyTree(m_request.wheelhouse, dir.filePath(QStringLiteral("wheelhouse")), budget)))
        return Result<bool>::failure(
            budget < 0 ? QStringLiteral("the wheelhouse %1 holds more than %2 GB")
                             .arg(m_request.wheelhouse)
                             .arg(kContextBytes >> 30)
                       : QStringLiteral("cannot copy the wheelhouse %1").arg(m_request.wheelhouse));
    const QList<EnvironmentSpec::LocalPath> &paths = m_request.spec.localPaths;
    for (int i = 0; i < paths.size(); ++i) {
        if (!QFileInfo::exists(paths.at(i).absolute))
            return Result<bool>::failure(QStringLiteral("requirements.txt:%1: %2 does not exist")
                                             .arg(paths.at(i).line)
                                             .arg(paths.at(i).written));
        if (!copyTree(paths.at(i).absolute,
                      dir.filePath(EnvironmentSpec::localTarget(i, paths.at(i).absolute)),
                      budget))
            return Result<bool>::failure(
                budget < 0
                    ? QStringLiteral("requirements.txt:%1: %2 makes the build larger than %3 GB")
                          .arg(paths.at(i).line)
                          .arg(paths.at(i).written)
                          .arg(kContextBytes >> 30)
                    : QStringLiteral("cannot copy %1 into the build").arg(paths.at(i).written));
    }
    if (!m_request.logFile.isEmpty()) {
        QDir().mkpath(QFileInfo(m_request.logFile).path());
        m_log.setFileName(m_request.logFile);
        if (!m_log.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return Result<bool>::failure(
                QStringLiteral("cannot write the build log %1").arg(m_request.logFile));
    }
    return Result<bool>::ok(true);
}

void EnvironmentBuild::startBuild()
{
    streamLine(
        QStringLiteral("building the environment %1 on %2").arg(m_image.tag, m_request.baseImage));
    m_deadline.start(m_request.timeoutMs);
    runStep({QStringLiteral("build"),
             QStringLiteral("--label"),
             QStringLiteral("org.sandcastle.env.hash=") + m_image.hash,
             QStringLiteral("--label"),
             QStringLiteral("org.sandcastle.env.base=") + m_baseId,
             QStringLiteral("-t"),
             m_image.tag + QStringLiteral("-partial"),
             m_context->path()},
            {},
            true,
            [this](int exitCode, const QByteArray &) { onBuilt(exitCode); });
}

void EnvironmentBuild::onBuilt(int exitCode)
{
    m_deadline.stop();
    if (m_timedOut) {
        fail(QStringLiteral("the environment build took longer than %1 s and was stopped")
                 .arg(m_request.timeoutMs / 1000));
        return;
    }
    if (m_cancelled) {
        fail(QStringLiteral("the environment build was cancelled"));
        return;
    }
    if (exitCode != 0) {
        fail(failureSummary(m_tail, m_step) + QLatin1Char('\n')
             + m_tail.mid(qMax(0, m_tail.size() - 15)).join(QLatin1Char('\n')));
        return;
    }
    m_partialTagged = true;
    runStep({QStringLiteral("run"),
             QStringLiteral("--rm"),
             QStringLiteral("--network"),
             QStringLiteral("none"),
             QStringLiteral("--entrypoint"),
             QStringLiteral("python3"),
             m_image.tag + QStringLiteral("-partial"),
             QStringLiteral("/opt/sandcastle/packages.py"),
             QStringLiteral("summary"),
             QStringLiteral("/opt/sandcastle/packages.json")},
            {},
            false,
            [this](int code, const QByteArray &out) {
                if (code != 0) {
                    fail(QStringLiteral("the built environment could not list its packages"));
                    return;
                }
                label(out.trimmed());
            });
}

void EnvironmentBuild::label(const QByteArray &summary)
{
    m_image.packages = QString::fromUtf8(summary);
    const QString partial = m_image.tag + QStringLiteral("-partial");
    runStep({QStringLiteral("build"),
             QStringLiteral("-q"),
             QStringLiteral("--label"),
             QStringLiteral("org.sandcastle.packages=") + m_image.packages,
             QStringLiteral("-t"),
             m_image.tag,
             QStringLiteral("-")},
            QByteArrayLiteral("FROM ") + partial.toUtf8() + '\n',
            false,
            [this, partial](int code, const QByteArray &) {
                if (code != 0) {
                    fail(QStringLiteral("the built environment could not be tagged %1")
                             .arg(m_image.tag));
                    return;
                }
                // Only the temporary name goes: the layers belong to the tagged image now.
                runStep({QStringLiteral("image"), QStringLiteral("rm"), partial},
                        {},
                        false,
                        [this](int, const QByteArray &) {
                            m_partialTagged = false;
                            m_image.origin = EnvironmentImage::Origin::Built;
                            streamLine(QStringLiteral("built %1 in %2 s")
                                           .arg(m_image.tag)
                                           .arg(m_clock.elapsed() / 1000.0, 0, 'f', 1));
                            finish(Result<EnvironmentImage>::ok(m_image));
                        });
            });
}

void EnvironmentBuild::runStep(const QStringList &args,
                               const QByteArray &input,
                               bool stream,
                               const Then &then)
{
    m_process = std::make_unique<QProcess>();
    QProcess *process = m_process.get();
    process->setProcessChannelMode(stream ? QProcess::MergedChannels : QProcess::SeparateChannels);
    if (stream) {
        connect(process, &QProcess::readyRead, this, [this, process] {
            m_pending += process->readAll();
            qsizetype newline;
            while ((newline = m_pending.indexOf('\n')) >= 0) {
                streamLine(QString::fromUtf8(m_pending.left(newline)));
                m_pending.remove(0, newline + 1);
            }
        });
    }
    connect(process,
            &QProcess::finished,
            this,
            [this, process, stream, then](int exitCode, QProcess::ExitStatus status) {
                if (stream && !m_pending.isEmpty()) {
                    streamLine(QString::fromUtf8(m_pending));
                    m_pending.clear();
                }
                const QByteArray out = process->readAllStandardOutput();
                // The process is deleted after this handler: the next step replaces it.
                QProcess *done = m_process.release();
                done->deleteLater();
                then(status == QProcess::NormalExit ? exitCode : -1, out);
            });
    connect(process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        // The process is deleted later, not by the pointer that held it.
        QProcess *failed = m_process.release();
        failed->deleteLater();
        fail(QStringLiteral("could not start '%1'").arg(m_request.engine));
    });
    const QStringList global = m_request.context.isEmpty()
                                   ? QStringList()
                                   : QStringList{QStringLiteral("--context"), m_request.context};
    process->start(m_request.engine, global + args);
    if (!input.isEmpty())
        process->write(input);
    process->closeWriteChannel();
}

QString EnvironmentBuild::failureSummary(const QStringList &tail, const QString &step)
{
    // pip says "ERROR: …", apt "E: …": the last such line is the reason, in the installer's
    // own words.
    QString reason;
    for (const QString &line : tail) {
        if (line.startsWith(QLatin1String("ERROR: ")) || line.startsWith(QLatin1String("E: ")))
            reason = line;
    }
    QString summary = QStringLiteral("the environment build failed");
    if (!step.isEmpty())
        summary += QStringLiteral(" at %1").arg(step);
    return reason.isEmpty() ? summary : summary + QStringLiteral(": ") + reason;
}

void EnvironmentBuild::streamLine(const QString &text)
{
    // pip and apt colour their errors: the log, the console and the messages get plain text.
    static const QRegularExpression csi(QStringLiteral("\x1b\\[[0-9;?]*[ -/]*[@-~]"));
    QString line = text;
    line.remove(csi);
    static const QRegularExpression step(QStringLiteral("^Step (\\d+)/(\\d+) : (.*)$"));
    const QRegularExpressionMatch match = step.match(line);
    if (match.hasMatch()) {
        const QString instruction = match.captured(3);
        m_step = QStringLiteral("step %1/%2 (%3)")
                     .arg(match.captured(1),
                          match.captured(2),
                          instruction.size() > 40 ? instruction.left(40) + QStringLiteral("…")
                                                  : instruction);
        emit progress(match.captured(1).toInt(), match.captured(2).toInt(), instruction);
    }
    m_tail.append(line);
    if (m_tail.size() > kTailLines)
        m_tail.removeFirst();
    if (m_log.isOpen())
        m_log.write(line.toUtf8() + '\n');
    emit output(line + QLatin1Char('\n'));
}

void EnvironmentBuild::fail(const QString &message)
{
    QString text = message;
    if (m_log.isOpen())
        text += QStringLiteral("\n(the whole log: %1)").arg(m_log.fileName());
    finish(Result<EnvironmentImage>::failure(text));
}

void EnvironmentBuild::finish(const Result<EnvironmentImage> &result)
{
    if (!m_running)
        return;
    m_running = false;
    m_deadline.stop();
    if (m_log.isOpen()) {
        if (!result)
            m_log.write(QStringLiteral("\n%1\n").arg(result.error()).toUtf8());
        m_log.close();
    }
    Result<EnvironmentImage> out = result;
    if (out) {
        out.value().elapsedMs = m_clock.elapsed();
    } else if (m_partialTagged) {
        // A build stopped after its image was made leaves the temporary tag: it goes.
        const QStringList global
            = m_request.context.isEmpty()
                  ? QStringList()
                  : QStringList{QStringLiteral("--context"), m_request.context};
        QProcess remove;
        remove.setProgram(m_request.engine);
        remove.setArguments(global
                            + QStringList{QStringLiteral("image"),
                                          QStringLiteral("rm"),
                                          m_image.tag + QStringLiteral("-partial")});
        remove.setStandardOutputFile(QProcess::nullDevice());
        remove.setStandardErrorFile(QProcess::nullDevice());
        remove.startDetached();
    }
    m_context.reset();
    emit finished(out);
}

} // namespace Sandcastle
