// The window's part when the sandbox image is missing: it is looked for once the first frame
// is up (off the UI thread), offered to be built in the bar over the editor (or, on a remote
// engine, sent from this machine), built with its log in the console, and the sandbox started
// on it. (Split from mainwindow.cpp.)
#include "mainwindow.h"

#include "console/consolepane.h"
#include "environment/imagebar.h"

#include <app/controller/conversationcontroller.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <sandbox/imagebuild.h>
#include <sandbox/imagetransfer.h>
#include <sandbox/sandboxengine.h>

#include <QCoreApplication>
#include <QPointer>
#include <QStatusBar>
#include <QThreadPool>

namespace Sandcastle {

void MainWindow::checkImage()
{
    QPointer<MainWindow> self(this);
    const SandboxConfig config = settings().sandboxConfig(QString(), QString());
    blockingJobs()->start([self, config] {
        const ContainerEngine engine(config.engine, config.context);
        const Result<bool> present = engine.imageExists(config.image);
        // The engine not answering is the sandbox's own message to give, not this bar's.
        const bool missing = present && !present.value();
        const bool remote = missing && !config.daemonIsLocal();
        const QString where
            = remote ? SandboxEngine::forConfig(config)->describeEndpoint() : QString();
        const bool canSend = remote && !ImageTransfer::inputsOf(config, false).isEmpty();
        QMetaObject::invokeMethod(QCoreApplication::instance(),
                                  [self, image = config.image, missing, where, canSend] {
                                      if (!self || !missing)
                                          return;
                                      if (where.isEmpty())
                                          self->m_imageBar->offer(image);
                                      else
                                          self->m_imageBar->offerRemote(image, where, canSend);
                                  });
    });
}

void MainWindow::sendImage()
{
    if (m_imageSending)
        return;
    m_imageSending = true;
    m_imageBar->showSending();
    statusBar()->showMessage(tr("Sandbox: sending the image…"));
    QPointer<MainWindow> self(this);
    const SandboxConfig config = settings().sandboxConfig(QString(), QString());
    blockingJobs()->start([self, config] {
        const Result<bool> sent
            = ImageTransfer::send(config, [self](const ImageTransfer::Progress &progress) {
                  QMetaObject::invokeMethod(QCoreApplication::instance(), [self, progress] {
                      if (self)
                          self->m_imageBar->showSent(progress.sentBytes, progress.totalBytes);
                  });
              });
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, sent] {
            if (!self)
                return;
            self->m_imageSending = false;
            self->statusBar()->clearMessage();
            if (!sent) {
                self->m_imageBar->showFailed(sent.error());
                return;
            }
            self->m_imageBar->hide();
            self->statusBar()->showMessage(tr("The sandbox image is there now."), 5000);
            self->m_controller->warmUp();
        });
    });
}

void MainWindow::bindImage()
{
    connect(m_imageBar, &ImageBar::buildRequested, this, &MainWindow::buildImage);
    connect(m_imageBar, &ImageBar::sendRequested, this, &MainWindow::sendImage);
    connect(m_imageBar, &ImageBar::cancelRequested, this, [this] {
        if (m_imageBuild)
            m_imageBuild->cancel();
    });
}

void MainWindow::buildImage()
{
    if (m_imageBuild && m_imageBuild->isRunning())
        return;
    delete m_imageBuild;
    m_imageBuild
        = new ImageBuild(settings().engine, settings().engineContext, settings().image, this);
    m_imageBar->showBuilding();
    m_imageClock.start();
    m_console->beginRun(tr("Building the sandbox image"));
    statusBar()->showMessage(tr("Sandbox: building the image…"));
    connect(m_imageBuild, &ImageBuild::output, this, [this](const QString &text) {
        m_console->appendOutput(OutputStream::Stdout, text);
        m_imageBar->showLine(text.trimmed().section(QLatin1Char('\n'), -1));
    });
    connect(m_imageBuild, &ImageBuild::finished, this, [this](bool ok, const QString &message) {
        ExecutionResult result;
        result.status = ok ? ExecutionResult::Status::Ok : ExecutionResult::Status::Error;
        result.exitCode = ok ? 0 : 1;
        result.error = message;
        result.durationMs = m_imageClock.elapsed();
        m_console->endRun(result);
        statusBar()->clearMessage();
        if (!ok) {
            m_imageBar->showFailed(message);
            return;
        }
        m_imageBar->hide();
        statusBar()->showMessage(tr("The sandbox image is built."), 5000);
        m_controller->warmUp();
    });
    m_imageBuild->start();
}

} // namespace Sandcastle
