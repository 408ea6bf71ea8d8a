#include "transcriptmodel.h"

#include <base/jsonfields.h>
#include <base/partialjson.h>

namespace Sandcastle {

namespace {

// A 120 Hz display's frame: a token waits at most this long to be shown. Measured by
// scripts/bench: at 500 tokens/s it costs no more CPU than 60 Hz did, the paints are small.
constexpr int FrameMs = 8;

QString kindName(TranscriptModel::Kind kind)
{
    switch (kind) {
    case TranscriptModel::Kind::User:
        return TranscriptModel::tr("You");
    case TranscriptModel::Kind::Assistant:
        return TranscriptModel::tr("Sandcastle");
    case TranscriptModel::Kind::Tool:
        return TranscriptModel::tr("Tool");
    case TranscriptModel::Kind::Error:
        return TranscriptModel::tr("Error");
    case TranscriptModel::Kind::Notice:
        return TranscriptModel::tr("Note");
    }
    return QString();
}

} // namespace

TranscriptModel::TranscriptModel(QObject *parent)
    : QAbstractListModel(parent)
{
    m_frame.setSingleShot(true);
    m_frame.setTimerType(Qt::PreciseTimer);
    connect(&m_frame, &QTimer::timeout, this, &TranscriptModel::flush);
}

int TranscriptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant TranscriptModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= m_entries.size())
        return {};
    const Entry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return plainText(index.row());
    case KindRole:
        return QVariant::fromValue(e.kind);
    case TextRole:
        return e.text;
    case ReasoningRole:
        return e.reasoning;
    case ExpandedRole:
        return e.expanded;
    case ShowAllRole:
        return e.showAll;
    case StreamingRole:
        return e.streaming;
    case ToolNameRole:
        return e.toolName;
    case CallIdRole:
        return e.callId;
    case StatusRole:
        return e.status;
    case ExitCodeRole:
        return e.exitCode;
    case DurationRole:
        return e.durationMs;
    case FilesRole:
        return e.files;
    case RetryableRole:
        return e.retryable;
    case CheckpointRole:
        return e.checkpoint;
    case RevisionRole:
        return e.revision;
    default:
        return {};
    }
}

QHash<int, QByteArray> TranscriptModel::roleNames() const
{
    return {{KindRole, "kind"},
            {TextRole, "text"},
            {ReasoningRole, "reasoning"},
            {ExpandedRole, "expanded"},
            {StreamingRole, "streaming"},
            {ToolNameRole, "toolName"},
            {CallIdRole, "callId"},
            {StatusRole, "status"},
            {ExitCodeRole, "exitCode"},
            {DurationRole, "durationMs"},
            {FilesRole, "files"},
            {RetryableRole, "retryable"},
            {RevisionRole, "revision"},
            {ShowAllRole, "showAll"}};
}

void TranscriptModel::append(Entry entry)
{
    const int row = int(m_entries.size());
    beginInsertRows(QModelIndex(), row, row);
    m_entries.append(std::move(entry));
    endInsertRows();
}

void TranscriptModel::markDirty(int row)
{
    ++m_entries[row].revision;
    m_dirtyFirst = m_dirtyFirst < 0 ? row : std::min(m_dirtyFirst, row);
    m_dirtyLast = std::max(m_dirtyLast, row);
    if (!m_frame.isActive()) {
        const qint64 since = m_sinceFlush.isValid() ? m_sinceFlush.elapsed() : FrameMs;
        m_frame.start(int(std::max<qint64>(0, FrameMs - since)));
    }
}

void TranscriptModel::flush()
{
    m_frame.stop();
    if (m_dirtyFirst < 0)
        return;
    m_sinceFlush.start();
    const int first = m_dirtyFirst;
    const int last = std::min(m_dirtyLast, int(m_entries.size()) - 1);
    m_dirtyFirst = m_dirtyLast = -1;
    if (first <= last)
        Q_EMIT dataChanged(index(first), index(last));
}

void TranscriptModel::addUserMessage(const QString &text)
{
    endAssistantMessage();
    Entry e;
    e.kind = Kind::User;
    e.text = text;
    append(std::move(e));
}

TranscriptModel::Entry &TranscriptModel::streamingEntry()
{
    if (m_streamingRow < 0) {
        Entry e;
        e.kind = Kind::Assistant;
        e.streaming = true;
        append(std::move(e));
        m_streamingRow = int(m_entries.size()) - 1;
    }
    return m_entries[m_streamingRow];
}

