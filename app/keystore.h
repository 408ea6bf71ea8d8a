#pragma once

#include <base/result.h>

#include <QObject>
#include <QString>

namespace Sandcastle {

// API keys live in the system keychain (Secret Service, KWallet, macOS Keychain through
// QtKeychain), never in the settings file, a log line or an export. No insecure fallback:
// without a keychain the key comes from the environment or is not stored at all.
class KeyStore : public QObject
{
    Q_OBJECT
public:
    explicit KeyStore(QObject *parent = nullptr);

    void read(const QString &account);
    void write(const QString &account, const QString &key);
    void remove(const QString &account);

    // For the command line: waits for the keychain at most timeoutMs.
    static Result<QString> readBlocking(const QString &account, int timeoutMs = 3000);

    static QString serviceName() { return QStringLiteral("sandcastle"); }

Q_SIGNALS:
    void keyRead(const QString &account, const QString &key);
    void written(const QString &account);
    void removed(const QString &account);
    // notFound is true when the keychain works but holds no key for this account.
    void failed(const QString &account, const QString &message, bool notFound);
};

} // namespace Sandcastle
