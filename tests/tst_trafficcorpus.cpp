// Real providers' recorded streams (tests/data/traffic: cassettes and chunk fixtures of public
// LLM libraries, each with its source in manifest.json and SOURCES.md), replayed through the
// decoder of their wire format. The expected text, reasoning, tool calls, finish reason and
// usage come from expect.py, a separate reading of the public API references; each stream is
// fed whole, a byte at a time and in uneven pieces, and must decode to exactly that.
#include <app/llm/messagesformat.h>
#include <app/llm/modelerror.h>
#include <app/llm/responsesformat.h>
#include <app/llm/streamaccumulator.h>
#include <base/sseparser.h>

#include <nlohmann/json.hpp>

#include <QFile>
#include <QSet>
#include <QTest>

#include <memory>

using namespace Sandcastle;

namespace {

QString dataDir()
{
    return qEnvironmentVariable("SANDCASTLE_SOURCE_DIR") + QStringLiteral("/tests/data/traffic");
}

nlohmann::json manifest()
{
    QFile file(dataDir() + QStringLiteral("/manifest.json"));
    if (!file.open(QIODevice::ReadOnly))
        return nlohmann::json::array();
    const QByteArray bytes = file.readAll();
    return nlohmann::json::parse(
        bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
}

QString str(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

int number(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<int>() : -1;
}

std::unique_ptr<StreamDecoder> decoderFor(const QString &format)
{
    if (format == QLatin1String("responses"))
        return std::make_unique<ResponsesDecoder>();
    if (format == QLatin1String("messages"))
        return std::make_unique<MessagesDecoder>();
    return std::make_unique<StreamAccumulator>();
}

// The finish reason each format's raw value means, in the Chat Completions words the agent uses.
QString normalFinish(const QString &format, const QString &raw, bool calls)
{
    if (format == QLatin1String("responses")) {
        if (raw == QLatin1String("completed"))
            return calls ? QStringLiteral("tool_calls") : QStringLiteral("stop");
        return raw.isEmpty() ? QString() : QStringLiteral("length");
    }
    if (format == QLatin1String("messages")) {
        if (raw == QLatin1String("end_turn") || raw == QLatin1String("stop_sequence"))
            return QStringLiteral("stop");
        if (raw == QLatin1String("tool_use"))
            return QStringLiteral("tool_calls");
        if (raw == QLatin1String("max_tokens"))
            return QStringLiteral("length");
    }
    return raw;
}

struct Decoded
{
    Completion completion;
    std::optional<ModelError> error;
    bool complete = false;
    QString streamedText; // what the deltas said, joined: must equal the completion
    QString streamedReasoning;
    QMap<int, QString> streamedArguments;
    QSet<int> started;
};

Decoded decode(const QString &format, const QByteArray &bytes, int pieceSize)
{
    Decoded out;
    std::unique_ptr<StreamDecoder> decoder = decoderFor(format);
    SseParser parser;
    const auto handle = [&](const QList<SseParser::Event> &events) {
        for (const SseParser::Event &event : events) {
            if (out.error)
                return;
            const StreamDecoder::Outcome outcome = decoder->add(event);
            for (const StreamDecoder::Delta &delta : outcome.deltas) {
                switch (delta.kind) {
                case StreamDecoder::Delta::Kind::Text:
                    out.streamedText += delta.text;
                    break;
                case StreamDecoder::Delta::Kind::Reasoning:
                    out.streamedReasoning += delta.text;
                    break;
                case StreamDecoder::Delta::Kind::ToolCallStarted:
                    out.started.insert(delta.index);
                    break;
                case StreamDecoder::Delta::Kind::ToolArguments:
                    out.streamedArguments[delta.index] += delta.text;
                    break;
                }
            }
            out.error = outcome.error;
        }
    };
    for (qsizetype at = 0; at < bytes.size();) {
        // Uneven pieces: 1, 2, … pieceSize bytes, again and again.
        const qsizetype size = pieceSize <= 0 ? bytes.size() : 1 + (at / 7) % pieceSize;
        handle(parser.feed(bytes.mid(at, size)));
        at += size;
    }
    handle(parser.finish());
    out.completion = decoder->completion();
    out.complete = decoder->isComplete();
    return out;
}

} // namespace

class TestTrafficCorpus : public QObject
{
    Q_OBJECT

private slots:
    void theCorpusIsWhatTheReadmeSays()
    {
        const nlohmann::json entries = manifest();
        QVERIFY2(entries.is_array() && entries.size() >= 20,
                 "tests/data/traffic/manifest.json is missing or small");
        QSet<QString> providers;
        int responsesWithTools = 0;
        int messagesWithTools = 0;
        for (const nlohmann::json &entry : entries) {
            providers.insert(str(entry, "provider"));
            QVERIFY(str(entry, "source").startsWith(QLatin1String("https://github.com/")));
            const auto calls = entry["expect"].find("tool_calls");
            const bool tools = calls != entry["expect"].end() && !calls->empty();
            responsesWithTools += tools && str(entry, "format") == QLatin1String("responses");
            messagesWithTools += tools && str(entry, "format") == QLatin1String("messages");
        }
        QVERIFY(providers.size() >= 5);
        QVERIFY(responsesWithTools >= 3);
        QVERIFY(messagesWithTools >= 3);
    }

    void everyRecordingDecodesExactly_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("expect");
        for (const nlohmann::json &entry : manifest()) {
            const QString file = str(entry, "file");
            QTest::newRow(qPrintable(file))
                << file << str(entry, "format") << number(entry, "status")
                << QByteArray::fromStdString(entry["expect"].dump());
        }
    }

    void everyRecordingDecodesExactly()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(int, status);
        QFETCH(QByteArray, expect);
        const nlohmann::json expected = nlohmann::json::parse(expect.toStdString());
        QFile data(dataDir() + QLatin1Char('/') + file);
        QVERIFY(data.open(QIODevice::ReadOnly));
        const QByteArray bytes = data.readAll();

        if (file.endsWith(QLatin1String(".json"))) {
            // An error body: the class of error, and what the model wrote when it says.
            const ModelError error = classifyHttpError(status, bytes, QStringLiteral("m"));
            if (str(expected, "code") == QLatin1String("tool_use_failed")) {
                QCOMPARE(error.code, QStringLiteral("tool_call_invalid"));
                QVERIFY(error.message.contains(str(expected, "failed_generation").left(20)));
            }
            QVERIFY(!error.retryable);
            return;
        }

        for (const int pieces : {0, 1, 13}) {
            const Decoded d = decode(format, bytes, pieces);
            if (expected.contains("error")) {
                QVERIFY2(d.error.has_value(), qPrintable(file));
                QVERIFY(!d.error->message.isEmpty());
                continue;
            }
            QVERIFY2(!d.error, qPrintable(d.error ? d.error->message : QString()));
            QVERIFY2(d.complete, "the stream's end was not recognised");
            QCOMPARE(d.completion.text, str(expected, "text"));
            QCOMPARE(d.completion.reasoning, str(expected, "reasoning"));
            QCOMPARE(d.streamedText, d.completion.text);
            QCOMPARE(d.streamedReasoning, d.completion.reasoning);
            const nlohmann::json calls = expected.value("tool_calls", nlohmann::json::array());
            QCOMPARE(d.completion.toolCalls.size(), qsizetype(calls.size()));
            for (int i = 0; i < int(calls.size()); ++i) {
                const ToolCall &call = d.completion.toolCalls.at(i);
                QCOMPARE(call.id, str(calls[i], "id"));
                QCOMPARE(call.name, str(calls[i], "name"));
                QCOMPARE(call.arguments, str(calls[i], "arguments"));
                QVERIFY(d.started.contains(i));
                QCOMPARE(d.streamedArguments.value(i), call.arguments);
            }
            if (expected.contains("finish"))
                QCOMPARE(d.completion.finishReason,
                         normalFinish(format, str(expected, "finish"), !calls.empty()));
            const nlohmann::json usage = expected.value("usage", nlohmann::json::object());
            if (usage.contains("output"))
                QCOMPARE(d.completion.usage.completionTokens, number(usage, "output"));
            if (usage.contains("cached"))
                QCOMPARE(d.completion.usage.cachedPromptTokens, number(usage, "cached"));
            if (usage.contains("cache_write"))
                QCOMPARE(d.completion.usage.cacheWriteTokens, number(usage, "cache_write"));
            if (usage.contains("input")) {
                // Anthropic's input_tokens leave the cache out; the neutral prompt counts it.
                const int prompt = format == QLatin1String("messages")
                                       ? number(usage, "input")
                                             + std::max(number(usage, "cached"), 0)
                                             + std::max(number(usage, "cache_write"), 0)
                                       : number(usage, "input");
                QCOMPARE(d.completion.usage.promptTokens, prompt);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTrafficCorpus)
#include "tst_trafficcorpus.moc"
