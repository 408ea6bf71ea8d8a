#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

namespace Sandcastle {

class ModelCatalog;

// First launch: asks the usual local model servers on their default ports (loopback only)
// whether they answer, and with which models, so the person can pick one instead of typing.
class LocalServerProbe : public QObject
{
    Q_OBJECT
public:
    struct Server
    {
        QString provider; // a ProviderPreset id
        QString name;
        QString baseUrl;
        QStringList models;
    };

    explicit LocalServerProbe(QObject *parent = nullptr);
    // Ollama 11434, llama.cpp 8080, LM Studio 1234, vLLM 8000, all on 127.0.0.1.
    static QList<Server> defaultCandidates();
    void probe(const QList<Server> &candidates = defaultCandidates(), int timeoutMs = 1500);
    bool isProbing() const { return m_waiting > 0; }

Q_SIGNALS:
    // Those that answered with at least one model, in the order of the candidates.
    void finished(const QList<Sandcastle::LocalServerProbe::Server> &found);

private:
    QList<Server> m_candidates;
    QList<bool> m_answered;
    int m_waiting = 0;
};

} // namespace Sandcastle
