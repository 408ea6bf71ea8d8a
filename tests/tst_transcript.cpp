#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>

#include <support/modelcheck.h>
#include <support/testtimeouts.h>

#include <QListView>
#include <QSignalSpy>
#include <QtTest>

using namespace Sandcastle;

namespace {

using Kind = TranscriptModel::Kind;

Kind kindAt(const TranscriptModel &model, int row)
{
    return model.index(row).data(TranscriptModel::KindRole).value<Kind>();
}

QVariant roleAt(const TranscriptModel &model, int row, int role)
{
    return model.index(row).data(role);
}

// A conversation as the store keeps it: a question, an answer with reasoning that ran code
// twice (an error, then the fix), and the final answer.
nlohmann::json storedConversation()
{
    using json = nlohmann::json;
    auto call = [](const char *id, const char *name, const json &arguments) {
        return json{{"id", id},
                    {"type", "function"},
                    {"function", {{"name", name}, {"arguments", arguments.dump()}}}};
    };
    auto result = [](const char *id, const json &content) {
        return json{{"role", "tool"}, {"tool_call_id", id}, {"content", content.dump()}};
    };
    return json::array(
        {{{"role", "system"}, {"content", "You are Sandcastle."}},
         {{"role", "user"}, {"content", "Plot the squares"}},
         {{"role", "assistant"},
          {"content", ""},
          {"reasoning", "The person wants a chart."},
          {"tool_calls",
           json::array({call("c1", "run_python", {{"code", "import matplotlib\nplot()"}})})}},
         result("c1",
                {{"status", "error"},
                 {"exit_code", 1},
                 {"duration_ms", 120},
                 {"files", json::array()}}),
         {{"role", "assistant"},
          {"content", nullptr},
          {"tool_calls",
           json::array({call("c2", "write_file", {{"path", "notes.txt"}, {"content", "hi"}})})}},
         result("c2",
                {{"status", "ok"},
                 {"exit_code", 0},
                 {"duration_ms", 3},
                 {"files", json::array({"notes.txt"})}}),
         result("nobody", {{"status", "ok"}}),
         {{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "not json"}},
         "not a message",
         {{"role", "assistant"}, {"content", "Here is **the chart**."}}});
}

QString longCode(int lines)
{
    QStringList out;
    for (int i = 0; i < lines; ++i)
        out << QStringLiteral("print(%1)").arg(i);
    return out.join(QLatin1Char('\n'));
}

} // namespace

