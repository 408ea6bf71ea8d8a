#pragma once

#include <QFile>
#include <QString>
#include <QTextStream>
#include <QtTest>

#include <cstdio>

namespace Sandcastle::Testing {

// One case of the security suite (ctest label `security`). Made at the top of a test function,
// it records at the function's end, also when a QVERIFY returned early, whether the promise
// held: one line in the test's output ("SECURITY attack contained: fork bomb — ...") and one in
// $SANDCASTLE_SECURITY_RESULTS, from which scripts/test prints the suite's totals
// ("attacks contained: N/N", "faults survived: N/N"). A case holds only when every assertion
// of its function passed.
class SecurityCase
{
public:
    enum class Kind { Attack, Fault };

    // Run again on another engine (SANDCASTLE_TEST_ENGINE_LABEL, tests/CMakeLists.txt), a
    // case is recorded as "[podman] name": each engine's verdicts count on their own.
    SecurityCase(Kind kind, QString name)
        : m_kind(kind)
        , m_name(std::move(name))
    {
        const QString engine = qEnvironmentVariable("SANDCASTLE_TEST_ENGINE_LABEL");
        if (!engine.isEmpty())
            m_name = QLatin1Char('[') + engine + QStringLiteral("] ") + m_name;
    }
    SecurityCase(const SecurityCase &) = delete;
    SecurityCase &operator=(const SecurityCase &) = delete;

    // What was measured or seen, printed with the case's line.
    void note(const QString &detail) { m_detail = detail; }

    ~SecurityCase()
    {
        const bool held = !QTest::currentTestFailed();
        const bool attack = m_kind == Kind::Attack;
        const QString verdict
            = attack ? (held ? QStringLiteral("contained") : QStringLiteral("NOT CONTAINED"))
                     : (held ? QStringLiteral("survived") : QStringLiteral("NOT SURVIVED"));
        const QString kind = attack ? QStringLiteral("attack") : QStringLiteral("fault");
        QString line = QStringLiteral("SECURITY %1 %2: %3").arg(kind, verdict, m_name);
        if (!m_detail.isEmpty())
            line += QStringLiteral(" \u2014 ") + m_detail;
        std::fprintf(stdout, "%s\n", line.toUtf8().constData());
        std::fflush(stdout);
        tally(attack, held);
        const QString results = qEnvironmentVariable("SANDCASTLE_SECURITY_RESULTS");
        if (results.isEmpty())
            return;
        QFile file(results);
        if (file.open(QIODevice::Append | QIODevice::Text)) {
            // One write per line: suites run in parallel and append to the same file.
            const QByteArray record
                = QStringLiteral("%1\t%2\t%3\t%4\n")
                      .arg(kind,
                           held ? QStringLiteral("held") : QStringLiteral("broken"),
                           m_name,
                           QString(m_detail).replace(QLatin1Char('\n'), QLatin1Char(' ')))
                      .toUtf8();
            file.write(record);
        }
    }

    // The suite's own totals, for its cleanupTestCase().
    static void printTotals()
    {
        const Totals &t = totals();
        if (t.attacks > 0)
            std::fprintf(stdout, "attacks contained: %d/%d\n", t.contained, t.attacks);
        if (t.faults > 0)
            std::fprintf(stdout, "faults survived: %d/%d\n", t.survived, t.faults);
        std::fflush(stdout);
    }

private:
    struct Totals
    {
        int attacks = 0;
        int contained = 0;
        int faults = 0;
        int survived = 0;
    };
    static Totals &totals()
    {
        static Totals t;
        return t;
    }
    static void tally(bool attack, bool held)
    {
        Totals &t = totals();
        (attack ? t.attacks : t.faults) += 1;
        if (held)
            (attack ? t.contained : t.survived) += 1;
    }

    Kind m_kind;
    QString m_name;
    QString m_detail;
};

} // namespace Sandcastle::Testing
