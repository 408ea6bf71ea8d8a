#include <base/partialjson.h>

#include <QtTest>

using Sandcastle::partialJsonStringField;

class TestPartialJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decodesAFieldThatIsStillArriving()
    {
        const QString full = QStringLiteral(
            "{\"code\": \"numbers = [1, 2]\\nprint(\\\"mean\\\", sum(numbers))\"}");
        QString last;
        for (qsizetype n = 0; n <= full.size(); ++n) {
            const QString value = partialJsonStringField(full.left(n), QStringLiteral("code"));
            if (value.isNull())
                continue;
            QVERIFY2(value.startsWith(last) || last.startsWith(value), qPrintable(value));
            last = value;
        }
        QCOMPARE(last, QStringLiteral("numbers = [1, 2]\nprint(\"mean\", sum(numbers))"));
    }

    void isNullUntilTheValueStarts()
    {
        QVERIFY(partialJsonStringField(QStringLiteral("{\"co"), QStringLiteral("code")).isNull());
        QVERIFY(
            partialJsonStringField(QStringLiteral("{\"code\": "), QStringLiteral("code")).isNull());
        const QString started
            = partialJsonStringField(QStringLiteral("{\"code\": \""), QStringLiteral("code"));
        QVERIFY(!started.isNull());
        QVERIFY(started.isEmpty());
    }

    void skipsOtherFieldsOfAnyKind()
    {
        const QString json = QStringLiteral("{\"timeout_s\": 5, \"opts\": {\"a\": [1, \"}\"]}, "
                                            "\"note\": \"x,y\", \"code\": \"ok\"");
        QCOMPARE(partialJsonStringField(json, QStringLiteral("code")), QStringLiteral("ok"));
    }

    void dropsAnEscapeCutInHalfAndDecodesUnicode()
    {
        QCOMPARE(partialJsonStringField(QStringLiteral("{\"code\": \"a\\"), QStringLiteral("code")),
                 QStringLiteral("a"));
        QCOMPARE(partialJsonStringField(QStringLiteral("{\"code\": \"\\u00e9\\u2713"),
                                        QStringLiteral("code")),
                 QStringLiteral("é✓"));
        QCOMPARE(
            partialJsonStringField(QStringLiteral("{\"code\": \"\\u00e"), QStringLiteral("code")),
            QString());
    }

    void nonObjectsAndWrongTypesGiveNull()
    {
        QVERIFY(partialJsonStringField(QStringLiteral("[1,2]"), QStringLiteral("code")).isNull());
        QVERIFY(partialJsonStringField(QStringLiteral("{\"code\": 12}"), QStringLiteral("code"))
                    .isNull());
        QVERIFY(partialJsonStringField(QString(), QStringLiteral("code")).isNull());
    }
};

QTEST_GUILESS_MAIN(TestPartialJson)
#include "tst_partialjson.moc"
