#include "conversationexport.h"

#include <base/imagefiles.h>
#include <base/jsonfields.h>
#include <sandbox/pathguard.h>

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSaveFile>

#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle::ConversationExport {

namespace {

// A fence longer than any run of backticks inside, so that code cannot end its block early.
QString fenced(const QString &text, const QString &language = QString())
{
    int longest = 0;
    int run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = qMax(longest, run);
    }
    const QString fence(qMax(3, longest + 1), QLatin1Char('`'));
    QString body = text;
    if (!body.endsWith(QLatin1Char('\n')))
        body += QLatin1Char('\n');
    return fence + language + QLatin1Char('\n') + body + fence + QLatin1Char('\n');
}

QString toolCallMarkdown(const nlohmann::json &call)
{
    const nlohmann::json fn = call.value("function", nlohmann::json::object());
    const QString name = jsonString(fn, "name");
    const nlohmann::json args
        = nlohmann::json::parse(fn.value("arguments", std::string()), nullptr, false);
    if (!args.is_object())
        return QStringLiteral("**%1** (arguments that were not JSON)\n\n").arg(name)
               + fenced(jsonString(fn, "arguments"));
    if (name == QLatin1String("run_python"))
        return QStringLiteral("**run_python**\n\n")
               + fenced(jsonString(args, "code"), QStringLiteral("python"));
    if (name == QLatin1String("run_shell"))
        return QStringLiteral("**run_shell**\n\n")
               + fenced(jsonString(args, "command"), QStringLiteral("bash"));
    if (name == QLatin1String("write_file"))
        return QStringLiteral("**write_file** `%1`\n\n").arg(jsonString(args, "path"))
               + fenced(jsonString(args, "content"));
    if (name == QLatin1String("read_file") || name == QLatin1String("list_files"))
        return QStringLiteral("**%1** `%2`\n\n").arg(name, jsonString(args, "path"));
    return QStringLiteral("**%1**\n\n").arg(name)
           + fenced(QString::fromStdString(args.dump(2)), QStringLiteral("json"));
}

QStringList filesOfResult(const nlohmann::json &result)
{
    QStringList files;
    if (result.is_object() && result.contains("files") && result["files"].is_array())
        for (const auto &f : result["files"])
            if (f.is_string())
                files << QString::fromStdString(f.get<std::string>());
    return files;
}

QString toolResultMarkdown(const QString &content, const ImageLinks &images)
{
    const nlohmann::json result = nlohmann::json::parse(content.toStdString(), nullptr, false);
    if (!result.is_object())
        return QStringLiteral("Result:\n\n") + fenced(content, QStringLiteral("text"));
    QString out = QStringLiteral("Result: **%1**").arg(jsonString(result, "status"));
    if (result.contains("exit_code") && result["exit_code"].is_number_integer())
        out += QStringLiteral(", exit code %1").arg(result["exit_code"].get<int>());
    if (result.contains("duration_ms") && result["duration_ms"].is_number_integer())
        out += QStringLiteral(", %1 ms").arg(result["duration_ms"].get<qint64>());
    out += QStringLiteral("\n\n");
    QString text = jsonString(result, "stdout");
    for (const char *key : {"stderr", "error", "content", "summary", "note"}) {
        const QString more = jsonString(result, key);
        if (!more.isEmpty())
            text += (text.isEmpty() || text.endsWith(QLatin1Char('\n')) ? QString()
                                                                        : QStringLiteral("\n"))
                    + more;
    }
    if (!text.isEmpty())
        out += fenced(text, QStringLiteral("text"));
    const QStringList files = filesOfResult(result);
    if (!files.isEmpty()) {
        QStringList quoted;
        for (const QString &f : files)
            quoted << QStringLiteral("`%1`").arg(f);
        out += QStringLiteral("\nFiles: ") + quoted.join(QStringLiteral(", ")) + QLatin1Char('\n');
        for (const QString &f : files) {
            if (isImageFile(f) && images.available.contains(f))
                out += QStringLiteral("\n![%1](<%2/%1>)\n").arg(f, images.folder);
        }
    }
    return out;
}

