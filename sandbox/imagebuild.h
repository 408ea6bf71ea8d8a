#pragma once

#include <QObject>
#include <QProcess>
#include <QString>

#include <memory>

class QTemporaryDir;

namespace Sandcastle {

// The default sandbox image built from inside the application (the window's first launch on a
// machine without it): the build script and its files, compiled into the program, written to a
// temporary folder and run with the engine and image of the settings. Its output streams out
// line by line; Cancel stops the script and what it started (its process group), the image
// left as it was.
class ImageBuild : public QObject
{
    Q_OBJECT
public:
    ImageBuild(QString engine, QString context, QString image, QObject *parent = nullptr);
    ~ImageBuild() override;

    void start();
    void cancel();
    bool isRunning() const;
    QString image() const { return m_image; }
    // Everything the build printed so far.
    QString log() const { return m_log; }

Q_SIGNALS:
    void output(const QString &text);
    // `message`: empty when it worked; otherwise the last thing the build said, or "cancelled".
    void finished(bool ok, const QString &message);

private:
    void done(int exitCode, QProcess::ExitStatus status);

    QString m_engine;
    QString m_context;
    QString m_image;
    QString m_log;
    std::unique_ptr<QTemporaryDir> m_files;
    QProcess *m_process = nullptr;
    bool m_cancelled = false;
};

} // namespace Sandcastle
