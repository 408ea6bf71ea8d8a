#include "imagebuild.h"

#include "resources.h"

#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTimer>

#include <csignal>
#include <unistd.h>

namespace Sandcastle {

ImageBuild::ImageBuild(QString engine, QString context, QString image, QObject *parent)
    : QObject(parent)
    , m_engine(std::move(engine))
    , m_context(std::move(context))
    , m_image(std::move(image))
{}

ImageBuild::~ImageBuild()
{
    if (isRunning()) {
        m_process->disconnect(this);
        ::kill(-pid_t(m_process->processId()), SIGKILL);
        m_process->waitForFinished(3000);
    }
}

bool ImageBuild::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void ImageBuild::start()
{
    if (isRunning())
        return;
    m_log.clear();
    m_cancelled = false;
    m_files = std::make_unique<QTemporaryDir>();
    if (!m_files->isValid() || !writeSandboxImageFiles(m_files->path())) {
        Q_EMIT finished(false, tr("Cannot write the image's build files to a temporary folder."));
        return;
    }
    delete m_process;
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDCASTLE_ENGINE"), m_engine);
    env.insert(QStringLiteral("SANDCASTLE_IMAGE"), m_image);
    if (!m_context.isEmpty())
        env.insert(QStringLiteral("DOCKER_CONTEXT"), m_context);
    m_process->setProcessEnvironment(env);
    // Its own process group: Cancel stops the script and the engine's client it runs.
    m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(m_process, &QProcess::readyRead, this, [this] {
        const QString text = QString::fromUtf8(m_process->readAll());
        m_log += text;
        Q_EMIT output(text);
    });
    connect(m_process, &QProcess::finished, this, &ImageBuild::done);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            Q_EMIT finished(false, tr("Cannot run bash to build the image."));
    });
    m_process->start(QStringLiteral("bash"), {m_files->filePath(QStringLiteral("build-image.sh"))});
}

void ImageBuild::cancel()
{
    if (!isRunning())
        return;
    m_cancelled = true;
    const auto group = -pid_t(m_process->processId());
    ::kill(group, SIGTERM);
    QTimer::singleShot(3000, m_process, [group] { ::kill(group, SIGKILL); });
}

void ImageBuild::done(int exitCode, QProcess::ExitStatus status)
{
    m_files.reset();
    if (m_cancelled) {
        Q_EMIT finished(false, tr("cancelled"));
        return;
    }
    if (status == QProcess::NormalExit && exitCode == 0) {
        Q_EMIT finished(true, QString());
        return;
    }
    // The last line the build printed says what went wrong.
    const QStringList lines = m_log.trimmed().split(QLatin1Char('\n'));
    const QString last = lines.isEmpty() ? QString() : lines.constLast().trimmed();
    Q_EMIT finished(false,
                    last.isEmpty() ? tr("the build stopped (exit code %1)").arg(exitCode) : last);
}

} // namespace Sandcastle
