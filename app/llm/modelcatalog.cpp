#include "modelcatalog.h"

#include "modelerror.h"
#include "modelrequest.h"
#include <base/jsonfields.h>

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

namespace Sandcastle {

ModelCatalog::ModelCatalog(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
{}

ModelCatalog::~ModelCatalog()
{
    blockSignals(true);
    cancel();
}

QStringList ModelCatalog::parseModelList(const QByteArray &body, QString *error)
{
    const nlohmann::json doc
        = nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    QStringList models;
    const char *listKey = doc.is_object() && doc.contains("data") ? "data" : "models";
    if (!doc.is_object() || !doc.contains(listKey) || !(doc[listKey].is_array())) {
        *error = QStringLiteral("the server's model list is not in a format Sandcastle knows");
        return models;
    }
    for (const nlohmann::json &item : doc[listKey]) {
        QString id = jsonString(item, "id");
        if (id.isEmpty())
            id = jsonString(item, "name"); // Ollama's native list
        if (!id.isEmpty())
            models << id;
    }
    std::sort(models.begin(), models.end(), [](const QString &a, const QString &b) {
        return a.compare(b, Qt::CaseInsensitive) < 0;
    });
    models.removeDuplicates();
    return models;
}

void ModelCatalog::fetch(const ClientConfig &config, int timeoutMs)
{
    cancel();
    QNetworkRequest request = modelRequest(modelsUrl(config.baseUrl), config);
    request.setTransferTimeout(timeoutMs);
    m_reply = m_network->get(request);
    QNetworkReply *reply = m_reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply, model = config.model] {
        reply->deleteLater();
        if (reply != m_reply)
            return;
        m_reply = nullptr;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (status >= 400) {
            Q_EMIT errorOccurred(classifyHttpError(status, body, model).message);
            return;
        }
        if (reply->error() != QNetworkReply::NoError) {
            Q_EMIT errorOccurred(QStringLiteral("Cannot reach %1: %2")
                                     .arg(reply->url().toString(), reply->errorString()));
            return;
        }
        QString error;
        const QStringList models = parseModelList(body, &error);
        if (!error.isEmpty())
            Q_EMIT errorOccurred(error);
        else
            Q_EMIT modelsReady(models);
    });
}

void ModelCatalog::cancel()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->abort();
}

} // namespace Sandcastle
