#include "statusline.h"

#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/project/projectenvironment.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QLabel>
#include <QStatusBar>
#include <QThreadPool>

namespace Sandcastle {

namespace {
// The strings keep the window's translation context (Sandcastle::MainWindow), where their
// translations are.
QString sandboxStateText(SandboxSession::State state, const QString &error)
{
    switch (state) {
    case SandboxSession::State::Stopped:
        return error.isEmpty()
                   ? QCoreApplication::translate("Sandcastle::MainWindow", "Sandbox: stopped")
                   : QCoreApplication::translate("Sandcastle::MainWindow", "Sandbox: failed — %1")
                         .arg(error.section(QLatin1Char('\n'), 0, 0));
    case SandboxSession::State::Starting:
        return QCoreApplication::translate("Sandcastle::MainWindow", "Sandbox: starting…");
    case SandboxSession::State::Ready:
        return QCoreApplication::translate("Sandcastle::MainWindow", "Sandbox: ready");
    case SandboxSession::State::Running:
        return QCoreApplication::translate("Sandcastle::MainWindow", "Sandbox: running");
    }
    return QString();
}
} // namespace

StatusLine::StatusLine(ConversationController *controller, QStatusBar *bar)
    : QObject(bar)
    , m_controller(controller)
    , m_sandbox(new QLabel(bar))
    , m_usage(new QLabel(bar))
    , m_model(new QLabel(bar))
    , m_sandboxes(new QLabel(bar))
{
    m_sandbox->setObjectName(QStringLiteral("sandboxStatus"));
    m_usage->setObjectName(QStringLiteral("usageStatus"));
    m_usage->setToolTip(QCoreApplication::translate(
        "Sandcastle::MainWindow",
        "Tokens and cost of this conversation; input the server had cached is priced at the "
        "model's cached-input price (prices from models.json)"));
    bar->addWidget(m_sandbox, 1);
    m_sandboxes->setObjectName(QStringLiteral("sandboxesStatus"));
    m_sandboxes->setToolTip(QCoreApplication::translate(
        "Sandcastle::MainWindow",
        "Sandboxes of this data folder running now (other windows' and the one kept ready "
        "included) and the memory they use; an unused one stops after the time the settings "
        "give"));
    bar->addPermanentWidget(m_sandboxes);
    bar->addPermanentWidget(m_usage);
    m_usageTimer.setInterval(30000);
    connect(&m_usageTimer, &QTimer::timeout, this, &StatusLine::askSandboxUsage);
    m_usageTimer.start();
    QTimer::singleShot(5000, this, &StatusLine::askSandboxUsage);
    bar->addPermanentWidget(m_model);
    SandboxSession *session = controller->session();
    connect(session, &SandboxSession::stateChanged, this, &StatusLine::refresh);
    connect(session, &SandboxSession::errorOccurred, this, [this](const QString &message) {
        m_sandboxError = message; // shown until the sandbox is up again
        refresh();
    });
    connect(controller, &ConversationController::usageChanged, this, &StatusLine::refreshUsage);
    connect(controller, &ConversationController::conversationSwitched, this, &StatusLine::refresh);
    connect(controller, &ConversationController::personRunFinished, this, &StatusLine::refresh);
    connect(controller->agent(), &Agent::finished, this, &StatusLine::refresh);
    connect(
        controller->environment(), &ProjectEnvironment::stateChanged, this, &StatusLine::refresh);
    refresh();
}

void StatusLine::refresh()
{
    const SandboxSession *session = m_controller->session();
    if (session->state() == SandboxSession::State::Ready
        || session->state() == SandboxSession::State::Running)
        m_sandboxError.clear();
    m_sandbox->setToolTip(m_sandboxError);
    const SandboxConfig &config = session->config();
    const bool building
        = m_controller->environment()->state() == ProjectEnvironment::State::Building;
    m_sandbox->setText(
        (building ? QCoreApplication::translate("Sandcastle::MainWindow",
                                                "Sandbox: building environment…")
                  : sandboxStateText(session->state(), m_sandboxError))
        + QCoreApplication::translate("Sandcastle::MainWindow", "  ·  network %1  ·  memory %2")
              .arg(config.network ? QCoreApplication::translate("Sandcastle::MainWindow", "ON")
                                  : QCoreApplication::translate("Sandcastle::MainWindow", "off"),
                   config.memory));
    const AppSettings &settings = m_controller->settings();
    m_model->setText(QCoreApplication::translate("Sandcastle::MainWindow", "Model: %1 at %2")
                         .arg(settings.model, settings.baseUrl));
    refreshUsage();
}

QString StatusLine::usageText() const
{
    const UsageTotals &usage = m_controller->usage();
    QString text
        = QCoreApplication::translate("Sandcastle::MainWindow", "%L1 tokens").arg(usage.tokens());
    if (usage.cachedTokens() > 0)
        text += QCoreApplication::translate("Sandcastle::MainWindow", " (%L1 cached)")
                    .arg(usage.cachedTokens());
    if (usage.costKnown())
        text += QCoreApplication::translate("Sandcastle::MainWindow", " · $%1")
                    .arg(usage.costUsd(), 0, 'f', usage.costUsd() < 1 ? 4 : 2);
    const Agent *agent = m_controller->agent();
    if (agent->isRunning())
        text = QCoreApplication::translate("Sandcastle::MainWindow", "turn %1 of %2")
                   .arg(agent->turns())
                   .arg(m_controller->settings().maxTurns)
               + QStringLiteral(" · ") + text;
    return text;
}

void StatusLine::askSandboxUsage()
{
    if (m_asking || !m_sandboxes->isVisible())
        return;
    m_asking = true;
    const AppSettings &settings = m_controller->settings();
    const ContainerEngine engine(settings.engine, settings.engineContext);
    const QString owner = SandboxConfig::ownerDataFor(settings.dataDir);
    QPointer<QLabel> label(m_sandboxes);
    QPointer<StatusLine> self(this);
    blockingJobs()->start([engine, owner, label, self] {
        const ContainerEngine::Usage usage = engine.sandboxUsage(owner);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [usage, label, self] {
            if (self)
                self->m_asking = false;
            if (!label || usage.running < 0)
                return;
            QString text = QCoreApplication::translate("Sandcastle::MainWindow", "Sandboxes: %1")
                               .arg(usage.running);
            if (usage.memoryBytes >= 0 && usage.running > 0)
                text += QStringLiteral(" · ")
                        + QCoreApplication::translate("Sandcastle::MainWindow", "%L1 MB")
                              .arg((usage.memoryBytes + 500000) / 1000000);
            label->setText(text);
        });
    });
}

void StatusLine::refreshUsage()
{
    m_usage->setText(usageText());
}

} // namespace Sandcastle
