#pragma once

#include "chattypes.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sandcastle {

// Lists the models a server offers (GET {base}/models), for the settings' model picker.
class ModelCatalog : public QObject
{
    Q_OBJECT
public:
    explicit ModelCatalog(QObject *parent = nullptr);
    ~ModelCatalog() override;

    void fetch(const ClientConfig &config, int timeoutMs = 10000);
    void cancel();

    // The ids in an OpenAI-style {"data": [{"id": ...}]} list (or Ollama's {"models": [...]}),
    // sorted.
    static QStringList parseModelList(const QByteArray &body, QString *error);

Q_SIGNALS:
    void modelsReady(const QStringList &models);
    void errorOccurred(const QString &message);

private:
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_reply;
};

} // namespace Sandcastle
