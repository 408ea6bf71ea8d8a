#include "chatprinter.h"

#include "clicommon.h"

#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>

namespace Sandcastle::Cli {

namespace {

nlohmann::ordered_json fileList(const QStringList &files)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const QString &f : files)
        list.push_back(utf8(f));
    return list;
}

// One JSON object per line: `chat --json`.
class JsonPrinter : public ChatPrinter
{
public:
    explicit JsonPrinter(ConversationController *controller)
        : ChatPrinter(controller)
    {
        bindText();
        bindTools();
        bindProblems();
    }

    void conversationOpened(bool continued) override
    {
        emitJson({{"type", "conversation"},
                  {"id", utf8(m_controller->conversationId())},
                  {"title", utf8(m_controller->title())},
                  {"workspace", utf8(m_controller->workspace())},
                  {"continued", continued}});
    }

    void done(const QString &status, int turns) override
    {
        nlohmann::ordered_json event
            = {{"type", "done"}, {"status", utf8(status)}, {"turns", turns}};
        const QString limit = m_controller->agent()->limitReached();
        if (!limit.isEmpty())
            event["limit"] = utf8(limit);
        event["conversation"] = utf8(m_controller->conversationId());
        emitJson(event);
    }

private:
    void bindText()
    {
        Agent *agent = m_controller->agent();
        connect(agent, &Agent::textDelta, this, [](const QString &text) {
            emitJson({{"type", "text_delta"}, {"text", utf8(text)}});
        });
        connect(agent, &Agent::reasoningDelta, this, [](const QString &text) {
            emitJson({{"type", "reasoning_delta"}, {"text", utf8(text)}});
        });
        connect(agent, &Agent::messageAdded, this, [](const QString &role, const QString &content) {
            emitJson({{"type", "message"}, {"role", utf8(role)}, {"content", utf8(content)}});
        });
        connect(agent,
                &Agent::usage,
                this,
                [agent](int promptTokens, int completionTokens, qint64 total, double cost) {
                    nlohmann::ordered_json event = {{"type", "usage"},
                                                    {"prompt_tokens", promptTokens},
                                                    {"completion_tokens", completionTokens},
                                                    {"run_total_tokens", total},
                                                    {"turn", agent->turns()}};
                    const Usage &turn = agent->lastUsage();
                    if (turn.cachedPromptTokens >= 0)
                        event["cached_tokens"] = turn.cachedPromptTokens;
                    if (turn.cacheWriteTokens >= 0)
                        event["cache_write_tokens"] = turn.cacheWriteTokens;
                    if (cost >= 0)
                        event["run_cost_usd"] = cost;
                    emitJson(event);
                });
    }

    void bindTools()
    {
        Agent *agent = m_controller->agent();
        connect(agent,
                &Agent::toolCall,
                this,
                [](const QString &id, const QString &name, const QString &arguments) {
                    emitJson({{"type", "tool_call"},
                              {"id", utf8(id)},
                              {"name", utf8(name)},
                              {"arguments", utf8(arguments)}});
                });
        connect(agent,
                &Agent::toolOutput,
                this,
                [](const QString &id, OutputStream stream, const QString &text) {
                    emitJson({{"type", "tool_output"},
                              {"id", utf8(id)},
                              {"stream", stream == OutputStream::Stdout ? "stdout" : "stderr"},
                              {"text", utf8(text)}});
                });
        connect(agent,
                &Agent::toolAnswered,
                this,
                [](const QString &id,
                   ToolResultStatus status,
                   const QString &,
                   const QStringList &files) {
                    emitJson({{"type", "tool_result"},
                              {"id", utf8(id)},
                              {"status", utf8(toolResultStatusName(status))},
                              {"exit_code", status == ToolResultStatus::Ok ? 0 : 1},
                              {"duration_ms", 0},
                              {"files", fileList(files)}});
                });
        connect(
            agent, &Agent::toolResult, this, [](const QString &id, const ExecutionResult &result) {
                emitJson({{"type", "tool_result"},
                          {"id", utf8(id)},
                          {"status", utf8(ExecutionResult::statusName(result.status))},
                          {"exit_code", result.exitCode},
                          {"duration_ms", result.durationMs},
                          {"files", fileList(result.files)}});
            });
    }

