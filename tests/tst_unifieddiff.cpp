#include <app/agent/unifieddiff.h>
#include <support/testtimeouts.h>

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

// The diff the model gets must be a real one: `patch` applies it and gets the person's code.
class TestUnifiedDiff : public QObject
{
    Q_OBJECT

    static QString applyWithPatch(const QString &before, const QString &diff)
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("agent.py")));
        if (!file.open(QIODevice::WriteOnly))
            return QStringLiteral("<cannot write>");
        file.write(before.toUtf8());
        file.close();
        QProcess patch;
        patch.setWorkingDirectory(dir.path());
        patch.start(QStringLiteral("patch"),
                    {QStringLiteral("--quiet"), QStringLiteral("agent.py")});
        patch.write(diff.toUtf8());
        patch.closeWriteChannel();
        if (!patch.waitForFinished(Sandcastle::Testing::kWaitMs) || patch.exitCode() != 0)
            return QStringLiteral("<patch failed: %1>").arg(QString::fromUtf8(patch.readAll()));
        QFile result(dir.filePath(QStringLiteral("agent.py")));
        result.open(QIODevice::ReadOnly);
        return QString::fromUtf8(result.readAll());
    }

private Q_SLOTS:
    void equalTextsHaveNoDiff()
    {
        QVERIFY(unifiedDiff(QStringLiteral("a\nb\n"), QStringLiteral("a\nb\n")).isEmpty());
    }

    void showsAChangedLineInContext()
    {
        const QString before = QStringLiteral(
            "import math\nnumbers = [1, 2, 3]\nprint(sum(numbers) / len(numbers))\n");
        const QString after = QStringLiteral(
            "import math\nnumbers = [1, 2, 3, 4]\nprint(sum(numbers) / len(numbers))\n");
        const QString diff = unifiedDiff(before, after);
        QCOMPARE(
            diff,
            QStringLiteral(
                "--- agent.py\n+++ person.py\n@@ -1,3 +1,3 @@\n import math\n-numbers = [1, 2, 3]\n"
                "+numbers = [1, 2, 3, 4]\n print(sum(numbers) / len(numbers))\n"));
    }

    void farApartChangesMakeSeparateHunks()
    {
        QStringList lines;
        for (int i = 0; i < 30; ++i)
            lines << QStringLiteral("line %1").arg(i);
        const QString before = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        lines[2] = QStringLiteral("changed 2");
        lines[25] = QStringLiteral("changed 25");
        const QString after = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        const QString diff = unifiedDiff(before, after);
        QCOMPARE(diff.count(QStringLiteral("@@ -")), 2);
        QCOMPARE(applyWithPatch(before, diff), after);
    }

    void patchReproducesThePersonsCode_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::newRow("append") << QStringLiteral("a\nb\n") << QStringLiteral("a\nb\nc\n");
        QTest::newRow("prepend") << QStringLiteral("a\nb\n") << QStringLiteral("z\na\nb\n");
        QTest::newRow("delete all") << QStringLiteral("a\nb\n") << QStringLiteral("");
        QTest::newRow("from empty") << QStringLiteral("") << QStringLiteral("x = 1\n");
        QTest::newRow("repeated lines")
            << QStringLiteral("x\nx\ny\nx\n") << QStringLiteral("x\ny\nx\nx\ny\n");
    }

    void patchReproducesThePersonsCode()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QCOMPARE(applyWithPatch(before, unifiedDiff(before, after)), after);
    }

    void randomEditsAlwaysPatchBack()
    {
        QRandomGenerator random(42);
        for (int round = 0; round < 40; ++round) {
            QStringList a;
            const int n = int(random.bounded(1, 40));
            for (int i = 0; i < n; ++i)
                a << QStringLiteral("v%1").arg(random.bounded(6));
            QStringList b = a;
            for (int e = 0; e < 5; ++e) {
                const int at = int(random.bounded(b.size() + 1));
                switch (random.bounded(3)) {
                case 0:
                    b.insert(at, QStringLiteral("new%1").arg(e));
                    break;
                case 1:
                    if (at < b.size())
                        b.removeAt(at);
                    break;
                default:
                    if (at < b.size())
                        b[at] = QStringLiteral("edit%1").arg(e);
                }
            }
            const QString before = a.join(QLatin1Char('\n')) + QLatin1Char('\n');
            const QString after
                = b.isEmpty() ? QString() : b.join(QLatin1Char('\n')) + QLatin1Char('\n');
            QCOMPARE(applyWithPatch(before, unifiedDiff(before, after)), after);
        }
    }
};

QTEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unifieddiff.moc"
