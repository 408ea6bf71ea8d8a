#include <support/clirunner.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/nbformatcheck.h>
#include <support/personsfolder.h>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::CliRun;
using Sandcastle::Testing::FakeOpenAiServer;

namespace {

using Json = nlohmann::json;

std::string joined(const Json &lines)
{
    if (lines.is_string())
        return lines.get<std::string>();
    std::string text;
    for (const auto &line : lines)
        text += line.get<std::string>();
    return text;
}

// What a code cell's outputs say in text: its stdout, and "Name: value" of its error.
struct CellText
{
    std::string out;
    std::string error;
};

CellText textOf(const Json &cell)
{
    CellText text;
    for (const auto &output : cell["outputs"]) {
        const std::string type = output.value("output_type", std::string());
        if (type == "stream" && output.value("name", std::string()) == "stdout")
            text.out += joined(output["text"]);
        else if (type == "error")
            text.error
                = output["ename"].get<std::string>() + ": " + output["evalue"].get<std::string>();
    }
    return text;
}

// The code cells as one Python program that runs each in turn in one namespace (as the kernel
// did), marking where each begins and how it failed.
QByteArray replayProgram(const QList<std::string> &sources)
{
    QByteArray program = "_cells = [\n";
    for (const std::string &source : sources)
        program += QByteArray::fromStdString(Json(source).dump()) + ",\n";
    program += "]\n"
               "_names = {'__name__': '__main__'}\n"
               "for _i, _source in enumerate(_cells):\n"
               "    print('@@cell %d' % _i, flush=True)\n"
               "    try:\n"
               "        exec(compile(_source, '<cell>', 'exec'), _names)\n"
               "    except Exception as _e:\n"
               "        print('@@error %s: %s' % (type(_e).__name__, _e), flush=True)\n"
               "    import sys; sys.stdout.flush()\n";
    return program;
}

} // namespace

