#pragma once

#include "message.h"

#include <QObject>

namespace Sandcastle {

// A connection to a model in one wire format (Chat Completions today; Responses and Anthropic
// Messages later). send() asks for one assistant turn; the answer streams back as signals and
// ends in exactly one finished() or errorOccurred() per send(), none after cancel(). Tool
// calls are numbered by `index` in the order the model starts them. Retries before the first
// byte of the answer are the client's business, each announced by retrying().
class ModelClient : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Starts a request; a request still running is cancelled first (without signals).
    virtual void send(const QList<Message> &messages, const QList<ToolSpec> &tools) = 0;
    // Aborts the request. What streamed so far stays readable through partial().
    virtual void cancel() = 0;
    virtual bool isBusy() const = 0;
    // The answer as far as it has streamed (after cancel(): the kept partial answer).
    virtual Completion partial() const = 0;

Q_SIGNALS:
    void textDelta(const QString &text);
    void reasoningDelta(const QString &text);
    void toolCallStarted(int index, const QString &id, const QString &name);
    void toolArgumentsDelta(int index, const QString &fragment);
    void retrying(int attempt, int delayMs, const QString &reason);
    void finished(const Sandcastle::Completion &completion);
    void errorOccurred(const QString &code, const QString &message);
};

} // namespace Sandcastle
