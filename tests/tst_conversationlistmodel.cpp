#include <app/store/conversationstore.h>
#include <ui/conversations/conversationlistmodel.h>

#include <support/modelcheck.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

// The conversation list as a model over a real store, checked throughout by
// QAbstractItemModelTester: listing, filtering by full-text search, renaming in place.
class TestConversationListModel : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ConversationStore> m_store;

    void add(const QString &id, const QString &title, const char *message)
    {
        QVERIFY(m_store->create(id, title, m_dir->filePath(id), true));
        QVERIFY(m_store->addMessage(id, {{"role", "user"}, {"content", message}}));
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_store = std::make_unique<ConversationStore>();
        QVERIFY(m_store->open(m_dir->filePath(QStringLiteral("store.sqlite3"))));
        add(QStringLiteral("a"), QStringLiteral("Penguins"), "count the penguins in the photo");
        add(QStringLiteral("b"), QStringLiteral("Median"), "the median of the incomes");
        add(QStringLiteral("c"), QStringLiteral("Zebra stripes"), "plot a sine wave");
    }

    void cleanup()
    {
        m_store.reset();
        m_dir.reset();
    }

    void listsEveryConversationWithItsRoles()
    {
        ConversationListModel model(m_store.get());
        checkModel(&model);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowCount(model.index(0)), 0); // a list: no children
        const int penguins = model.rowOf(QStringLiteral("a"));
        QVERIFY(penguins >= 0);
        const QModelIndex row = model.index(penguins);
        QCOMPARE(row.data(Qt::EditRole).toString(), QStringLiteral("Penguins"));
        QCOMPARE(row.data(ConversationListModel::IdRole).toString(), QStringLiteral("a"));
        QCOMPARE(row.data(ConversationListModel::MessageCountRole).toInt(), 1);
        QVERIFY(row.flags() & Qt::ItemIsEditable);
        QCOMPARE(model.idAt(penguins), QStringLiteral("a"));
        QCOMPARE(model.idAt(3), QString());
        QCOMPARE(model.rowOf(QStringLiteral("nope")), -1);
    }

    void aFilterKeepsMatchingMessagesAndTitlesWithASnippet()
    {
        ConversationListModel model(m_store.get());
        checkModel(&model);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setFilter(QStringLiteral("  median "));
        QCOMPARE(model.filter(), QStringLiteral("median"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.idAt(0), QStringLiteral("b"));
        QVERIFY(!model.index(0).data(ConversationListModel::SnippetRole).toString().isEmpty());
        model.setFilter(QStringLiteral("zebra")); // only the title matches
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.idAt(0), QStringLiteral("c"));
        model.setFilter(QStringLiteral("zebra")); // unchanged: no reset
        QCOMPARE(reset.size(), 2);
        model.setFilter(QString());
        QCOMPARE(model.rowCount(), 3);
    }

    void renamingInPlaceWritesTheStoreAndRefusesABlankTitle()
    {
        ConversationListModel model(m_store.get());
        checkModel(&model);
        const QModelIndex row = model.index(model.rowOf(QStringLiteral("c")));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(row, QStringLiteral("  Sine  ")));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(row.data(Qt::EditRole).toString(), QStringLiteral("Sine"));
        QCOMPARE(m_store->conversation(QStringLiteral("c")).value().title, QStringLiteral("Sine"));
        QVERIFY(!model.setData(row, QStringLiteral("   ")));
        QVERIFY(!model.lastError().isEmpty());
        QVERIFY(!model.setData(row, QStringLiteral("x"), Qt::DisplayRole));
    }

    void aConversationOnAFolderNamesItAndTheListCanShowOneFolder()
    {
        QVERIFY(m_store->create(QStringLiteral("p"),
                                QStringLiteral("Fix the parser"),
                                QStringLiteral("/home/ada/parser-project"),
                                false));
        QVERIFY(m_store->create(QStringLiteral("q"),
                                QStringLiteral("Penguin report"),
                                QStringLiteral("/home/ada/zoo"),
                                false));
        ConversationListModel model(m_store.get());
        checkModel(&model);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.folders(),
                 (QStringList{QStringLiteral("/home/ada/parser-project"),
                              QStringLiteral("/home/ada/zoo")}));
        const QModelIndex parser = model.index(model.rowOf(QStringLiteral("p")));
        QCOMPARE(parser.data(ConversationListModel::FolderRole).toString(),
                 QStringLiteral("/home/ada/parser-project"));
        QVERIFY(parser.data(Qt::DisplayRole).toString().contains(QLatin1String("parser-project")));
        QVERIFY(parser.data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("/home/ada/parser-project")));
        // Sandcastle's own workspaces are no folder of the person's.
        QCOMPARE(model.index(model.rowOf(QStringLiteral("a")))
                     .data(ConversationListModel::FolderRole)
                     .toString(),
                 QString());
        model.setFolderFilter(QStringLiteral("/home/ada/zoo"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.idAt(0), QStringLiteral("q"));
        // With a search too: only that folder's matches.
        model.setFilter(QStringLiteral("penguin"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.idAt(0), QStringLiteral("q"));
        model.setFolderFilter(QString());
        QCOMPARE(model.rowCount(), 2); // "Penguins" (a message) and "Penguin report" (the title)
    }

    void aRefreshAfterADeleteDropsTheRow()
    {
        ConversationListModel model(m_store.get());
        checkModel(&model);
        QVERIFY(m_store->remove(QStringLiteral("b")));
        model.refresh();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(QStringLiteral("b")), -1);
    }

    void aClosedStoreIsAnEmptyList()
    {
        ConversationStore closed;
        ConversationListModel model(&closed);
        checkModel(&model);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.setData(model.index(0), QStringLiteral("x")));
    }
};

QTEST_GUILESS_MAIN(TestConversationListModel)
#include "tst_conversationlistmodel.moc"
