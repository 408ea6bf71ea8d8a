#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace Sandcastle {
class ConversationController;
}

namespace Sandcastle::Cli {

// What `sandcastle chat` prints while the agent works, one printer per mode: plain text (the
// answer on stdout, tool activity and problems around it) or one JSON event per line
// (architecture.md §5). A printer binds itself to the controller and its agent when made.
class ChatPrinter : public QObject
{
public:
    static std::unique_ptr<ChatPrinter> create(bool json, ConversationController *controller);

    // The conversation the command works in, before anything else happens in it.
    virtual void conversationOpened(bool continued) = 0;
    // The agent ended with `status` after `turns` turns.
    virtual void done(const QString &status, int turns) = 0;

protected:
    explicit ChatPrinter(ConversationController *controller)
        : m_controller(controller)
    {}
    ConversationController *m_controller;
};

} // namespace Sandcastle::Cli
