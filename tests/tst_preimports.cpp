#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The kernel's background imports (kernel.py --preimport) in the real sandbox image: they
// happen, a module that is not there is harmless, the first run does not wait for them, and a
// small sandbox keeps its memory for the code.
class TestPreimports : public QObject
{
    Q_OBJECT

    QTemporaryDir m_workspace;

    std::unique_ptr<SandboxSession> startWith(const QStringList &modules,
                                              const QString &memory = QStringLiteral("1g"))
    {
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.workspace = m_workspace.path();
        config.conversationId = QStringLiteral("tst-preimports");
        config.preimports = modules;
        config.memory = memory;
        config.ownerData = QStringLiteral("tst-preimports-owner");
        auto session = std::make_unique<SandboxSession>(config);
        QSignalSpy ready(session.get(), &SandboxSession::ready);
        session->start();
        if (!ready.wait(60000))
            return nullptr;
        return session;
    }

    static ExecutionResult run(SandboxSession &session, const QString &code)
    {
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(code);
        return resultOf(finished);
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QVERIFY(m_workspace.isValid());
    }

    void theModulesAreImportedInTheBackgroundAndAMissingOneIsHarmless()
    {
        const auto session = startWith({QStringLiteral("numpy"),
                                        QStringLiteral("no_such_module_here"),
                                        QStringLiteral("pandas"),
                                        QStringLiteral("matplotlib.pyplot")});
        QVERIFY(session);
        QSignalSpy preimported(session.get(), &SandboxSession::preimported);
        // The first run goes at once, while the imports are under way, and is not broken.
        const ExecutionResult first = run(*session, QStringLiteral("print(6 * 7)"));
        QCOMPARE(first.status, ExecutionResult::Status::Ok);
        QCOMPARE(first.stdoutText.trimmed(), QStringLiteral("42"));
        QVERIFY(session->preimportsDone() || preimported.wait(30000));
        QCOMPARE(session->preimportedModules(),
                 QStringList({QStringLiteral("numpy"),
                              QStringLiteral("pandas"),
                              QStringLiteral("matplotlib.pyplot")}));
        QCOMPARE(session->failedPreimports(), QStringList{QStringLiteral("no_such_module_here")});
        // They are in the kernel the code runs in; the code's own import of the missing
        // module fails as it would have anyway.
        const ExecutionResult loaded
            = run(*session,
                  QStringLiteral("import sys\nprint(all(m in sys.modules for m in "
                                 "('numpy', 'pandas', 'matplotlib.pyplot')))"));
        QCOMPARE(loaded.stdoutText.trimmed(), QStringLiteral("True"));
        const ExecutionResult missing = run(*session, QStringLiteral("import no_such_module_here"));
        QCOMPARE(missing.status, ExecutionResult::Status::Error);
        QVERIFY2(missing.error.contains(QStringLiteral("ModuleNotFoundError")),
                 qPrintable(missing.error));
        // A chart still goes to outputs/ with pyplot imported on another thread.
        const ExecutionResult chart
            = run(*session,
                  QStringLiteral(
                      "import pandas as pd, matplotlib.pyplot as plt\n"
                      "df = pd.DataFrame({'x': range(10)})\nprint(df.describe().loc['max', 'x'])\n"
                      "plt.plot(df.x)\nplt.show()"));
        QCOMPARE(chart.status, ExecutionResult::Status::Ok);
        QCOMPARE(chart.stdoutText.trimmed(), QStringLiteral("9.0"));
        QVERIFY(!QDir(m_workspace.filePath(QStringLiteral("outputs")))
                     .entryList({QStringLiteral("*.png")})
                     .isEmpty());
    }

    void aRunThatComesFirstIsNotHeldUpByImportsItDoesNotNeed()
    {
        // The kernel waits for no import before a run; print(1) while pandas loads returns
        // well before the imports are done.
        const auto session = startWith({QStringLiteral("pandas"), QStringLiteral("scipy.stats")});
        QVERIFY(session);
        QSignalSpy preimported(session.get(), &SandboxSession::preimported);
        const ExecutionResult first = run(*session, QStringLiteral("print(1)"));
        QCOMPARE(first.status, ExecutionResult::Status::Ok);
        QVERIFY2(preimported.isEmpty() && !session->preimportsDone(),
                 "the imports were done before the first run's answer");
        QVERIFY(preimported.wait(30000));
        // What the status bar shows: this one sandbox of the data folder, and its memory (the
        // kernel with pandas and scipy loaded holds tens of megabytes).
        const ContainerEngine::Usage usage
            = ContainerEngine(session->config().engine, session->config().context)
                  .sandboxUsage(QStringLiteral("tst-preimports-owner"));
        QCOMPARE(usage.running, 1);
        QVERIFY2(usage.memoryBytes > 20 * 1000 * 1000,
                 qPrintable(QString::number(usage.memoryBytes)));
    }

    void aSmallSandboxKeepsItsMemoryForTheCode()
    {
        const auto session = startWith({QStringLiteral("numpy"), QStringLiteral("pandas")},
                                       QStringLiteral("256m"));
        QVERIFY(session);
        QSignalSpy preimported(session.get(), &SandboxSession::preimported);
        QVERIFY(session->preimportsDone() || preimported.wait(30000));
        QVERIFY(session->preimportedModules().isEmpty());
        QCOMPARE(session->failedPreimports().size(), 2);
        const ExecutionResult loaded
            = run(*session, QStringLiteral("import sys\nprint('pandas' in sys.modules)"));
        QCOMPARE(loaded.stdoutText.trimmed(), QStringLiteral("False"));
    }
};

QTEST_GUILESS_MAIN(TestPreimports)
#include "tst_preimports.moc"
