#pragma once

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace Sandcastle {

// The bar over the editor when the sandbox image is not on this machine: it offers to build
// it, then shows the build going (its last line; the whole log is in the console) with Cancel,
// then a failure with its reason and Try again. Thin: the build is the window's ImageBuild.
class ImageBar : public QFrame
{
    Q_OBJECT
public:
    explicit ImageBar(QWidget *parent = nullptr);

    void offer(const QString &image);
    void showBuilding();
    void showLine(const QString &line);
    void showFailed(const QString &message);
    QString text() const;

Q_SIGNALS:
    void buildRequested();
    void cancelRequested();

private:
    QLabel *m_text;
    QLabel *m_line;
    QProgressBar *m_progress;
    QPushButton *m_build;
    QPushButton *m_cancel;
    QPushButton *m_close;
    QString m_image;
};

} // namespace Sandcastle
