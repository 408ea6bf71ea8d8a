#include "keystore.h"

#include <qt6keychain/keychain.h>

#include <QEventLoop>
#include <QTimer>

namespace Sandcastle {

// The jobs are deliberately not children of the store: the keychain backend (libsecret) calls
// back into a job after its D-Bus round trip, so a job must live until it finishes, even when
// the store that asked is gone. Jobs delete themselves when finished (autoDelete).

KeyStore::KeyStore(QObject *parent)
    : QObject(parent)
{}

void KeyStore::read(const QString &account)
{
    auto *job = new QKeychain::ReadPasswordJob(serviceName());
    job->setKey(account);
    job->setInsecureFallback(false);
    connect(job, &QKeychain::Job::finished, this, [this, job, account] {
        if (job->error() == QKeychain::NoError)
            Q_EMIT keyRead(account, job->textData());
        else
            Q_EMIT failed(account, job->errorString(), job->error() == QKeychain::EntryNotFound);
    });
    job->start();
}

void KeyStore::write(const QString &account, const QString &key)
{
    auto *job = new QKeychain::WritePasswordJob(serviceName());
    job->setKey(account);
    job->setInsecureFallback(false);
    job->setTextData(key);
    connect(job, &QKeychain::Job::finished, this, [this, job, account] {
        if (job->error() == QKeychain::NoError)
            Q_EMIT written(account);
        else
            Q_EMIT failed(account,
                          QStringLiteral("The key could not be stored in the system keychain: ")
                              + job->errorString(),
                          false);
    });
    job->start();
}

void KeyStore::remove(const QString &account)
{
    auto *job = new QKeychain::DeletePasswordJob(serviceName());
    job->setKey(account);
    job->setInsecureFallback(false);
    connect(job, &QKeychain::Job::finished, this, [this, job, account] {
        if (job->error() == QKeychain::NoError || job->error() == QKeychain::EntryNotFound)
            Q_EMIT removed(account);
        else
            Q_EMIT failed(account, job->errorString(), false);
    });
    job->start();
}

Result<QString> KeyStore::readBlocking(const QString &account, int timeoutMs)
{
    KeyStore store;
    QEventLoop loop;
    Result<QString> result
        = Result<QString>::failure(QStringLiteral("the system keychain did not answer in time"));
    connect(&store, &KeyStore::keyRead, &loop, [&](const QString &, const QString &key) {
        result = Result<QString>::ok(key);
        loop.quit();
    });
    connect(&store, &KeyStore::failed, &loop, [&](const QString &, const QString &message, bool) {
        result = Result<QString>::failure(message);
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    store.read(account);
    loop.exec();
    return result;
}

} // namespace Sandcastle
