#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace Sandcastle::Testing {

// (name, chunk) pairs that exercise every odd corner of chat.completion.chunk JSON.
QList<QPair<QByteArray, QByteArray>> trickyChunks();
// The chunks of one realistic streamed answer with reasoning, text and two tool calls.
QList<QByteArray> wholeStream();

} // namespace Sandcastle::Testing
