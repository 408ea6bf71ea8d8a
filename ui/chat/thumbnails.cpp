#include "thumbnails.h"

#include <base/imagefiles.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/pathguard.h>

#include <QCoreApplication>
#include <QFile>
#include <QImageReader>
#include <QPointer>
#include <QThreadPool>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {

constexpr qint64 kMaxBytes = 32LL * 1024 * 1024;
constexpr qint64 kMaxPixels = 50LL * 1000 * 1000;

// Reads and scales one image; a null image when it cannot or must not be.
QImage readThumbnail(const QString &root, const QString &relative)
{
    const Result<int> fd = PathGuard::openInside(root, relative, O_RDONLY);
    if (!fd)
        return {};
    struct stat st
    {
    };
    if (::fstat(fd.value(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxBytes) {
        ::close(fd.value());
        return {};
    }
    QFile file;
    if (!file.open(fd.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd.value());
        return {};
    }
    QImageReader reader(&file);
    const QSize size = reader.size();
    if (!size.isValid() || qint64(size.width()) * size.height() > kMaxPixels)
        return {};
    const QSize target = size.scaled(Thumbnails::Box * 2, Qt::KeepAspectRatio);
    reader.setScaledSize(target.boundedTo(size));
    QImage image = reader.read();
    if (image.isNull())
        return {};
    if (image.size() != target.boundedTo(size))
        image = image.scaled(target.boundedTo(size), Qt::KeepAspectRatio, Qt::SmoothTransformation);
    image.setDevicePixelRatio(2.0);
    return image;
}

} // namespace

Thumbnails::Thumbnails(QObject *parent)
    : QObject(parent)
{}

void Thumbnails::setRoot(const QString &root)
{
    if (root == m_root)
        return;
    m_root = root;
    ++m_generation;
    m_images.clear();
    m_loading.clear();
    m_failed.clear();
}

QImage Thumbnails::image(const QString &relative) const
{
    const auto found = m_images.constFind(relative);
    if (found != m_images.constEnd())
        return found.value();
    if (!m_loading.contains(relative) && !m_failed.contains(relative) && !m_root.isEmpty())
        load(relative);
    return {};
}

bool Thumbnails::failed(const QString &relative) const
{
    return m_failed.contains(relative);
}

void Thumbnails::forget(const QStringList &relatives)
{
    for (const QString &relative : relatives) {
        m_images.remove(relative);
        m_failed.remove(relative);
    }
}

QStringList Thumbnails::imagesOf(const QStringList &files)
{
    QStringList images;
    for (const QString &file : files) {
        if (isImageFile(file) && images.size() < MaxPerRun)
            images << file;
    }
    return images;
}

void Thumbnails::load(const QString &relative) const
{
    m_loading.insert(relative);
    QPointer<Thumbnails> self(const_cast<Thumbnails *>(this));
    const QString root = m_root;
    const quint64 generation = m_generation;
    blockingJobs()->start([self, root, relative, generation] {
        const QImage image = readThumbnail(root, relative);
        // The application as the context: the pane may be gone by now.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, relative, generation, image] {
                if (!self || self->m_generation != generation)
                    return;
                self->m_loading.remove(relative);
                if (image.isNull())
                    self->m_failed.insert(relative);
                else
                    self->m_images.insert(relative, image);
                Q_EMIT self->ready(relative);
            },
            Qt::QueuedConnection);
    });
}

} // namespace Sandcastle
