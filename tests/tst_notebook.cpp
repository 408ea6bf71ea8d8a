#include <app/notebook/notebookexport.h>
#include <app/notebook/notebookreader.h>
#include <app/store/conversationstore.h>
#include <support/nbformatcheck.h>
#include <support/storedmessages.h>
#include <support/testfiles.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::toolCallMessage;

namespace {

const QByteArray kPng = QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray("fake-png-body");

nlohmann::json result(const std::string &id, const nlohmann::json &content)
{
    return {{"role", "tool"}, {"tool_call_id", id}, {"content", content.dump()}};
}

// A source or a stream's text: its lines joined.
std::string joined(const nlohmann::ordered_json &lines)
{
    std::string text;
    for (const auto &line : lines)
        text += line.get<std::string>();
    return text;
}

const std::string kTraceback = "Traceback (most recent call last):\n  File \"<cell>\", line 1, in "
                               "<module>\nZeroDivisionError: division by zero\n";

// The messages of a conversation with a run of each kind.
nlohmann::json conversation()
{
    return nlohmann::json::array(
        {{{"role", "user"}, {"content", "Chart it </script><img src=x onerror=alert(1)>"}},
         toolCallMessage("c1", "run_python", {{"code", "print('hello')"}}),
         result("c1", {{"status", "ok"}, {"exit_code", 0}, {"stdout", "hello\n"}}),
         toolCallMessage("c2", "run_python", {{"code", "1/0"}}),
         result("c2",
                {{"status", "error"}, {"exit_code", 1}, {"stdout", ""}, {"error", kTraceback}}),
         toolCallMessage("c3", "run_shell", {{"command", "ls /workspace"}}),
         result("c3",
                {{"status", "ok"},
                 {"stdout", std::string(50, 'x') + "\n[... 9 characters left out ...]\n"},
                 {"truncated", true},
                 {"full_output", ".sandcastle/run-3.log"}}),
         toolCallMessage("c4", "write_file", {{"path", "notes`md"}, {"content", "secret body"}}),
         result("c4", {{"status", "ok"}}),
         toolCallMessage("c5", "run_python", {{"code", "plt.savefig('chart.png')"}}),
         result("c5", {{"status", "ok"}, {"files", {"chart.png", "leak.png"}}}),
         {{"role", "assistant"},
          {"content", std::string("Done \"quoted\" \\ and a NUL ") + '\0' + " here."}}});
}

QStringList strings(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

} // namespace

// Jupyter notebooks in and out: the export's cells and outputs, that nbformat's own validator
// accepts it, that no link leads it out of the workspace, and the reader's checks.
class TestNotebook : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static ConversationInfo info()
    {
        ConversationInfo i;
        i.id = QStringLiteral("nb1");
        i.title = QStringLiteral("Chart `it` </script>");
        i.createdMs = 1700000000000;
        return i;
    }

private Q_SLOTS:
    void cellsFollowTheConversationInOrder()
    {
        QHash<QString, NotebookExport::Image> images;
        images.insert(QStringLiteral("chart.png"), {QStringLiteral("image/png"), kPng});
        const nlohmann::ordered_json book
            = NotebookExport::notebook(info(), conversation(), {}, {}, images);
        QCOMPARE(book["nbformat"].get<int>(), 4);
        QCOMPARE(book["metadata"]["kernelspec"]["name"].get<std::string>(), "python3");
        QCOMPARE(book["metadata"]["sandcastle"]["conversation_id"].get<std::string>(), "nb1");
        const auto &cells = book["cells"];
        QStringList kinds;
        for (const auto &c : cells)
            kinds << QString::fromStdString(c["cell_type"].get<std::string>());
        QCOMPARE(
            kinds,
            strings(
                {"markdown", "markdown", "code", "code", "code", "markdown", "code", "markdown"}));
        QVERIFY(joined(cells[1]["source"]).find("</script><img") != std::string::npos);
        QCOMPARE(joined(cells[2]["source"]), "print('hello')");
        QCOMPARE(cells[2]["execution_count"].get<int>(), 1);
        QCOMPARE(cells[2]["outputs"][0]["name"].get<std::string>(), "stdout");
        QCOMPARE(joined(cells[2]["outputs"][0]["text"]), "hello\n");
        // The error: ename, evalue and the traceback's lines.
        const auto &error = cells[3]["outputs"].back();
        QCOMPARE(error["output_type"].get<std::string>(), "error");
        QCOMPARE(error["ename"].get<std::string>(), "ZeroDivisionError");
        QCOMPARE(error["evalue"].get<std::string>(), "division by zero");
        QCOMPARE(error["traceback"].size(), size_t(3));
        QCOMPARE(cells[3]["execution_count"].get<int>(), 2);
        // The shell as a %%bash cell; its cut output says so.
        QCOMPARE(joined(cells[4]["source"]), "%%bash\nls /workspace");
        QVERIFY(joined(cells[4]["outputs"].back()["text"]).find(".sandcastle/run-3.log")
                != std::string::npos);
        // write_file is a short Markdown line, not code; the backtick cannot break its quote.
        QVERIFY(joined(cells[5]["source"]).find("**write_file** `notes'md`") != std::string::npos);
        QVERIFY(joined(cells[5]["source"]).find("secret body") == std::string::npos);
        // The chart as PNG; leak.png (not in the images) is not there.
        const auto &outputs = cells[6]["outputs"];
        QCOMPARE(outputs.size(), size_t(1));
        QCOMPARE(outputs[0]["output_type"].get<std::string>(), "display_data");
        QCOMPARE(QByteArray::fromBase64(
                     QByteArray::fromStdString(outputs[0]["data"]["image/png"].get<std::string>())),
                 kPng);
        QCOMPARE(joined(cells[7]["source"]).find('\0') != std::string::npos, true);
    }

