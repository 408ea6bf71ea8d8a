#include <app/gitstatus.h>
#include <ui/files/filespane.h>
#include <ui/files/quickopen.h>
#include <ui/files/workspacemodel.h>

#include <support/modelcheck.h>
#include <support/testfiles.h>
#include <support/testtimeouts.h>

#include <QCryptographicHash>
#include <QDirIterator>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::kWaitMs;
using Sandcastle::Testing::writeFile;

namespace {

// Every file of a folder (names and bytes) as one hash.
QByteArray hashTree(const QString &root)
{
    QStringList paths;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &path : std::as_const(paths)) {
        hash.addData(path.toUtf8());
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            hash.addData(file.readAll());
    }
    return hash.result();
}

bool git(const QString &folder, const QStringList &arguments)
{
    QProcess p;
    p.setWorkingDirectory(folder);
    p.start(QStringLiteral("git"), arguments);
    return p.waitForFinished(kWaitMs) && p.exitCode() == 0;
}

} // namespace

// The files pane as a project tree: .gitignore, git's marks, the agent's last turn, quick open.
class TestProjectTree : public QObject
{
    Q_OBJECT

    // The row of a path once the folders on its way were read (the view expands nothing).
    static QModelIndex waitForRow(WorkspaceModel *model, const QString &relative)
    {
        QModelIndex index;
        QElapsedTimer clock;
        clock.start();
        while (!(index = model->reveal(relative)).isValid() && clock.elapsed() < kWaitMs)
            QTest::qWait(20);
        return index;
    }

