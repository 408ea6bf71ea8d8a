#pragma once

#include "modelprofiles.h"
#include "tools.h"

#include <QString>

namespace Sandcastle {

struct AgentOptions
{
    // Native: structured tool calls only. CodeBlocks: the model writes ```python blocks and
    // they are run (for models without tool calling). Auto: native, falling back to code
    // blocks when the server refuses `tools`.
    enum class ToolMode { Auto, Native, CodeBlocks };

    int maxTurns = 12;
    ToolMode toolMode = ToolMode::Auto;
    bool askFirst = false;    // code waits for the person's approve() or reject()
    qint64 tokenBudget = 0;   // prompt + completion tokens per run; 0 for no limit
    double costBudgetUsd = 0; // per run, priced with `profile`; 0 for no limit
    ModelProfile profile;     // price and context window of the model
    qint64 contextTokens = 0; // the window to fit requests in; 0 to send everything
    int outputLimit = Tools::kDefaultOutputLimit; // characters of tool output sent to the model
    QString systemPrompt = defaultSystemPrompt();
    static QString defaultSystemPrompt();
    static QString codeBlockInstructions();
    // The system prompt's list of what the sandbox's image has (its org.sandcastle.packages
    // label, "numpy 1.24.2; scikit-learn 1.2.1 (import sklearn); ..."); empty for none.
    static QString packagesSection(const QString &packages);
};

} // namespace Sandcastle
