#pragma once

#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QSize>
#include <QString>

namespace Sandcastle {

// Small pictures of the images a run made, for its card in the chat: read from the workspace
// off the UI thread, through PathGuard (a link planted by the code is never followed), at most
// 32 MB and 50 megapixels, scaled to fit the box at twice its size (sharp on a high-DPI
// screen). A file written again by a later run is read again once it is forgotten.
class Thumbnails : public QObject
{
    Q_OBJECT
public:
    static constexpr QSize Box{96, 72};
    static constexpr int MaxPerRun = 6;

    explicit Thumbnails(QObject *parent = nullptr);

    // The workspace the paths are relative to; what was read of another one is forgotten.
    void setRoot(const QString &root);
    QString root() const { return m_root; }
    // The picture of an image, or a null image while it is read (the read starts here) or when
    // it cannot be shown (failed()).
    QImage image(const QString &relative) const;
    bool failed(const QString &relative) const;
    // These files were written again: read them again when asked.
    void forget(const QStringList &relatives);
    // The images among a run's files, at most MaxPerRun.
    static QStringList imagesOf(const QStringList &files);

Q_SIGNALS:
    void ready(const QString &relative);

private:
    void load(const QString &relative) const;

    QString m_root;
    quint64 m_generation = 0; // a read for an earlier root is dropped
    mutable QHash<QString, QImage> m_images;
    mutable QSet<QString> m_loading;
    mutable QSet<QString> m_failed;
};

} // namespace Sandcastle
