#include "blockingjobs.h"

#include <QCoreApplication>
#include <QHash>
#include <QPointer>
#include <QThreadPool>

namespace Sandcastle {

namespace {
// Enough for a removal, a deletion, a quota walk and a preview at once on a slow engine; the
// threads mostly wait.
constexpr int kMaxThreads = 8;

class ApplicationPool : public QThreadPool
{
public:
    ApplicationPool(const char *name, int maxThreads, QObject *parent)
        : QThreadPool(parent)
    {
        setObjectName(QString::fromLatin1(name));
        setMaxThreadCount(maxThreads);
    }
    ~ApplicationPool() override { waitForDone(); }
};
} // namespace

QThreadPool *applicationPool(const char *name, int maxThreads)
{
    static QHash<QByteArray, QPointer<QThreadPool>> pools;
    QPointer<QThreadPool> &pool = pools[QByteArray(name)];
    if (!pool) {
        Q_ASSERT(QCoreApplication::instance());
        pool = new ApplicationPool(name, maxThreads, QCoreApplication::instance());
    }
    return pool;
}

QThreadPool *blockingJobs()
{
    return applicationPool("sandcastleBlockingJobs", kMaxThreads);
}

} // namespace Sandcastle
