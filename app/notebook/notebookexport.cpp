#include "notebookexport.h"

#include <base/imagefiles.h>
#include <base/jsonfields.h>
#include <sandbox/pathguard.h>

#include <QDateTime>
#include <QSaveFile>

namespace Sandcastle::NotebookExport {

namespace {

using Json = nlohmann::ordered_json;

constexpr qint64 kMaxImageBytes = 10 * 1024 * 1024;
constexpr qint64 kMaxImagesBytes = 100 * 1024 * 1024;
const QString kTracebackStart = QStringLiteral("Traceback (most recent call last):");

std::string utf8(const QString &text)
{
    return text.toStdString();
}

// A cell's source or an output's text as Jupyter writes it: lines, each with its newline.
Json lines(const QString &text)
{
    Json out = Json::array();
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype next = end < 0 ? text.size() : end + 1;
        out.push_back(utf8(text.mid(start, next - start)));
        start = next;
    }
    return out;
}

Json stream(const char *name, const QString &text)
{
    return {{"output_type", "stream"}, {"name", name}, {"text", lines(text)}};
}

// An `error` output from a Python traceback: its last line names the exception.
Json errorFromTraceback(const QString &traceback)
{
    QStringList tracebackLines = traceback.split(QLatin1Char('\n'));
    while (!tracebackLines.isEmpty() && tracebackLines.last().trimmed().isEmpty())
        tracebackLines.removeLast();
    const QString last = tracebackLines.value(tracebackLines.size() - 1).trimmed();
    const qsizetype colon = last.indexOf(QStringLiteral(": "));
    QString name = colon > 0 ? last.left(colon) : last;
    // A name is one word (a dotted class name): anything else is a message, not a name.
    if (name.isEmpty() || name.contains(QLatin1Char(' ')))
        name = QStringLiteral("Error");
    Json trace = Json::array();
    for (const QString &line : std::as_const(tracebackLines))
        trace.push_back(utf8(line));
    return {{"output_type", "error"},
            {"ename", utf8(name)},
            {"evalue", utf8(colon > 0 ? last.mid(colon + 2) : QString())},
            {"traceback", trace}};
}

// An `error` output for a run that failed without a traceback (a shell command's exit code,
// a timeout, the memory limit, a stop).
Json errorFromStatus(const QString &status, int exitCode, bool shell)
{
    QString name = QStringLiteral("Error");
    QString value = QStringLiteral("the run ended: %1, exit code %2").arg(status).arg(exitCode);
    if (status == QLatin1String("timeout")) {
        name = QStringLiteral("TimeoutError");
        value = QStringLiteral("the run took longer than its time limit");
    } else if (status == QLatin1String("out_of_memory")) {
        name = QStringLiteral("MemoryError");
        value = QStringLiteral("the run was stopped at the sandbox's memory limit");
    } else if (status == QLatin1String("killed")) {
        name = QStringLiteral("KeyboardInterrupt");
        value = QStringLiteral("the run was stopped");
    } else if (shell) {
        name = QStringLiteral("CalledProcessError");
        value = QStringLiteral("bash exited with status %1").arg(exitCode);
    }
    return {{"output_type", "error"},
            {"ename", utf8(name)},
            {"evalue", utf8(value)},
            {"traceback", Json::array({utf8(name + QStringLiteral(": ") + value)})}};
}

QStringList resultFiles(const nlohmann::json &result)
{
    QStringList files;
    const nlohmann::json &list = jsonField(result, "files");
    if (list.is_array()) {
        for (const auto &f : list) {
            if (f.is_string())
                files << QString::fromStdString(f.get<std::string>());
        }
    }
    return files;
}

nlohmann::json parsed(const QString &text)
{
    return nlohmann::json::parse(text.toStdString(), nullptr, false);
}

// A short Markdown line for a tool call that is not a run (the file tools and the rest).
QString toolMarkdown(const QString &name, const nlohmann::json &args)
{
    QString line = QStringLiteral("**%1**").arg(name);
    for (const char *key : {"path", "pattern", "glob"}) {
        const QString value = jsonString(args, key);
        if (!value.isEmpty())
            line += QStringLiteral(" `%1`").arg(
                QString(value).replace(QLatin1Char('`'), QLatin1Char('\'')).simplified());
    }
    if (name == QLatin1String("install_packages"))
        line += QLatin1Char(' ') + QString::fromStdString(args.dump());
    return line + QStringLiteral(" (a Sandcastle tool; not re-run with the code cells)");
}

// Builds the cells in order, numbering the runs.
class Builder
{
public:
    explicit Builder(const QHash<QString, Image> &images)
        : m_images(images)
    {}