// A conversation with three runs (text, an error, a chart) exported with
// `sandcastle conversations export ID --notebook FILE`: nbformat's validator accepts it, its
// code cells run again in a fresh sandbox give the same text, the chart is in it as PNG.
class TestNotebookEndToEnd : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;

    CliRun sandcastle(const QStringList &args)
    {
        QProcessEnvironment env = Sandcastle::Testing::cliEnvironment(m_dataDir.path());
        env.insert(QStringLiteral("SANDCASTLE_API_KEY"), QStringLiteral("sk-test"));
        return Sandcastle::Testing::runSandcastle(args, env, {}, 180000);
    }

    // The conversation, made by the scripted model; its id.
    QString chatWithThreeRuns(const QString &folder)
    {
        FakeOpenAiServer server;
        if (!server.listen())
            return {};
        server.enqueueToolCall(QStringLiteral("t1"),
                               QStringLiteral("run_python"),
                               R"js({"code": "x = 6 * 7\nprint('x is', x)"})js");
        server.enqueueToolCall(
            QStringLiteral("t2"),
            QStringLiteral("run_python"),
            R"js({"code": "print('before')\nraise ValueError('bad %d' % x)"})js");
        server.enqueueToolCall(
            QStringLiteral("t3"),
            QStringLiteral("run_python"),
            R"js({"code": "import matplotlib\nmatplotlib.use('Agg')\n)js"
            R"js(import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [x, 1, 2])\n)js"
            R"js(plt.savefig('chart.png')\nplt.close('all')\nprint('saved')"})js");
        server.enqueueText(QStringLiteral("x is 42, and the chart is in chart.png."));
        const CliRun run = sandcastle({QStringLiteral("chat"),
                                       QStringLiteral("--prompt"),
                                       QStringLiteral("Compute x, fail once, then chart it"),
                                       QStringLiteral("--workspace"),
                                       folder,
                                       QStringLiteral("--base-url"),
                                       server.baseUrl(),
                                       QStringLiteral("--json")});
        if (run.exitCode != 0)
            qWarning("chat failed: %s", run.err.constData());
        for (const Json &e : Sandcastle::Testing::jsonLines(run.out)) {
            if (e.value("type", std::string()) == "conversation")
                return QString::fromStdString(e.value("id", std::string()));
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
        SANDCASTLE_REQUIRE_DOCKER();
        SANDCASTLE_REQUIRE_NBFORMAT();
    }

    void exportTakesExactlyOneFormat()
    {
        CliRun run = sandcastle({QStringLiteral("conversations"),
                                 QStringLiteral("export"),
                                 QStringLiteral("some-id"),
                                 QStringLiteral("--notebook"),
                                 QStringLiteral("a.ipynb"),
                                 QStringLiteral("--markdown"),
                                 QStringLiteral("a.md")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("exactly one"), run.err.constData());
        run = sandcastle(
            {QStringLiteral("conversations"), QStringLiteral("export"), QStringLiteral("x")});
        QCOMPARE(run.exitCode, 2);
    }

    void threeRunsExportToANotebookThatValidatesAndRunsAgain()
    {
        QTemporaryDir folder;
        QVERIFY(Sandcastle::Testing::handToPerson(folder.path()));
        const QString id = chatWithThreeRuns(folder.path());
        QVERIFY(!id.isEmpty());
        QVERIFY(QFileInfo::exists(folder.filePath(QStringLiteral("chart.png"))));

        QTemporaryDir exports;
        const QString path = exports.filePath(QStringLiteral("conversation.ipynb"));
        CliRun run = sandcastle({QStringLiteral("conversations"),
                                 QStringLiteral("export"),
                                 id,
                                 QStringLiteral("--notebook"),
                                 path});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString problem = Sandcastle::Testing::nbformatProblem(path);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json book = Json::parse(file.readAll().toStdString(), nullptr, false);
        QList<std::string> sources;
        QList<CellText> recorded;
        QList<Json> codeCells;
        for (const auto &cell : book["cells"]) {
            if (cell["cell_type"] != "code")
                continue;
            codeCells << cell;
            sources << joined(cell["source"]);
            recorded << textOf(cell);
        }
        QCOMPARE(sources.size(), 3);
        QCOMPARE(recorded[0].out, std::string("x is 42\n"));
        QCOMPARE(recorded[1].out, std::string("before\n"));
        QCOMPARE(recorded[1].error, std::string("ValueError: bad 42"));
        QCOMPARE(recorded[2].out, std::string("saved\n"));
        // The chart, as PNG.
        bool png = false;
        for (const auto &output : codeCells[2]["outputs"]) {
            if (output.contains("data") && output["data"].contains("image/png"))
                png = QByteArray::fromBase64(
                          QByteArray::fromStdString(joined(output["data"]["image/png"])))
                          .startsWith("\x89PNG\r\n\x1a\n");
        }
        QVERIFY(png);

        // The code cells again, in order, in a fresh sandbox on an empty folder.
        QTemporaryDir again;
        const QString program = again.filePath(QStringLiteral("replay.py"));
        QFile replay(program);
        QVERIFY(replay.open(QIODevice::WriteOnly));
        replay.write(replayProgram(sources));
        replay.close();
        QVERIFY(Sandcastle::Testing::handToPerson(again.path()));
        run = sandcastle({QStringLiteral("exec"),
                          QStringLiteral("--fresh"),
                          QStringLiteral("--workspace"),
                          again.path(),
                          program});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QList<CellText> rerun;
        for (const QByteArray &line : run.out.split('\n')) {
            if (line.startsWith("@@cell ")) {
                rerun << CellText();
                continue;
            }
            if (rerun.isEmpty())
                continue;
            if (line.startsWith("@@error "))
                rerun.last().error = line.mid(8).toStdString();
            else if (!line.isEmpty())
                rerun.last().out += line.toStdString() + '\n';
        }
        QCOMPARE(rerun.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(rerun[i].out, recorded[i].out);
            QCOMPARE(rerun[i].error, recorded[i].error);
        }
        QVERIFY(QFileInfo::exists(again.filePath(QStringLiteral("chart.png"))));
    }
};

QTEST_GUILESS_MAIN(TestNotebookEndToEnd)
#include "tst_notebookendtoend.moc"
