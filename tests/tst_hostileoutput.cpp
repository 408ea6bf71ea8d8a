#include <app/agent/tools.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/securitycase.h>
#include <support/testtimeouts.h>
#include <ui/console/consolepane.h>

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::LoadGauge;
using Sandcastle::Testing::SecurityCase;

// Hostile output from code in the real sandbox, streamed into the real console widget as the
// window does: nothing in it acts (clipboard, title, links, cursor, bidi reordering), every
// byte shows as something visible, and the model's copy of the result is valid UTF-8.
class TestHostileOutput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_workspace;
    std::unique_ptr<SandboxSession> m_session;
    const QString m_title = QStringLiteral("Sandcastle \u2014 hostile output");
    const QString m_clip = QStringLiteral("the person's clipboard");

    // Any character that would act or hide in a terminal or in text layout.
    static QString firstActiveCharacter(const QString &text)
    {
        for (const QChar c : text) {
            const char16_t u = c.unicode();
            const bool control
                = (u < 0x20 && u != u'\n' && u != u'\t') || u == 0x7f || (u >= 0x80 && u < 0xa0);
            const bool bidi = u == 0x061c || u == 0x200e || u == 0x200f
                              || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
            if (control || bidi)
                return QStringLiteral("U+%1").arg(int(u), 4, 16, QLatin1Char('0'));
        }
        return {};
    }

    static bool hasAnchors(const QTextDocument *document)
    {
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (it.fragment().charFormat().isAnchor())
                    return true;
            }
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QVERIFY(m_workspace.isValid());
        m_session
            = Sandcastle::Testing::readySession(m_workspace.path(), QStringLiteral("tst-hostile"));
        QVERIFY2(m_session, "the session did not become ready");
    }

    void cleanupTestCase()
    {
        m_session.reset();
        SecurityCase::printTotals();
    }

    void theConsoleShowsItInertAndTheModelGetsValidUtf8_data()
    {
        QTest::addColumn<QString>("code");    // Python that writes the bytes to stdout
        QTest::addColumn<QString>("visible"); // what the console must show
        QTest::addColumn<QString>("absent");  // what must not show

        QTest::newRow("invalid UTF-8")
            << QStringLiteral("out(b'ok \\xff\\xfe\\xc3( \\xed\\xa0\\x80 end\\n')")
            << QStringLiteral("ok \uFFFD") << QString();
        QTest::newRow("NUL bytes") << QStringLiteral("out(b'a\\x00b\\x00c\\n')")
                                   << QStringLiteral("a\u2400b\u2400c") << QString();
        QTest::newRow("OSC 52 clipboard")
            << QStringLiteral("out(b'\\x1b]52;c;cm0gLXJmIH4=\\x07visible\\n')")
            << QStringLiteral("visible") << QStringLiteral("cm0g");
        QTest::newRow("OSC 8 hyperlink")
            << QStringLiteral(
                   "out(b'\\x1b]8;;http://evil.example/\\x1b\\\\click me\\x1b]8;;\\x1b\\\\\\n')")
            << QStringLiteral("click me") << QStringLiteral("evil.example");
        QTest::newRow("title change")
            << QStringLiteral("out(b'\\x1b]0;pwned\\x07\\x1b]2;pwned\\x1b\\\\after title\\n')")
            << QStringLiteral("after title") << QStringLiteral("pwned");
        QTest::newRow("cursor movement")
            << QStringLiteral("out(b'line one\\n\\x1b[1A\\x1b[2K\\x1b[H\\x1b[10;10Hover\\x1b[J"
                              "\\x1b[?1049h\\n')")
            << QStringLiteral("line one\nover") << QString();
        QTest::newRow("bidi override")
            << QStringLiteral("out('access = \"user\" \\u202e \\u2066# admin\\u2069 \\u202c\\n'"
                              ".encode())")
            << QStringLiteral("<U+202E>") << QString();
        QTest::newRow("10 MB line") << QStringLiteral("out(b'y' * 10_000_000 + b'\\n')")
                                    << QStringLiteral("yyyyyyyy") << QString();
        QTest::newRow("CR-only progress bar")
            << QStringLiteral("out(b''.join(b'\\rprogress %3d%%' % i for i in range(0, 101, 5)) "
                              "+ b'\\n')")
            << QStringLiteral("progress 100%") << QStringLiteral("progress  50%");
    }

    void theConsoleShowsItInertAndTheModelGetsValidUtf8()
    {
        QFETCH(QString, code);
        QFETCH(QString, visible);
        QFETCH(QString, absent);
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("hostile output: ") + QLatin1String(QTest::currentDataTag()));
        QWidget window;
        window.setWindowTitle(m_title);
        auto *layout = new QVBoxLayout(&window);
        auto *console = new ConsolePane(&window);
        layout->addWidget(console);
        window.resize(900, 500);
        window.show();
        QApplication::clipboard()->setText(m_clip);
        // The event loop's worst stall while the output streams in and is painted.
        const LoadGauge load(LoadGauge::Reads::BeforeAndAfter); // the output is the load
        qint64 worstStallMs = 0;
        QElapsedTimer sinceTick;
        sinceTick.start();
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] {
            worstStallMs = qMax(worstStallMs, sinceTick.restart() - 5);
        });
        ticker.start(5);

        console->beginRun(QStringLiteral("hostile"));
        auto connection = connect(
            m_session.get(), &SandboxSession::outputReady, console, &ConsolePane::appendOutput);
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        m_session->runPython(QStringLiteral("import sys\n"
                                            "def out(data):\n"
                                            "    sys.stdout.flush()\n"
                                            "    sys.stdout.buffer.write(data)\n"
                                            "    sys.stdout.buffer.flush()\n")
                             + code);
        QVERIFY(finished.wait(120000));
        disconnect(connection);
        const auto result = finished.first().at(0).value<ExecutionResult>();
        console->endRun(result);
        QTRY_VERIFY_WITH_TIMEOUT(!console->isPainting(), 60000);
        ticker.stop();
        QVERIFY2(result.status == ExecutionResult::Status::Ok,
                 qPrintable(ExecutionResult::statusName(result.status) + result.error));

        const QString shown = console->toPlainText();
        QVERIFY2(shown.contains(visible), qPrintable(shown.right(300)));
        if (!absent.isEmpty())
            QVERIFY2(!shown.contains(absent), qPrintable(shown.right(300)));
        const QString active = firstActiveCharacter(shown);
        QVERIFY2(active.isEmpty(), qPrintable(QStringLiteral("the console holds ") + active));
        QVERIFY(!hasAnchors(console->document()));
        QCOMPARE(window.windowTitle(), m_title);
        QCOMPARE(QApplication::clipboard()->text(), m_clip);
        // Painted a slice at a time: the window never froze (500 ms on an idle machine; on a
        // busy one, times how much slower it runs the test).
        const LoadGauge::Budget stallLimit = load.budget(500);
        QVERIFY2(worstStallMs < stallLimit.ms,
                 qPrintable(QStringLiteral("stalled %1 ms, over %2")
                                .arg(worstStallMs)
                                .arg(stallLimit.describe())));

        // The model's copy: valid UTF-8 JSON, invalid input bytes replaced, nothing dropped.
        std::string json;
        try {
            json = Tools::resultJson(result).dump();
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        const QByteArray bytes = QByteArray::fromStdString(json);
        QCOMPARE(QString::fromUtf8(bytes).toUtf8(), bytes);
        QVERIFY(nlohmann::json::parse(json, nullptr, false).is_object());
        c.note(QStringLiteral("shown inert, window never stalled over %1 ms; the model got %2 "
                              "bytes of valid UTF-8")
                   .arg(worstStallMs)
                   .arg(bytes.size()));
    }
};

QTEST_MAIN(TestHostileOutput)
#include "tst_hostileoutput.moc"