    void thePersonsRunsFallBetweenTheMessagesByTime()
    {
        const nlohmann::json messages
            = nlohmann::json::array({{{"role", "user"}, {"content", "first"}},
                                     {{"role", "assistant"}, {"content", "one"}},
                                     {{"role", "user"}, {"content", "second"}},
                                     {{"role", "assistant"}, {"content", "two"}}});
        StoredRun ok;
        ok.origin = QStringLiteral("person");
        ok.code = QStringLiteral("echo hi");
        ok.language = QStringLiteral("shell");
        ok.status = QStringLiteral("ok");
        ok.outputTail = QStringLiteral("hi\n");
        ok.startedMs = 250;
        StoredRun failed = ok;
        failed.language = QStringLiteral("python");
        failed.code = QStringLiteral("print(1)\n1/0");
        failed.status = QStringLiteral("error");
        failed.outputTail = QStringLiteral("[...]\n1\n") + QString::fromStdString(kTraceback);
        failed.startedMs = 500;
        const auto cells = NotebookExport::notebook(
            info(), messages, {100, 200, 300, 400}, {ok, failed})["cells"];
        QStringList sources;
        for (const auto &c : cells)
            sources << QString::fromStdString(joined(c["source"]));
        QCOMPARE(sources.mid(1),
                 strings({"**You**\n\nfirst",
                          "**Sandcastle**\n\none",
                          "**You** ran this in the editor:",
                          "%%bash\necho hi",
                          "**You**\n\nsecond",
                          "**Sandcastle**\n\ntwo",
                          "**You** ran this in the editor:",
                          "print(1)\n1/0"}));
        const auto &outputs = cells.back()["outputs"];
        QVERIFY(joined(outputs[0]["text"]).find("only the last") != std::string::npos);
        QCOMPARE(joined(outputs[1]["text"]), "1\n");
        QCOMPARE(outputs[2]["ename"].get<std::string>(), "ZeroDivisionError");
        QCOMPARE(cells.back()["metadata"]["sandcastle"]["origin"].get<std::string>(), "person");
    }

    void theStoredConversationIsWrittenAndValidatedWithoutFollowingLinks()
    {
        SANDCASTLE_REQUIRE_NBFORMAT();
        const QString workspace = m_dir.filePath(QStringLiteral("ws"));
        const QString outside = m_dir.filePath(QStringLiteral("outside/secret.png"));
        const QByteArray secret = kPng + "HOST-SECRET-BYTES";
        Sandcastle::Testing::writeFile(outside, secret);
        Sandcastle::Testing::writeFile(workspace + QStringLiteral("/chart.png"), kPng);
        QVERIFY(QFile::link(outside, workspace + QStringLiteral("/leak.png")));
        ConversationStore store;
        QVERIFY(store.open(m_dir.filePath(QStringLiteral("store.sqlite3"))));
        QVERIFY(store.create(QStringLiteral("nb1"), QStringLiteral("Chart"), workspace, false));
        for (const auto &m : conversation())
            QVERIFY(store.addMessage(QStringLiteral("nb1"), m));
        const QString path = m_dir.filePath(QStringLiteral("out.ipynb"));
        const Result<bool> written
            = NotebookExport::writeNotebook(store, QStringLiteral("nb1"), path);
        QVERIFY2(written, qPrintable(written.error()));
        const QString problem = Sandcastle::Testing::nbformatProblem(path);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains(kPng.toBase64()));
        QVERIFY(!text.contains(secret.toBase64()));
        QVERIFY(!text.contains("HOST-SECRET"));

