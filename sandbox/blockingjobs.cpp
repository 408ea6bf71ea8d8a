#include "blockingjobs.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace Sandcastle {

namespace {
// Enough for a removal, a deletion, a quota walk and a preview at once on a slow engine; the
// threads mostly wait.
constexpr int kMaxThreads = 8;

class BlockingPool : public QThreadPool
{
public:
    explicit BlockingPool(QObject *parent)
        : QThreadPool(parent)
    {
        setObjectName(QStringLiteral("sandcastleBlockingJobs"));
        setMaxThreadCount(kMaxThreads);
    }
    ~BlockingPool() override { waitForDone(); }
};
} // namespace

QThreadPool *blockingJobs()
{
    static QPointer<QThreadPool> pool;
    if (!pool) {
        Q_ASSERT(QCoreApplication::instance());
        pool = new BlockingPool(QCoreApplication::instance());
    }
    return pool;
}

} // namespace Sandcastle
