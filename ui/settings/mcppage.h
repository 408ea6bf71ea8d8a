#pragma once

#include <app/mcp/mcpconfig.h>

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace Sandcastle {

class McpClient;

// Settings → MCP servers: the servers of mcp.json (the data folder's, in the mcpServers
// notation other programs share), to add, edit, switch on and off and test — the test starts the
// server as the form says and lists the tools it offers. Says plainly that servers run on this
// computer, not in the sandbox. save() writes the file (entries it could not read stay as
// they were).
class McpPage : public QWidget
{
    Q_OBJECT
public:
    explicit McpPage(QString configPath, QWidget *parent = nullptr);
    ~McpPage() override;

    // What is wrong with the servers as entered (a name twice, no command…), or empty.
    QString problem() const;
    Result<bool> save();
    bool isChanged() const;
    const QList<McpServerConfig> &servers() const { return m_file.servers; }

    // For tests and keyboard use: the parts of the form.
    QListWidget *list() const { return m_list; }
    void addServer();
    void removeServer();
    void testServer();
    QString testReport() const;

private:
    void buildForm();
    void showServer(int row);
    void storeForm();
    void refreshRow(int row);
    void setTransportShown();

    QString m_path;
    McpConfigFile m_file;
    QByteArray m_saved;
    int m_current = -1;
    bool m_filling = false;
    QListWidget *m_list = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_transport = nullptr;
    QLineEdit *m_command = nullptr;
    QLineEdit *m_args = nullptr;
    QPlainTextEdit *m_env = nullptr;
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QComboBox *m_approval = nullptr;
    QSpinBox *m_timeout = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_test = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QWidget *m_form = nullptr;
    QPointer<McpClient> m_probe;
};

} // namespace Sandcastle
