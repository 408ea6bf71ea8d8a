#include "fakestreams.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Sandcastle::Testing {

namespace {

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QStringList pieces(const QString &text, int size)
{
    QStringList out;
    for (qsizetype i = 0; i < text.size(); i += size)
        out.append(text.mid(i, size));
    return out;
}

class Writer
{
public:
    explicit Writer(bool split)
        : m_split(split)
    {}

    // data: JSON (named with `event:` when `name` is given, as Responses and Messages do).
    void event(const QByteArray &json, const QByteArray &name = {})
    {
        QByteArray bytes = name.isEmpty() ? QByteArray() : "event: " + name + '\n';
        bytes += "data: " + json + "\n\n";
        if (m_split && (m_count++ % 2 == 1) && bytes.size() > 10) {
            m_writes << bytes.left(bytes.size() / 2) << bytes.mid(bytes.size() / 2);
            return;
        }
        m_writes << bytes;
    }
    void typed(const QJsonObject &object)
    {
        event(compact(object), object.value(QStringLiteral("type")).toString().toUtf8());
    }
    QList<QByteArray> writes() const { return m_writes; }

private:
    bool m_split = false;
    int m_count = 0;
    QList<QByteArray> m_writes;
};

QByteArray chatChunk(const QJsonObject &delta, const QJsonValue &finish = QJsonValue::Null)
{
    const QJsonObject choice{{QStringLiteral("index"), 0},
                             {QStringLiteral("delta"), delta},
                             {QStringLiteral("finish_reason"), finish}};
    return compact({{QStringLiteral("id"), QStringLiteral("chatcmpl-fake")},
                    {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                    {QStringLiteral("model"), QStringLiteral("fake-model")},
                    {QStringLiteral("choices"), QJsonArray{choice}}});
}

QList<QByteArray> renderChat(const FakeTurn &turn)
{
    Writer w(turn.splitEvents);
    w.event(chatChunk({{QStringLiteral("role"), QStringLiteral("assistant")},
                       {QStringLiteral("content"), QString()}}));
    for (const QString &piece : pieces(turn.reasoning, turn.pieceSize))
        w.event(chatChunk({{QStringLiteral("reasoning_content"), piece}}));
    for (const QString &piece : pieces(turn.text, turn.pieceSize))
        w.event(chatChunk({{QStringLiteral("content"), piece}}));
    for (int i = 0; i < turn.calls.size(); ++i) {
        const FakeTurn::Call &call = turn.calls.at(i);
        const QJsonObject first{{QStringLiteral("index"), i},
                                {QStringLiteral("id"), call.id},
                                {QStringLiteral("type"), QStringLiteral("function")},
                                {QStringLiteral("function"),
                                 QJsonObject{{QStringLiteral("name"), call.name},
                                             {QStringLiteral("arguments"), QString()}}}};
        w.event(chatChunk({{QStringLiteral("tool_calls"), QJsonArray{first}}}));
        for (const QString &piece : pieces(QString::fromUtf8(call.arguments), turn.pieceSize)) {
            const QJsonObject part{
                {QStringLiteral("index"), i},
                {QStringLiteral("function"), QJsonObject{{QStringLiteral("arguments"), piece}}}};
            w.event(chatChunk({{QStringLiteral("tool_calls"), QJsonArray{part}}}));
        }
    }
    w.event(chatChunk(
        {}, turn.calls.isEmpty() ? QStringLiteral("stop") : QStringLiteral("tool_calls")));
    QJsonObject usage{{QStringLiteral("prompt_tokens"), turn.usage.input},
                      {QStringLiteral("completion_tokens"), turn.usage.output},
                      {QStringLiteral("total_tokens"), turn.usage.input + turn.usage.output}};
    if (turn.usage.cached > 0)
        usage.insert(QStringLiteral("prompt_tokens_details"),
                     QJsonObject{{QStringLiteral("cached_tokens"), turn.usage.cached}});
    w.event(compact({{QStringLiteral("id"), QStringLiteral("chatcmpl-fake")},
                     {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                     {QStringLiteral("choices"), QJsonArray{}},
                     {QStringLiteral("usage"), usage}}));
    w.event("[DONE]");
    return w.writes();
}

QList<QByteArray> renderResponses(const FakeTurn &turn)
{
    Writer w(turn.splitEvents);
    const QJsonObject response{{QStringLiteral("id"), QStringLiteral("resp_fake")},
                               {QStringLiteral("object"), QStringLiteral("response")},
                               {QStringLiteral("status"), QStringLiteral("in_progress")},
                               {QStringLiteral("model"), QStringLiteral("fake-model")}};
    w.typed({{QStringLiteral("type"), QStringLiteral("response.created")},
             {QStringLiteral("response"), response}});
    int output = 0;
    if (!turn.reasoning.isEmpty()) {
        const QJsonObject item{{QStringLiteral("id"), QStringLiteral("rs_fake")},
                               {QStringLiteral("type"), QStringLiteral("reasoning")},
                               {QStringLiteral("summary"), QJsonArray{}}};
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("item"), item}});
        for (const QString &piece : pieces(turn.reasoning, turn.pieceSize))
            w.typed(
                {{QStringLiteral("type"), QStringLiteral("response.reasoning_summary_text.delta")},
                 {QStringLiteral("item_id"), QStringLiteral("rs_fake")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("summary_index"), 0},
                 {QStringLiteral("delta"), piece}});
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("item"), item}});
        ++output;
    }
    if (!turn.text.isEmpty()) {
        const QJsonObject item{{QStringLiteral("id"), QStringLiteral("msg_fake")},
                               {QStringLiteral("type"), QStringLiteral("message")},
                               {QStringLiteral("role"), QStringLiteral("assistant")},
                               {QStringLiteral("content"), QJsonArray{}}};
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("item"), item}});
        for (const QString &piece : pieces(turn.text, turn.pieceSize))
            w.typed({{QStringLiteral("type"), QStringLiteral("response.output_text.delta")},
                     {QStringLiteral("item_id"), QStringLiteral("msg_fake")},
                     {QStringLiteral("output_index"), output},
                     {QStringLiteral("content_index"), 0},
                     {QStringLiteral("delta"), piece}});
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_text.done")},
                 {QStringLiteral("item_id"), QStringLiteral("msg_fake")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("content_index"), 0},
                 {QStringLiteral("text"), turn.text}});
        ++output;
    }
    for (const FakeTurn::Call &call : turn.calls) {
        QJsonObject item{{QStringLiteral("id"), QStringLiteral("fc_%1").arg(output)},
                         {QStringLiteral("type"), QStringLiteral("function_call")},
                         {QStringLiteral("call_id"), call.id},
                         {QStringLiteral("name"), call.name},
                         {QStringLiteral("arguments"), QString()}};
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("item"), item}});
        const QString arguments = QString::fromUtf8(call.arguments);
        for (const QString &piece : pieces(arguments, turn.pieceSize))
            w.typed(
                {{QStringLiteral("type"), QStringLiteral("response.function_call_arguments.delta")},
                 {QStringLiteral("item_id"), item.value(QStringLiteral("id"))},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("delta"), piece}});
        w.typed({{QStringLiteral("type"), QStringLiteral("response.function_call_arguments.done")},
                 {QStringLiteral("item_id"), item.value(QStringLiteral("id"))},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("arguments"), arguments}});
        item.insert(QStringLiteral("arguments"), arguments);
        w.typed({{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                 {QStringLiteral("output_index"), output},
                 {QStringLiteral("item"), item}});
        ++output;
    }
    QJsonObject done = response;
    done.insert(QStringLiteral("status"), QStringLiteral("completed"));
    done.insert(
        QStringLiteral("usage"),
        QJsonObject{{QStringLiteral("input_tokens"), turn.usage.input},
                    {QStringLiteral("input_tokens_details"),
                     QJsonObject{{QStringLiteral("cached_tokens"), turn.usage.cached}}},
                    {QStringLiteral("output_tokens"), turn.usage.output},
                    {QStringLiteral("total_tokens"), turn.usage.input + turn.usage.output}});
    w.typed({{QStringLiteral("type"), QStringLiteral("response.completed")},
             {QStringLiteral("response"), done}});
    return w.writes();
}

