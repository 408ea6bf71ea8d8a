#include "storedhistory.h"

#include "tools.h"

#include <app/store/storedmessage.h>
#include <base/jsonfields.h>

#include <nlohmann/json.hpp>

#include <QStringList>

namespace Sandcastle {

QList<Message> historyFromStore(const nlohmann::json &stored)
{
    QList<Message> history;
    if (!stored.is_array())
        return history;
    QStringList unanswered; // tool call ids waiting for their result, in order
    auto answerTheRest = [&] {
        for (const QString &id : std::as_const(unanswered))
            history.append(Message::toolResult(
                id,
                QString::fromStdString(
                    Tools::errorJson(QStringLiteral("interrupted: Sandcastle was closed before "
                                                    "this finished; its result is unknown"))
                        .dump())));
        unanswered.clear();
    };
    for (const auto &item : stored) {
        const Result<Message> converted = fromStoreJson(item);
        if (!converted || converted.value().role == Message::Role::System)
            continue;
        const Message &message = converted.value();
        if (message.role == Message::Role::Tool) {
            if (!unanswered.removeOne(message.toolCallId))
                continue; // a result without its call would be refused
        } else {
            answerTheRest();
        }
        for (const ToolCall &call : message.toolCalls)
            unanswered << call.id;
        history.append(message);
    }
    answerTheRest();
    return history;
}

QString lastPythonCode(const QList<Message> &history)
{
    for (auto message = history.crbegin(); message != history.crend(); ++message) {
        for (auto call = message->toolCalls.crbegin(); call != message->toolCalls.crend(); ++call) {
            if (call->name != QLatin1String("run_python"))
                continue;
            const nlohmann::json args
                = nlohmann::json::parse(call->arguments.toStdString(), nullptr, false);
            if (args.is_object() && args.contains("code") && args["code"].is_string())
                return jsonString(args, "code");
        }
    }
    return QString();
}

} // namespace Sandcastle