    void markdown(const QString &text)
    {
        Json cell = {{"cell_type", "markdown"}, {"id", nextId()}, {"metadata", Json::object()}};
        cell["source"] = lines(text);
        m_cells.push_back(std::move(cell));
    }

    void code(const QString &source, Json outputs, bool ran, Json sandcastle)
    {
        Json cell = {{"cell_type", "code"},
                     {"execution_count", ran ? Json(++m_count) : Json(nullptr)},
                     {"id", nextId()},
                     {"metadata", {{"sandcastle", std::move(sandcastle)}}},
                     {"outputs", std::move(outputs)}};
        cell["source"] = lines(source);
        m_cells.push_back(std::move(cell));
    }

    void images(const QStringList &files, Json &outputs) const
    {
        for (const QString &f : files) {
            const auto it = m_images.constFind(f);
            if (it == m_images.constEnd())
                continue;
            outputs.push_back({{"output_type", "display_data"},
                               {"data",
                                {{utf8(it->mime), utf8(QString::fromLatin1(it->bytes.toBase64()))},
                                 {"text/plain", Json::array({utf8(f)})}}},
                               {"metadata", {{"sandcastle", {{"path", utf8(f)}}}}}});
        }
    }

    Json cells() const { return m_cells; }

private:
    std::string nextId() { return utf8(QStringLiteral("cell-%1").arg(++m_id)); }

