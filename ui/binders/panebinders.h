#pragma once

#include <QWidget>

class QLabel;

namespace Sandcastle {

class ApprovalBar;
class ChatPane;
class ConsolePane;
class ConversationController;
class EditorPane;
class FilesPane;

// One binder per pane: each connects a conversation controller (and its agent and session) to
// one pane and nothing else, with the pane as the context of every connection, so that the
// window only lays the panes out. The window's own concerns (title, status bar, dialogs,
// notifications) stay in the window.
namespace PaneBinders {

void bindChat(ConversationController *controller, ChatPane *chat);
// approvalBar: the ask-first bar over the editor, shown while code waits for the person.
void bindEditor(ConversationController *controller, EditorPane *pane, ApprovalBar *approvalBar);
void bindConsole(ConversationController *controller, ConsolePane *console);
void bindFiles(ConversationController *controller, FilesPane *files);

} // namespace PaneBinders
} // namespace Sandcastle