    void bindProblems()
    {
        connect(
            m_controller, &ConversationController::storeProblem, this, [](const QString &message) {
                emitJson({{"type", "error"}, {"code", "store"}, {"message", utf8(message)}});
            });
        connect(m_controller->agent(),
                &Agent::retrying,
                this,
                [](int attempt, int delayMs, const QString &reason) {
                    emitJson({{"type", "retry"},
                              {"attempt", attempt},
                              {"delay_ms", delayMs},
                              {"reason", utf8(reason)}});
                });
        connect(m_controller->agent(),
                &Agent::errorOccurred,
                this,
                [](const QString &code, const QString &message) {
                    emitJson({{"type", "error"}, {"code", utf8(code)}, {"message", utf8(message)}});
                });
    }
};

// The answer on stdout as it streams, the code and results of tools between dashes, problems
// on stderr.
class PlainPrinter : public ChatPrinter
{
public:
    explicit PlainPrinter(ConversationController *controller)
        : ChatPrinter(controller)
    {
        bindText();
        bindTools();
        bindProblems();
    }

    void conversationOpened(bool) override {}

    void done(const QString &status, int turns) override
    {
        endLine();
        if (status != QLatin1String("answered"))
            writeErr(QStringLiteral("sandcastle: the agent ended with status %1 after %2 turns\n")
                         .arg(status)
                         .arg(turns));
        writeErr(QStringLiteral("sandcastle: saved as conversation %1 (continue with "
                                "--conversation %1)\n")
                     .arg(m_controller->conversationId()));
    }

private:
    void endLine()
    {
        if (m_midLine)
            writeOut(QStringLiteral("\n"));
        m_midLine = false;
    }

    void bindText()
    {
        connect(m_controller->agent(), &Agent::textDelta, this, [this](const QString &text) {
            writeOut(text);
            m_midLine = !text.endsWith(QLatin1Char('\n'));
        });
    }

    void bindTools()
    {
        Agent *agent = m_controller->agent();
        connect(agent,
                &Agent::toolCall,
                this,
                [this](const QString &, const QString &name, const QString &arguments) {
                    endLine();
                    const nlohmann::json parsed
                        = nlohmann::json::parse(utf8(arguments), nullptr, false);
                    QString code = arguments;
                    if (parsed.is_object() && parsed.contains("code") && parsed["code"].is_string())
                        code = QString::fromStdString(parsed["code"].get<std::string>());
                    writeOut(QStringLiteral("--- %1\n%2\n---\n").arg(name, code.trimmed()));
                });
        connect(agent,
                &Agent::toolOutput,
                this,
                [](const QString &, OutputStream, const QString &text) { writeOut(text); });
        connect(agent,
                &Agent::toolAnswered,
                this,
                [](const QString &, ToolResultStatus status, const QString &error) {
                    if (!error.isEmpty())
                        writeOut(error.trimmed() + QLatin1Char('\n'));
                    writeOut(QStringLiteral("--- %1\n").arg(toolResultStatusName(status)));
                });
        connect(
            agent, &Agent::toolResult, this, [](const QString &, const ExecutionResult &result) {
                if (!result.error.isEmpty())
                    writeOut(result.error.trimmed() + QLatin1Char('\n'));
                writeOut(QStringLiteral("--- %1 in %2 ms%3\n")
                             .arg(ExecutionResult::statusName(result.status))
                             .arg(result.durationMs)
                             .arg(result.files.isEmpty()
                                      ? QString()
                                      : QStringLiteral(", files: ")
                                            + result.files.join(QStringLiteral(", "))));
            });
    }

    void bindProblems()
    {
        connect(
            m_controller, &ConversationController::storeProblem, this, [](const QString &message) {
                writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
            });
        connect(m_controller->agent(),
                &Agent::retrying,
                this,
                [](int attempt, int delayMs, const QString &reason) {
                    writeErr(QStringLiteral("sandcastle: retrying in %1 ms (attempt %2): %3\n")
                                 .arg(delayMs)
                                 .arg(attempt)
                                 .arg(reason));
                });
        connect(m_controller->agent(),
                &Agent::errorOccurred,
                this,
                [](const QString &, const QString &message) {
                    writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
                });
    }

    bool m_midLine = false;
};

} // namespace

std::unique_ptr<ChatPrinter> ChatPrinter::create(bool json, ConversationController *controller)
{
    if (json)
        return std::make_unique<JsonPrinter>(controller);
    return std::make_unique<PlainPrinter>(controller);
}

} // namespace Sandcastle::Cli
