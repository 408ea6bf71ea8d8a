#include "textviewer.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace Sandcastle {

namespace {

// Qt lays a line of text out whole, in time that grows faster than its length (a 1.5 MB line
// takes minutes): lines longer than this are shown broken, which this read-only view can do.
constexpr qsizetype LongestShownLine = 2000;

QString breakLongLines(const QString &text)
{
    QString shown;
    shown.reserve(text.size() + text.size() / LongestShownLine);
    qsizetype run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n')) {
            run = 0;
        } else if (++run > LongestShownLine && !c.isLowSurrogate()) {
            shown += QLatin1Char('\n');
            run = 1;
        }
        shown += c;
    }
    return shown;
}

} // namespace

TextViewer::TextViewer(const QString &title, const QString &text, QWidget *parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(this))
{
    setWindowTitle(title);
    setAttribute(Qt::WA_DeleteOnClose);
    m_text->setObjectName(QStringLiteral("textViewer"));
    m_text->setReadOnly(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // QPlainTextEdit lays out only the lines on screen: a long text opens at once.
    m_text->setPlainText(breakLongLines(text));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *save = buttons->addButton(tr("Save as…"), QDialogButtonBox::ActionRole);
    connect(save, &QPushButton::clicked, this, [this, text] {
        saveAs(this, text, QStringLiteral("answer.md"));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(buttons);
    resize(800, 600);
}

void TextViewer::saveAs(QWidget *parent, const QString &text, const QString &suggestedName)
{
    const QString path
        = QFileDialog::getSaveFileName(parent, tr("Save as"), QDir::home().filePath(suggestedName));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        QMessageBox::warning(
            parent, tr("Not saved"), tr("Could not write %1: %2").arg(path, file.errorString()));
}

} // namespace Sandcastle
