#include "imagebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Sandcastle {

ImageBar::ImageBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_line(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_build(new QPushButton(tr("Build the image"), this))
    , m_send(new QPushButton(tr("Send it from this machine"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_close(new QPushButton(tr("Not now"), this))
{
    setObjectName(QStringLiteral("imageBar"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setObjectName(QStringLiteral("imageBarText"));
    m_text->setWordWrap(true);
    m_line->setObjectName(QStringLiteral("imageBarLine"));
    m_line->setForegroundRole(QPalette::PlaceholderText);
    m_progress->setRange(0, 0); // busy: the build says no fraction
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(8);
    m_build->setObjectName(QStringLiteral("buildImage"));
    m_send->setObjectName(QStringLiteral("sendImage"));
    m_cancel->setObjectName(QStringLiteral("cancelImageBuild"));
    m_close->setObjectName(QStringLiteral("closeImageBar"));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_send);
    buttons->addWidget(m_build);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(m_progress);
    layout->addWidget(m_line);
    layout->addLayout(buttons);
    connect(m_build, &QPushButton::clicked, this, &ImageBar::buildRequested);
    connect(m_send, &QPushButton::clicked, this, &ImageBar::sendRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ImageBar::cancelRequested);
    connect(m_close, &QPushButton::clicked, this, &QWidget::hide);
    hide();
}

void ImageBar::offer(const QString &image)
{
    m_image = image;
    m_where.clear();
    m_canSend = false;
    m_send->hide();
    m_text->setText(tr("The sandbox image %1 is not on this machine: code cannot run until it "
                       "is built. Building takes a few minutes (Debian's packages are "
                       "downloaded once; after that it works offline).")
                        .arg(image));
    m_build->setText(tr("Build the image"));
    m_build->show();
    m_close->show();
    m_cancel->hide();
    m_progress->hide();
    m_line->hide();
    show();
}

void ImageBar::offerRemote(const QString &image, const QString &where, bool canSend)
{
    offer(image);
    m_where = where;
    m_canSend = canSend;
    m_text->setText(
        canSend ? tr("The sandbox image %1 is not on %2, where Sandcastle runs code now: send it "
                     "from this machine (docker save | docker load over the same connection), "
                     "or build it there (a few minutes; Debian's packages are downloaded there).")
                      .arg(image, where)
                : tr("The sandbox image %1 is not on %2, where Sandcastle runs code now, nor on "
                     "this machine to send: build it there (a few minutes; Debian's packages "
                     "are downloaded there).")
                      .arg(image, where));
    m_build->setText(tr("Build it there"));
    m_send->setVisible(canSend);
}

void ImageBar::showSending()
{
    m_text->setText(tr("Sending the sandbox image %1 to %2…").arg(m_image, m_where));
    m_line->clear();
    m_line->show();
    m_progress->setRange(0, 0);
    m_progress->show();
    m_send->hide();
    m_build->hide();
    m_cancel->hide(); // docker load cannot be stopped halfway cleanly; it ends on its own
    m_close->hide();
    show();
}

void ImageBar::showSent(qint64 sentBytes, qint64 totalBytes)
{
    if (totalBytes > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(std::min<qint64>(1000, sentBytes * 1000 / totalBytes)));
    }
    m_line->setText(tr("%1 MB of about %2 MB sent").arg(sentBytes >> 20).arg(totalBytes >> 20));
}

void ImageBar::showBuilding()
{
    m_send->hide();
    m_progress->setRange(0, 0);
    m_text->setText(tr("Building the sandbox image %1… (the log is in the console)").arg(m_image));
    m_line->clear();
    m_line->show();
    m_progress->show();
    m_cancel->show();
    m_build->hide();
    m_close->hide();
    show();
}

void ImageBar::showLine(const QString &line)
{
    const QString shown = line.trimmed();
    if (!shown.isEmpty())
        m_line->setText(
            fontMetrics().elidedText(shown, Qt::ElideRight, std::max(200, width() - 20)));
}

void ImageBar::showFailed(const QString &message)
{
    m_text->setText(tr("The sandbox image is not there: %1").arg(message));
    m_build->setText(m_where.isEmpty() ? tr("Try again") : tr("Build it there"));
    m_send->setVisible(m_canSend);
    m_build->show();
    m_close->show();
    m_cancel->hide();
    m_progress->hide();
    show();
}

QString ImageBar::text() const
{
    return m_text->text();
}

} // namespace Sandcastle