// The chat transcript: its model (what is said, streamed at most once per frame) and its view
// (cards that open and close, Open in editor, Retry), offscreen.
class TestTranscript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void streamedTextIsAnnouncedAtMostOncePerFrame()
    {
        TranscriptModel model;
        checkModel(&model);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        for (int i = 0; i < 1000; ++i)
            model.appendAssistantText(QStringLiteral("tok%1 ").arg(i));
        QCOMPARE(model.rowCount(), 1); // one answer, started by the first token
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(changed.size(), 0); // nothing repainted until the frame
        QVERIFY(model.index(0)
                    .data(TranscriptModel::TextRole)
                    .toString()
                    .endsWith(QStringLiteral("tok999 ")));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, Sandcastle::Testing::kWaitMs);
        QCOMPARE(model.pendingRows(), 0);
        QVERIFY(roleAt(model, 0, TranscriptModel::StreamingRole).toBool());
        model.appendAssistantText(QStringLiteral("last"));
        model.endAssistantMessage(); // the finished answer is shown at once
        QCOMPARE(changed.size(), 2);
        QVERIFY(!roleAt(model, 0, TranscriptModel::StreamingRole).toBool());
        model.appendAssistantText(QStringLiteral("next answer"));
        QCOMPARE(model.rowCount(), 2);
    }

    void aChangeAfterAQuietFrameIsAnnouncedWithoutWaitingForTheFrame()
    {
        TranscriptModel model;
        checkModel(&model);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.appendAssistantText(QStringLiteral("a"));
        QTest::qWait(40); // quiet: the next token is shown at the next turn of the loop
        const int before = int(changed.size());
        model.appendAssistantText(QStringLiteral("b"));
        QCOMPARE(int(changed.size()), before); // not inside the call: at the loop's next turn
        QCoreApplication::processEvents();
        QCOMPARE(int(changed.size()), before + 1);
        // Straight after that announcement, the next waits for the frame to end.
        model.appendAssistantText(QStringLiteral("c"));
        QCoreApplication::processEvents();
        QCOMPARE(int(changed.size()), before + 1);
        QTRY_COMPARE(int(changed.size()), before + 2);
    }

    void aStreamingAnswerRendersOnlyItsLastPieceAgain()
    {
        ChatPane chat;
        checkModel(chat.transcriptModel());
        chat.resize(600, 400);
        chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chat));
        TranscriptDelegate *delegate = chat.transcriptDelegate();
        QString paragraph;
        for (int i = 0; i < 30; ++i)
            paragraph += QStringLiteral("word ");
        // Forty paragraphs, streamed a few characters at a time, painted as they come.
        int frames = 0;
        const QString answer = QString(paragraph + QStringLiteral("\n\n")).repeated(40);
        for (qsizetype i = 0; i < answer.size(); i += 16) {
            chat.appendAssistantText(answer.mid(i, 16));
            chat.transcriptModel()->flush();
            chat.transcriptView()->viewport()->repaint();
            ++frames;
        }
        // Each frame rendered the piece being written, and each finished paragraph once more
        // at most (when it became complete): not the whole answer every frame.
        QVERIFY2(delegate->renderedChunks() <= frames + 2 * 40,
                 qPrintable(QString::number(delegate->renderedChunks())));
        QVERIFY(frames > 100);
    }

    void reasoningStreamsIntoTheAnswerAndStartsCollapsed()
    {
        TranscriptModel model;
        checkModel(&model);
        model.appendReasoning(QStringLiteral("Think first. "));
        model.appendReasoning(QStringLiteral("Then answer."));
        model.appendAssistantText(QStringLiteral("42"));
        model.endAssistantMessage();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(roleAt(model, 0, TranscriptModel::ReasoningRole).toString(),
                 QStringLiteral("Think first. Then answer."));
        QCOMPARE(roleAt(model, 0, TranscriptModel::TextRole).toString(), QStringLiteral("42"));
        QVERIFY(!roleAt(model, 0, TranscriptModel::ExpandedRole).toBool());
    }

    void aToolCallIsACardThatTheResultCompletes()
    {
        TranscriptModel model;
        checkModel(&model);
        model.addUserMessage(QStringLiteral("go"));
        model.appendAssistantText(QStringLiteral("Running it."));
        model.addToolCall(QStringLiteral("call_1"),
                          QStringLiteral("run_python"),
                          TranscriptModel::toolDetail(QStringLiteral("run_python"),
                                                      QStringLiteral("{\"code\":\"print(1)\"}")));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(kindAt(model, 1), Kind::Assistant);
        QVERIFY(!roleAt(model, 1, TranscriptModel::StreamingRole).toBool()); // ended by the call
        QCOMPARE(kindAt(model, 2), Kind::Tool);
        QCOMPARE(roleAt(model, 2, TranscriptModel::TextRole).toString(),
                 QStringLiteral("print(1)"));
        QCOMPARE(roleAt(model, 2, TranscriptModel::StatusRole).toString(),
                 QStringLiteral("running"));
        QCOMPARE(roleAt(model, 2, TranscriptModel::DurationRole).toLongLong(), -1);
        const auto before = roleAt(model, 2, TranscriptModel::RevisionRole).toUInt();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setToolResult(QStringLiteral("call_1"),
                            QStringLiteral("error"),
                            1,
                            1234,
                            {QStringLiteral("out.csv")});
        QCOMPARE(changed.size(), 1); // shown at once
        QCOMPARE(roleAt(model, 2, TranscriptModel::StatusRole).toString(), QStringLiteral("error"));
        QCOMPARE(roleAt(model, 2, TranscriptModel::ExitCodeRole).toInt(), 1);
        QCOMPARE(roleAt(model, 2, TranscriptModel::DurationRole).toLongLong(), 1234);
        QCOMPARE(roleAt(model, 2, TranscriptModel::FilesRole).toStringList(),
                 QStringList{QStringLiteral("out.csv")});
        QVERIFY(roleAt(model, 2, TranscriptModel::RevisionRole).toUInt() != before);
        QVERIFY(model.plainText().contains(QStringLiteral("run_python error exit 1 1234 ms")));
        model.setToolResult(QStringLiteral("no such call"), QStringLiteral("ok"), 0, 1, {});
        QCOMPARE(model.rowCount(), 3);
    }

    void aCardShowsTheCodeOrThePathOfEachTool()
    {
        QCOMPARE(TranscriptModel::toolDetail(QStringLiteral("run_shell"),
                                             QStringLiteral("{\"code\":\"ls -l\"}")),
                 QStringLiteral("ls -l"));
        QCOMPARE(TranscriptModel::toolDetail(QStringLiteral("read_file"),
                                             QStringLiteral("{\"path\":\"data.csv\"}")),
                 QStringLiteral("data.csv"));
        QCOMPARE(
            TranscriptModel::toolDetail(QStringLiteral("write_file"),
                                        QStringLiteral("{\"path\":\"a.txt\",\"content\":\"x\"}")),
            QStringLiteral("a.txt\nx"));
        QCOMPARE(
            TranscriptModel::toolDetail(QStringLiteral("run_python"), QStringLiteral("{not json")),
            QStringLiteral("{not json")); // shown as it came
        QCOMPARE(TranscriptModel::toolDetail(QStringLiteral("list_files"), QStringLiteral("{}")),
                 QString());
    }

    void onlyTheNewestErrorOffersRetry()
    {
        TranscriptModel model;
        checkModel(&model);
        model.addError(QStringLiteral("server busy"), true);
        model.addError(QStringLiteral("server busy again"), true);
        model.addError(QStringLiteral("bad key"), false);
        QVERIFY(!roleAt(model, 0, TranscriptModel::RetryableRole).toBool());
        QVERIFY(!roleAt(model, 1, TranscriptModel::RetryableRole).toBool());
        QVERIFY(!roleAt(model, 2, TranscriptModel::RetryableRole).toBool());
        model.addError(QStringLiteral("timed out"), true);
        QVERIFY(roleAt(model, 3, TranscriptModel::RetryableRole).toBool());
        QVERIFY(model.plainText(3).endsWith(QStringLiteral("timed out Retry")));
    }

    void aNoticeAfterANoticeReplacesIt()
    {
        TranscriptModel model;
        checkModel(&model);
        model.appendAssistantText(QStringLiteral("partial"));
        model.addNotice(QStringLiteral("retrying (attempt 1)"));
        model.addNotice(QStringLiteral("retrying (attempt 2)"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(kindAt(model, 1), Kind::Notice);
        QCOMPARE(roleAt(model, 1, TranscriptModel::TextRole).toString(),
                 QStringLiteral("retrying (attempt 2)"));
        QVERIFY(!roleAt(model, 0, TranscriptModel::StreamingRole).toBool());
        model.appendAssistantText(QStringLiteral("answer"));
        model.addNotice(QStringLiteral("summarised"));
        QCOMPARE(model.rowCount(), 4); // not after an answer: a new one
    }

    void aStoredConversationShowsAsItWasHad()
    {
        TranscriptModel model;
        checkModel(&model);
        model.loadHistory(storedConversation());
        // system and junk left out; orphan or broken results ignored
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(kindAt(model, 0), Kind::User);
        QCOMPARE(kindAt(model, 1), Kind::Assistant);
        QCOMPARE(roleAt(model, 1, TranscriptModel::ReasoningRole).toString(),
                 QStringLiteral("The person wants a chart."));
        QCOMPARE(kindAt(model, 2), Kind::Tool);
        QCOMPARE(roleAt(model, 2, TranscriptModel::TextRole).toString(),
                 QStringLiteral("import matplotlib\nplot()"));
        QCOMPARE(roleAt(model, 2, TranscriptModel::StatusRole).toString(), QStringLiteral("error"));
        QCOMPARE(roleAt(model, 2, TranscriptModel::ExitCodeRole).toInt(), 1);
        QCOMPARE(roleAt(model, 2, TranscriptModel::DurationRole).toLongLong(), 120);
        QCOMPARE(kindAt(model, 3), Kind::Tool);
        QCOMPARE(roleAt(model, 3, TranscriptModel::ToolNameRole).toString(),
                 QStringLiteral("write_file"));
        QCOMPARE(roleAt(model, 3, TranscriptModel::FilesRole).toStringList(),
                 QStringList{QStringLiteral("notes.txt")});
        QCOMPARE(kindAt(model, 4), Kind::Assistant);
        QCOMPARE(roleAt(model, 4, TranscriptModel::TextRole).toString(),
                 QStringLiteral("Here is **the chart**."));
        model.loadHistory(nlohmann::json::object()); // not a list: an empty transcript
        QCOMPARE(model.rowCount(), 0);
    }

    void cardsAndReasoningOpenAndCloseWhereTheyAreClicked()
    {
        ChatPane chat;
        checkModel(chat.transcriptModel());
        chat.resize(600, 500);
        chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chat));
        TranscriptModel *model = chat.transcriptModel();
        model->loadHistory(storedConversation());
        model->addToolCall(QStringLiteral("big"), QStringLiteral("run_python"), longCode(40));
        QListView *view = chat.transcriptView();
        const int card = model->rowCount() - 1;
        const QModelIndex cardIndex = model->index(card);
        view->scrollTo(cardIndex);
        const int collapsed = view->visualRect(cardIndex).height();

        TranscriptDelegate *delegate = chat.transcriptDelegate();
        QPoint header = view->visualRect(cardIndex).topLeft()
                        + delegate->partRect(cardIndex, TranscriptDelegate::Hit::Toggle).center();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, header);
        QVERIFY(model->index(card).data(TranscriptModel::ExpandedRole).toBool());
        QTRY_VERIFY(view->visualRect(cardIndex).height() > collapsed * 3); // all 40 lines
        view->scrollTo(cardIndex);
        header = view->visualRect(cardIndex).topLeft()
                 + delegate->partRect(cardIndex, TranscriptDelegate::Hit::Toggle).center();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, header);
        QTRY_COMPARE(view->visualRect(cardIndex).height(), collapsed);

        // The answer's reasoning is behind a toggle of its own.
        const QModelIndex answer = model->index(1);
        view->scrollTo(answer);
        const int folded = view->visualRect(answer).height();
        const QRect toggle = delegate->partRect(answer, TranscriptDelegate::Hit::Toggle);
        QVERIFY(!toggle.isEmpty());
        QTest::mouseClick(view->viewport(),
                          Qt::LeftButton,
                          {},
                          view->visualRect(answer).topLeft() + toggle.center());
        QVERIFY(answer.data(TranscriptModel::ExpandedRole).toBool());
        QTRY_VERIFY(view->visualRect(answer).height() > folded);

        // Space on the current row does the same from the keyboard.
        view->setFocus();
        view->setCurrentIndex(cardIndex);
        QTest::keyClick(view, Qt::Key_Space);
        QVERIFY(cardIndex.data(TranscriptModel::ExpandedRole).toBool());
    }

    void openInEditorAndRetryAreButtonsOnTheirRows()
    {
        ChatPane chat;
        checkModel(chat.transcriptModel());
        chat.resize(600, 400);
        chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chat));
        TranscriptModel *model = chat.transcriptModel();
        chat.addToolCall(QStringLiteral("c9"),
                         QStringLiteral("run_python"),
                         QStringLiteral("{\"code\":\"x = 1\\nprint(x)\"}"));
        chat.addToolCall(QStringLiteral("c10"),
                         QStringLiteral("read_file"),
                         QStringLiteral("{\"path\":\"a.txt\"}"));
        chat.addError(QStringLiteral("The server is overloaded"), true);
        QListView *view = chat.transcriptView();
        TranscriptDelegate *delegate = chat.transcriptDelegate();

        QSignalSpy open(&chat, &ChatPane::openInEditorRequested);
        const QModelIndex card = model->index(0);
        const QRect button = delegate->partRect(card, TranscriptDelegate::Hit::OpenInEditor);
        QVERIFY(!button.isEmpty());
        QTest::mouseClick(view->viewport(),
                          Qt::LeftButton,
                          {},
                          view->visualRect(card).topLeft() + button.center());
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), QStringLiteral("c9"));
        QCOMPARE(open.at(0).at(1).toString(), QStringLiteral("run_python"));
        QCOMPARE(open.at(0).at(2).toString(), QStringLiteral("x = 1\nprint(x)"));
        QVERIFY(!card.data(TranscriptModel::ExpandedRole).toBool()); // the button, not the card
        // Reading a file has no code to open.
        QVERIFY(
            delegate->partRect(model->index(1), TranscriptDelegate::Hit::OpenInEditor).isEmpty());

        QSignalSpy retry(&chat, &ChatPane::retryRequested);
        const QModelIndex banner = model->index(2);
        const QRect retryButton = delegate->partRect(banner, TranscriptDelegate::Hit::Retry);
        QVERIFY(!retryButton.isEmpty());
        chat.setBusy(true); // not while the agent works
        QTest::mouseClick(view->viewport(),
                          Qt::LeftButton,
                          {},
                          view->visualRect(banner).topLeft() + retryButton.center());
        QCOMPARE(retry.size(), 0);
        chat.setBusy(false);
        QTest::mouseClick(view->viewport(),
                          Qt::LeftButton,
                          {},
                          view->visualRect(banner).topLeft() + retryButton.center());
        QCOMPARE(retry.size(), 1);
    }

    void linksInAnswersAreFoundAndImagesAreNeverLoaded()
    {
        ChatPane chat;
        checkModel(chat.transcriptModel());
        chat.resize(600, 300);
        chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chat));
        // An image pointing at a file of the person's: not read, nothing drawn for it.
        QTemporaryDir dir;
        const QString picture = dir.filePath(QStringLiteral("secret.png"));
        QImage image(400, 400, QImage::Format_RGB32);
        image.fill(Qt::red);
        QVERIFY(image.save(picture));
        chat.appendAssistantText(QStringLiteral("[docs](https://example.invalid/docs)\n\n![x](")
                                 + QUrl::fromLocalFile(picture).toString() + QLatin1Char(')'));
        chat.endAssistantMessage();
        QListView *view = chat.transcriptView();
        const QModelIndex answer = chat.transcriptModel()->index(0);
        QTRY_VERIFY(view->visualRect(answer).isValid());
        QVERIFY2(view->visualRect(answer).height() < 200, "the image was loaded");
        // The link is where its text is painted.
        TranscriptDelegate *delegate = chat.transcriptDelegate();
        QString link;
        bool found = false;
        const QRect row = view->visualRect(answer);
        for (int y = 0; y < row.height() && !found; y += 2)
            for (int x = 0; x < 200 && !found; x += 4)
                found = delegate->hitTest(answer, QPoint(x, y), &link)
                        == TranscriptDelegate::Hit::Link;
        QVERIFY(found);
        QCOMPARE(link, QStringLiteral("https://example.invalid/docs"));
    }

    void aThousandMessagesOpenWithoutRenderingThemAll()
    {
        nlohmann::json messages = nlohmann::json::array();
        for (int i = 0; i < 500; ++i) {
            messages.push_back({{"role", "user"}, {"content", "question " + std::to_string(i)}});
            messages.push_back(
                {{"role", "assistant"},
                 {"content",
                  "Answer **" + std::to_string(i) + "** with `code` and a list:\n- a\n- b"}});
        }
        ChatPane chat;
        checkModel(chat.transcriptModel());
        chat.resize(600, 400);
        chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chat));
        chat.showHistory(messages);
        QCOMPARE(chat.transcriptModel()->rowCount(), 1000);
        // It follows the end: the last answer is on screen.
        QListView *view = chat.transcriptView();
        QTRY_VERIFY(view->viewport()->rect().intersects(
            view->visualRect(chat.transcriptModel()->index(999))));
        QVERIFY(chat.transcriptText().contains(QStringLiteral("question 499")));
    }
};

QTEST_MAIN(TestTranscript)
#include "tst_transcript.moc"
