#include "mcppage.h"

#include <app/mcp/mcpclient.h>

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Sandcastle {

namespace {

// "KEY=value" (env) or "Name: value" (headers), a pair per line.
QMap<QString, QString> pairs(const QString &text, QChar separator)
{
    QMap<QString, QString> out;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype at = line.indexOf(separator);
        if (at > 0)
            out.insert(line.left(at).trimmed(), line.mid(at + 1).trimmed());
    }
    return out;
}

QString lines(const QMap<QString, QString> &map, const QString &separator)
{
    QStringList out;
    for (auto it = map.begin(); it != map.end(); ++it)
        out << it.key() + separator + it.value();
    return out.join(QLatin1Char('\n'));
}

QString quoted(const QStringList &args)
{
    QStringList out;
    for (const QString &arg : args) {
        out << (arg.contains(QLatin1Char(' ')) || arg.isEmpty()
                    ? QLatin1Char('"') + arg + QLatin1Char('"')
                    : arg);
    }
    return out.join(QLatin1Char(' '));
}

} // namespace

McpPage::McpPage(QString configPath, QWidget *parent)
    : QWidget(parent)
    , m_path(std::move(configPath))
{
    setObjectName(QStringLiteral("mcpPage"));
    const Result<McpConfigFile> read = McpConfigFile::read(m_path);
    if (read)
        m_file = read.value();
    m_saved = m_file.serialize();
    auto *layout = new QVBoxLayout(this);
    auto *warning = new QLabel(
        tr("MCP servers run on this computer with your permissions, not in the sandbox: add "
           "only servers you trust. Their tools are offered to the agent beside its own; each "
           "server's calls wait for your approval as set below. The list is %1, in the "
           "\"mcpServers\" notation of Claude Desktop, Cursor and LM Studio.")
            .arg(m_path),
        this);
    warning->setObjectName(QStringLiteral("mcpWarning"));
    warning->setWordWrap(true);
    warning->setTextFormat(Qt::PlainText);
    layout->addWidget(warning);
    if (!read || !m_file.problems.isEmpty()) {
        auto *problems = new QLabel(read ? tr("Left as they are (not understood): %1")
                                               .arg(m_file.problems.join(QStringLiteral("; ")))
                                         : read.error(),
                                    this);
        problems->setWordWrap(true);
        problems->setTextFormat(Qt::PlainText);
        layout->addWidget(problems);
    }
    auto *columns = new QHBoxLayout;
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("mcpServers"));
    columns->addWidget(m_list, 1);
    buildForm();
    columns->addWidget(m_form, 2);
    layout->addLayout(columns, 1);
    for (int i = 0; i < m_file.servers.size(); ++i) {
        m_list->addItem(QString());
        refreshRow(i);
    }
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        storeForm();
        showServer(row);
    });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = m_list->row(item);
        if (m_filling || row < 0 || row >= m_file.servers.size())
            return;
        m_file.servers[row].enabled = item->checkState() == Qt::Checked;
    });
    m_list->setCurrentRow(m_file.servers.isEmpty() ? -1 : 0);
    showServer(m_list->currentRow());
}

McpPage::~McpPage() = default;

