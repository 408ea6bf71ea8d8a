#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace Sandcastle::Testing {

// One scripted assistant turn, independent of the wire format: the fake server writes it as a
// Chat Completions, Responses or Anthropic Messages stream, whichever endpoint was asked.
struct FakeTurn
{
    struct Call
    {
        QString id;
        QString name;
        QByteArray arguments; // JSON text
    };

    QString reasoning;
    QString text;
    QList<Call> calls;
    int pieceSize = 4;        // characters of text, reasoning or arguments per event
    bool splitEvents = false; // every other event's bytes cut across two writes

    struct Usage
    {
        int input = 42; // all of the prompt, cached or not
        int output = 7;
        int cached = 0;     // read from the cache
        int cacheWrite = 0; // written to it (Messages only)
    } usage;
};

enum class FakeFormat { Chat, Responses, Messages };

// The format of the endpoint a request path names (".../responses", ".../messages", else chat).
FakeFormat fakeFormatForPath(const QByteArray &path);

// The writes of `turn` in `format`: SSE events, each its own write (or two, when splitEvents).
QList<QByteArray> renderTurn(const FakeTurn &turn, FakeFormat format);

// A mid-stream error event in `format` ("error" event with the provider's shape).
QByteArray renderStreamError(const QString &message, FakeFormat format);

} // namespace Sandcastle::Testing
