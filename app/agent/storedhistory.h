#pragma once

#include <app/llm/message.h>

#include <nlohmann/json_fwd.hpp>

#include <QList>

namespace Sandcastle {

// A stored conversation (ConversationStore::messages()) as the history to continue from:
// system messages are left out (the current system prompt is used), a tool result without
// its call is dropped, and calls left without a result (as when the app died during a run)
// get one saying so, so that strict servers accept the history.
QList<Message> historyFromStore(const nlohmann::json &stored);

// The code of the last run_python call in the history, or empty.
QString lastPythonCode(const QList<Message> &history);

} // namespace Sandcastle