void McpPage::buildForm()
{
    m_form = new QWidget(this);
    auto *form = new QFormLayout(m_form);
    m_name = new QLineEdit(m_form);
    m_name->setObjectName(QStringLiteral("mcpName"));
    m_transport = new QComboBox(m_form);
    m_transport->addItem(tr("Program (stdio)"));
    m_transport->addItem(tr("Address (Streamable HTTP)"));
    m_command = new QLineEdit(m_form);
    m_command->setObjectName(QStringLiteral("mcpCommand"));
    m_command->setPlaceholderText(QStringLiteral("npx"));
    m_args = new QLineEdit(m_form);
    m_args->setObjectName(QStringLiteral("mcpArgs"));
    m_args->setPlaceholderText(QStringLiteral("-y @modelcontextprotocol/server-filesystem ~/data"));
    m_env = new QPlainTextEdit(m_form);
    m_env->setPlaceholderText(QStringLiteral("TOKEN=…"));
    m_env->setMaximumHeight(fontMetrics().lineSpacing() * 4);
    m_url = new QLineEdit(m_form);
    m_url->setObjectName(QStringLiteral("mcpUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:3001/mcp"));
    m_headers = new QPlainTextEdit(m_form);
    m_headers->setPlaceholderText(QStringLiteral("Authorization: Bearer …"));
    m_headers->setMaximumHeight(fontMetrics().lineSpacing() * 4);
    m_approval = new QComboBox(m_form);
    m_approval->setObjectName(QStringLiteral("mcpApproval"));
    m_approval->addItem(tr("Ask before every call"));
    m_approval->addItem(tr("Ask once per conversation"));
    m_approval->addItem(tr("Never ask"));
    m_timeout = new QSpinBox(m_form);
    m_timeout->setRange(1, 3600);
    m_timeout->setSuffix(tr(" s"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Runs as"), m_transport);
    form->addRow(tr("Command"), m_command);
    form->addRow(tr("Arguments"), m_args);
    form->addRow(tr("Environment"), m_env);
    form->addRow(tr("URL"), m_url);
    form->addRow(tr("Headers"), m_headers);
    form->addRow(tr("Approval"), m_approval);
    form->addRow(tr("Time limit"), m_timeout);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add"), m_form);
    add->setObjectName(QStringLiteral("mcpAdd"));
    m_remove = new QPushButton(tr("Remove"), m_form);
    m_test = new QPushButton(tr("Test"), m_form);
    m_test->setObjectName(QStringLiteral("mcpTest"));
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_test);
    buttons->addStretch(1);
    form->addRow(buttons);
    m_report = new QPlainTextEdit(m_form);
    m_report->setObjectName(QStringLiteral("mcpReport"));
    m_report->setReadOnly(true);
    form->addRow(m_report);
    connect(add, &QPushButton::clicked, this, &McpPage::addServer);
    connect(m_remove, &QPushButton::clicked, this, &McpPage::removeServer);
    connect(m_test, &QPushButton::clicked, this, &McpPage::testServer);
    connect(m_transport, &QComboBox::currentIndexChanged, this, &McpPage::setTransportShown);
    for (QLineEdit *edit : {m_name, m_command, m_args, m_url}) {
        connect(edit, &QLineEdit::textEdited, this, [this] {
            storeForm();
            refreshRow(m_current);
        });
    }
}

void McpPage::setTransportShown()
{
    const bool http = m_transport->currentIndex() == 1;
    auto *form = static_cast<QFormLayout *>(m_form->layout());
    for (QWidget *w : {static_cast<QWidget *>(m_command),
                       static_cast<QWidget *>(m_args),
                       static_cast<QWidget *>(m_env)})
        form->setRowVisible(w, !http);
    for (QWidget *w : {static_cast<QWidget *>(m_url), static_cast<QWidget *>(m_headers)})
        form->setRowVisible(w, http);
}

void McpPage::showServer(int row)
{
    m_current = row;
    const bool any = row >= 0 && row < m_file.servers.size();
    for (QWidget *w : m_form->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (w != m_form->findChild<QPushButton *>(QStringLiteral("mcpAdd")))
            w->setEnabled(any);
    }
    if (!any)
        return;
    m_filling = true;
    const McpServerConfig &s = m_file.servers.at(row);
    m_name->setText(s.name);
    m_transport->setCurrentIndex(s.transport == McpServerConfig::Transport::Http ? 1 : 0);
    m_command->setText(s.command);
    m_args->setText(quoted(s.args));
    m_env->setPlainText(lines(s.env, QStringLiteral("=")));
    m_url->setText(s.url);
    m_headers->setPlainText(lines(s.headers, QStringLiteral(": ")));
    m_approval->setCurrentIndex(s.approval == McpApproval::Always  ? 0
                                : s.approval == McpApproval::Never ? 2
                                                                   : 1);
    m_timeout->setValue(s.timeoutSeconds);
    m_report->clear();
    setTransportShown();
    m_filling = false;
}

void McpPage::storeForm()
{
    if (m_filling || m_current < 0 || m_current >= m_file.servers.size())
        return;
    McpServerConfig &s = m_file.servers[m_current];
    s.name = m_name->text().trimmed();
    s.transport = m_transport->currentIndex() == 1 ? McpServerConfig::Transport::Http
                                                   : McpServerConfig::Transport::Stdio;
    s.command = m_command->text().trimmed();
    s.args = QProcess::splitCommand(m_args->text());
    s.env = pairs(m_env->toPlainText(), QLatin1Char('='));
    s.url = m_url->text().trimmed();
    s.headers = pairs(m_headers->toPlainText(), QLatin1Char(':'));
    s.approval = m_approval->currentIndex() == 0   ? McpApproval::Always
                 : m_approval->currentIndex() == 2 ? McpApproval::Never
                                                   : McpApproval::Once;
    s.timeoutSeconds = m_timeout->value();
}

void McpPage::refreshRow(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item || row >= m_file.servers.size())
        return;
    m_filling = true;
    const McpServerConfig &s = m_file.servers.at(row);
    item->setText(s.name + QStringLiteral(" — ") + s.summary());
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(s.enabled ? Qt::Checked : Qt::Unchecked);
    m_filling = false;
}