QList<QByteArray> renderMessages(const FakeTurn &turn)
{
    Writer w(turn.splitEvents);
    // Anthropic counts the uncached input apart from what was read from or written to the
    // cache; FakeTurn's input is all of it.
    const int uncached = std::max(0, turn.usage.input - turn.usage.cached - turn.usage.cacheWrite);
    const QJsonObject message{
        {QStringLiteral("id"), QStringLiteral("msg_fake")},
        {QStringLiteral("type"), QStringLiteral("message")},
        {QStringLiteral("role"), QStringLiteral("assistant")},
        {QStringLiteral("model"), QStringLiteral("fake-model")},
        {QStringLiteral("content"), QJsonArray{}},
        {QStringLiteral("stop_reason"), QJsonValue::Null},
        {QStringLiteral("usage"),
         QJsonObject{{QStringLiteral("input_tokens"), uncached},
                     {QStringLiteral("cache_creation_input_tokens"), turn.usage.cacheWrite},
                     {QStringLiteral("cache_read_input_tokens"), turn.usage.cached},
                     {QStringLiteral("output_tokens"), 1}}}};
    w.typed({{QStringLiteral("type"), QStringLiteral("message_start")},
             {QStringLiteral("message"), message}});
    int index = 0;
    const auto block = [&](const QJsonObject &start,
                           const QString &deltaType,
                           const QString &field,
                           const QString &content) {
        w.typed({{QStringLiteral("type"), QStringLiteral("content_block_start")},
                 {QStringLiteral("index"), index},
                 {QStringLiteral("content_block"), start}});
        QStringList parts = pieces(content, turn.pieceSize);
        if (parts.isEmpty() && deltaType == QLatin1String("input_json_delta"))
            parts.append(QString()); // as Anthropic does for a call without arguments
        for (const QString &piece : parts)
            w.typed({{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                     {QStringLiteral("index"), index},
                     {QStringLiteral("delta"),
                      QJsonObject{{QStringLiteral("type"), deltaType}, {field, piece}}}});
        if (deltaType == QLatin1String("thinking_delta"))
            w.typed({{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                     {QStringLiteral("index"), index},
                     {QStringLiteral("delta"),
                      QJsonObject{{QStringLiteral("type"), QStringLiteral("signature_delta")},
                                  {QStringLiteral("signature"), QStringLiteral("c2lnbmVk")}}}});
        w.typed({{QStringLiteral("type"), QStringLiteral("content_block_stop")},
                 {QStringLiteral("index"), index}});
        ++index;
    };
    if (!turn.reasoning.isEmpty())
        block({{QStringLiteral("type"), QStringLiteral("thinking")},
               {QStringLiteral("thinking"), QString()}},
              QStringLiteral("thinking_delta"),
              QStringLiteral("thinking"),
              turn.reasoning);
    if (!turn.text.isEmpty())
        block(
            {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QString()}},
            QStringLiteral("text_delta"),
            QStringLiteral("text"),
            turn.text);
    for (const FakeTurn::Call &call : turn.calls)
        block({{QStringLiteral("type"), QStringLiteral("tool_use")},
               {QStringLiteral("id"), call.id},
               {QStringLiteral("name"), call.name},
               {QStringLiteral("input"), QJsonObject{}}},
              QStringLiteral("input_json_delta"),
              QStringLiteral("partial_json"),
              QString::fromUtf8(call.arguments));
    w.typed({{QStringLiteral("type"), QStringLiteral("message_delta")},
             {QStringLiteral("delta"),
              QJsonObject{
                  {QStringLiteral("stop_reason"),
                   turn.calls.isEmpty() ? QStringLiteral("end_turn") : QStringLiteral("tool_use")},
                  {QStringLiteral("stop_sequence"), QJsonValue::Null}}},
             {QStringLiteral("usage"),
              QJsonObject{{QStringLiteral("output_tokens"), turn.usage.output}}}});
    w.typed({{QStringLiteral("type"), QStringLiteral("message_stop")}});
    return w.writes();
}

} // namespace

