#include "textcalls.h"

#include <base/jsonfields.h>

#include <QRegularExpression>

#include <algorithm>

namespace Sandcastle {

QStringList extractPythonBlocks(const QString &text)
{
    static const QRegularExpression fence(
        QStringLiteral("(?:^|\\n)[ \\t]*```[ \\t]*(?:python3?|py)[ \\t]*\\r?\\n(.*?)\\n[ \\t]*```"),
        QRegularExpression::DotMatchesEverythingOption | QRegularExpression::CaseInsensitiveOption);
    QStringList blocks;
    auto it = fence.globalMatch(text);
    while (it.hasNext()) {
        const QString code = it.next().captured(1);
        if (!code.trimmed().isEmpty())
            blocks << code;
    }
    return blocks;
}

QList<ToolCall> pythonBlockCalls(const QString &text, int turn)
{
    const QStringList blocks = extractPythonBlocks(text);
    QList<ToolCall> calls;
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        const std::string args = nlohmann::json{{"code", blocks.at(i).toStdString()}}.dump();
        calls.append({QStringLiteral("block_%1_%2").arg(turn).arg(i + 1),
                      QStringLiteral("run_python"),
                      QString::fromStdString(args)});
    }
    return calls;
}

std::optional<ToolCall> toolCallFromText(const QString &text, const QStringList &knownTools)
{
    // Only a text that is nothing but the call: settled by its first character, without
    // copying or matching a long answer.
    const auto first
        = std::find_if(text.cbegin(), text.cend(), [](QChar c) { return !c.isSpace(); });
    if (first == text.cend() || (*first != QLatin1Char('{') && *first != QLatin1Char('`')))
        return std::nullopt;
    QString body = text.trimmed();
    static const QRegularExpression jsonFence(QStringLiteral("^```(?:json)?\\s*\\n(.*)\\n\\s*```$"),
                                              QRegularExpression::DotMatchesEverythingOption);
    const auto fenced = jsonFence.match(body);
    if (fenced.hasMatch())
        body = fenced.captured(1).trimmed();
    if (!body.startsWith(QLatin1Char('{')) || !body.endsWith(QLatin1Char('}')))
        return std::nullopt;
    nlohmann::json doc = nlohmann::json::parse(body.toStdString(), nullptr, false);
    if (!doc.is_object())
        return std::nullopt;
    if (doc.contains("function") && doc["function"].is_object())
        doc = doc["function"];
    const QString name = jsonString(doc, "name");
    if (!knownTools.contains(name))
        return std::nullopt;
    nlohmann::json args;
    if (doc.contains("arguments"))
        args = doc["arguments"];
    else if (doc.contains("parameters"))
        args = doc["parameters"];
    else
        return std::nullopt;
    ToolCall call;
    call.name = name;
    if (args.is_string())
        call.arguments = QString::fromStdString(args.get<std::string>());
    else if (args.is_object())
        call.arguments = QString::fromStdString(args.dump());
    else
        return std::nullopt;
    return call;
}

} // namespace Sandcastle