Result<bool> writeFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Result<bool>::failure(
            QStringLiteral("could not write %1: %2").arg(path, file.errorString()));
    return Result<bool>::ok(true);
}

// Copies one file of the workspace to `destination` through PathGuard (a link is never
// followed). An error says why; `fatal` is set when it was the destination that failed.
Result<bool> copyInside(const QString &root,
                        const QString &relative,
                        const QString &destination,
                        bool *fatal = nullptr)
{
    const Result<int> fd = PathGuard::openInside(root, relative, O_RDONLY);
    if (!fd)
        return Result<bool>::failure(fd.error());
    QFile in;
    if (!in.open(fd.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd.value());
        return Result<bool>::failure(QStringLiteral("unreadable"));
    }
    QDir().mkpath(QFileInfo(destination).absolutePath());
    QFile out(destination);
    const auto cannotWrite = [&] {
        if (fatal)
            *fatal = true;
        return Result<bool>::failure(
            QStringLiteral("could not write %1: %2").arg(destination, out.errorString()));
    };
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return cannotWrite();
    while (!in.atEnd()) {
        const QByteArray chunk = in.read(1 << 20);
        if (chunk.isEmpty() && in.error() != QFileDevice::NoError)
            break;
        if (out.write(chunk) != chunk.size())
            return cannotWrite();
    }
    return Result<bool>::ok(true);
}

// Copies the workspace's regular files through PathGuard: a symlink (to a host file or
// folder) is never followed, whatever the code in the sandbox planted.
Result<QStringList> copyWorkspace(const QString &root, const QString &target, QStringList *skipped)
{
    QStringList copied;
    if (root.isEmpty() || !QFileInfo(root).isDir())
        return Result<QStringList>::ok(copied);
    QDirIterator it(root,
                    QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        const QString relative = QDir(root).relativeFilePath(info.filePath());
        if (relative == QLatin1String(".sandcastle")
            || relative.startsWith(QLatin1String(".sandcastle/")))
            continue;
        if (info.isSymLink()) {
            *skipped << relative + QStringLiteral(" (a symbolic link)");
            continue;
        }
        if (info.isDir())
            continue;
        if (!info.isFile()) {
            *skipped << relative + QStringLiteral(" (not a regular file)");
            continue;
        }
        bool fatal = false;
        const Result<bool> one
            = copyInside(root, relative, target + QLatin1Char('/') + relative, &fatal);
        if (!one) {
            if (fatal)
                return Result<QStringList>::failure(one.error());
            *skipped << relative + QStringLiteral(" (") + one.error() + QLatin1Char(')');
            continue;
        }
        copied << QStringLiteral("workspace/") + relative;
    }
    return Result<QStringList>::ok(copied);
}

QString pythonStringLiteral(const QString &text)
{
    // A JSON string is a valid Python string literal.
    return QString::fromStdString(nlohmann::json(text.toStdString()).dump());
}

} // namespace

QStringList imagesIn(const nlohmann::json &messages)
{
    QStringList images;
    for (const auto &m : messages) {
        if (jsonString(m, "role") != QLatin1String("tool"))
            continue;
        const nlohmann::json result
            = nlohmann::json::parse(jsonString(m, "content").toStdString(), nullptr, false);
        for (const QString &f : filesOfResult(result)) {
            if (isImageFile(f) && !images.contains(f))
                images << f;
        }
    }
    return images;
}

