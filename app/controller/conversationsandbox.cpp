// The conversation's sandbox between runs: a new conversation adopts the warm spare, and a
// sandbox nobody looks at or uses is stopped after settings().idleStopS. Split from
// conversationcontroller.cpp.
#include "conversationcontroller.h"
#include "warmspare.h"

#include <app/agent/agent.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>

#include <QLockFile>
#include <QTimer>

namespace Sandcastle {

void ConversationController::setWarmSpare(WarmSpare *spare)
{
    m_spare = spare;
    if (m_spare)
        m_spare->setSettings(m_settings);
}

bool ConversationController::adoptSpare()
{
    if (!m_spare)
        return false;
    std::optional<WarmSpare::Taken> taken = m_spare->take();
    m_spare->replenish(); // the next one, after this conversation's first moments
    if (!taken)
        return false;
    ConversationInfo info;
    info.id = taken->conversationId;
    info.workspace = taken->workspace;
    info.ownsWorkspace = true;
    switchTo(info, false, nlohmann::json::array(), std::move(taken->lock));
    // Made with the settings of its time: adopted only if this conversation would start the
    // same container now.
    const SandboxConfig wanted = sandboxConfig();
    const SandboxConfig &has = taken->session->config();
    if (!wanted.needsNewContainer(has) && wanted.preimports == has.preimports
        && m_session->adopt(*taken->session)) {
        m_session->setConfig(wanted); // the run settings of now (time limit, output cap)
    } else {
        taken->session->release();
        warmUp();
    }
    return true;
}

void ConversationController::bindIdleStop()
{
    m_idleTimer = new QTimer(this);
    m_idleTimer->setSingleShot(true);
    connect(m_idleTimer, &QTimer::timeout, this, &ConversationController::stopIdleSession);
    connect(m_session, &SandboxSession::stateChanged, this, [this](SandboxSession::State state) {
        if (state == SandboxSession::State::Ready) {
            armIdleStop(); // idle from now (started, or a run ended)
        } else if (state != SandboxSession::State::Stopped) {
            m_idleStopped = false; // a run or a start brings a new one
            m_idleTimer->stop();
        }
    });
}

void ConversationController::setLookedAt(bool lookedAt)
{
    if (m_lookedAt == lookedAt)
        return;
    m_lookedAt = lookedAt;
    armIdleStop();
}

void ConversationController::armIdleStop()
{
    if (!m_idleTimer)
        return;
    if (m_lookedAt || m_settings.idleStopS <= 0
        || m_session->state() != SandboxSession::State::Ready) {
        m_idleTimer->stop();
        return;
    }
    m_idleTimer->start(m_settings.idleStopS * 1000);
}

void ConversationController::stopIdleSession()
{
    if (m_lookedAt || m_session->state() != SandboxSession::State::Ready)
        return;
    if (isBusy()) { // the agent is between runs: idle again once it is done
        m_idleTimer->start(m_settings.idleStopS * 1000);
        return;
    }
    m_session->release();
    m_idleStopped = true;
    const int minutes = (m_settings.idleStopS + 59) / 60;
    m_agent->noteForNextMessage(
        QStringLiteral("[The sandbox was stopped after %1 minute(s) unused to free its memory: "
                       "variables, imports and loaded data from earlier runs are gone (files in "
                       "/workspace are kept). The next run starts a new Python session.]")
            .arg(minutes));
    Q_EMIT sandboxIdleStopped(m_settings.idleStopS);
}

} // namespace Sandcastle
