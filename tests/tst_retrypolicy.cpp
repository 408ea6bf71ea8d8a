#include <app/llm/modelerror.h>
#include <app/llm/retrypolicy.h>

#include <QtTest>

using namespace Sandcastle;
using Headers = QMap<QByteArray, QByteArray>;

class TestRetryPolicy : public QObject
{
    Q_OBJECT

    const QDateTime m_now = QDateTime(QDate(2026, 12, 2), QTime(10, 0, 0), QTimeZone::utc());

private Q_SLOTS:
    void backsOffExponentiallyWithJitterAndACap()
    {
        RetryPolicy policy;
        policy.maxRetries = 10;
        QCOMPARE(policy.decide(0, true, {}, m_now, 0.0).delayMs, 500);
        QCOMPARE(policy.decide(1, true, {}, m_now, 0.0).delayMs, 1000);
        QCOMPARE(policy.decide(2, true, {}, m_now, 0.0).delayMs, 2000);
        QCOMPARE(policy.decide(6, true, {}, m_now, 0.0).delayMs, 8000);  // capped
        QCOMPARE(policy.decide(0, true, {}, m_now, 0.999).delayMs, 375); // at most 25 % less
        const int jittered = policy.decide(1, true, {}, m_now, 0.5).delayMs;
        QVERIFY(jittered >= 750 && jittered <= 1000);
    }

    void stopsAfterTwoRetriesAndNeverRetriesWhatCannotHelp()
    {
        RetryPolicy policy;
        QVERIFY(policy.decide(0, true, {}, m_now, 0).retry);
        QVERIFY(policy.decide(1, true, {}, m_now, 0).retry);
        QVERIFY(!policy.decide(2, true, {}, m_now, 0).retry);
        QVERIFY(!policy.decide(0, false, {}, m_now, 0).retry);
    }

    void honoursRetryAfterInSecondsMillisecondsAndHttpDates()
    {
        RetryPolicy policy;
        QCOMPARE(policy.decide(0, true, Headers{{"retry-after", "3"}}, m_now, 0.7).delayMs, 3000);
        QCOMPARE(
            policy
                .decide(
                    0, true, Headers{{"retry-after-ms", "1250"}, {"retry-after", "9"}}, m_now, 0)
                .delayMs,
            1250);
        QCOMPARE(
            policy
                .decide(
                    0, true, Headers{{"retry-after", "Wed, 02 Dec 2026 10:00:07 GMT"}}, m_now, 0)
                .delayMs,
            7000);
        QCOMPARE(
            policy
                .decide(
                    0, true, Headers{{"retry-after", "Wed, 02 Dec 2026 09:00:00 GMT"}}, m_now, 0)
                .delayMs,
            0);
        // unreadable or beyond a minute: our own backoff instead
        QCOMPARE(policy.decide(0, true, Headers{{"retry-after", "soon"}}, m_now, 0).delayMs, 500);
        QCOMPARE(policy.decide(0, true, Headers{{"retry-after", "3600"}}, m_now, 0).delayMs, 500);
    }

    void xShouldRetryOverridesTheStatus()
    {
        RetryPolicy policy;
        QVERIFY(policy.decide(0, false, Headers{{"x-should-retry", "true"}}, m_now, 0).retry);
        QVERIFY(!policy.decide(0, true, Headers{{"x-should-retry", "false"}}, m_now, 0).retry);
    }

    void classifiesStatusesIntoClearMessages_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("says");
        QTest::newRow("400") << 400 << QByteArray("{\"error\":{\"message\":\"bad tools\"}}")
                             << "bad_request" << false << "bad tools";
        QTest::newRow("401") << 401 << QByteArray("{\"error\":{\"message\":\"Incorrect API key\"}}")
                             << "auth" << false << "API key was rejected (401)";
        QTest::newRow("403") << 403 << QByteArray() << "forbidden" << false << "403";
        QTest::newRow("404") << 404 << QByteArray("{\"error\":\"model 'llama9' not found\"}")
                             << "not_found" << false << "Model 'm' not found";
        QTest::newRow("408") << 408 << QByteArray() << "timeout" << true << "408";
        QTest::newRow("409") << 409 << QByteArray() << "conflict" << true << "409";
        QTest::newRow("422") << 422 << QByteArray("{\"detail\":\"x\"}") << "unprocessable" << false
                             << "422";
        QTest::newRow("429")
            << 429
            << QByteArray(
                   "{\"error\":{\"message\":\"slow down\",\"code\":\"rate_limit_exceeded\"}}")
            << "rate_limited" << true << "Rate limited";
        QTest::newRow("quota") << 429
                               << QByteArray("{\"error\":{\"message\":\"You exceeded your current "
                                             "quota\",\"type\":\"insufficient_quota\"}}")
                               << "quota" << false << "quota";
        QTest::newRow("500") << 500 << QByteArray("oops") << "server_error" << true << "oops";
        QTest::newRow("503") << 503 << QByteArray("{\"error\":{\"message\":\"overloaded\"}}")
                             << "server_error" << true << "overloaded";
        QTest::newRow("418") << 418 << QByteArray() << "http_error" << false << "418";
    }

    void classifiesStatusesIntoClearMessages()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        QFETCH(bool, retryable);
        QFETCH(QString, says);
        const ModelError error = classifyHttpError(status, body, QStringLiteral("m"));
        QCOMPARE(error.code, code);
        QCOMPARE(error.retryable, retryable);
        QVERIFY2(error.message.contains(says), qPrintable(error.message));
    }
};

QTEST_GUILESS_MAIN(TestRetryPolicy)
#include "tst_retrypolicy.moc"
