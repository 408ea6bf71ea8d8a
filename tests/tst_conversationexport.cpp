#include <app/store/conversationexport.h>
#include <app/store/conversationstore.h>
#include <support/storedmessages.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::toolCallMessage;

namespace {

QString readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(file.readAll());
}

void writeText(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

} // namespace

class TestConversationExport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    ConversationStore m_store;
    QString m_workspace;
    QString m_secretOutside;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_store.open(m_dir.filePath(QStringLiteral("store.sqlite3"))));
        m_workspace = m_dir.filePath(QStringLiteral("ws"));
        m_secretOutside = m_dir.filePath(QStringLiteral("outside/secret.txt"));
        writeText(m_secretOutside, "TOP-SECRET-HOST-FILE");
        writeText(m_workspace + QStringLiteral("/data.csv"), "a,b\n1,2\n");
        writeText(m_workspace + QStringLiteral("/outputs/chart.png"), "\x89PNG fake");
        writeText(m_workspace + QStringLiteral("/.sandcastle/run-1.log"), "log");
        QVERIFY(QFile::link(m_secretOutside, m_workspace + QStringLiteral("/leak.txt")));
        QVERIFY(QFile::link(QFileInfo(m_secretOutside).absolutePath(),
                            m_workspace + QStringLiteral("/leakdir")));

        QVERIFY(
            m_store.create(QStringLiteral("cv"), QStringLiteral("CSV summary"), m_workspace, true));
        const std::string tricky = "print('```not the end```')\nx = 1";
        for (
            const nlohmann::json &m :
            {nlohmann::json{{"role", "user"}, {"content", "Summarise data.csv"}},
             toolCallMessage("c1", "run_python", {{"code", tricky}}),
             nlohmann::json{
                 {"role", "tool"},
                 {"tool_call_id", "c1"},
                 {"content",
                  R"({"status":"ok","exit_code":0,"stdout":"```not the end```\n","files":["outputs/chart.png"],"duration_ms":12})"}},
             toolCallMessage("c2", "run_shell", {{"command", "ls"}}),
             nlohmann::json{{"role", "tool"}, {"tool_call_id", "c2"}, {"content", "not json"}},
             nlohmann::json{
                 {"role", "assistant"}, {"content", "Done: mean is 1."}, {"reasoning", "hmm"}}}) {
            QVERIFY(m_store.addMessage(QStringLiteral("cv"), m));
        }
        auto addRun = [&](const QString &code,
                          const QString &language,
                          const QString &origin,
                          ExecutionResult::Status status) {
            StoredRun run;
            run.conversationId = QStringLiteral("cv");
            run.code = code;
            run.language = language;
            run.origin = origin;
            const Result<qint64> id = m_store.beginRun(run);
            QVERIFY(id);
            ExecutionResult result;
            result.status = status;
            result.exitCode = status == ExecutionResult::Status::Ok ? 0 : 1;
            result.stdoutText = QStringLiteral("out of ") + code.left(10);
            QVERIFY(m_store.finishRun(id.value(), result));
        };
        addRun(QString::fromStdString(tricky),
               QStringLiteral("python"),
               QStringLiteral("agent"),
               ExecutionResult::Status::Ok);
        addRun(QStringLiteral("raise SystemExit(3)"),
               QStringLiteral("python"),
               QStringLiteral("agent"),
               ExecutionResult::Status::Error);
        addRun(QStringLiteral("echo 'hi there' > shell.txt"),
               QStringLiteral("shell"),
               QStringLiteral("agent"),
               ExecutionResult::Status::Ok);
        addRun(QStringLiteral("print(x + 1)"),
               QStringLiteral("python"),
               QStringLiteral("person"),
               ExecutionResult::Status::Ok);
    }

    void markdownShowsEveryTurnAndCodeCannotBreakItsFence()
    {
        const QString md
            = ConversationExport::markdown(m_store.conversation(QStringLiteral("cv")).value(),
                                           m_store.messages(QStringLiteral("cv")).value(),
                                           m_store.runs(QStringLiteral("cv")).value());
        QVERIFY(md.startsWith(QStringLiteral("# CSV summary\n")));
        QVERIFY(md.contains(QStringLiteral("## You\n\nSummarise data.csv")));
        QVERIFY(md.contains(QStringLiteral("Done: mean is 1.")));
        QVERIFY(md.contains(QStringLiteral("<summary>Reasoning</summary>")));
        // Code holding a triple backtick gets a longer fence.
        QVERIFY(md.contains(QStringLiteral("````python\nprint('```not the end```')\nx = 1\n````")));
        QVERIFY(md.contains(QStringLiteral("Result: **ok**, exit code 0, 12 ms")));
        QVERIFY(md.contains(QStringLiteral("Files: `outputs/chart.png`")));
        QVERIFY(md.contains(QStringLiteral("```bash\nls\n```")));
        QVERIFY(md.contains(QStringLiteral("not json"))); // shown as it was
        QVERIFY(md.contains(QStringLiteral("## Runs by the person")));
        QVERIFY(md.contains(QStringLiteral("print(x + 1)")));
    }

    // The images the runs made travel with the export: beside the Markdown file, and from the
    // bundle's copy of the workspace; a link planted in place of an image is not followed.
    void exportsCarryTheRunsImages()
    {
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("report.md"));
        QVERIFY(ConversationExport::writeMarkdown(m_store, QStringLiteral("cv"), path));
        const QString md = readAll(path);
        QVERIFY2(
            md.contains(QStringLiteral("![outputs/chart.png](<report_files/outputs/chart.png>)")),
            qPrintable(md));
        QFile copy(out.filePath(QStringLiteral("report_files/outputs/chart.png")));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("\x89PNG fake"));
        QCOMPARE(ConversationExport::imagesIn(m_store.messages(QStringLiteral("cv")).value()),
                 QStringList{QStringLiteral("outputs/chart.png")});

        const QString bundle = out.filePath(QStringLiteral("bundle"));
        QVERIFY(ConversationExport::bundle(m_store, QStringLiteral("cv"), bundle));
        QVERIFY(
            readAll(bundle + QStringLiteral("/transcript.md"))
                .contains(QStringLiteral("![outputs/chart.png](<workspace/outputs/chart.png>)")));

        // The image replaced by a link to a host file: no picture, and nothing read through it.
        ConversationStore store;
        QTemporaryDir data;
        QVERIFY(store.open(data.filePath(QStringLiteral("store.sqlite3"))));
        const QString ws = data.filePath(QStringLiteral("ws"));
        QVERIFY(QDir().mkpath(ws + QStringLiteral("/outputs")));
        QVERIFY(QFile::link(m_secretOutside, ws + QStringLiteral("/outputs/chart.png")));
        QVERIFY(store.create(QStringLiteral("lk"), QStringLiteral("Linked"), ws, true));
        QVERIFY(store.addMessage(
            QStringLiteral("lk"),
            nlohmann::json{{"role", "tool"},
                           {"tool_call_id", "c1"},
                           {"content", R"({"status":"ok","files":["outputs/chart.png"]})"}}));
        const QString linked = out.filePath(QStringLiteral("linked.md"));
        QVERIFY(ConversationExport::writeMarkdown(store, QStringLiteral("lk"), linked));
        QVERIFY(!readAll(linked).contains(QStringLiteral("![")));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("linked_files/outputs/chart.png"))));
    }

    void theBundleHoldsTranscriptRunsReplayAndWorkspaceButNoHostFile()
    {
        const QString target = m_dir.filePath(QStringLiteral("export1"));
        const Result<QStringList> written
            = ConversationExport::bundle(m_store, QStringLiteral("cv"), target);
        QVERIFY2(written, qPrintable(written.error()));
        for (const QString &file : {QStringLiteral("README.md"),
                                    QStringLiteral("transcript.md"),
                                    QStringLiteral("transcript.json"),
                                    QStringLiteral("replay.py"),
                                    QStringLiteral("runs/001-python.py"),
                                    QStringLiteral("runs/001-output.txt"),
                                    QStringLiteral("runs/002-python.py"),
                                    QStringLiteral("runs/003-shell.sh"),
                                    QStringLiteral("runs/004-python.py"),
                                    QStringLiteral("workspace/data.csv"),
                                    QStringLiteral("workspace/outputs/chart.png")}) {
            QVERIFY2(QFileInfo::exists(target + QLatin1Char('/') + file), qPrintable(file));
            QVERIFY2(written.value().contains(file), qPrintable(file));
        }
        QCOMPARE(readAll(target + QStringLiteral("/workspace/data.csv")),
                 QStringLiteral("a,b\n1,2\n"));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral("/workspace/.sandcastle")));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral("/workspace/leak.txt")));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral("/workspace/leakdir")));
        QDirIterator it(target, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QVERIFY2(!QFileInfo(path).isSymLink(), qPrintable(path));
            QVERIFY2(!readAll(path).contains(QStringLiteral("TOP-SECRET")), qPrintable(path));
        }
        const QString readme = readAll(target + QStringLiteral("/README.md"));
        QVERIFY(readme.contains(QStringLiteral("sandcastle exec --workspace workspace replay.py")));
        QVERIFY(readme.contains(QStringLiteral("leak.txt (a symbolic link)")));

        // Only the runs that succeeded are replayed, in order; shell runs through bash.
        const QString replay = readAll(target + QStringLiteral("/replay.py"));
        const qsizetype first = replay.indexOf(QStringLiteral("x = 1"));
        const qsizetype shell = replay.indexOf(QStringLiteral("\"echo 'hi there' > shell.txt\""));
        const qsizetype person = replay.indexOf(QStringLiteral("print(x + 1)"));
        QVERIFY(first > 0 && shell > first && person > shell);
        QVERIFY(!replay.contains(QStringLiteral("SystemExit(3)")));
        QCOMPARE(readAll(target + QStringLiteral("/runs/002-python.py")),
                 QStringLiteral("raise SystemExit(3)"));
        QVERIFY(readAll(target + QStringLiteral("/runs/004-output.txt"))
                    .startsWith(QStringLiteral("# run 4 by the person: ok")));

        const nlohmann::json transcript = nlohmann::json::parse(
            readAll(target + QStringLiteral("/transcript.json")).toStdString(), nullptr, false);
        QVERIFY(transcript.is_object());
        QCOMPARE(transcript["messages"].size(), size_t(6));
        QCOMPARE(transcript["runs"].size(), size_t(4));
        QCOMPARE(transcript["runs"][1]["status"].get<std::string>(), std::string("error"));
    }

    void theReplayIsValidPython()
    {
        const QString target = m_dir.filePath(QStringLiteral("export-py"));
        QVERIFY(ConversationExport::bundle(m_store, QStringLiteral("cv"), target));
        QProcess python;
        python.start(QStringLiteral("python3"),
                     {QStringLiteral("-c"),
                      QStringLiteral("import ast,sys; ast.parse(open(sys.argv[1]).read())"),
                      target + QStringLiteral("/replay.py")});
        QVERIFY(python.waitForFinished(30000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    }

    void aFolderThatIsNotEmptyIsNeverOverwritten()
    {
        const QString target = m_dir.filePath(QStringLiteral("busy"));
        writeText(target + QStringLiteral("/mine.txt"), "keep me");
        const Result<QStringList> written
            = ConversationExport::bundle(m_store, QStringLiteral("cv"), target);
        QVERIFY(!written);
        QVERIFY(written.error().contains(QStringLiteral("not empty")));
        QCOMPARE(readAll(target + QStringLiteral("/mine.txt")), QStringLiteral("keep me"));
        QCOMPARE(QDir(target).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 1);
        QVERIFY(!ConversationExport::bundle(
            m_store, QStringLiteral("nope"), m_dir.filePath(QStringLiteral("n"))));
    }
};

QTEST_GUILESS_MAIN(TestConversationExport)
#include "tst_conversationexport.moc"