        // Read back: the code cells as they were, %%bash as a shell cell.
        const Result<NotebookReader::Notebook> back = NotebookReader::read(path);
        QVERIFY2(back, qPrintable(back.error()));
        QStringList code;
        for (const auto &cell : back.value().cells) {
            if (cell.kind == NotebookReader::Cell::Kind::Code)
                code << (cell.shell ? QStringLiteral("$ ") : QString()) + cell.source;
        }
        QCOMPARE(code,
                 strings({"print('hello')", "1/0", "$ ls /workspace", "plt.savefig('chart.png')"}));
    }

    void aNotebookWithNoRunsAndHostileTitlesStillValidates()
    {
        SANDCASTLE_REQUIRE_NBFORMAT();
        ConversationInfo odd = info();
        odd.title = QString::fromUtf16(u"\xd800 lone surrogate \" ' \\ \n newline");
        const auto book = NotebookExport::notebook(odd, nlohmann::json::array(), {}, {});
        const QString path = m_dir.filePath(QStringLiteral("empty.ipynb"));
        Sandcastle::Testing::writeFile(
            path,
            QByteArray::fromStdString(
                book.dump(1, ' ', false, nlohmann::json::error_handler_t::replace)));
        const QString problem = Sandcastle::Testing::nbformatProblem(path);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void theReaderTakesBothKindsOfSourceAndTurnsMagicsIntoComments()
    {
        const QByteArray book = R"nb({"nbformat": 4, "nbformat_minor": 4,
          "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
          "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Some *context*"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
             "source": "%matplotlib inline\nx = 41"},
            {"cell_type": "raw", "metadata": {}, "source": "raw"},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
             "source": ["%%bash\n", "echo $((1 + 1))"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
             "source": ["y = (x\n", "% 5)\n", "!pip install nothing"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,
             "source": ""}]})nb";
        const Result<NotebookReader::Notebook> parsed = NotebookReader::parse(book);
        QVERIFY2(parsed, qPrintable(parsed.error()));
        const auto &cells = parsed.value().cells;
        QCOMPARE(cells.size(), 4); // the raw and the empty cell are left out
        QCOMPARE(cells[0].kind, NotebookReader::Cell::Kind::Markdown);
        QCOMPARE(cells[0].source, QStringLiteral("# Title\nSome *context*"));
        QCOMPARE(cells[1].source,
                 QStringLiteral("# (IPython only, not run here) %matplotlib inline\nx = 41"));
        QCOMPARE(cells[1].number, 2);
        QVERIFY(cells[2].shell);
        QCOMPARE(cells[2].source, QStringLiteral("echo $((1 + 1))"));
        QCOMPARE(
            cells[3].source,
            QStringLiteral("y = (x\n% 5)\n# (IPython only, not run here) !pip install nothing"));
        QCOMPARE(parsed.value().codeCells(), 3);
        QVERIFY(parsed.value().notes.join(QLatin1Char('\n')).contains(QStringLiteral("raw")));
        const QString note = NotebookReader::contextNote(QStringLiteral("a.ipynb"), parsed.value());
        QVERIFY(note.contains(QStringLiteral("Some *context*")));
        QVERIFY(note.contains(QStringLiteral("a.ipynb")));
    }

    void theReaderRefusesWhatIsNotANotebookWithAReason_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("{\"cells\": [") << QStringLiteral("not JSON");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not JSON");
        QTest::newRow("no cells") << QByteArray("{\"nbformat\": 4}") << QStringLiteral("no cells");
        QTest::newRow("nbformat 3")
            << QByteArray(R"({"nbformat": 3, "cells": []})") << QStringLiteral("nbformat 3");
        QTest::newRow("nbformat text")
            << QByteArray(R"({"nbformat": "4", "cells": []})") << QStringLiteral("nbformat 4");
        QTest::newRow("cells not a list")
            << QByteArray(R"({"nbformat": 4, "cells": {}})") << QStringLiteral("not a list");
        QTest::newRow("source a number")
            << QByteArray(R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": 7}]})")
            << QStringLiteral("cell 1: its source is neither");
        QTest::newRow("source list of numbers")
            << QByteArray(R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": [1]}]})")
            << QStringLiteral("cell 1: its source holds");
        QTest::newRow("cell not an object")
            << QByteArray(R"({"nbformat": 4, "cells": ["x"]})") << QStringLiteral("cell 1 is not");
        QTest::newRow("R") << QByteArray(R"({"nbformat": 4, "cells": [],
            "metadata": {"kernelspec": {"language": "R"}}})")
                           << QStringLiteral("the sandbox runs Python");
        QTest::newRow("too large")
            << QByteArray(NotebookReader::kMaxBytes + 1, ' ') << QStringLiteral("larger than");
    }

    void theReaderRefusesWhatIsNotANotebookWithAReason()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        const Result<NotebookReader::Notebook> parsed = NotebookReader::parse(bytes);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(reason), qPrintable(parsed.error()));
    }

    void aMissingFileIsRefused()
    {
        const Result<NotebookReader::Notebook> parsed
            = NotebookReader::read(m_dir.filePath(QStringLiteral("none.ipynb")));
        QVERIFY(!parsed);
        QVERIFY(parsed.error().contains(QStringLiteral("could not read")));
    }

    void imagesAreEmbeddedOnlyWhenTheyAreWhatTheirNameSays()
    {
        QCOMPARE(NotebookExport::imageMime(QStringLiteral("a.PNG"), kPng),
                 QStringLiteral("image/png"));
        QCOMPARE(NotebookExport::imageMime(QStringLiteral("a.png"), "<svg onload=x>"), QString());
        QCOMPARE(NotebookExport::imageMime(QStringLiteral("a.jpg"), "\xff\xd8\xff\xe0"),
                 QStringLiteral("image/jpeg"));
        QCOMPARE(NotebookExport::imageMime(QStringLiteral("a.svg"), "<svg/>"), QString());
    }
};

QTEST_GUILESS_MAIN(TestNotebook)
#include "tst_notebook.moc"
