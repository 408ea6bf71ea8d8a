#pragma once

#include <app/appsettings.h>

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace Sandcastle {

// Settings → Engine: which container engine runs the sandboxes and where — docker or podman,
// and one of Docker's contexts or Podman's connections (listed as the CLI knows them), or the
// default (DOCKER_HOST, the current context). Whether the workspace is mounted or copied.
// Test asks the engine what it is (version, OS, CPUs, memory) and whether the sandbox image
// is there, without holding the dialog up; an engine without the image can be sent it from
// this machine, with progress.
class EnginePage : public QWidget
{
    Q_OBJECT
public:
    explicit EnginePage(const AppSettings &settings, QWidget *parent = nullptr);

    // The page's fields into these settings.
    void apply(AppSettings &settings) const;

    // For tests and keyboard use.
    QComboBox *engineBox() const { return m_engine; }
    QComboBox *contextBox() const { return m_context; }
    QComboBox *workspaceModeBox() const { return m_mode; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *sendButton() const { return m_send; }
    QString report() const;
    void test();
    void sendImage();
    void listEndpoints();

Q_SIGNALS:
    void tested();    // the report says what answered (or why nothing did)
    void listed();    // the context list is filled
    void imageSent(); // the transfer ended, either way

private:
    SandboxConfig configFromFields() const;
    void setBusy(bool busy);

    AppSettings m_settings;
    QComboBox *m_engine = nullptr;
    QComboBox *m_context = nullptr;
    QComboBox *m_mode = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_send = nullptr;
    QLabel *m_report = nullptr;
    int m_generation = 0; // a newer test or listing makes older answers stale
};

} // namespace Sandcastle
