#pragma once

#include <app/appsettings.h>

#include <QDialog>
#include <QPointer>
#include <QProcess>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QDoubleSpinBox;

namespace Sandcastle {

class EnginePage;
class McpPage;

class KeyStore;
class ModelCatalog;

// Where the model is and how the agent works with it: provider presets, base URL, a model
// picked from the server's list, the API key (kept in the system keychain only), the tool
// mode and the limits. accept() saves the settings file and stores the key.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // The settings as edited (the key included, in memory).
    AppSettings settings() const;

    QComboBox *providerBox() const { return m_provider; }
    QLineEdit *baseUrlEdit() const { return m_baseUrl; }
    QComboBox *modelBox() const { return m_model; }
    QComboBox *apiFormatBox() const { return m_apiFormat; }
    QLineEdit *keyEdit() const { return m_key; }
    QLabel *statusLabel() const { return m_status; }
    QCheckBox *networkBox() const { return m_network; }
    void refreshModels();

Q_SIGNALS:
    void modelsRefreshed(int count);

public Q_SLOTS:
    void accept() override;
    McpPage *mcpPage() const { return m_mcp; }
    EnginePage *enginePage() const { return m_engine; }
    QTabWidget *pages() const { return m_pages; }
    QPushButton *okButton() const { return m_ok; }

private:
    QPushButton *setUpModelFields(const AppSettings &settings);
    void setUpRunFields(const AppSettings &settings);
    void setUpLookFields(const AppSettings &settings);
    void probeRuntimes(const AppSettings &settings);
    QDialogButtonBox *layOut(QPushButton *refresh);
    void connectFields(QDialogButtonBox *buttons, QPushButton *refresh);
    void onProviderChanged();
    void setUpFormatFields(const AppSettings &settings);
    // The "Automatic" entry names the format it stands for with the provider and URL shown.
    void showAutomaticFormat();
    // The first field that is wrong, and why; no field when all are right.
    struct Problem
    {
        QWidget *field = nullptr;
        QString reason;
    };
    Problem problem() const;
    void checkFields();

    AppSettings m_settings;
    QComboBox *m_provider = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QComboBox *m_model = nullptr;
    QLineEdit *m_key = nullptr;
    QComboBox *m_toolMode = nullptr;
    QComboBox *m_apiFormat = nullptr;
    QSpinBox *m_thinkingBudget = nullptr;
    QCheckBox *m_promptCaching = nullptr;
    QSpinBox *m_maxTurns = nullptr;
    QSpinBox *m_timeout = nullptr;
    QLineEdit *m_memory = nullptr;
    QDoubleSpinBox *m_cpus = nullptr;
    QSpinBox *m_outputCap = nullptr;
    QSpinBox *m_workspaceQuota = nullptr;
    QLineEdit *m_wheelhouse = nullptr;
    QSpinBox *m_buildLimit = nullptr;
    QCheckBox *m_network = nullptr;
    QCheckBox *m_gvisor = nullptr;
    QCheckBox *m_fresh = nullptr;
    QLineEdit *m_preimports = nullptr;
    QCheckBox *m_warmSpare = nullptr;
    QSpinBox *m_idleStop = nullptr;
    QCheckBox *m_askFirst = nullptr;
    QSpinBox *m_tokenBudget = nullptr;
    QDoubleSpinBox *m_costBudget = nullptr;
    QComboBox *m_language = nullptr;
    QComboBox *m_theme = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_pages = nullptr;
    McpPage *m_mcp = nullptr;
    EnginePage *m_engine = nullptr;
    QPushButton *m_ok = nullptr;
    bool m_showsProblem = false;
    ModelCatalog *m_catalog = nullptr;
    KeyStore *m_keys = nullptr;
    QPointer<QProcess> m_runtimeProbe;
};

} // namespace Sandcastle
