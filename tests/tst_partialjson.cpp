#include <base/partialjson.h>

#include <QtTest>

#include <functional>
#include <limits>

using Sandcastle::jsonObjectStringFields;
using Sandcastle::partialJsonStringField;
using Sandcastle::PartialJsonStringField;

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

    // The reader that follows a growing text decodes only what is new, and must give exactly
    // what reading each prefix whole gives, however the text grows.
    void readingAGrowingTextGivesWhatReadingEachPrefixGives()
    {
        const QStringList texts{
            QStringLiteral("{\"code\": \"a = \\\"x\\\"\\n\\tb = '\\u00e9\\u2713\\ud83d\\ude00'\"}"),
            QStringLiteral("{\"language\": \"py\\\"thon\", \"n\": [1, {\"code\": 2}], "
                           "\"code\": \"print(1)\\\\\"}"),
            QStringLiteral("{\"code\": \"bad \\uZZZZ and more after it\"}"),
            QStringLiteral("{\"code\": 12, \"x\": \"y\"}"),
            QStringLiteral("{\"code\": \"\"}"),
            // Fields passed over in every shape, their strings holding brackets and escapes.
            QStringLiteral("{\"a\": [\"x]\", {\"b\": \"}\\\"\\u005d\"}], \"n\": -1.5e3, "
                           "\"t\": true, \"o\": {\"code\": \"inner\"}, \"code\": \"ok\"}"),
            QStringLiteral("{\"s\": \"bad \\uZZZZ\", \"code\": \"never reached\"}"),
            QStringLiteral("{\"s\": [\"bad \\uZZ\"], \"code\": \"never reached\"}"),
            QStringLiteral("{\"s\": \"x\" \"code\": \"not after a comma\"}"),
            QStringLiteral("{\"s\": 1}, \"code\": \"after the end\"}"),
        };
        for (const QString &text : texts) {
            for (const qsizetype step : {1, 2, 3, 7, 64}) {
                PartialJsonStringField reader(QStringLiteral("code"));
                for (qsizetype n = 0;; n = std::min(n + step, text.size())) {
                    const QString prefix = text.left(n);
                    const QString whole = partialJsonStringField(prefix, QStringLiteral("code"));
                    const QString grown = reader.read(prefix);
                    QVERIFY2(grown == whole && grown.isNull() == whole.isNull(),
                             qPrintable(QStringLiteral("%1 at %2 by %3: %4 against %5")
                                            .arg(text)
                                            .arg(n)
                                            .arg(step)
                                            .arg(grown, whole)));
                    if (n == text.size())
                        break;
                }
            }
        }
    }

    // Following a text whose first field is long (a file's content before the code, streamed
    // a few kilobytes at a time) passes over that field once: the reads together cost about
    // what one read of the whole text costs, not once per read (a quadratic scan made an agent
    // test take 27 s for 2 MB). Measured against that one read, in the same test.
    void followingALongFieldBeforeTheKeyReadsItOnce()
    {
        const QString text = QStringLiteral("{\"content\": \"")
                             + QString(4 * 1024 * 1024, QLatin1Char('a'))
                             + QStringLiteral("\\n\", \"code\": \"print(1)\"}");
        const auto best = [](const std::function<void()> &work) {
            qint64 fastest = std::numeric_limits<qint64>::max();
            for (int i = 0; i < 3; ++i) {
                QElapsedTimer clock;
                clock.start();
                work();
                fastest = qMin(fastest, clock.nsecsElapsed());
            }
            return fastest;
        };
        QString once;
        const qint64 whole
            = best([&] { once = PartialJsonStringField(QStringLiteral("code")).read(text); });
        QCOMPARE(once, QStringLiteral("print(1)"));
        QString followed;
        const qint64 piecewise = best([&] {
            PartialJsonStringField reader(QStringLiteral("code"));
            QString growing;
            growing.reserve(text.size());
            for (qsizetype at = 0; at < text.size(); at += 4096) {
                growing.append(QStringView(text).mid(at, 4096));
                followed = reader.read(growing);
            }
        });
        QCOMPARE(followed, QStringLiteral("print(1)"));
        // 1,025 reads: reading the text from the start each time costs about 500 times one read.
        QVERIFY2(piecewise < 25 * whole + 50'000'000,
                 qPrintable(QStringLiteral("1,025 reads took %1 ms, one read of it all %2 ms")
                                .arg(double(piecewise) / 1e6)
                                .arg(double(whole) / 1e6)));
    }

    void aShorterTextStartsTheReaderOver()
    {
        PartialJsonStringField reader(QStringLiteral("code"));
        QCOMPARE(reader.read(QStringLiteral("{\"code\": \"first call")),
                 QStringLiteral("first call"));
        QCOMPARE(reader.read(QStringLiteral("{\"code\": \"sec")), QStringLiteral("sec"));
        QVERIFY(reader.read(QStringLiteral("{")).isNull());
        QCOMPARE(reader.read(QStringLiteral("{\"code\": \"second\"}")), QStringLiteral("second"));
    }

    void readsTheStringFieldsOfAWholeObject()
    {
        const QStringList keys{QStringLiteral("code"), QStringLiteral("path")};
        const auto fields = jsonObjectStringFields(
            QStringLiteral(
                "{\"n\": {\"code\": \"inner\"}, \"code\": \"a\\nb\", \"list\": [1, \"]\"], "
                "\"path\": \"x.py\", \"other\": true}"),
            keys);
        QVERIFY(fields);
        QCOMPARE(fields->value(QStringLiteral("code")), QStringLiteral("a\nb"));
        QCOMPARE(fields->value(QStringLiteral("path")), QStringLiteral("x.py"));
        QCOMPARE(fields->size(), 2); // only what was asked for

        // Of duplicates the last counts, as a JSON parser keeps it: what is shown is what runs.
        const auto twice = jsonObjectStringFields(
            QStringLiteral("{\"code\": \"print(1)\", \"code\": \"print(2)\"}"), keys);
        QVERIFY(twice);
        QCOMPARE(twice->value(QStringLiteral("code")), QStringLiteral("print(2)"));
        const auto replaced
            = jsonObjectStringFields(QStringLiteral("{\"code\": \"print(1)\", \"code\": 7}"), keys);
        QVERIFY(replaced);
        QVERIFY(!replaced->contains(QStringLiteral("code")));

        const auto empty = jsonObjectStringFields(QStringLiteral(" { } "), keys);
        QVERIFY(empty && empty->isEmpty());
        QCOMPARE(jsonObjectStringFields(QStringLiteral("{\"code\": \"\"}"), keys)
                     ->value(QStringLiteral("code")),
                 QString(QStringLiteral("")));
        for (const char *bad : {"",
                                "[1]",
                                "{\"code\": \"cut",
                                "{\"code\" \"x\"}",
                                "{\"code\": \"x\" \"y\"}",
                                "{\"code\": \"x\",",
                                "{\"code\": {\"a\": 1}"})
            QVERIFY2(!jsonObjectStringFields(QString::fromLatin1(bad), keys), bad);
    }
};

QTEST_GUILESS_MAIN(TestPartialJson)
#include "tst_partialjson.moc"
