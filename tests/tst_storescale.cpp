// The store generator that bench_scale fills a million messages with, on a smaller store: what
// it writes is a sound database (SQLite's and FTS5's own integrity checks), the store reads it
// back as it was generated (every conversation listed with its count, each one's messages in
// order), and a word planted in a known message is found by the store's search. Not timed.
#include "storegenerator.h"

#include <support/datachecks.h>

#include <app/store/conversationstore.h>

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

using namespace Sandcastle;
using Sandcastle::Testing::DataChecks::rawValue;

namespace {

const QString kPlanted = QStringLiteral("quokkazephyr");
constexpr int kConversations = 50;
constexpr int kMessages = 20000;
constexpr int kPlantedConversation = 7;

} // namespace

class TestStoreScale : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    StoreGenerator::Generated m_generated;
    QString path() const { return m_dir.filePath(QStringLiteral("scale.sqlite3")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        StoreGenerator::Options options;
        options.conversations = kConversations;
        options.messages = kMessages;
        options.plantedWord = kPlanted;
        options.plantedConversation = kPlantedConversation;
        options.plantedMessage = 10;
        m_generated = StoreGenerator::generate(path(), options);
        QVERIFY2(m_generated.error.isEmpty(), qPrintable(m_generated.error));
        QCOMPARE(m_generated.ids.size(), kConversations);
        QCOMPARE(m_generated.messages, qint64(kMessages));
        QCOMPARE(std::accumulate(
                     m_generated.messageCounts.cbegin(), m_generated.messageCounts.cend(), 0),
                 kMessages);
        QVERIFY(m_generated.plantedMessageIndex >= 10);
        QVERIFY(m_generated.runs > 0);
    }

    void theDatabasePassesSqliteAndFts5IntegrityChecks()
    {
        QString error;
        QCOMPARE(rawValue(path(), QStringLiteral("PRAGMA integrity_check"), &error).toString(),
                 QStringLiteral("ok"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // FTS5 compares its index with the messages it was built from: an error if they differ.
        rawValue(path(),
                 QStringLiteral("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')"),
                 &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(rawValue(path(), QStringLiteral("SELECT count(*) FROM messages")).toInt(),
                 kMessages);
        QCOMPARE(rawValue(path(), QStringLiteral("SELECT count(*) FROM runs")).toLongLong(),
                 m_generated.runs);
        QCOMPARE(
            rawValue(path(), QStringLiteral("SELECT count(*) FROM runs WHERE status = 'running'"))
                .toInt(),
            0);
    }

    void everyConversationIsListedNewestFirstWithItsCount()
    {
        ConversationStore store;
        const Result<bool> opened = store.open(path());
        QVERIFY2(opened, qPrintable(opened.error()));
        const Result<QList<ConversationInfo>> listed = store.list();
        QVERIFY2(listed, qPrintable(listed.error()));
        QCOMPARE(listed.value().size(), kConversations);
        QSet<QString> seen;
        for (qsizetype i = 0; i < listed.value().size(); ++i) {
            const ConversationInfo &c = listed.value().at(i);
            const int index = m_generated.ids.indexOf(c.id);
            QVERIFY2(index >= 0, qPrintable(c.id));
            QCOMPARE(c.messageCount, m_generated.messageCounts.at(index));
            QVERIFY(!c.title.isEmpty());
            if (i > 0)
                QVERIFY(listed.value().at(i - 1).updatedMs >= c.updatedMs);
            seen.insert(c.id);
        }
        QCOMPARE(seen.size(), kConversations);
    }

    void theSizesAreSkewedAsTheBenchAssumes()
    {
        const int largest = m_generated.messageCounts.at(m_generated.largest());
        const int typical = m_generated.messageCounts.at(m_generated.typical());
        QVERIFY2(largest >= 3 * typical,
                 qPrintable(QStringLiteral("largest %1, typical %2").arg(largest).arg(typical)));
        QVERIFY(
            *std::min_element(m_generated.messageCounts.cbegin(), m_generated.messageCounts.cend())
            >= 2);
    }

    void thePlantedWordIsFoundInItsConversation()
    {
        ConversationStore store;
        QVERIFY(store.open(path()));
        for (const QString &query : {kPlanted, kPlanted.left(7), kPlanted.toUpper()}) {
            const Result<QList<SearchHit>> hits = store.search(query);
            QVERIFY2(hits, qPrintable(hits.error()));
            QCOMPARE(hits.value().size(), 1);
            QCOMPARE(hits.value().at(0).conversationId, m_generated.ids.at(kPlantedConversation));
            QCOMPARE(hits.value().at(0).role, QStringLiteral("user"));
            QVERIFY2(
                hits.value().at(0).snippet.contains(QLatin1Char('[') + kPlanted + QLatin1Char(']')),
                qPrintable(hits.value().at(0).snippet));
        }
        // Common words are everywhere; a word of no message is nowhere.
        const Result<QList<SearchHit>> common = store.search(QStringLiteral("the data"), 20);
        QVERIFY2(common, qPrintable(common.error()));
        QCOMPARE(common.value().size(), 20);
        QCOMPARE(store.search(QStringLiteral("zzqxnomatch")).value().size(), 0);
    }

    void aCommonWordsHitsAreItsNewestMatches()
    {
        QString error;
        const qint64 matches
            = rawValue(path(),
                       QStringLiteral("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH"
                                      " '\"the\"*'"),
                       &error)
                  .toLongLong();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(matches > 4000, qPrintable(QString::number(matches)));
        const qint64 oldest
            = rawValue(path(),
                       QStringLiteral("SELECT rowid FROM messages_fts WHERE messages_fts MATCH"
                                      " '\"the\"*' ORDER BY rowid DESC LIMIT 1 OFFSET 199"))
                  .toLongLong();
        QVERIFY(oldest > 0);
        ConversationStore store;
        QVERIFY(store.open(path()));
        const Result<QList<SearchHit>> hits = store.search(QStringLiteral("the"), 200);
        QVERIFY2(hits, qPrintable(hits.error()));
        QCOMPARE(hits.value().size(), 200);
        for (qsizetype i = 0; i < hits.value().size(); ++i) {
            const SearchHit &hit = hits.value().at(i);
            QVERIFY(hit.messageId >= oldest);
            if (i > 0)
                QVERIFY(hit.messageId < hits.value().at(i - 1).messageId);
            QVERIFY2(hit.snippet.contains(QStringLiteral("[")), qPrintable(hit.snippet));
        }
    }

    void eachConversationsMessagesComeBackInOrder()
    {
        ConversationStore store;
        QVERIFY(store.open(path()));
        for (int i = 0; i < kConversations; ++i) {
            const QString id = m_generated.ids.at(i);
            const Result<nlohmann::json> messages = store.messages(id);
            QVERIFY2(messages, qPrintable(messages.error()));
            QCOMPARE(int(messages.value().size()), m_generated.messageCounts.at(i));
            QCOMPARE(StoreGenerator::fingerprint(messages.value()), m_generated.fingerprints.at(i));
            // Every tool result answers the call just before it; every run is of a call made.
            QSet<QString> calls;
            for (std::size_t m = 0; m < messages.value().size(); ++m) {
                const nlohmann::json &message = messages.value()[m];
                if (message["role"] == "assistant" && message.contains("tool_calls"))
                    calls.insert(QString::fromStdString(message["tool_calls"][0]["id"]));
                if (message["role"] == "tool") {
                    QVERIFY(m > 0);
                    const nlohmann::json &before = messages.value()[m - 1];
                    QVERIFY(before.contains("tool_calls"));
                    QCOMPARE(before["tool_calls"][0]["id"], message["tool_call_id"]);
                }
            }
            const Result<QList<StoredRun>> runs = store.runs(id);
            QVERIFY2(runs, qPrintable(runs.error()));
            for (const StoredRun &run : runs.value()) {
                QVERIFY(run.origin == QStringLiteral("person") || calls.contains(run.toolCallId));
                QVERIFY(run.finishedMs > 0);
            }
            const Result<nlohmann::json> settings = store.settings(id);
            QVERIFY2(settings, qPrintable(settings.error()));
            QVERIFY(settings.value().contains("usage"));
            QVERIFY(settings.value().contains("model"));
        }
        const nlohmann::json planted = store.messages(m_generated.ids.at(kPlantedConversation))
                                           .value()[std::size_t(m_generated.plantedMessageIndex)];
        QCOMPARE(planted["role"], "user");
        QVERIFY(QString::fromStdString(planted["content"]).contains(kPlanted));
    }

    void theSameSeedMakesTheSameStore()
    {
        QTemporaryDir dir;
        StoreGenerator::Options options;
        options.conversations = 5;
        options.messages = 600;
        const auto a = StoreGenerator::generate(dir.filePath(QStringLiteral("a.sqlite3")), options);
        const auto b = StoreGenerator::generate(dir.filePath(QStringLiteral("b.sqlite3")), options);
        options.seed += 1;
        const auto c = StoreGenerator::generate(dir.filePath(QStringLiteral("c.sqlite3")), options);
        QVERIFY2(a.error.isEmpty() && b.error.isEmpty() && c.error.isEmpty(),
                 qPrintable(a.error + b.error + c.error));
        QCOMPARE(a.fingerprints, b.fingerprints);
        QCOMPARE(a.messageCounts, b.messageCounts);
        QVERIFY(a.fingerprints != c.fingerprints);
    }
};

QTEST_GUILESS_MAIN(TestStoreScale)
#include "tst_storescale.moc"