QString markdown(const ConversationInfo &info,
                 const nlohmann::json &messages,
                 const QList<StoredRun> &runs,
                 const ImageLinks &images)
{
    QString out = QStringLiteral("# %1\n\n").arg(info.title);
    out += QStringLiteral("Sandcastle conversation `%1`, started %2.\n\n")
               .arg(info.id, QDateTime::fromMSecsSinceEpoch(info.createdMs).toString(Qt::ISODate));
    for (const auto &m : messages) {
        const QString role = jsonString(m, "role");
        const QString content = jsonString(m, "content");
        if (role == QLatin1String("user")) {
            out += QStringLiteral("## You\n\n") + content + QStringLiteral("\n\n");
        } else if (role == QLatin1String("assistant")) {
            out += QStringLiteral("## Sandcastle\n\n");
            const QString reasoning = jsonString(m, "reasoning");
            if (!reasoning.isEmpty())
                out += QStringLiteral("<details><summary>Reasoning</summary>\n\n") + reasoning
                       + QStringLiteral("\n\n</details>\n\n");
            if (!content.isEmpty())
                out += content + QStringLiteral("\n\n");
            if (m.contains("tool_calls") && m["tool_calls"].is_array())
                for (const auto &call : m["tool_calls"])
                    out += toolCallMarkdown(call) + QLatin1Char('\n');
        } else if (role == QLatin1String("tool")) {
            out += toolResultMarkdown(content, images) + QLatin1Char('\n');
        }
    }
    const qsizetype personRuns = std::count_if(runs.begin(), runs.end(), [](const StoredRun &r) {
        return r.origin == QLatin1String("person");
    });
    if (personRuns > 0) {
        out += QStringLiteral("## Runs by the person\n\n");
        for (const StoredRun &run : runs) {
            if (run.origin != QLatin1String("person"))
                continue;
            out += QStringLiteral("Run %1: **%2**, exit code %3\n\n")
                       .arg(run.id)
                       .arg(run.status)
                       .arg(run.exitCode)
                   + fenced(run.code,
                            run.language == QLatin1String("shell") ? QStringLiteral("bash")
                                                                   : QStringLiteral("python"));
            if (!run.outputTail.isEmpty())
                out += QLatin1Char('\n') + fenced(run.outputTail, QStringLiteral("text"));
            out += QLatin1Char('\n');
        }
    }
    return out;
}

namespace {
// A stored conversation, whole.
struct Stored
{
    ConversationInfo info;
    nlohmann::json messages;
    QList<StoredRun> runs;
};

Result<Stored> readStored(const ConversationStore &store, const QString &conversationId)
{
    const Result<ConversationInfo> info = store.conversation(conversationId);
    const Result<nlohmann::json> messages = store.messages(conversationId);
    const Result<QList<StoredRun>> runs = store.runs(conversationId);
    if (!info || !messages || !runs)
        return Result<Stored>::failure(!info       ? info.error()
                                       : !messages ? messages.error()
                                                   : runs.error());
    return Result<Stored>::ok({info.value(), messages.value(), runs.value()});
}
} // namespace

Result<QString> markdown(const ConversationStore &store, const QString &conversationId)
{
    const Result<Stored> stored = readStored(store, conversationId);
    if (!stored)
        return Result<QString>::failure(stored.error());
    const Stored &c = stored.value();
    return Result<QString>::ok(markdown(c.info, c.messages, c.runs));
}

Result<bool>
writeMarkdown(const ConversationStore &store, const QString &conversationId, const QString &path)
{
    const Result<Stored> stored = readStored(store, conversationId);
    if (!stored)
        return Result<bool>::failure(stored.error());
    const Stored &c = stored.value();
    ImageLinks images{QFileInfo(path).completeBaseName() + QStringLiteral("_files"), {}};
    const QString folder = QFileInfo(path).absolutePath() + QLatin1Char('/') + images.folder;
    for (const QString &image : imagesIn(c.messages)) {
        if (copyInside(c.info.workspace, image, folder + QLatin1Char('/') + image))
            images.available.insert(image);
    }
    return writeFile(path, markdown(c.info, c.messages, c.runs, images).toUtf8());
}

namespace {

// Writes the files of an export folder, remembering each one written.
class BundleWriter
{
public:
    explicit BundleWriter(const QString &targetDir)
        : m_dir(targetDir)
    {}

