#include "welcomepanel.h"

#include <sandbox/containerengine.h>

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandcastle {

WelcomePanel::WelcomePanel(QWidget *parent)
    : QFrame(parent)
    , m_serversLabel(new QLabel(this))
    , m_sandboxLabel(new QLabel(this))
    , m_serverButtons(new QVBoxLayout)
{
    setObjectName(QStringLiteral("welcomePanel"));
    setFrameShape(QFrame::StyledPanel);
    auto *title = new QLabel(QStringLiteral("<b>%1</b>").arg(tr("Welcome to Sandcastle")), this);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close"));
    auto *header = new QHBoxLayout;
    header->addWidget(title, 1);
    header->addWidget(close);
    m_serversLabel->setObjectName(QStringLiteral("welcomeServers"));
    m_serversLabel->setWordWrap(true);
    m_sandboxLabel->setObjectName(QStringLiteral("welcomeSandbox"));
    m_sandboxLabel->setWordWrap(true);
    m_sandboxLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sandboxLabel->hide();
    auto *settings = new QPushButton(tr("Use OpenAI or another provider…"), this);
    settings->setObjectName(QStringLiteral("welcomeSettings"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(new QLabel(
        tr("Choose a model to talk to. Your code runs in a sandbox on this machine."), this));
    layout->addWidget(m_serversLabel);
    layout->addLayout(m_serverButtons);
    layout->addWidget(settings);
    layout->addWidget(m_sandboxLabel);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    connect(settings, &QPushButton::clicked, this, &WelcomePanel::settingsRequested);
}

void WelcomePanel::showProbing()
{
    m_serversLabel->setText(tr("Looking for model servers on this machine (Ollama, llama.cpp, "
                               "LM Studio, vLLM)…"));
}

void WelcomePanel::showServers(const QList<LocalServerProbe::Server> &servers)
{
    while (QLayoutItem *item = m_serverButtons->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (servers.isEmpty()) {
        m_serversLabel->setText(tr("No model server answers on this machine. Start one (for "
                                   "example `ollama serve`), or use a hosted provider:"));
        return;
    }
    m_serversLabel->setText(tr("Found on this machine:"));
    for (const LocalServerProbe::Server &server : servers) {
        const QString models = server.models.size() > 1
                                   ? tr("%1 and %n more", nullptr, int(server.models.size() - 1))
                                         .arg(server.models.first())
                                   : server.models.first();
        auto *button = new QPushButton(tr("Use %1 (%2)").arg(server.name, models), this);
        button->setObjectName(QStringLiteral("use-") + server.provider);
        connect(
            button, &QPushButton::clicked, this, [this, server] { Q_EMIT serverChosen(server); });
        m_serverButtons->addWidget(button);
    }
}

void WelcomePanel::showSandboxProblem(const QString &problem)
{
    m_sandboxLabel->setText(problem);
    m_sandboxLabel->setVisible(!problem.isEmpty());
}

void WelcomePanel::probe(const QList<LocalServerProbe::Server> &candidates)
{
    if (!m_probe) {
        m_probe = new LocalServerProbe(this);
        connect(m_probe, &LocalServerProbe::finished, this, &WelcomePanel::showServers);
    }
    showProbing();
    m_probe->probe(candidates);
}

void WelcomePanel::checkSandbox(const QString &engine, const QString &context, const QString &image)
{
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        showSandboxProblem(watcher->result());
        watcher->deleteLater();
    });
    // The strings keep the window's translation context, where their translations are.
    watcher->setFuture(QtConcurrent::run([engine, context, image]() -> QString {
        const ContainerEngine containers(engine, context);
        const Result<QString> daemon = containers.checkDaemon();
        if (!daemon)
            return QCoreApplication::translate(
                       "Sandcastle::MainWindow",
                       "The sandbox needs Docker: %1. Start it (for example `sudo systemctl "
                       "start docker`), or run `scripts/setup`, which installs and starts it.")
                .arg(daemon.error());
        const Result<bool> present = containers.imageExists(image);
        if (present && !present.value())
            return QCoreApplication::translate(
                       "Sandcastle::MainWindow",
                       "The sandbox image %1 is missing: run `sandcastle image build` (it works "
                       "offline, a few minutes).")
                .arg(image);
        return QString();
    }));
}

} // namespace Sandcastle
