#pragma once

#include <app/llm/modelclient.h>

#include <QList>

namespace Sandcastle::Testing {

// A model client of no wire format at all: answers each send() with the next scripted
// Completion, from the event loop, and keeps what it was sent. It shows the agent loop needs
// nothing of Chat Completions.
class FakeModelClient : public ModelClient
{
public:
    QList<Completion> script;
    QList<QList<Message>> sentMessages;
    QList<QList<ToolSpec>> sentTools;

    void send(const QList<Message> &messages, const QList<ToolSpec> &tools) override
    {
        sentMessages << messages;
        sentTools << tools;
        m_busy = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!std::exchange(m_busy, false))
                    return; // cancelled
                if (script.isEmpty()) {
                    Q_EMIT errorOccurred(QStringLiteral("no_script"),
                                         QStringLiteral("nothing more was scripted"));
                    return;
                }
                const Completion answer = script.takeFirst();
                if (!answer.text.isEmpty())
                    Q_EMIT textDelta(answer.text);
                Q_EMIT finished(answer);
            },
            Qt::QueuedConnection);
    }
    void cancel() override { m_busy = false; }
    bool isBusy() const override { return m_busy; }
    Completion partial() const override { return {}; }

private:
    bool m_busy = false;
};

} // namespace Sandcastle::Testing
