#include "chatpane.h"

#include "promptedit.h"

#include <app/llm/jsonfields.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandcastle {

ChatPane::ChatPane(QWidget *parent)
    : QWidget(parent)
    , m_transcript(new QTextBrowser(this))
    , m_prompt(new PromptEdit(this))
    , m_sendButton(new QPushButton(tr("Send"), this))
{
    m_transcript->setObjectName(QStringLiteral("transcript"));
    m_transcript->setOpenExternalLinks(false);
    m_transcript->setOpenLinks(false);
    connect(m_transcript, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.toString() == QLatin1String("sandcastle:retry") && !m_busy)
            Q_EMIT retryRequested();
    });
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setMaximumHeight(m_prompt->fontMetrics().lineSpacing() * 5);
    m_sendButton->setObjectName(QStringLiteral("sendButton"));

    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(m_prompt, 1);
    inputRow->addWidget(m_sendButton, 0, Qt::AlignBottom);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_transcript, 1);
    layout->addLayout(inputRow);

    connect(m_prompt, &PromptEdit::submitted, this, [this](const QString &text) {
        if (m_busy)
            return;
        m_prompt->remember(text);
        Q_EMIT promptSubmitted(text);
    });
    // While the agent works, the button stops it; its menu offers the gentler stops.
    auto *stopMenu = new QMenu(m_sendButton);
    stopMenu->addAction(tr("Stop everything"), this, &ChatPane::stopRequested);
    stopMenu->addAction(
        tr("Stop only the running code (the agent goes on)"), this, &ChatPane::stopCodeRequested);
    stopMenu->addAction(tr("Stop after this step"), this, &ChatPane::stopAfterStepRequested);
    m_stopOptions = new QToolButton(this);
    m_stopOptions->setObjectName(QStringLiteral("stopOptions"));
    m_stopOptions->setToolTip(tr("Other ways to stop"));
    m_stopOptions->setMenu(stopMenu);
    m_stopOptions->setPopupMode(QToolButton::InstantPopup);
    m_stopOptions->setArrowType(Qt::DownArrow);
    m_stopOptions->hide();
    inputRow->addWidget(m_stopOptions, 0, Qt::AlignBottom);
    setAcceptDrops(true);
    connect(m_sendButton, &QPushButton::clicked, this, [this] {
        if (m_busy) {
            Q_EMIT stopRequested();
            return;
        }
        const QString text = m_prompt->toPlainText().trimmed();
        if (!text.isEmpty()) {
            m_prompt->remember(text);
            Q_EMIT promptSubmitted(text);
        }
    });
    setFocusProxy(m_prompt);
}

QString ChatPane::transcriptText() const
{
    return m_transcript->toPlainText();
}

void ChatPane::appendBlock(const QString &html)
{
    endAssistantMessage();
    QTextCursor cursor(m_transcript->document());
    cursor.movePosition(QTextCursor::End);
    if (!m_transcript->document()->isEmpty())
        cursor.insertBlock();
    cursor.insertHtml(html);
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
}

void ChatPane::addUserMessage(const QString &text)
{
    appendBlock(QStringLiteral("<p><b>%1</b><br>%2</p>")
                    .arg(tr("You"),
                         text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
}

void ChatPane::appendAssistantText(const QString &delta)
{
    if (!m_inAssistantText) {
        appendBlock(QStringLiteral("<b>%1</b>").arg(tr("Sandcastle")));
        QTextCursor cursor(m_transcript->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertBlock();
        cursor.setCharFormat(QTextCharFormat());
        m_assistantStart = cursor.position();
        m_assistantText.clear();
        m_inAssistantText = true;
    }
    // Streams as plain text; endAssistantMessage() renders the whole answer as Markdown.
    QTextCursor cursor(m_transcript->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(delta);
    m_assistantText += delta;
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
}

void ChatPane::addToolCall(const QString &name)
{
    appendBlock(
        QStringLiteral("<span style='color:#6a737d'>▶ %1</span>").arg(name.toHtmlEscaped()));
}

void ChatPane::addToolResult(const QString &status, qint64 durationMs, const QStringList &files)
{
    const QString colour
        = status == QLatin1String("ok") ? QStringLiteral("#22863a") : QStringLiteral("#cb2431");
    QString line
        = QStringLiteral("<span style='color:%1'>%2</span> <span style='color:#6a737d'>%3</span>")
              .arg(colour, status.toHtmlEscaped(), tr("%1 ms").arg(durationMs));
    if (!files.isEmpty())
        line += QStringLiteral(" <span style='color:#6a737d'>— %1</span>")
                    .arg(files.join(QStringLiteral(", ")).toHtmlEscaped());
    appendBlock(line);
}

void ChatPane::addError(const QString &message, bool retryable)
{
    appendBlock(QStringLiteral("<span style='color:#cb2431'>%1</span>%2")
                    .arg(message.toHtmlEscaped(),
                         retryable
                             ? QStringLiteral(" <a href='sandcastle:retry'>%1</a>").arg(tr("Retry"))
                             : QString()));
}

void ChatPane::endAssistantMessage()
{
    if (!m_inAssistantText)
        return;
    m_inAssistantText = false;
    QTextCursor cursor(m_transcript->document());
    cursor.setPosition(m_assistantStart);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.insertMarkdown(m_assistantText);
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
}

void ChatPane::setBusy(bool busy)
{
    m_busy = busy;
    m_sendButton->setText(busy ? tr("Stop") : tr("Send"));
    m_stopOptions->setVisible(busy);
}

void ChatPane::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ChatPane::dropEvent(QDropEvent *event)
{
    QStringList paths;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    Q_EMIT filesDropped(paths);
}

void ChatPane::clearPrompt()
{
    m_prompt->clear();
}

void ChatPane::insertPanel(QWidget *panel)
{
    if (auto *box = qobject_cast<QVBoxLayout *>(layout()))
        box->insertWidget(0, panel);
}

void ChatPane::clearTranscript()
{
    m_inAssistantText = false;
    m_assistantText.clear();
    m_transcript->clear();
}

void ChatPane::showHistory(const nlohmann::json &messages)
{
    for (const auto &m : messages) {
        const QString role = jsonString(m, "role");
        if (role == QLatin1String("user")) {
            addUserMessage(jsonString(m, "content"));
        } else if (role == QLatin1String("assistant")) {
            const QString content = jsonString(m, "content");
            if (!content.isEmpty()) {
                appendAssistantText(content);
                endAssistantMessage();
            }
            if (m.contains("tool_calls") && m["tool_calls"].is_array())
                for (const auto &call : m["tool_calls"])
                    addToolCall(
                        jsonString(call.value("function", nlohmann::json::object()), "name"));
        } else if (role == QLatin1String("tool")) {
            const nlohmann::json result
                = nlohmann::json::parse(jsonString(m, "content").toStdString(), nullptr, false);
            if (!result.is_object())
                continue;
            QStringList files;
            if (result.contains("files") && result["files"].is_array())
                for (const auto &f : result["files"])
                    if (f.is_string())
                        files << QString::fromStdString(f.get<std::string>());
            const auto duration = result.find("duration_ms");
            addToolResult(jsonString(result, "status"),
                          duration != result.end() && duration->is_number_integer()
                              ? duration->get<qint64>()
                              : 0,
                          files);
        }
    }
}

} // namespace Sandcastle