void TranscriptModel::appendAssistantText(const QString &delta)
{
    if (delta.isEmpty())
        return;
    streamingEntry().text += delta;
    markDirty(m_streamingRow);
}

void TranscriptModel::appendReasoning(const QString &delta)
{
    if (delta.isEmpty())
        return;
    streamingEntry().reasoning += delta;
    markDirty(m_streamingRow);
}

void TranscriptModel::endAssistantMessage()
{
    if (m_streamingRow < 0)
        return;
    const int row = m_streamingRow;
    m_streamingRow = -1;
    m_entries[row].streaming = false;
    markDirty(row);
    flush(); // the finished answer is shown whole at once
}

void TranscriptModel::addToolCall(const QString &callId, const QString &name, const QString &detail)
{
    endAssistantMessage();
    Entry e;
    e.kind = Kind::Tool;
    e.callId = callId;
    e.toolName = name;
    e.text = detail;
    e.status = QStringLiteral("running");
    append(std::move(e));
}

void TranscriptModel::setToolResult(const QString &callId,
                                    const QString &status,
                                    int exitCode,
                                    qint64 durationMs,
                                    const QStringList &files)
{
    const int row = rowOfCall(callId);
    if (row < 0)
        return;
    Entry &e = m_entries[row];
    e.status = status;
    e.exitCode = exitCode;
    e.durationMs = durationMs;
    e.files = files;
    markDirty(row);
    flush();
}

void TranscriptModel::addError(const QString &message, bool retryable)
{
    endAssistantMessage();
    // Only the newest error offers Retry: asking again is about where the conversation is now.
    for (int row = 0; row < m_entries.size(); ++row) {
        if (m_entries[row].kind == Kind::Error && m_entries[row].retryable) {
            m_entries[row].retryable = false;
            markDirty(row);
        }
    }
    flush();
    Entry e;
    e.kind = Kind::Error;
    e.text = message;
    e.retryable = retryable;
    append(std::move(e));
}

void TranscriptModel::addCheckpoint(int number, int turn, const QString &text)
{
    Entry e;
    e.kind = Kind::Notice;
    e.text = text;
    e.checkpoint = number;
    int row = int(m_entries.size());
    if (turn >= 0 && m_streamingRow < 0) {
        int users = 0;
        for (int i = 0; i < m_entries.size(); ++i) {
            if (m_entries[i].kind == Kind::User && users++ == turn + 1) {
                row = i;
                break;
            }
        }
    }
    if (row == m_entries.size()) {
        endAssistantMessage();
        append(std::move(e));
        return;
    }
    beginInsertRows(QModelIndex(), row, row);
    m_entries.insert(row, std::move(e));
    endInsertRows();
}

void TranscriptModel::addNotice(const QString &message)
{
    if (!m_entries.isEmpty() && m_streamingRow < 0 && m_entries.last().kind == Kind::Notice
        && m_entries.last().checkpoint == 0) {
        const int row = int(m_entries.size()) - 1;
        m_entries[row].text = message;
        markDirty(row);
        flush();
        return;
    }
    endAssistantMessage();
    Entry e;
    e.kind = Kind::Notice;
    e.text = message;
    append(std::move(e));
}

void TranscriptModel::setExpanded(int row, bool expanded)
{
    if (row < 0 || row >= m_entries.size() || m_entries[row].expanded == expanded)
        return;
    m_entries[row].expanded = expanded;
    markDirty(row);
    flush();
}

void TranscriptModel::toggleExpanded(int row)
{
    if (row >= 0 && row < m_entries.size())
        setExpanded(row, !m_entries[row].expanded);
}

void TranscriptModel::setShowAll(int row)
{
    if (row < 0 || row >= m_entries.size() || m_entries[row].showAll)
        return;
    m_entries[row].showAll = true;
    markDirty(row);
    flush();
}

void TranscriptModel::clear()
{
    loadHistory(nlohmann::json::array());
}

int TranscriptModel::rowOfCall(const QString &callId) const
{
    for (int row = int(m_entries.size()) - 1; row >= 0; --row) {
        if (m_entries[row].kind == Kind::Tool && m_entries[row].callId == callId)
            return row;
    }
    return -1;
}

bool TranscriptModel::runsCode(const QString &name)
{
    return name == QLatin1String("run_python") || name == QLatin1String("run_shell");
}