    static bool listed(WorkspaceModel *model, const QString &relative)
    {
        return model->index(model->rootPath() + QLatin1Char('/') + relative).isValid();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty()) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("git is not installed");
            QSKIP("git is not installed");
        }
    }

    void ignoredFilesAreGreyOrHiddenAndGitsFoldersNeverShow()
    {
        QTemporaryDir root;
        writeFile(root.filePath(QStringLiteral(".gitignore")), "*.log\nbuild/\n");
        writeFile(root.filePath(QStringLiteral("main.py")), "print(1)\n");
        writeFile(root.filePath(QStringLiteral("run.log")), "x");
        writeFile(root.filePath(QStringLiteral("build/out.o")), "x");
        writeFile(root.filePath(QStringLiteral("src/.gitignore")), "secret.txt\n");
        writeFile(root.filePath(QStringLiteral("src/secret.txt")), "x");
        writeFile(root.filePath(QStringLiteral("src/app.py")), "x");
        writeFile(root.filePath(QStringLiteral(".git/HEAD")), "ref: refs/heads/main\n");
        writeFile(root.filePath(QStringLiteral(".sandcastle/state")), "x");
        writeFile(root.filePath(QStringLiteral("sub/.sandcastle")), "only the root's is private");

        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        QVERIFY(pane.showIgnored()); // the default
        pane.setRoot(root.path());
        WorkspaceModel *model = pane.model();
        const QModelIndex log = waitForRow(model, QStringLiteral("run.log"));
        const QModelIndex secret = waitForRow(model, QStringLiteral("src/secret.txt"));
        const QModelIndex inBuild = waitForRow(model, QStringLiteral("build/out.o"));
        const QModelIndex app = waitForRow(model, QStringLiteral("src/app.py"));
        QVERIFY(log.isValid() && secret.isValid() && inBuild.isValid() && app.isValid());
        QVERIFY(waitForRow(model, QStringLiteral("sub/.sandcastle")).isValid());
        QVERIFY(model->isIgnored(log));
        QVERIFY(model->isIgnored(secret));  // the nested .gitignore
        QVERIFY(model->isIgnored(inBuild)); // inside an ignored folder
        QVERIFY(!model->isIgnored(app));
        const QColor normal = app.data(Qt::ForegroundRole).value<QColor>();
        const QColor grey = log.data(Qt::ForegroundRole).value<QColor>();
        QVERIFY(grey.isValid());
        QVERIFY(!normal.isValid() || normal != grey);
        QVERIFY(grey.alphaF() < 0.6);
        QVERIFY(log.data(Qt::ToolTipRole).toString().contains(QStringLiteral(".gitignore")));
        QVERIFY(!listed(model, QStringLiteral(".git")));
        QVERIFY(!listed(model, QStringLiteral(".sandcastle")));

        // Hidden with the title's button; remembered; shown again.
        auto *button = pane.findChild<QToolButton *>(QStringLiteral("showIgnoredFiles"));
        QVERIFY(button && button->isChecked());
        button->click();
        QVERIFY(!pane.showIgnored());
        QTRY_VERIFY_WITH_TIMEOUT(!listed(model, QStringLiteral("run.log")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!listed(model, QStringLiteral("src/secret.txt")), kWaitMs);
        QVERIFY(!listed(model, QStringLiteral("build")));
        QVERIFY(listed(model, QStringLiteral("main.py")));
        QVERIFY(listed(model, QStringLiteral("src/app.py")));
        QCOMPARE(QSettings().value(QStringLiteral("files/showIgnored")).toBool(), false);
        FilesPane another;
        QVERIFY(!another.showIgnored());
        pane.setShowIgnored(true);
        QVERIFY(button->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(listed(model, QStringLiteral("run.log")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(listed(model, QStringLiteral("src/secret.txt")), kWaitMs);
    }

    void aFolderOfThousandsArrivesAtOnceAndFollowsTheDisk()
    {
        QTemporaryDir root;
        for (int i = 0; i < 3000; ++i)
            writeFile(root.filePath(QStringLiteral("many/f%1.txt").arg(i)), "x");
        FilesPane pane;
        pane.show();
        pane.setRoot(root.path());
        WorkspaceModel *model = pane.model();
        const QModelIndex many = waitForRow(model, QStringLiteral("many"));
        QVERIFY(many.isValid());
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
        pane.view()->expand(many);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(many), 3000, kWaitMs);
        QCOMPARE(inserted.size(), 1);
        // Natural order: f2 before f10.
        QCOMPARE(model->index(2, 0, many).data().toString(), QStringLiteral("f2.txt"));
        QCOMPARE(model->index(10, 0, many).data().toString(), QStringLiteral("f10.txt"));
        // Files that come and go show up and go.
        writeFile(root.filePath(QStringLiteral("many/new.txt")), "x");
        QVERIFY(QFile::remove(root.filePath(QStringLiteral("many/f7.txt"))));
        QTRY_VERIFY_WITH_TIMEOUT(listed(model, QStringLiteral("many/new.txt")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!listed(model, QStringLiteral("many/f7.txt")), kWaitMs);
        QCOMPARE(model->rowCount(many), 3000);
    }

    void gitsMarksShowAndTheRepositoryIsNeverWritten()
    {
        QTemporaryDir root;
        const QString r = root.path();
        QVERIFY(git(r, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(git(r,
                    {QStringLiteral("config"),
                     QStringLiteral("user.email"),
                     QStringLiteral("t@example.com")}));
        QVERIFY(
            git(r, {QStringLiteral("config"), QStringLiteral("user.name"), QStringLiteral("T")}));
        writeFile(root.filePath(QStringLiteral(".gitignore")), "*.log\n");
        writeFile(root.filePath(QStringLiteral("kept.py")), "a = 1\n");
        writeFile(root.filePath(QStringLiteral("changed.py")), "b = 1\n");
        writeFile(root.filePath(QStringLiteral("touched.py")), "c = 1\n");
        writeFile(root.filePath(QStringLiteral("lib/gone.py")), "d = 1\n");
        writeFile(root.filePath(QStringLiteral("lib/util.py")), "e = 1\n");
        QVERIFY(git(r, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(r,
                    {QStringLiteral("commit"),
                     QStringLiteral("-q"),
                     QStringLiteral("-m"),
                     QStringLiteral("one")}));
        writeFile(root.filePath(QStringLiteral("changed.py")), "b = 2\n");
        writeFile(root.filePath(QStringLiteral("new.py")), "n = 1\n");
        writeFile(root.filePath(QStringLiteral("fresh/a.py")), "x\n");
        writeFile(root.filePath(QStringLiteral("debug.log")), "x\n");
        QVERIFY(QFile::remove(root.filePath(QStringLiteral("lib/gone.py"))));
        // Same bytes, a new time: a `git status` that may write refreshes the index for it.
        QFile touched(root.filePath(QStringLiteral("touched.py")));
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(60),
                                    QFileDevice::FileModificationTime));
        touched.close();
        const QByteArray before = hashTree(root.filePath(QStringLiteral(".git")));

        FilesPane pane;
        pane.show();
        QSignalSpy shown(&pane, &FilesPane::gitStatusShown);
        pane.setRoot(r);
        WorkspaceModel *model = pane.model();
        QVERIFY(shown.wait(kWaitMs));
        const QModelIndex changed = waitForRow(model, QStringLiteral("changed.py"));
        const QModelIndex fresh = waitForRow(model, QStringLiteral("new.py"));
        const QModelIndex inFresh = waitForRow(model, QStringLiteral("fresh/a.py"));
        const QModelIndex kept = waitForRow(model, QStringLiteral("kept.py"));
        const QModelIndex touchedRow = waitForRow(model, QStringLiteral("touched.py"));
        const QModelIndex lib = waitForRow(model, QStringLiteral("lib"));
        auto letter = [](const QModelIndex &index) {
            return index.siblingAtColumn(WorkspaceModel::StatusColumn).data().toString();
        };
        QCOMPARE(letter(changed), QStringLiteral("M"));
        QCOMPARE(letter(fresh), QStringLiteral("U"));
        QCOMPARE(letter(inFresh), QStringLiteral("U")); // in a folder git lists as a whole
        QCOMPARE(letter(kept), QString());
        QCOMPARE(letter(touchedRow), QString());
        QCOMPARE(letter(lib), QStringLiteral("•"));
        QVERIFY(changed.data(Qt::ForegroundRole).value<QColor>().isValid());
        QVERIFY(changed.data(Qt::ForegroundRole).value<QColor>()
                != fresh.data(Qt::ForegroundRole).value<QColor>());
        QVERIFY(changed.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Modified")));
        QVERIFY(lib.data(Qt::ToolTipRole).toString().contains(QStringLiteral("gone.py")));
        QCOMPARE(model->deletedIn(lib), QStringList{QStringLiteral("gone.py")});
        QVERIFY(!model->gitChange(waitForRow(model, QStringLiteral("debug.log"))));

        // Read again after a run, from the window coming back: still nothing written.
        pane.highlight({QStringLiteral("new.py")});
        QVERIFY(shown.wait(kWaitMs));
        QCOMPARE(hashTree(root.filePath(QStringLiteral(".git"))), before);
        // The check can fail: a plain `git status` does write here (it refreshes the index).
        QVERIFY(git(r, {QStringLiteral("status"), QStringLiteral("--porcelain")}));
        QVERIFY(hashTree(root.filePath(QStringLiteral(".git"))) != before);
    }

    void porcelainIsReadRelativeToTheFolder()
    {
        static const char raw[] = " M sub/a.py\0?? sub/new/\0R  sub/b.py\0sub/old.py\0 D top.py\0"
                                  "UU sub/c.py\0A  sub/d.py\0";
        const QByteArray out(raw, sizeof raw - 1);
        const QHash<QString, GitStatus::Change> changes
            = GitStatus::parse(out, QStringLiteral("sub/"));
        QCOMPARE(changes.value(QStringLiteral("a.py")), GitStatus::Change::Modified);
        QCOMPARE(changes.value(QStringLiteral("new/")), GitStatus::Change::Untracked);
        QCOMPARE(changes.value(QStringLiteral("b.py")), GitStatus::Change::Renamed);
        QVERIFY(!changes.contains(QStringLiteral("old.py")));
        QVERIFY(!changes.contains(QStringLiteral("top.py"))); // outside the folder
        QCOMPARE(changes.value(QStringLiteral("c.py")), GitStatus::Change::Conflicted);
        QCOMPARE(changes.value(QStringLiteral("d.py")), GitStatus::Change::Added);
        QCOMPARE(changes.size(), 5);
        QTemporaryDir notARepository;
        QVERIFY(!GitStatus::read(notARepository.path()).isRepository);
    }

    void theLastTurnsChangesAreMarkedUntilTheNext()
    {
        QTemporaryDir root;
        writeFile(root.filePath(QStringLiteral("a.py")), "x");
        writeFile(root.filePath(QStringLiteral("src/b.py")), "x");
        FilesPane pane;
        pane.show();
        QSignalSpy gitRead(&pane, &FilesPane::gitStatusShown);
        pane.setRoot(root.path());
        WorkspaceModel *model = pane.model();
        const QModelIndex a = waitForRow(model, QStringLiteral("a.py"));
        const QModelIndex b = waitForRow(model, QStringLiteral("src/b.py"));
        QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
        pane.markTurnChanges({QStringLiteral("a.py"), QStringLiteral("src/b.py")});
        QVERIFY(changed.size() >= 2);
        QVERIFY(a.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(!a.data(Qt::FontRole).value<QFont>().bold()); // not the run's mark
        QVERIFY(a.data(Qt::ToolTipRole).toString().contains(QStringLiteral("last turn")));
        QVERIFY(b.data(Qt::FontRole).value<QFont>().italic());
        pane.highlight({QStringLiteral("a.py")}); // a run: both marks on a.py
        QVERIFY(a.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(a.data(Qt::FontRole).value<QFont>().italic());
        // The reads asked for so far are done (git's marks are read a moment after each ask, by a
        // git process): none has come for a second and a half. (A fixed 600 ms after the first
        // read raced a busy machine: a read still on its way counted as the next turn's.)
        QElapsedTimer quiet;
        quiet.start();
        qsizetype seen = gitRead.size();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (gitRead.size() != seen) {
                    seen = gitRead.size();
                    quiet.restart();
                }
                return !gitRead.isEmpty() && quiet.elapsed() >= 1500;
            }(),
            kWaitMs);
        const qsizetype reads = gitRead.size();
        pane.markTurnChanges({QStringLiteral("src/b.py")}); // the next turn
        QVERIFY(!a.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(b.data(Qt::FontRole).value<QFont>().italic());
        // And git's marks are read again.
        QTRY_COMPARE_WITH_TIMEOUT(gitRead.size(), reads + 1, kWaitMs);
    }

    void quickOpenFindsAFileByAFuzzyQueryAndEnterOpensIt()
    {
        QTemporaryDir root;
        writeFile(root.filePath(QStringLiteral(".gitignore")), "*.log\n");
        writeFile(root.filePath(QStringLiteral("README.md")), "x");
        writeFile(root.filePath(QStringLiteral("src/app/main.py")), "x");
        writeFile(root.filePath(QStringLiteral("src/app/models.py")), "x");
        writeFile(root.filePath(QStringLiteral("docs/manual.md")), "x");
        writeFile(root.filePath(QStringLiteral("src/app/main.log")), "x");
        writeFile(root.filePath(QStringLiteral(".git/config")), "x");
        FilesPane pane;
        pane.resize(500, 600);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.setRoot(root.path());
        QSignalSpy opened(&pane, &FilesPane::openInEditorRequested);
        pane.showQuickOpen();
        QuickOpen *open = pane.quickOpen();
        QVERIFY(open && open->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(open->fileCount() > 0 && !open->isBusy(), kWaitMs);
        QCOMPARE(open->fileCount(), 5); // .gitignore, README.md, main.py, models.py, manual.md
        QTest::keyClicks(open->queryBox(), QStringLiteral("sapmain"));
        QTRY_VERIFY_WITH_TIMEOUT(!open->isBusy(), kWaitMs);
        QCOMPARE(open->shownPaths().value(0), QStringLiteral("src/app/main.py"));
        QVERIFY(!open->shownPaths().contains(QStringLiteral("src/app/main.log")));
        QTest::keyClick(open->queryBox(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, kWaitMs);
        QCOMPARE(opened.first().at(0).toString(), QStringLiteral("src/app/main.py"));
        QVERIFY(!open->isVisible());
        // Selected in the tree, its folders read and opened on the way.
        QTRY_COMPARE_WITH_TIMEOUT(pane.model()->relativePath(pane.view()->currentIndex()),
                                  QStringLiteral("src/app/main.py"),
                                  kWaitMs);

        // Escape closes; nothing more is opened. Down moves to the next match.
        pane.showQuickOpen();
        QVERIFY(open->isVisible());
        open->queryBox()->setText(QStringLiteral("ma"));
        QTRY_VERIFY_WITH_TIMEOUT(!open->isBusy(), kWaitMs);
        QCOMPARE(open->shownPaths().size(), 2); // main.py, manual.md
        QTest::keyClick(open->queryBox(), Qt::Key_Down);
        QCOMPARE(open->list()->currentRow(), 1);
        QTest::keyClick(open->queryBox(), Qt::Key_Escape);
        QVERIFY(!open->isVisible());
        QCOMPARE(opened.size(), 1);
    }
};

QTEST_MAIN(TestProjectTree)
#include "tst_projecttree.moc"