    bool write(const QString &relative, const QByteArray &bytes)
    {
        const Result<bool> ok = writeFile(m_dir + QLatin1Char('/') + relative, bytes);
        if (ok)
            m_written << relative;
        return ok.isOk();
    }
    Result<QStringList> failure(const QString &relative) const
    {
        return Result<QStringList>::failure(
            QStringLiteral("could not write %1 in %2").arg(relative, m_dir));
    }
    QStringList &written() { return m_written; }

private:
    QString m_dir;
    QStringList m_written;
};

// The first line of a run's output file: who ran it and how it ended.
QString runHeader(int number, const StoredRun &run)
{
    return QStringLiteral("# run %1 by the %2: %3, exit code %4, %5 ms%6\n")
        .arg(number)
        .arg(run.origin == QLatin1String("person") ? QStringLiteral("person")
                                                   : QStringLiteral("agent"))
        .arg(run.status)
        .arg(run.exitCode)
        .arg(run.durationMs)
        .arg(run.files.isEmpty()
                 ? QString()
                 : QStringLiteral(", files: ") + run.files.join(QStringLiteral(", ")));
}

// The run's entry in transcript.json, keys in this order.
nlohmann::ordered_json
runEntry(int number, const StoredRun &run, const QString &codeFile, const QString &outputFile)
{
    nlohmann::json files = nlohmann::json::array();
    for (const QString &f : run.files)
        files.push_back(f.toStdString());
    return {{"number", number},
            {"code_file", codeFile.toStdString()},
            {"output_file", outputFile.toStdString()},
            {"language", run.language.toStdString()},
            {"origin", run.origin.toStdString()},
            {"tool_call_id", run.toolCallId.toStdString()},
            {"status", run.status.toStdString()},
            {"exit_code", run.exitCode},
            {"duration_ms", run.durationMs},
            {"files", files}};
}

// A run's part of replay.py: Python as it was, shell through subprocess.
QString replayPart(int number, const StoredRun &run, const QString &codeFile)
{
    QString part = QStringLiteral("# --- run %1 (%2) ---\n").arg(number).arg(codeFile);
    if (run.language == QLatin1String("shell"))
        return part
               + QStringLiteral("_sandcastle_subprocess.run(%1, shell=True, check=True, "
                                "executable=\"/bin/bash\")\n\n")
                     .arg(pythonStringLiteral(run.code));
    return part + run.code
           + (run.code.endsWith(QLatin1Char('\n')) ? QStringLiteral("\n") : QStringLiteral("\n\n"));
}

// Each run as runs/NNN-<language>.<ext> and runs/NNN-output.txt, listed in the transcript's
// "runs"; those that succeeded go into replay.py (`replayed` counts them). Returns the file
// that could not be written, or nothing.
QString writeRuns(BundleWriter &out,
                  const QList<StoredRun> &runs,
                  nlohmann::ordered_json &transcript,
                  QString &replay,
                  int &replayed)
{
    int number = 0;
    for (const StoredRun &run : runs) {
        ++number;
        const bool shell = run.language == QLatin1String("shell");
        const QString stem = QStringLiteral("runs/%1-%2")
                                 .arg(number, 3, 10, QLatin1Char('0'))
                                 .arg(shell ? QStringLiteral("shell") : QStringLiteral("python"));
        QString codeFile = stem + (shell ? QStringLiteral(".sh") : QStringLiteral(".py"));
        QString outputFile
            = QStringLiteral("runs/%1-output.txt").arg(number, 3, 10, QLatin1Char('0'));
        if (!out.write(codeFile, run.code.toUtf8()))
            return codeFile;
        if (!out.write(outputFile, (runHeader(number, run) + run.outputTail).toUtf8()))
            return outputFile;
        transcript["runs"].push_back(runEntry(number, run, codeFile, outputFile));
        if (run.status != QLatin1String("ok"))
            continue;
        ++replayed;
        replay += replayPart(number, run, codeFile);
    }
    return {};
}

QString bundleReadme(const ConversationInfo &info, int replayed, const QStringList &skipped)
{
    QString readme
        = QStringLiteral("# %1\n\n"
                         "An export of the Sandcastle conversation `%2`: everything needed to "
                         "read it and to run its code again.\n\n"
                         "- `transcript.md`, `transcript.json`: the conversation (messages and "
                         "runs; no settings and no API key).\n"
                         "- `runs/`: each run's code as a numbered file, with its output in "
                         "`NNN-output.txt` (the first line says who ran it and how it ended).\n"
                         "- `workspace/`: the files of the conversation's workspace as they were "
                         "at export.\n"
                         "- `replay.py`: the %3 run(s) that succeeded, in order, as one "
                         "program.\n\n"
                         "## Run it again\n\n"
                         "From this folder, in the same kind of sandbox the agent used:\n\n"
                         "```sh\n"
                         "sandcastle exec --workspace workspace replay.py\n"
                         "```\n\n"
                         "Its files (charts, tables) appear in `workspace/` again. One run on "
                         "its own (a run may need variables an earlier run made):\n\n"
                         "```sh\n"
                         "sandcastle exec --workspace workspace runs/001-python.py\n"
                         "```\n")
              .arg(info.title, info.id)
              .arg(replayed);
    if (!skipped.isEmpty())
        readme += QStringLiteral("\n## Left out of `workspace/`\n\n- ")
                  + skipped.join(QStringLiteral("\n- ")) + QLatin1Char('\n');
    return readme;
}

} // namespace