QString TranscriptModel::toolDetail(const QString &name, const QString &arguments)
{
    // The fields shown are read in one pass, without building the document: a tool call may
    // carry a megabyte of code, and this runs on the UI thread.
    const auto fields = jsonObjectStringFields(arguments,
                                               {QStringLiteral("code"),
                                                QStringLiteral("command"),
                                                QStringLiteral("path"),
                                                QStringLiteral("content")});
    if (!fields)
        return arguments;
    const auto field = [&](const char *key) {
        return fields->value(QLatin1String(key));
    };
    if (runsCode(name)) {
        if (QString code = field("code"); !code.isEmpty())
            return code;
        if (QString command = field("command"); !command.isEmpty())
            return command;
    }
    if (const QString path = field("path"); !path.isEmpty()) {
        const QString content = field("content");
        return content.isEmpty() ? path : path + QLatin1Char('\n') + content;
    }
    const nlohmann::json args = nlohmann::json::parse(arguments.toStdString(), nullptr, false);
    if (!args.is_object())
        return arguments;
    return args.empty() ? QString() : QString::fromStdString(args.dump(2));
}

void TranscriptModel::loadHistory(const nlohmann::json &messages)
{
    beginResetModel();
    m_entries.clear();
    m_streamingRow = -1;
    m_dirtyFirst = m_dirtyLast = -1;
    m_frame.stop();
    if (messages.is_array()) {
        for (const auto &m : messages) {
            if (!m.is_object())
                continue;
            const QString role = jsonString(m, "role");
            if (role == QLatin1String("user")) {
                Entry e;
                e.kind = Kind::User;
                e.text = jsonString(m, "content");
                m_entries.append(e);
            } else if (role == QLatin1String("assistant")) {
                Entry e;
                e.kind = Kind::Assistant;
                e.text = jsonString(m, "content");
                e.reasoning = jsonString(m, "reasoning");
                if (!e.text.isEmpty() || !e.reasoning.isEmpty())
                    m_entries.append(e);
                const auto calls = m.find("tool_calls");
                if (calls == m.end() || !calls->is_array())
                    continue;
                for (const auto &call : *calls) {
                    if (!call.is_object())
                        continue;
                    const auto fn = call.value("function", nlohmann::json::object());
                    Entry t;
                    t.kind = Kind::Tool;
                    t.callId = jsonString(call, "id");
                    t.toolName = jsonString(fn, "name");
                    t.text = toolDetail(t.toolName, jsonString(fn, "arguments"));
                    t.status = tr("not finished");
                    m_entries.append(t);
                }
            } else if (role == QLatin1String("tool")) {
                const int row = rowOfCall(jsonString(m, "tool_call_id"));
                const nlohmann::json result
                    = nlohmann::json::parse(jsonString(m, "content").toStdString(), nullptr, false);
                if (row < 0 || !result.is_object())
                    continue;
                Entry &t = m_entries[row];
                t.status = jsonString(result, "status");
                const auto exit = result.find("exit_code");
                t.exitCode
                    = exit != result.end() && exit->is_number_integer() ? exit->get<int>() : -1;
                const auto duration = result.find("duration_ms");
                t.durationMs = duration != result.end() && duration->is_number_integer()
                                   ? duration->get<qint64>()
                                   : -1;
                const auto files = result.find("files");
                if (files != result.end() && files->is_array())
                    for (const auto &f : *files)
                        if (f.is_string())
                            t.files << QString::fromStdString(f.get<std::string>());
            }
        }
    }
    endResetModel();
}

QString TranscriptModel::plainText(int row) const
{
    if (row < 0 || row >= m_entries.size())
        return QString();
    const Entry &e = m_entries.at(row);
    QString out = e.kind == Kind::Tool ? e.toolName
                  : e.checkpoint > 0   ? tr("Changes")
                                       : kindName(e.kind);
    if (e.kind == Kind::Tool) {
        out += QLatin1Char(' ') + e.status;
        if (e.exitCode >= 0)
            out += QLatin1Char(' ') + tr("exit %1").arg(e.exitCode);
        if (e.durationMs >= 0)
            out += QLatin1Char(' ') + tr("%1 ms").arg(e.durationMs);
        if (!e.files.isEmpty())
            out += QStringLiteral(" — ") + e.files.join(QStringLiteral(", "));
    }
    out += QLatin1Char('\n');
    if (!e.reasoning.isEmpty())
        out += e.reasoning + QLatin1Char('\n');
    if (e.kind == Kind::Error && e.retryable)
        return out + e.text + QLatin1Char(' ') + tr("Retry");
    return out + e.text;
}

QString TranscriptModel::plainText() const
{
    QStringList parts;
    parts.reserve(m_entries.size());
    for (int row = 0; row < m_entries.size(); ++row)
        parts << plainText(row);
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace Sandcastle
