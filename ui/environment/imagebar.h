#pragma once

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace Sandcastle {

// The bar over the editor when the sandbox image is not on the engine: it offers to build it,
// then shows the build going (its last line; the whole log is in the console) with Cancel,
// then a failure with its reason and Try again. On a remote engine, when this machine has the
// image, it offers to send it too (docker save | docker load over the engine's connection),
// with the bytes sent. Thin: the build is the window's ImageBuild, the sending ImageTransfer.
class ImageBar : public QFrame
{
    Q_OBJECT
public:
    explicit ImageBar(QWidget *parent = nullptr);

    void offer(const QString &image);
    // A remote engine (`where`) lacks the image; `canSend`: this machine has it to send.
    void offerRemote(const QString &image, const QString &where, bool canSend);
    void showBuilding();
    void showSending();
    void showSent(qint64 sentBytes, qint64 totalBytes);
    void showLine(const QString &line);
    void showFailed(const QString &message);
    QString text() const;

Q_SIGNALS:
    void buildRequested();
    void sendRequested();
    void cancelRequested();

private:
    QLabel *m_text;
    QLabel *m_line;
    QProgressBar *m_progress;
    QPushButton *m_build;
    QPushButton *m_send;
    QPushButton *m_cancel;
    QPushButton *m_close;
    QString m_image;
    QString m_where; // a remote engine's description; empty for this machine's
    bool m_canSend = false;
};

} // namespace Sandcastle
