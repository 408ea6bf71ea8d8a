#include "localservers.h"

#include "modelcatalog.h"

namespace Sandcastle {

LocalServerProbe::LocalServerProbe(QObject *parent)
    : QObject(parent)
{}

QList<LocalServerProbe::Server> LocalServerProbe::defaultCandidates()
{
    return {{QStringLiteral("ollama"),
             QStringLiteral("Ollama"),
             QStringLiteral("http://127.0.0.1:11434/v1"),
             {}},
            {QStringLiteral("llamacpp"),
             QStringLiteral("llama.cpp server"),
             QStringLiteral("http://127.0.0.1:8080/v1"),
             {}},
            {QStringLiteral("lmstudio"),
             QStringLiteral("LM Studio"),
             QStringLiteral("http://127.0.0.1:1234/v1"),
             {}},
            {QStringLiteral("vllm"),
             QStringLiteral("vLLM"),
             QStringLiteral("http://127.0.0.1:8000/v1"),
             {}}};
}

void LocalServerProbe::probe(const QList<Server> &candidates, int timeoutMs)
{
    m_candidates = candidates;
    m_answered = QList<bool>(candidates.size(), false);
    m_waiting = int(candidates.size());
    auto done = [this] {
        if (--m_waiting > 0)
            return;
        QList<Server> found;
        for (qsizetype i = 0; i < m_candidates.size(); ++i) {
            if (m_answered.at(i))
                found << m_candidates.at(i);
        }
        Q_EMIT finished(found);
    };
    if (candidates.isEmpty()) {
        m_waiting = 1;
        done();
        return;
    }
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        auto *catalog = new ModelCatalog(this);
        connect(catalog,
                &ModelCatalog::modelsReady,
                this,
                [this, i, catalog, done](const QStringList &models) {
                    m_candidates[i].models = models;
                    m_answered[i] = !models.isEmpty();
                    catalog->deleteLater();
                    done();
                });
        connect(catalog, &ModelCatalog::errorOccurred, this, [catalog, done](const QString &) {
            catalog->deleteLater();
            done();
        });
        ClientConfig config;
        config.baseUrl = QUrl(candidates.at(i).baseUrl);
        catalog->fetch(config, timeoutMs);
    }
}

} // namespace Sandcastle
