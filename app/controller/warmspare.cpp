#include "warmspare.h"

#include "powersupply.h"

#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>

#include <QDir>
#include <QLockFile>

namespace Sandcastle {

namespace {
constexpr int kPowerCheckMs = 60 * 1000;

// The container a spare made with `settings` for `id` would run in.
SandboxConfig spareConfig(const AppSettings &settings, const QString &id)
{
    return settings.sandboxConfig(id, settings.workspaceFor(id));
}
} // namespace

WarmSpare::WarmSpare(const AppSettings &settings, std::function<bool()> onBattery, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_onBattery(onBattery ? std::move(onBattery) : [] { return PowerSupply::onBattery(); })
{
    m_delay.setSingleShot(true);
    connect(&m_delay, &QTimer::timeout, this, &WarmSpare::make);
    m_powerCheck.setInterval(kPowerCheckMs);
    connect(&m_powerCheck, &QTimer::timeout, this, [this] {
        if (m_session && !allowed())
            drop();
        else if (!m_session && m_wanted && !m_delay.isActive())
            replenish(0);
    });
}

WarmSpare::~WarmSpare()
{
    drop();
}

bool WarmSpare::allowed()
{
    const SandboxConfig config = spareConfig(m_settings, QStringLiteral("spare"));
    if (!m_settings.warmSpare)
        m_reason = QStringLiteral("off in the settings");
    else if (config.fresh)
        m_reason = QStringLiteral("every run gets a fresh container");
    else if (config.copiesWorkspace())
        m_reason = QStringLiteral("the engine is not on this machine");
    else if (m_onBattery())
        m_reason = QStringLiteral("on battery");
    else
        m_reason.clear();
    return m_reason.isEmpty();
}

void WarmSpare::setSettings(const AppSettings &settings)
{
    m_settings = settings;
    if (!m_session)
        return;
    const SandboxConfig wanted = spareConfig(m_settings, m_conversationId);
    const SandboxConfig &has = m_session->config();
    if (!allowed() || wanted.needsNewContainer(has) || wanted.preimports != has.preimports
        || wanted.pidsLimit != has.pidsLimit) {
        drop();
        if (m_wanted)
            replenish();
    }
}

void WarmSpare::replenish(int delayMs)
{
    m_wanted = true;
    m_powerCheck.start();
    if (m_session || m_delay.isActive())
        return;
    m_delay.start(std::max(0, delayMs));
}

bool WarmSpare::isReady() const
{
    return m_session && m_session->state() == SandboxSession::State::Ready;
}

void WarmSpare::make()
{
    if (m_session || !allowed())
        return;
    if (!m_folderLock) {
        // One spare per data folder, whichever window's process holds this.
        QDir().mkpath(m_settings.dataDir + QStringLiteral("/locks"));
        auto lock = std::make_unique<QLockFile>(m_settings.dataDir
                                                + QStringLiteral("/locks/warm-spare.lock"));
        lock->setStaleLockTime(0);
        if (!lock->tryLock(0)) {
            m_reason = QStringLiteral("another window keeps one");
            return;
        }
        m_folderLock = std::move(lock);
    }
    m_conversationId = newConversationId();
    m_workspace = m_settings.workspaceFor(m_conversationId);
    m_workspaceLock = ConversationRemoval::lockWorkspace(m_settings.dataDir, m_conversationId);
    m_session = new SandboxSession(spareConfig(m_settings, m_conversationId), this);
    SandboxSession *session = m_session;
    connect(session, &SandboxSession::ready, this, &WarmSpare::ready);
    connect(session, &SandboxSession::stateChanged, this, [this, session](auto state) {
        // A spare that could not start, or whose kernel died, goes; none is made again until
        // the next replenish() (no loop against a broken engine).
        if (session == m_session && state == SandboxSession::State::Stopped) {
            m_wanted = false;
            m_reason = QStringLiteral("it stopped or could not start");
            drop();
        }
    });
    session->start();
}

std::optional<WarmSpare::Taken> WarmSpare::take()
{
    if (!isReady())
        return std::nullopt;
    Taken taken;
    taken.conversationId = std::exchange(m_conversationId, QString());
    taken.workspace = std::exchange(m_workspace, QString());
    taken.lock = std::move(m_workspaceLock);
    m_session->disconnect(this);
    m_session->setParent(nullptr);
    taken.session.reset(std::exchange(m_session, nullptr));
    Q_EMIT gone();
    return taken;
}

void WarmSpare::drop()
{
    m_delay.stop();
    if (!m_session)
        return;
    SandboxSession *session = std::exchange(m_session, nullptr);
    session->disconnect(this);
    session->release(); // its container goes in the background
    session->deleteLater();
    if (!m_workspace.isEmpty())
        ConversationRemoval::removeEmptyWorkspace(m_settings.dataDir, m_workspace);
    m_workspace.clear();
    m_conversationId.clear();
    m_workspaceLock.reset();
    Q_EMIT gone();
}

} // namespace Sandcastle
