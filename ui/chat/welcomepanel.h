#pragma once

#include <app/llm/localservers.h>

#include <QFrame>

class QLabel;
class QVBoxLayout;

namespace Sandcastle {

// First launch, nothing configured: offers the model servers found on this machine, or the
// settings for a hosted provider, and says what to run when Docker or the image is missing.
class WelcomePanel : public QFrame
{
    Q_OBJECT
public:
    explicit WelcomePanel(QWidget *parent = nullptr);

    // Looks for model servers on this machine (loopback only) and offers those that answer.
    void probe(const QList<Sandcastle::LocalServerProbe::Server> &candidates);
    // Asks the engine, off the UI thread (it can take seconds), whether the sandbox can start,
    // and says what is missing.
    void checkSandbox(const QString &engine, const QString &context, const QString &image);
    void showProbing();
    void showServers(const QList<Sandcastle::LocalServerProbe::Server> &servers);
    // Empty when the sandbox is ready; otherwise what is wrong and what to run.
    void showSandboxProblem(const QString &problem);
    QLabel *serversLabel() const { return m_serversLabel; }
    QLabel *sandboxLabel() const { return m_sandboxLabel; }

Q_SIGNALS:
    void serverChosen(const Sandcastle::LocalServerProbe::Server &server);
    void settingsRequested();

private:
    QLabel *m_serversLabel = nullptr;
    QLabel *m_sandboxLabel = nullptr;
    QVBoxLayout *m_serverButtons = nullptr;
    LocalServerProbe *m_probe = nullptr;
};

} // namespace Sandcastle