    const QHash<QString, Image> &m_images;
    Json m_cells = Json::array();
    int m_count = 0;
    int m_id = 0;
};

// The outputs of an agent's run from its tool result.
Json agentOutputs(const Builder &builder, const nlohmann::json &result, bool shell)
{
    Json outputs = Json::array();
    if (!result.is_object())
        return outputs;
    const QString out = jsonString(result, "stdout");
    const QString err = jsonString(result, "stderr");
    if (!out.isEmpty())
        outputs.push_back(stream("stdout", out));
    if (!err.isEmpty())
        outputs.push_back(stream("stderr", err));
    if (jsonField(result, "truncated").is_boolean() && result["truncated"].get<bool>()) {
        const QString full = jsonString(result, "full_output");
        outputs.push_back(stream(
            "stderr",
            full.isEmpty() ? QStringLiteral("[Sandcastle: the output was cut]\n")
                           : QStringLiteral("[Sandcastle: the output was cut; all of it is in "
                                            "%1 in the workspace]\n")
                                 .arg(full)));
    }
    builder.images(resultFiles(result), outputs);
    const QString status = jsonString(result, "status");
    const QString error = jsonString(result, "error");
    if (!status.isEmpty() && status != QLatin1String("ok")) {
        outputs.push_back(
            error.contains(kTracebackStart)
                ? errorFromTraceback(error)
                : errorFromStatus(status, jsonInt(result, "exit_code").value_or(-1), shell));
        if (!error.isEmpty() && !error.contains(kTracebackStart))
            outputs.insert(outputs.end() - 1, stream("stderr", error));
    }
    return outputs;
}

// The outputs of the person's run from its stored tail (stdout, stderr and the traceback
// together, in that order; "[...]" first when it was cut).
Json personOutputs(const Builder &builder, const StoredRun &run)
{
    Json outputs = Json::array();
    QString tail = run.outputTail;
    const bool cut = tail.startsWith(QStringLiteral("[...]\n"));
    if (cut)
        tail = tail.mid(6);
    const bool failed = run.status != QLatin1String("ok");
    const qsizetype traceback = failed ? tail.lastIndexOf(kTracebackStart) : -1;
    const QString printed = traceback >= 0 ? tail.left(traceback) : tail;
    if (cut)
        outputs.push_back(stream(
            "stderr",
            QStringLiteral("[Sandcastle: only the last %1 characters of the output were kept]\n")
                .arg(StoredRun::OutputTailChars)));
    if (!printed.isEmpty())
        outputs.push_back(stream("stdout", printed));
    builder.images(run.files, outputs);
    if (failed)
        outputs.push_back(traceback >= 0 ? errorFromTraceback(tail.mid(traceback))
                                         : errorFromStatus(run.status,
                                                           run.exitCode,
                                                           run.language == QLatin1String("shell")));
    return outputs;
}

QString cellSource(const QString &code, bool shell)
{
    return shell ? QStringLiteral("%%bash\n") + code : code;
}

// One tool call of the agent's: a code cell for a run, a Markdown line for the rest.
void addToolCall(Builder &builder,
                 const nlohmann::json &call,
                 const QHash<QString, nlohmann::json> &results)
{
    const nlohmann::json &fn = jsonField(call, "function");
    const QString name = jsonString(fn, "name");
    const QString id = jsonString(call, "id");
    const nlohmann::json args = nlohmann::json::parse(
        jsonField(fn, "arguments").is_string() ? fn["arguments"].get<std::string>() : "{}",
        nullptr,
        false);
    const bool shell = name == QLatin1String("run_shell");
    if (!args.is_object() || (name != QLatin1String("run_python") && !shell)) {
        builder.markdown(toolMarkdown(name, args.is_object() ? args : nlohmann::json::object()));
        return;
    }
    const auto result = results.constFind(id);
    const bool ran = result != results.constEnd();
    Json outputs = ran ? agentOutputs(builder, *result, shell) : Json::array();
    if (!ran)
        outputs.push_back(stream("stderr", QStringLiteral("[Sandcastle: this run did not end]\n")));
    builder.code(cellSource(jsonString(args, shell ? "command" : "code"), shell),
                 std::move(outputs),
                 ran,
                 {{"origin", "agent"},
                  {"tool_call_id", utf8(id)},
                  {"status", ran ? utf8(jsonString(*result, "status")) : "interrupted"}});
}

void addPersonRun(Builder &builder, const StoredRun &run)
{
    const bool shell = run.language == QLatin1String("shell");
    builder.markdown(QStringLiteral("**You** ran this in the editor:"));
    builder.code(cellSource(run.code, shell),
                 personOutputs(builder, run),
                 run.status != QLatin1String("running"),
                 {{"origin", "person"}, {"status", utf8(run.status)}});
}

void addMessage(Builder &builder,
                const nlohmann::json &m,
                const QHash<QString, nlohmann::json> &results)
{
    const QString role = jsonString(m, "role");
    const QString content = jsonString(m, "content");
    if (role == QLatin1String("user")) {
        builder.markdown(QStringLiteral("**You**\n\n") + content);
        return;
    }
    if (role != QLatin1String("assistant"))
        return; // tool results go with their calls
    const QString reasoning = jsonString(m, "reasoning");
    QString text;
    if (!reasoning.isEmpty())
        text += QStringLiteral("<details><summary>Reasoning</summary>\n\n") + reasoning
                + QStringLiteral("\n\n</details>\n\n");
    text += content;
    if (!text.trimmed().isEmpty())
        builder.markdown(QStringLiteral("**Sandcastle**\n\n") + text);
    const nlohmann::json &calls = jsonField(m, "tool_calls");
    if (calls.is_array()) {
        for (const auto &call : calls)
            addToolCall(builder, call, results);
    }
}

QHash<QString, nlohmann::json> toolResults(const nlohmann::json &messages)
{
    QHash<QString, nlohmann::json> results;
    for (const auto &m : messages) {
        if (jsonString(m, "role") == QLatin1String("tool"))
            results.insert(jsonString(m, "tool_call_id"), parsed(jsonString(m, "content")));
    }
    return results;
}

bool startsWith(const QByteArray &bytes, const char *magic)
{
    return bytes.startsWith(QByteArray(magic));
}

} // namespace

QString imageMime(const QString &path, const QByteArray &bytes)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".png")) && startsWith(bytes, "\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if ((lower.endsWith(QLatin1String(".jpg")) || lower.endsWith(QLatin1String(".jpeg")))
        && startsWith(bytes, "\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    if (lower.endsWith(QLatin1String(".gif"))
        && (startsWith(bytes, "GIF87a") || startsWith(bytes, "GIF89a")))
        return QStringLiteral("image/gif");
    return {};
}