void McpPage::addServer()
{
    storeForm();
    McpServerConfig server;
    int n = 1;
    do {
        server.name = n == 1 ? QStringLiteral("server") : QStringLiteral("server-%1").arg(n);
        ++n;
    } while (m_file.find(server.name));
    m_file.servers << server;
    m_list->addItem(QString());
    refreshRow(int(m_file.servers.size()) - 1);
    m_list->setCurrentRow(int(m_file.servers.size()) - 1);
    m_name->setFocus();
    m_name->selectAll();
}

void McpPage::removeServer()
{
    const int row = m_current;
    if (row < 0 || row >= m_file.servers.size())
        return;
    m_current = -1;
    m_file.servers.removeAt(row);
    delete m_list->takeItem(row);
    showServer(m_list->currentRow());
}

QString McpPage::problem() const
{
    QStringList seen;
    for (const McpServerConfig &s : m_file.servers) {
        if (!McpConfigFile::isValidName(s.name))
            return tr("MCP server \"%1\": a name is 1 to 64 letters, digits, '_' or '-'")
                .arg(s.name);
        if (seen.contains(s.name))
            return tr("Two MCP servers are named \"%1\"").arg(s.name);
        seen << s.name;
        const Result<McpServerConfig> checked = McpServerConfig::fromJson(s.name, s.toJson());
        if (!checked)
            return tr("MCP server \"%1\": %2").arg(s.name, checked.error());
    }
    return {};
}

bool McpPage::isChanged() const
{
    return m_file.serialize() != m_saved;
}

Result<bool> McpPage::save()
{
    storeForm();
    if (!isChanged())
        return Result<bool>::ok(false);
    const QString found = problem();
    if (!found.isEmpty())
        return Result<bool>::failure(found);
    Result<bool> written = m_file.write(m_path);
    if (written)
        m_saved = m_file.serialize();
    return written;
}

void McpPage::testServer()
{
    storeForm();
    if (m_current < 0 || m_current >= m_file.servers.size())
        return;
    if (m_probe) {
        m_probe->close();
        m_probe->deleteLater();
    }
    const McpServerConfig server = m_file.servers.at(m_current);
    m_report->setPlainText(tr("Starting %1…").arg(server.summary()));
    m_probe = new McpClient(server, this);
    McpClient *probe = m_probe;
    connect(probe, &McpClient::ready, this, [this, probe] {
        QStringList text{
            tr("Answered: %1 %2, MCP %3, %n tool(s):", nullptr, int(probe->tools().size()))
                .arg(probe->serverName(), probe->serverVersion(), probe->protocolVersion())};
        for (const McpToolInfo &tool : probe->tools())
            text << QStringLiteral("• ") + tool.name
                        + (tool.description.isEmpty()
                               ? QString()
                               : QStringLiteral(" — ")
                                     + tool.description.section(QLatin1Char('\n'), 0, 0).left(160));
        m_report->setPlainText(text.join(QLatin1Char('\n')));
        probe->close();
    });
    connect(probe, &McpClient::failed, this, [this](const QString &reason) {
        m_report->setPlainText(tr("Did not answer: %1").arg(reason));
    });
    probe->start();
}

QString McpPage::testReport() const
{
    return m_report->toPlainText();
}

} // namespace Sandcastle
