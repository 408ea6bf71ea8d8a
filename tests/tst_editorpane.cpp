#include <ui/editor/attempthistory.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>

#include <QCheckBox>
#include <QSignalSpy>
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
};

QTEST_MAIN(TestEditorPane)
#include "tst_editorpane.moc"
