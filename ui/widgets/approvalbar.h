#pragma once

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Sandcastle {

// The bar over the editor while a call waits for the person: the agent's code (shown in the
// editor, where it may be edited before it runs), or a call of an MCP server's tool, which runs
// on this computer outside the sandbox: the bar then names the server and the tool and shows
// the arguments as the model wrote them (inert text, bounded).
class ApprovalBar : public QFrame
{
    Q_OBJECT
public:
    explicit ApprovalBar(QWidget *parent = nullptr);

    void askToRunCode();
    // `name` is the tool's exposed name ("mcp__server__tool"), arguments the call's JSON.
    void askForMcpCall(const QString &server, const QString &tool, const QString &arguments);
    bool isMcpCall() const { return m_mcp; }
    QString argumentsShown() const;

    static constexpr int MaxArgumentChars = 20000;

Q_SIGNALS:
    void approved();
    void rejected();

private:
    QLabel *m_label = nullptr;
    QPlainTextEdit *m_arguments = nullptr;
    QPushButton *m_approve = nullptr;
    QPushButton *m_reject = nullptr;
    bool m_mcp = false;
};

} // namespace Sandcastle
