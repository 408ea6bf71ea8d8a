#include <ui/editor/attempthistory.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTabBar>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

using namespace Sandcastle;

// The editor pane's self-debug timeline and keys, offscreen.
class TestEditorPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void attemptsAreNumberedAndDiffedAgainstTheOneBefore()
    {
        AttemptHistory history;
        QCOMPARE(history.add(QStringLiteral("print(x)\n")), 1);
        QCOMPARE(history.add(QStringLiteral("print(x)\n")), 1); // the same code again
        QCOMPARE(history.add(QStringLiteral("x = 1\nprint(x)\n")), 2);
        history.setStatus(1, QStringLiteral("error"));
        history.setStatus(9, QStringLiteral("ok")); // no such attempt: ignored
        QCOMPARE(history.at(1).status, QStringLiteral("error"));
        QVERIFY(history.diffToPrevious(1).isEmpty());
        const QString diff = history.diffToPrevious(2);
        QVERIFY(diff.contains(QStringLiteral("--- attempt 1")));
        QVERIFY(diff.contains(QStringLiteral("+++ attempt 2")));
        QVERIFY(diff.contains(QStringLiteral("+x = 1")));
        const QString edited = history.diffToEdited(2, QStringLiteral("x = 2\nprint(x)\n"));
        QVERIFY(edited.contains(QStringLiteral("-x = 1")));
        QVERIFY(edited.contains(QStringLiteral("+x = 2")));
        QVERIFY(edited.contains(QStringLiteral("+++ yours")));
        history.clear();
        QCOMPARE(history.count(), 0);
    }

    void thePaneWalksTheTimelineAndShowsDiffs()
    {
        EditorPane pane;
        pane.show();
        QCOMPARE(pane.attemptText(), QStringLiteral("Your code"));
        pane.beginSnippet();
        pane.addAttempt(QStringLiteral("print(undefined_name)\n"));
        pane.setAttemptStatus(1, QStringLiteral("error"));
        pane.addAttempt(QStringLiteral("print(6 * 7)\n"));
        pane.setAttemptStatus(2, QStringLiteral("ok"));
        QCOMPARE(pane.attemptText(), QStringLiteral("Attempt 2 of 2 · ok"));
        QCOMPARE(pane.editor()->text(), QStringLiteral("print(6 * 7)\n"));

        pane.findChild<QToolButton *>(QStringLiteral("diffButton"))->click();
        QVERIFY(pane.isDiffShown());
        QVERIFY(pane.diffView()->text().contains(QStringLiteral("-print(undefined_name)")));
        QVERIFY(pane.diffView()->text().contains(QStringLiteral("+print(6 * 7)")));
        QCOMPARE(pane.diffView()->language(), QStringLiteral("diff"));

        pane.findChild<QToolButton *>(QStringLiteral("previousAttempt"))->click();
        QCOMPARE(pane.currentAttempt(), 1);
        QCOMPARE(pane.attemptText(), QStringLiteral("Attempt 1 of 2 · error"));
        QCOMPARE(pane.editor()->text(), QStringLiteral("print(undefined_name)\n"));
        QVERIFY(!pane.findChild<QToolButton *>(QStringLiteral("previousAttempt"))->isEnabled());

        // The person edits attempt 2: the diff is their change against the agent's version.
        pane.findChild<QToolButton *>(QStringLiteral("nextAttempt"))->click();
        pane.setDiffShown(false);
        pane.editor()->setText(QStringLiteral("print(6 * 7 + 1)\n"));
        pane.setDiffShown(true);
        QVERIFY(pane.diffView()->text().contains(QStringLiteral("+print(6 * 7 + 1)")));
        QVERIFY(pane.diffView()->text().contains(QStringLiteral("yours")));

        pane.beginSnippet();
        QVERIFY(!pane.isDiffShown());
        QCOMPARE(pane.attemptText(), QStringLiteral("Your code"));
    }

    void ctrlEnterRunsTheCodeAndCtrlShiftEnterTheSelectionOrLine()
    {
        EditorPane pane;
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy run(&pane, &EditorPane::runRequested);
        pane.editor()->setText(QStringLiteral("a = 1\nprint(a)\n"));
        pane.editor()->setFocus();
        QTest::keyClick(pane.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(run.size(), 1);
        QCOMPARE(run.last().at(0).toString(), QStringLiteral("a = 1\nprint(a)\n"));
        QCOMPARE(pane.editor()->text(), QStringLiteral("a = 1\nprint(a)\n")); // no newline typed

        pane.editor()->setCursorPosition(1, 2);
        QTest::keyClick(pane.editor(), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(run.last().at(0).toString(), QStringLiteral("print(a)\n"));
        pane.editor()->setSelection(0, 0, 0, 5);
        QTest::keyClick(pane.editor(), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(run.last().at(0).toString(), QStringLiteral("a = 1"));

        QVERIFY(pane.tellsAgent());
        pane.findChild<QCheckBox *>(QStringLiteral("tellAgent"))->setChecked(false);
        QVERIFY(!pane.tellsAgent());
    }

    void eachRequestGetsASnippetTabThatKeepsItsTimeline()
    {
        EditorPane pane;
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTabBar *tabs = pane.tabBar();
        QCOMPARE(tabs->count(), 1);
        pane.beginSnippet(); // the first tab is unused: it is the snippet
        QCOMPARE(tabs->count(), 1);
        pane.addAttempt(QStringLiteral("print(1 / 0)\n"), QStringLiteral("call_a"));
        pane.setCallStatus(QStringLiteral("call_a"), QStringLiteral("error"));
        pane.addAttempt(QStringLiteral("print(1)\n"), QStringLiteral("call_b"));
        pane.setCallStatus(QStringLiteral("call_b"), QStringLiteral("ok"));
        pane.beginSnippet();
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->currentIndex(), 1);
        QCOMPARE(tabs->tabText(1), QStringLiteral("Snippet 2"));
        QCOMPARE(pane.attemptText(), QStringLiteral("Your code"));
        pane.addAttempt(QStringLiteral("print(2)\n"), QStringLiteral("call_c"));
        QCOMPARE(pane.editor()->text(), QStringLiteral("print(2)\n"));

        // Back to the first request: its code and timeline are as they were.
        tabs->setCurrentIndex(0);
        QCOMPARE(pane.editor()->text(), QStringLiteral("print(1)\n"));
        QCOMPARE(pane.attemptText(), QStringLiteral("Attempt 2 of 2 · ok"));
        // The person edits it, looks at the other tab and comes back: the edit is kept.
        pane.editor()->setText(QStringLiteral("print(100)\n"));
        tabs->setCurrentIndex(1);
        tabs->setCurrentIndex(0);
        QCOMPARE(pane.editor()->text(), QStringLiteral("print(100)\n"));

        // A tool call opened from the chat shows its attempt in its tab.
        tabs->setCurrentIndex(1);
        pane.openCode(QStringLiteral("call_a"),
                      QStringLiteral("Agent code"),
                      QStringLiteral("print(1 / 0)\n"),
                      QStringLiteral("python"));
        QCOMPARE(tabs->currentIndex(), 0);
        QCOMPARE(pane.currentAttempt(), 1);
        QCOMPARE(pane.attemptText(), QStringLiteral("Attempt 1 of 2 · error"));
        // A call no tab holds (a stored conversation) gets a tab of its own, once.
        pane.openCode(QStringLiteral("old_call"),
                      QStringLiteral("Agent command"),
                      QStringLiteral("ls -l\n"),
                      QStringLiteral("bash"));
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(pane.currentLanguage(), QStringLiteral("bash"));
        QCOMPARE(pane.editor()->language(), QStringLiteral("bash"));
        pane.openCode(QStringLiteral("old_call"),
                      QStringLiteral("Agent command"),
                      QStringLiteral("ls -l\n"),
                      QStringLiteral("bash"));
        QCOMPARE(tabs->count(), 3);
        QSignalSpy run(&pane, &EditorPane::runRequested);
        pane.editor()->setFocus();
        QTest::keyClick(pane.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(run.size(), 1);
        QCOMPARE(run.last().at(1).toString(), QStringLiteral("bash")); // runs as a shell command

        // While the agent streams code, its tab stays in front.
        pane.showAgentTab();
        QCOMPARE(tabs->currentIndex(), 1);
        pane.editor()->setAgentWriting(true);
        tabs->setCurrentIndex(0);
        QCOMPARE(tabs->currentIndex(), 1);
        pane.editor()->setAgentWriting(false);

        // Closing the agent's tab: its next attempt opens a new snippet.
        pane.closeTab(1);
        QCOMPARE(tabs->count(), 2);
        pane.addAttempt(QStringLiteral("print(3)\n"), QStringLiteral("call_d"));
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(tabs->tabText(2), QStringLiteral("Snippet 3"));
    }

    void aWorkspaceFileIsEditedInATabAndSavedWithCtrlS()
    {
        EditorPane pane;
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy save(&pane, &EditorPane::saveRequested);
        pane.openFile(
            QStringLiteral("src/job.py"), QStringLiteral("x = 1\n"), QStringLiteral("python"));
        QTabBar *tabs = pane.tabBar();
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->tabText(1), QStringLiteral("job.py"));
        QCOMPARE(pane.currentFile(), QStringLiteral("src/job.py"));
        QVERIFY(!pane.isModified(1));
        pane.editor()->setFocus();
        pane.editor()->setText(QStringLiteral("x = 2\n"));
        QVERIFY(pane.isModified(1));
        QCOMPARE(tabs->tabText(1), QStringLiteral("job.py •"));
        QTest::keyClick(pane.editor(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(save.size(), 1);
        QCOMPARE(save.last().at(0).toString(), QStringLiteral("src/job.py"));
        QCOMPARE(save.last().at(1).toString(), QStringLiteral("x = 2\n"));
        QVERIFY(pane.isModified(1)); // until the window says it is written
        pane.markSaved(QStringLiteral("src/job.py"), QStringLiteral("x = 2\n"));
        QVERIFY(!pane.isModified(1));
        QCOMPARE(tabs->tabText(1), QStringLiteral("job.py"));

        // Opening it again shows the open tab; an unsaved edit is kept, and saved at a reset.
        pane.editor()->setText(QStringLiteral("x = 3\n"));
        tabs->setCurrentIndex(0);
        pane.openFile(
            QStringLiteral("src/job.py"), QStringLiteral("x = 2\n"), QStringLiteral("python"));
        QCOMPARE(tabs->currentIndex(), 1);
        QCOMPARE(pane.editor()->text(), QStringLiteral("x = 3\n"));
        tabs->setCurrentIndex(0);
        pane.reset();
        QCOMPARE(save.size(), 2);
        QCOMPARE(save.last().at(1).toString(), QStringLiteral("x = 3\n"));
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(pane.editor()->text(), QString());
        // A snippet tab has nothing to save.
        QTest::keyClick(pane.editor(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(save.size(), 2);
        // Closing the last tab, an edited file, and answering Discard: nothing is saved.
        pane.openFile(QStringLiteral("b.py"), QStringLiteral("b = 1\n"), QStringLiteral("python"));
        pane.closeTab(0); // the empty snippet: no question
        QCOMPARE(tabs->count(), 1);
        pane.editor()->setText(QStringLiteral("b = 2\n"));
        // Opening the file of the tab in front keeps its edit too.
        pane.openFile(QStringLiteral("b.py"), QStringLiteral("b = 1\n"), QStringLiteral("python"));
        QCOMPARE(pane.editor()->text(), QStringLiteral("b = 2\n"));
        QTimer::singleShot(0, &pane, [] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            box->button(QMessageBox::Discard)->click();
        });
        pane.closeTab(0);
        QCOMPARE(save.size(), 2);
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(pane.currentFile(), QString()); // a fresh snippet
    }
};

QTEST_MAIN(TestEditorPane)
#include "tst_editorpane.moc"
