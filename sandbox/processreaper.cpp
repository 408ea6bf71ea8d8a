#include "processreaper.h"

#include <QCoreApplication>
#include <QPointer>
#include <QProcess>

namespace Sandcastle::ProcessReaper {

namespace {
// The parent of reaped processes: a child of the application object. What is left when the
// application goes (the event loop ended before a killed process's end was read) is waited for
// here, briefly (each was sent SIGKILL), so that no process outlives the application unreaped
// and QProcess has no reason to warn that it was destroyed while running.
class Reaper : public QObject
{
public:
    using QObject::QObject;
    ~Reaper() override
    {
        for (QProcess *process : findChildren<QProcess *>(Qt::FindDirectChildrenOnly)) {
            process->disconnect();
            process->kill();
            process->waitForFinished(2000);
        }
    }
};

QObject *reaper()
{
    static QPointer<QObject> instance;
    if (!instance && QCoreApplication::instance()) {
        instance = new Reaper(QCoreApplication::instance());
        instance->setObjectName(QStringLiteral("sandcastleProcessReaper"));
    }
    return instance;
}
} // namespace

void reap(QProcess *process)
{
    if (!process)
        return;
    process->disconnect();
    QObject *parent = reaper();
    if (process->state() == QProcess::NotRunning || !parent) {
        // No application: nothing would deliver its end, so the ordinary (waiting) way.
        delete process;
        return;
    }
    process->setParent(parent);
    QObject::connect(process, &QProcess::finished, process, &QObject::deleteLater);
    QObject::connect(process, &QProcess::errorOccurred, process, [process](QProcess::ProcessError) {
        if (process->state() == QProcess::NotRunning)
            process->deleteLater();
    });
    process->closeWriteChannel();
    process->kill();
}

void killAndWait(QProcess *process, int timeoutMs)
{
    if (!process)
        return;
    process->disconnect();
    process->closeWriteChannel();
    process->kill();
    process->waitForFinished(timeoutMs);
    delete process;
}

} // namespace Sandcastle::ProcessReaper