QStringList imagePaths(const nlohmann::json &messages, const QList<StoredRun> &runs)
{
    QStringList paths;
    const auto add = [&paths](const QStringList &files) {
        for (const QString &f : files) {
            if (isImageFile(f) && !paths.contains(f))
                paths << f;
        }
    };
    for (const auto &m : messages) {
        if (jsonString(m, "role") == QLatin1String("tool"))
            add(resultFiles(parsed(jsonString(m, "content"))));
    }
    for (const StoredRun &run : runs) {
        if (run.origin == QLatin1String("person"))
            add(run.files);
    }
    return paths;
}

nlohmann::ordered_json notebook(const ConversationInfo &info,
                                const nlohmann::json &messages,
                                const QList<qint64> &messageTimes,
                                const QList<StoredRun> &runs,
                                const QHash<QString, Image> &images)
{
    Builder builder(images);
    builder.markdown(
        QStringLiteral("# %1\n\nSandcastle conversation `%2`, started %3.")
            .arg(info.title,
                 info.id,
                 QDateTime::fromMSecsSinceEpoch(info.createdMs).toString(Qt::ISODate)));
    const QHash<QString, nlohmann::json> results = toolResults(messages);
    QList<StoredRun> personRuns;
    for (const StoredRun &run : runs) {
        if (run.origin == QLatin1String("person"))
            personRuns << run;
    }
    const bool timed = messages.is_array() && qsizetype(messages.size()) == messageTimes.size();
    qsizetype nextRun = 0;
    qsizetype index = 0;
    for (const auto &m : messages) {
        // The person's runs that started before this message was saved come before it.
        while (timed && nextRun < personRuns.size()
               && personRuns[nextRun].startedMs < messageTimes[index])
            addPersonRun(builder, personRuns[nextRun++]);
        addMessage(builder, m, results);
        ++index;
    }
    while (nextRun < personRuns.size())
        addPersonRun(builder, personRuns[nextRun++]);

    return {{"cells", builder.cells()},
            {"metadata",
             {{"kernelspec",
               {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
              {"language_info", {{"name", "python"}}},
              {"sandcastle",
               {{"conversation_id", utf8(info.id)},
                {"title", utf8(info.title)},
                {"created_ms", info.createdMs}}}}},
            {"nbformat", 4},
            {"nbformat_minor", 5}};
}

Result<bool>
writeNotebook(const ConversationStore &store, const QString &conversationId, const QString &path)
{
    const Result<ConversationInfo> info = store.conversation(conversationId);
    const Result<nlohmann::json> messages = store.messages(conversationId);
    const Result<QList<qint64>> times = store.messageTimes(conversationId);
    const Result<QList<StoredRun>> runs = store.runs(conversationId);
    if (!info || !messages || !times || !runs)
        return Result<bool>::failure(!info       ? info.error()
                                     : !messages ? messages.error()
                                     : !times    ? times.error()
                                                 : runs.error());
    QHash<QString, Image> images;
    qint64 total = 0;
    for (const QString &image : imagePaths(messages.value(), runs.value())) {
        bool truncated = false;
        const Result<QByteArray> bytes
            = PathGuard::readFile(info.value().workspace, image, kMaxImageBytes, &truncated);
        if (!bytes || truncated || total + bytes.value().size() > kMaxImagesBytes)
            continue; // gone, a link, not a regular file, or too large: left out
        const QString mime = imageMime(image, bytes.value());
        if (mime.isEmpty())
            continue;
        total += bytes.value().size();
        images.insert(image, {mime, bytes.value()});
    }
    const Json book = notebook(info.value(), messages.value(), times.value(), runs.value(), images);
    const QByteArray text
        = QByteArray::fromStdString(book.dump(1, ' ', false, Json::error_handler_t::replace))
          + '\n';
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit())
        return Result<bool>::failure(
            QStringLiteral("could not write %1: %2").arg(path, file.errorString()));
    return Result<bool>::ok(true);
}

} // namespace Sandcastle::NotebookExport
