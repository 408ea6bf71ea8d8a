#include <base/fuzzymatch.h>

#include <QtTest>

using namespace Sandcastle;

// Quick open's ranking: which of several paths a query puts first.
class TestFuzzyMatch : public QObject
{
    Q_OBJECT

    static QStringList ranked(const QString &query, const QStringList &paths)
    {
        QStringList lowered;
        for (const QString &path : paths)
            lowered << path.toLower();
        const FuzzyMatcher::Ranking ranking
            = FuzzyMatcher(query).rank(paths, lowered, nullptr, 100);
        QStringList out;
        for (const int i : ranking.best)
            out << paths.at(i);
        return out;
    }

private Q_SLOTS:
    void aQueryMatchesItsCharactersInOrderCaseAside()
    {
        QVERIFY(FuzzyMatcher(QStringLiteral("abc")).score(QStringLiteral("a/b/c.txt")) >= 0);
        QVERIFY(FuzzyMatcher(QStringLiteral("READ")).score(QStringLiteral("docs/readme.md")) >= 0);
        QCOMPARE(FuzzyMatcher(QStringLiteral("acb")).score(QStringLiteral("abc.txt")), -1);
        QCOMPARE(FuzzyMatcher(QStringLiteral("abcd")).score(QStringLiteral("abc")), -1);
        // Spaces in the query are not part of the path.
        QVERIFY(FuzzyMatcher(QStringLiteral("main py")).score(QStringLiteral("src/main.py")) >= 0);
        QCOMPARE(FuzzyMatcher(QString()).score(QStringLiteral("x")), 0);
        QVERIFY(FuzzyMatcher(QStringLiteral("sapmain")).score(QStringLiteral("src/app/main.py"))
                > 0);
    }

    void ranking_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<QString>("first");
        QTest::newRow("characters that follow one another")
            << QStringLiteral("main")
            << QStringList{QStringLiteral("app/my_awesome_info.txt"),
                           QStringLiteral("app/main.cpp")}
            << QStringLiteral("app/main.cpp");
        QTest::newRow("the file name before a folder")
            << QStringLiteral("test")
            << QStringList{QStringLiteral("test/foo.py"), QStringLiteral("src/test.py")}
            << QStringLiteral("src/test.py");
        QTest::newRow("segment starts")
            << QStringLiteral("fp")
            << QStringList{QStringLiteral("ui/ofxps.cpp"), QStringLiteral("ui/files/preview.cpp")}
            << QStringLiteral("ui/files/preview.cpp");
        QTest::newRow("word starts: snake and camel case")
            << QStringLiteral("wm")
            << QStringList{QStringLiteral("src/awmx.h"), QStringLiteral("src/WorkspaceModel.h")}
            << QStringLiteral("src/WorkspaceModel.h");
        QTest::newRow("the shorter path on a tie")
            << QStringLiteral("util")
            << QStringList{QStringLiteral("lib/deep/util.py"), QStringLiteral("lib/util.py")}
            << QStringLiteral("lib/util.py");
        QTest::newRow("a path across folders") << QStringLiteral("srcmain")
                                               << QStringList{QStringLiteral("docs/main.md"),
                                                              QStringLiteral("src/main.rs"),
                                                              QStringLiteral("scripts/remain.sh")}
                                               << QStringLiteral("src/main.rs");
    }

    void ranking()
    {
        QFETCH(QString, query);
        QFETCH(QStringList, paths);
        QFETCH(QString, first);
        const QStringList order = ranked(query, paths);
        QVERIFY2(!order.isEmpty() && order.first() == first,
                 qPrintable(order.join(QStringLiteral(", "))));
        // The order given does not matter.
        QStringList reversed(paths.rbegin(), paths.rend());
        QCOMPARE(ranked(query, reversed).first(), first);
    }

    void aLongerQueryNarrowsThePreviousMatches()
    {
        const QStringList paths{QStringLiteral("a/main.py"),
                                QStringLiteral("b/maze.py"),
                                QStringLiteral("c/other.txt")};
        const QStringList lowered{paths.at(0), paths.at(1), paths.at(2)};
        const FuzzyMatcher::Ranking ma
            = FuzzyMatcher(QStringLiteral("ma")).rank(paths, lowered, nullptr, 10);
        QCOMPARE(ma.matches, (QList<int>{0, 1}));
        const FuzzyMatcher::Ranking mai
            = FuzzyMatcher(QStringLiteral("mai")).rank(paths, lowered, &ma.matches, 10);
        QCOMPARE(mai.matches, QList<int>{0});
        QCOMPARE(mai.best, QList<int>{0});
        // At most `limit` are ranked.
        QCOMPARE(FuzzyMatcher(QStringLiteral("a")).rank(paths, lowered, nullptr, 1).best.size(), 1);
    }
};

QTEST_APPLESS_MAIN(TestFuzzyMatch)
#include "tst_fuzzymatch.moc"
