#include <app/agent/agent.h>
#include <app/appsettings.h>
#include <app/controller/cellqueue.h>
#include <app/controller/conversationcontroller.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/nbformatcheck.h>
#include <support/testfiles.h>
#include <support/windowactions.h>
#include <support/windowsettings.h>
#include <ui/console/consolepane.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>
#include <ui/mainwindow.h>

#include <QTabBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;

namespace {

// A notebook file of these cells: {"markdown" or "code", source}.
QByteArray notebookOf(const QList<std::pair<const char *, const char *>> &cells)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto &[type, source] : cells) {
        nlohmann::json cell
            = {{"cell_type", type}, {"metadata", nlohmann::json::object()}, {"source", source}};
        if (std::string(type) == "code") {
            cell["outputs"] = nlohmann::json::array();
            cell["execution_count"] = nullptr;
        }
        list.push_back(cell);
    }
    return QByteArray::fromStdString(nlohmann::json{
        {"nbformat", 4},
        {"nbformat_minor", 4},
        {"metadata", {{"kernelspec", {{"name", "python3"}, {"language", "python"}}}}},
        {"cells", list}}.dump());
}

int tabNamed(const EditorPane *pane, const QString &title)
{
    for (int i = 0; i < pane->tabBar()->count(); ++i) {
        if (pane->tabBar()->tabText(i) == title)
            return i;
    }
    return -1;
}

} // namespace

// A notebook opened in the real window, offscreen: its cells run one by one with Run and all
// at once with Run All Cells in the conversation's kernel, its Markdown reaches the agent, and
// what is not a notebook is refused without harm.
class TestNotebookWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;
    QTemporaryDir m_files;

    // The window on a fake model server, shown.
    std::unique_ptr<MainWindow> shownWindow(const FakeOpenAiServer &server) const
    {
        auto window = std::make_unique<MainWindow>(
            Sandcastle::Testing::settingsWithFakeServer(m_dataDir.path(), server));
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        return window;
    }

    QString file(const QString &name, const QByteArray &bytes) const
    {
        const QString path = m_files.filePath(name);
        Sandcastle::Testing::writeFile(path, bytes);
        return path;
    }

    // Brings the tab to the front and clicks Run, as a person would; waits for the run.
    static bool runTab(MainWindow &window, const QString &title)
    {
        EditorPane *pane = window.editorPane();
        const int index = tabNamed(pane, title);
        if (index < 0)
            return false;
        pane->tabBar()->setCurrentIndex(index);
        QSignalSpy finished(window.controller(), &ConversationController::personRunFinished);
        QTest::mouseClick(pane->findChild<QToolButton *>(QStringLiteral("runButton")),
                          Qt::LeftButton);
        return finished.wait(120000) && finished.first().at(0).value<ExecutionResult>().isOk();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        SANDCASTLE_REQUIRE_DOCKER();
    }

    void cellsRunOneByOneAndAllTogetherInTheKernel()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const std::unique_ptr<MainWindow> shown = shownWindow(server);
        QVERIFY(shown);
        MainWindow &window = *shown;
        QVERIFY(Sandcastle::Testing::windowAction(window, QStringLiteral("openNotebook")));
        QAction *runAll = Sandcastle::Testing::windowAction(window, QStringLiteral("runAllCells"));
        QVERIFY(runAll && !runAll->isEnabled());
        const QString path = file(QStringLiteral("analysis.ipynb"),
                                  notebookOf({{"markdown", "# Analysis\nThe answer is below."},
                                              {"code", "x = 41"},
                                              {"code", "print(x + 1)"},
                                              {"code", "%%bash\necho shell-$((2 + 3))"}}));
        QVERIFY(window.openNotebook(path));
        QVERIFY(runAll->isEnabled());
        QCOMPARE(window.editor()->text(), QStringLiteral("x = 41"));
        QVERIFY(tabNamed(window.editorPane(), QStringLiteral("Cell 4")) >= 0);

        // One by one: the variable carries from the first cell to the second.
        QVERIFY(runTab(window, QStringLiteral("Cell 2")));
        QVERIFY(runTab(window, QStringLiteral("Cell 3")));
        QVERIFY2(window.console()->toPlainText().contains(QStringLiteral("42")),
                 qPrintable(window.console()->toPlainText()));

        // All together, the shell cell as a shell run; the person's edit of a cell counts.
        window.editorPane()->tabBar()->setCurrentIndex(
            tabNamed(window.editorPane(), QStringLiteral("Cell 3")));
        window.editor()->setText(QStringLiteral("x += 100\nprint('all', x)"));
        QSignalSpy done(window.cellQueue(), &CellQueue::finished);
        QSignalSpy runs(window.controller(), &ConversationController::personRunFinished);
        runAll->trigger();
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(2).toString()));
        QCOMPARE(runs.size(), 3);
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("all 141")));
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("shell-5")));

        // The Markdown reaches the agent with the next message.
        server.enqueueText(QStringLiteral("Noted."));
        QSignalSpy answered(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("what is this notebook about?"));
        QVERIFY(answered.wait(60000));
        QVERIFY(server.requests().last().body.contains("The answer is below."));

        // The conversation, the person's runs with it, as a notebook nbformat accepts.
        if (!Sandcastle::Testing::pythonWithNbformat().isEmpty()) {
            const QString exported = m_files.filePath(QStringLiteral("back.ipynb"));
            QVERIFY(window.exportNotebook(window.conversationId(), exported));
            const QString problem = Sandcastle::Testing::nbformatProblem(exported);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QFile back(exported);
            QVERIFY(back.open(QIODevice::ReadOnly));
            const QByteArray text = back.readAll();
            QVERIFY(text.contains("x += 100"));
            QVERIFY(text.contains("%%bash"));
        }
    }

    void runAllStopsAtTheFirstErrorAndBadNotebooksAreRefused()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const std::unique_ptr<MainWindow> shown = shownWindow(server);
        QVERIFY(shown);
        MainWindow &window = *shown;
        window.newConversation();
        const QString conversation = window.conversationId();
        for (const QByteArray &bad :
             {QByteArray("not json at all"),
              QByteArray(R"({"nbformat": 3, "worksheets": [], "cells": []})"),
              QByteArray(R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]})")}) {
            QVERIFY(!window.openNotebook(file(QStringLiteral("bad.ipynb"), bad)));
        }
        QVERIFY(!window.openNotebook(m_files.filePath(QStringLiteral("missing.ipynb"))));
        QCOMPARE(window.conversationId(), conversation);
        QVERIFY(!window.runAllCells()); // nothing opened

        QVERIFY(window.openNotebook(file(QStringLiteral("failing.ipynb"),
                                         notebookOf({{"code", "print('first')"},
                                                     {"code", "raise ValueError('boom')"},
                                                     {"code", "print('never')"}}))));
        QSignalSpy done(window.cellQueue(), &CellQueue::finished);
        QVERIFY(window.runAllCells());
        QVERIFY(done.wait(120000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QCOMPARE(done.first().at(1).toInt(), 1);
        QVERIFY(done.first().at(2).toString().contains(QStringLiteral("Cell 2")));
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("first")));
        QVERIFY(!window.console()->toPlainText().contains(QStringLiteral("never")));
    }
};

QTEST_MAIN(TestNotebookWindow)
#include "tst_notebookwindow.moc"
