#pragma once

#include "usagetotals.h"

#include <app/appsettings.h>
#include <app/project/checkpoints.h>
#include <base/result.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QObject>
#include <QPointer>

#include <memory>

class QLockFile;
class QTimer;

namespace Sandcastle {

class Agent;
class HttpModelClient;
class CheckpointQueue;
class ProjectEnvironment;
class McpHub;
class ConversationRecorder;
class ConversationStore;
struct ConversationInfo;
class SandboxSession;
class WarmSpare;

// One conversation at a time, under both faces (the window and `sandcastle chat`): it builds
// and owns the store, the model client, the sandbox session, the agent and the recorder, keeps
// the conversation's usage totals, and carries out its lifecycle (new, open, delete, export)
// and the rules that belong below the faces: when the sandbox must restart for new settings,
// which model errors are worth a retry, when a conversation gets its row in the store.
// Faces bind their panes or printers to its signals and to agent()'s; nothing here waits for
// the container engine on the calling thread except shutDown(Wait), which the CLI uses.
class ConversationController : public QObject
{
    Q_OBJECT
public:
    enum class Language { Python, Shell };
    enum class Refusal { None, Busy, StoreFailed };
    Q_ENUM(Refusal)

    // Now: the project environment is looked up at once. WhenWarmedUp (the window): not before
    // warmUp(), which the window calls once its first frame is painted.
    enum class LookUps { Now, WhenWarmedUp };
    // Now: the store is opened by the constructor. Later (the window): by openStore(), which the
    // window calls once its panes are made, while the store's schema is made on a worker
    // thread (StoreSchema::prepareInBackground()).
    enum class StoreOpening { Now, Later };
    explicit ConversationController(const AppSettings &settings,
                                    QObject *parent = nullptr,
                                    LookUps lookUps = LookUps::Now,
                                    StoreOpening storeOpening = StoreOpening::Now);
    // Opens the data folder's store (once; later calls do nothing).
    void openStore();
    ~ConversationController() override;

    ConversationStore *store() const { return m_store.get(); }
    // Why conversations are not being saved (the store could not be opened), or empty.
    QString storeError() const { return m_storeError; }
    HttpModelClient *client() const { return m_client; }
    SandboxSession *session() const { return m_session; }
    Agent *agent() const { return m_agent; }
    ConversationRecorder *recorder() const { return m_recorder; }
    // The current conversation's checkpoints (a step before and after each agent turn and each
    // run of the person's), on their own thread.
    CheckpointQueue *checkpoints() const { return m_checkpoints; }
    // The folder's environment: the image the sandbox runs on, its builds and approvals.
    ProjectEnvironment *environment() const { return m_environment; }
    // The MCP servers of the data folder's mcp.json (started with the first turn that needs
    // their tools; their tools offered beside the built-ins).
    McpHub *mcp() const { return m_mcp; }
    const AppSettings &settings() const { return m_settings; }

    QString conversationId() const { return m_conversationId; }
    // Empty until the conversation has one (the faces show "New conversation" meanwhile).
    QString title() const { return m_title; }
    QString workspace() const { return m_workspace; }
    // False on a read-only mount or without permission to write (the agent is told).
    bool isWorkspaceWritable() const;
    bool isSaved() const { return m_saved; }
    bool isPersonRunning() const { return m_personRunning; }
    // The agent or a person's run is busy: switching, deleting and new runs wait.
    bool isBusy() const;
    const UsageTotals &usage() const { return m_usage; }

