#pragma once

#include <QLabel>

namespace Sandcastle {

// A one-line label that shows as much of its text as fits, cut in the middle ("/home/…/data"),
// with the whole text in its tooltip. It never asks for more width than it is given.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(const QString &text = QString(), QWidget *parent = nullptr);

    // `prefix` is always shown whole ("Files — "); `text` is what is cut when space is short.
    void setFullText(const QString &text, const QString &prefix = QString());
    QString fullText() const { return m_fullText; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();

    QString m_fullText;
    QString m_prefix;
};

} // namespace Sandcastle
