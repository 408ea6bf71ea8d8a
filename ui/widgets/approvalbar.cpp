#include "approvalbar.h"

#include <nlohmann/json.hpp>

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace Sandcastle {

namespace {

// The arguments indented when they are JSON, as written when not; cut to a bound.
QString readable(const QString &arguments)
{
    const nlohmann::json json = nlohmann::json::parse(arguments.toStdString(), nullptr, false);
    QString text = json.is_discarded()
                       ? arguments
                       : QString::fromStdString(
                           json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    if (text.size() > ApprovalBar::MaxArgumentChars)
        text = text.left(ApprovalBar::MaxArgumentChars)
               + ApprovalBar::tr("\n… (%n more characters)",
                                 nullptr,
                                 int(text.size() - ApprovalBar::MaxArgumentChars));
    return text;
}

} // namespace

ApprovalBar::ApprovalBar(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("approvalBar"));
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText); // a server's or tool's name is not markup
    row->addWidget(m_label, 1);
    m_approve = new QPushButton(this);
    m_approve->setObjectName(QStringLiteral("approveRun"));
    m_reject = new QPushButton(this);
    m_reject->setObjectName(QStringLiteral("rejectRun"));
    row->addWidget(m_approve);
    row->addWidget(m_reject);
    layout->addLayout(row);
    m_arguments = new QPlainTextEdit(this);
    m_arguments->setObjectName(QStringLiteral("approvalArguments"));
    m_arguments->setReadOnly(true);
    m_arguments->setMaximumHeight(fontMetrics().lineSpacing() * 8);
    m_arguments->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    layout->addWidget(m_arguments);
    connect(m_approve, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT approved();
    });
    connect(m_reject, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT rejected();
    });
    askToRunCode();
    hide();
}

void ApprovalBar::askToRunCode()
{
    m_mcp = false;
    m_label->setText(tr("The agent wants to run this code. Edit it if you like, then:"));
    m_approve->setText(tr("Run"));
    m_reject->setText(tr("Don't run"));
    m_arguments->clear();
    m_arguments->hide();
    show();
}

void ApprovalBar::askForMcpCall(const QString &server,
                                const QString &tool,
                                const QString &arguments)
{
    m_mcp = true;
    m_label->setText(tr("The MCP server \"%1\" wants to run its tool \"%2\" on this computer, "
                        "outside the sandbox, with these arguments:")
                         .arg(server, tool));
    m_approve->setText(tr("Allow"));
    m_reject->setText(tr("Deny"));
    m_arguments->setPlainText(readable(arguments));
    m_arguments->show();
    show();
}

QString ApprovalBar::argumentsShown() const
{
    return m_arguments->toPlainText();
}

} // namespace Sandcastle