Result<QStringList>
bundle(const ConversationStore &store, const QString &conversationId, const QString &targetDir)
{
    const Result<Stored> stored = readStored(store, conversationId);
    if (!stored)
        return Result<QStringList>::failure(stored.error());
    const Stored &c = stored.value();

    QDir dir(targetDir);
    if (dir.exists() && !dir.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden))
        return Result<QStringList>::failure(
            QStringLiteral("%1 is not empty; choose a new folder for the export").arg(targetDir));
    if (!QDir().mkpath(targetDir + QStringLiteral("/runs")))
        return Result<QStringList>::failure(QStringLiteral("could not create %1").arg(targetDir));

    BundleWriter out(targetDir);
    // The workspace first: the transcript shows the runs' images from its copy.
    QStringList skipped;
    const Result<QStringList> copied
        = copyWorkspace(c.info.workspace, targetDir + QStringLiteral("/workspace"), &skipped);
    if (!copied)
        return Result<QStringList>::failure(copied.error());
    QDir().mkpath(targetDir + QStringLiteral("/workspace"));
    out.written() << copied.value();
    ImageLinks images{QStringLiteral("workspace"), {}};
    for (const QString &file : copied.value())
        images.available.insert(file.mid(QStringLiteral("workspace/").size()));
    if (!out.write(QStringLiteral("transcript.md"),
                   markdown(c.info, c.messages, c.runs, images).toUtf8()))
        return out.failure(QStringLiteral("transcript.md"));

    nlohmann::ordered_json transcript = {{"id", c.info.id.toStdString()},
                                         {"title", c.info.title.toStdString()},
                                         {"created_ms", c.info.createdMs},
                                         {"messages", c.messages},
                                         {"runs", nlohmann::ordered_json::array()}};
    QString replay = QStringLiteral(
        "# The code of this conversation that ran without an error, in order, as one program.\n"
        "# The agent's Python kernel kept variables from one run to the next, so the runs\n"
        "# share one process here too. Re-run it from the export folder with:\n"
        "#   sandcastle exec --workspace workspace replay.py\n"
        "import subprocess as _sandcastle_subprocess\n\n");
    int replayed = 0;
    const QString unwritten = writeRuns(out, c.runs, transcript, replay, replayed);
    if (!unwritten.isEmpty())
        return out.failure(unwritten);
    if (!out.write(QStringLiteral("transcript.json"),
                   QByteArray::fromStdString(
                       transcript.dump(2, ' ', false, nlohmann::json::error_handler_t::replace))
                       + '\n'))
        return out.failure(QStringLiteral("transcript.json"));
    if (!out.write(QStringLiteral("replay.py"), replay.toUtf8()))
        return out.failure(QStringLiteral("replay.py"));

    if (!out.write(QStringLiteral("README.md"), bundleReadme(c.info, replayed, skipped).toUtf8()))
        return out.failure(QStringLiteral("README.md"));
    return Result<QStringList>::ok(out.written());
}

} // namespace Sandcastle::ConversationExport