FakeFormat fakeFormatForPath(const QByteArray &path)
{
    if (path.endsWith("/responses"))
        return FakeFormat::Responses;
    if (path.endsWith("/messages"))
        return FakeFormat::Messages;
    return FakeFormat::Chat;
}

QList<QByteArray> renderTurn(const FakeTurn &turn, FakeFormat format)
{
    switch (format) {
    case FakeFormat::Responses:
        return renderResponses(turn);
    case FakeFormat::Messages:
        return renderMessages(turn);
    case FakeFormat::Chat:
        break;
    }
    return renderChat(turn);
}

QByteArray renderStreamError(const QString &message, FakeFormat format)
{
    switch (format) {
    case FakeFormat::Responses:
        return "event: error\ndata: "
               + compact({{QStringLiteral("type"), QStringLiteral("error")},
                          {QStringLiteral("code"), QStringLiteral("server_error")},
                          {QStringLiteral("message"), message}})
               + "\n\n";
    case FakeFormat::Messages:
        return "event: error\ndata: "
               + compact({{QStringLiteral("type"), QStringLiteral("error")},
                          {QStringLiteral("error"),
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("overloaded_error")},
                                       {QStringLiteral("message"), message}}}})
               + "\n\n";
    case FakeFormat::Chat:
        break;
    }
    return "event: error\ndata: "
           + compact({{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}})
           + "\n\n";
}

} // namespace Sandcastle::Testing
