#pragma once

#include <app/appsettings.h>

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QLockFile;

namespace Sandcastle {

class SandboxSession;

// One ready sandbox (container and kernel, its pre-imports under way or done) kept in reserve
// for the next new conversation of the data folder, made for a conversation id and workspace
// chosen ahead: the conversation that takes it adopts its container at once instead of
// waiting ~300 ms for the engine, and a new spare is made in the background. Never more than
// one per data folder (a lock file: another window's process may hold it), none when the
// setting is off, on battery, in fresh mode or with a workspace copied to a remote engine.
// Its container carries the same labels as a session's and is reaped like one; its empty
// workspace is locked like an unsaved conversation's and removed with it.
class WarmSpare : public QObject
{
    Q_OBJECT
public:
    struct Taken
    {
        QString conversationId;
        QString workspace;
        std::unique_ptr<QLockFile> lock;         // the workspace's, as ConversationRemoval's
        std::unique_ptr<SandboxSession> session; // ready: for SandboxSession::adopt()
    };

    // `onBattery` is asked before each spare is made and every minute (tests give their own).
    explicit WarmSpare(const AppSettings &settings,
                       std::function<bool()> onBattery = {},
                       QObject *parent = nullptr);
    ~WarmSpare() override;

    // New settings: a spare made with other container settings is dropped (and a new one made
    // when there should be one).
    void setSettings(const AppSettings &settings);
    // Makes a spare after `delayMs` unless there is one, or one is on its way, or none may be.
    void replenish(int delayMs = kDefaultDelayMs);
    // The spare, if one is ready: the caller owns it now (a new one comes with replenish()).
    std::optional<Taken> take();
    // A spare exists (ready or starting).
    bool hasSpare() const { return m_session != nullptr; }
    bool isReady() const;
    // The spare's session (null without one): for the status line and tests.
    const SandboxSession *session() const { return m_session; }
    QString conversationId() const { return m_conversationId; }
    // Why there is no spare now, for the status line and tests ("" when there is or may be).
    QString reason() const { return m_reason; }

    static constexpr int kDefaultDelayMs = 2000;

Q_SIGNALS:
    // The spare is ready (its kernel said so).
    void ready();
    // The spare was taken, dropped or could not start.
    void gone();

private:
    bool allowed();
    void make();
    void drop();

    AppSettings m_settings;
    std::function<bool()> m_onBattery;
    QTimer m_delay;
    QTimer m_powerCheck;
    std::unique_ptr<QLockFile> m_folderLock; // the data folder's one spare
    std::unique_ptr<QLockFile> m_workspaceLock;
    SandboxSession *m_session = nullptr;
    QString m_conversationId;
    QString m_workspace;
    QString m_reason;
    bool m_wanted = false; // replenish() was asked for: made again when allowed again
};

} // namespace Sandcastle
