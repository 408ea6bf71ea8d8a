#include "elidedlabel.h"

#include <QFontMetrics>
#include <QResizeEvent>

#include <algorithm>

namespace Sandcastle {

ElidedLabel::ElidedLabel(const QString &text, QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setFullText(text);
}

void ElidedLabel::setFullText(const QString &text, const QString &prefix)
{
    m_fullText = text;
    m_prefix = prefix;
    setToolTip(text);
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4,
            QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    const QFontMetrics metrics = fontMetrics();
    const int room = contentsRect().width() - metrics.horizontalAdvance(m_prefix);
    setText(m_prefix + metrics.elidedText(m_fullText, Qt::ElideMiddle, std::max(0, room)));
}

} // namespace Sandcastle
