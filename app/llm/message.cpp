#include "message.h"

namespace Sandcastle {

QString roleName(Message::Role role)
{
    switch (role) {
    case Message::Role::System:
        return QStringLiteral("system");
    case Message::Role::User:
        return QStringLiteral("user");
    case Message::Role::Assistant:
        return QStringLiteral("assistant");
    case Message::Role::Tool:
        return QStringLiteral("tool");
    }
    return QString();
}

std::optional<Message::Role> roleFromName(const QString &name)
{
    for (const Message::Role role : {Message::Role::System,
                                     Message::Role::User,
                                     Message::Role::Assistant,
                                     Message::Role::Tool}) {
        if (roleName(role) == name)
            return role;
    }
    return std::nullopt;
}

} // namespace Sandcastle