    // --- lifecycle
    // An empty conversation with a workspace made for it under the data folder (or `folder`,
    // a folder the person chose, which is never deleted with it: checked first, see
    // ProjectFolder). Refused while busy, or with the reason the folder cannot be opened.
    Result<bool> newConversation(const QString &folder = QString());
    // Switches to a stored conversation: its history, workspace and usage. Refused while busy.
    Result<bool> openConversation(const QString &conversationId);
    // The conversation opened last time (settings), if it is still stored.
    bool openLastConversation();
    // Gives the conversation its row in the store now (it gets one anyway at its first prompt
    // or run), titled `titleHint` unless it has a title. A failure is also told as storeProblem().
    Result<bool> ensureSaved(const QString &titleHint);
    void setTitle(const QString &title);
    // Records what the conversation is had with (model, endpoint; never the key).
    void recordModelSettings();
    // Deletes a conversation: its rows at once, its containers and owned workspace in the
    // background; deleteFinished() says how it went. Deleting the current conversation starts
    // a new one first. Refused while the current conversation is busy.
    Refusal deleteConversation(const QString &conversationId);
    // Writes the conversation as Markdown (a file) or as a re-runnable bundle (a new folder).
    Result<bool>
    exportConversation(const QString &conversationId, const QString &path, bool bundle) const;

    // --- work
    // Starts the agent on a prompt; the conversation is saved, titled from the prompt if new.
    bool submitPrompt(const QString &text);
    // Asks the model again after a retryable error (no new message).
    bool resume();
    // The person's own code in the conversation's sandbox; `tellAgent`: the agent hears of
    // it (the diff against its code and what came out) with the next message.
    bool runPersonCode(const QString &code, Language language, bool tellAgent);
    // Something the agent must hear with the next message (the Markdown of a notebook the
    // person opened): kept in the store until then when the conversation is saved.
    void noteForAgent(const QString &note);
    // Everything now: the agent (partial answer kept) or the person's run.
    void stop();
    // Puts back what a recorded step changed (undo), or the whole folder as it was after a step
    // (or, `before`, before it). Refused while busy. Each is itself recorded as a step
    // (checkpointRecorded()), the agent is told with the next message, and
    // checkpointActionFinished() says how it went. Kernel memory is not rewound.
    void undoCheckpoint(const Sandcastle::Checkpoint &step);
    void restoreCheckpoint(const Sandcastle::Checkpoint &step, bool before);
    // Only the running code: the agent is told and goes on.
    void stopCode();
    // Starts the sandbox ahead of the first run, unless every run gets a fresh container, and
    // lets the environment's look-ups go (LookUps::WhenWarmedUp).
    void warmUp();
    // The window's reserve sandbox: a new conversation in a workspace of its own adopts it
    // (and asks for the next). Null (the command line): every conversation starts its own.
    void setWarmSpare(WarmSpare *spare);
    // Whether the person looks at this conversation now (its window is active). A sandbox
    // neither looked at nor used for settings().idleStopS is stopped; the next run starts a
    // new one, and the person and the agent are told that variables were lost.
    void setLookedAt(bool lookedAt);
    // The sandbox was stopped for being idle and no run has started a new one yet.
    bool isIdleStopped() const { return m_idleStopped; }
    // Removes the empty workspaces that crashes and earlier versions left (none that a stored
    // conversation or another process uses), and the engine's volumes of this data folder's
    // deleted conversations: the window's, once its first frame is up.
    void sweepLeftoverWorkspaces();
    // New settings for the next request and run (a run in progress keeps its own); a change
    // of the container's limits restarts an idle sandbox (sandboxRestarted()).
    void applySettings(const AppSettings &settings);
    // Async: the container is removed in the background (the window). Wait: removed before
    // this returns (the command line, which exits next).
    enum class ShutDownMode { Async, Wait };
    void shutDown(ShutDownMode mode);

Q_SIGNALS:
    // Now on another conversation (new or opened): panes reload from `messages`.
    void conversationSwitched(const QString &conversationId, const nlohmann::json &messages);
    void titleChanged(const QString &title);
    // The stored list changed (a conversation saved, finished a turn, deleted).
    void conversationsChanged();
    void usageChanged();
    // A model or agent error, with whether a retry (resume()) could help.
    void agentError(const QString &code, const QString &message, bool retryable);
    // Saving failed: the store, or the recorder.
    void storeProblem(const QString &message);
    void personRunStarted(Sandcastle::ConversationController::Language language);
    void personRunFinished(const Sandcastle::ExecutionResult &result);
    // A step was recorded (an agent turn, a person's run, an undo or restore) with its changes.
    void checkpointRecorded(const Sandcastle::Checkpoint &step,
                            const QList<Sandcastle::CheckpointChange> &changes);
    void checkpointActionFinished(bool ok, const QString &message);
    // A checkpoint could not be taken; the work went on without it.
    void checkpointProblem(const QString &message);
    // An MCP server did not start or went away: its tools are not offered until it is back.
    void mcpProblem(const QString &server, const QString &message);
    // The idle sandbox was restarted because its limits changed.
    void sandboxRestarted();
    // The sandbox was stopped after `idleS` seconds neither looked at nor used: its variables
    // are gone; the next run starts a new one.
    void sandboxIdleStopped(int idleS);
    // The sandbox moved to the folder's environment `image`; `rebuilt`: after a build, so the
    // Python session's variables are gone.
    void environmentRestarted(const QString &image, bool rebuilt);
    // A deletion ended: `note` says what was left (a container the engine could not remove).
    void deleteFinished(const QString &conversationId, bool ok, const QString &note);

private:
    void buildConversation();
    void bindAgent();
    void switchTo(const ConversationInfo &info,
                  bool saved,
                  const nlohmann::json &messages,
                  std::unique_ptr<QLockFile> workspaceLock = {});
    // A new conversation's workspace and sandbox from the warm spare, if it has one ready.
    bool adoptSpare();
    void bindIdleStop();
    // Restarts the idle countdown (a run ended, the person looked away, settings changed).
    void armIdleStop();
    void stopIdleSession();
    // Before another conversation (or none) takes over: an unsaved one's empty workspace goes.
    void leaveWorkspace();
    void loadUsage();
    void saveUsage();
    void rememberLast();
    void onSessionFinished(const ExecutionResult &result);
    void startPersonRun();
    void bindEnvironment();
    void bindMcp();
    // The agent's MCP tools made those of the servers connected now.
    void syncMcpTools();
    // The turn's message goes to the agent (once the MCP servers it offers have answered).
    void beginTurn(const QString &text);
    void onEnvironmentImage(const QString &image, const QString &packages, bool rebuilt);
    void restartOnEnvironment();
    // The sandbox config for the current conversation, on the folder environment's image.
    SandboxConfig sandboxConfig() const;
    void finishCheckpointAction(const Result<Checkpoint> &step,
                                const QList<CheckpointChange> &changes,
                                const QString &what);

    AppSettings m_settings;
    std::unique_ptr<ConversationStore> m_store;
    QString m_storeError;
    bool m_storeOpened = false;
    HttpModelClient *m_client = nullptr;
    SandboxSession *m_session = nullptr;
    Agent *m_agent = nullptr;
    ConversationRecorder *m_recorder = nullptr;
    CheckpointQueue *m_checkpoints = nullptr;
    ProjectEnvironment *m_environment = nullptr;
    McpHub *m_mcp = nullptr;
    QPointer<WarmSpare> m_spare;
    QTimer *m_idleTimer = nullptr;
    bool m_lookedAt = false;
    bool m_idleStopped = false;

    QString m_conversationId;
    QString m_title;
    QString m_workspace;
    bool m_ownsWorkspace = true;
    bool m_saved = false;
    // Held while this conversation's own workspace is in use: no other process sweeps it.
    std::unique_ptr<QLockFile> m_workspaceLock;
    bool m_personRunning = false;
    // Between a prompt and the agent's start: the checkpoint before the turn is being taken.
    bool m_turnStarting = false;
    bool m_stopWhenStarted = false;
    bool m_checkpointBusy = false; // an undo or restore is under way
    bool m_personShell = false;
    bool m_tellAgent = true;
    // The environment's image changed while code ran: the sandbox moves when the run is over.
    bool m_restartWhenIdle = false;
    bool m_restartRebuilt = false;
    QString m_personCode;
    UsageTotals m_usage;
};

} // namespace Sandcastle

Q_DECLARE_METATYPE(Sandcastle::ConversationController::Language)
