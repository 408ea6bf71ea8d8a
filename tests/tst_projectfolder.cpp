#include <app/projectfolder.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;

// Which folders of the person's may be opened and mounted into a sandbox, and why not.
class TestProjectFolder : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_home;
    QString m_data;

    QString folder(const QString &relative)
    {
        const QString path = m_root.filePath(relative);
        QDir().mkpath(path);
        return path;
    }

private Q_SLOTS:
    void init()
    {
        m_home = folder(QStringLiteral("home/ada"));
        m_data = folder(QStringLiteral("home/ada/.local/share/sandcastle"));
    }

    void aProjectFolderOpens()
    {
        const QString project = folder(QStringLiteral("home/ada/code/analysis"));
        const Result<ProjectFolder> opened = ProjectFolder::check(project, m_home, m_data);
        QVERIFY2(opened, qPrintable(opened.error()));
        QCOMPARE(opened.value().path, QFileInfo(project).canonicalFilePath());
        QVERIFY(opened.value().writable);
        QCOMPARE(opened.value().ownerId, uint(::getuid()));
        // Through a link: the folder it leads to.
        QVERIFY(QFile::link(project, m_root.filePath(QStringLiteral("shortcut"))));
        const Result<ProjectFolder> linked
            = ProjectFolder::check(m_root.filePath(QStringLiteral("shortcut")), m_home, m_data);
        QVERIFY(linked);
        QCOMPARE(linked.value().path, QFileInfo(project).canonicalFilePath());
        // A folder inside the data folder (a conversation's own workspace) is no danger.
        QVERIFY(ProjectFolder::check(folder(QStringLiteral("home/ada/.local/share/sandcastle/"
                                                           "workspaces/w1")),
                                     m_home,
                                     m_data));
    }

    void refusedFoldersSayWhy_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("because");
        QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("does not exist");
        QTest::newRow("a file") << QStringLiteral("file") << QStringLiteral("not a folder");
        QTest::newRow("empty") << QStringLiteral("empty") << QStringLiteral("no folder");
        QTest::newRow("the root") << QStringLiteral("/")
                                  << QStringLiteral("root of the file system");
        QTest::newRow("home") << QStringLiteral("home") << QStringLiteral("home folder itself");
        QTest::newRow("home with a slash")
            << QStringLiteral("home/") << QStringLiteral("home folder");
        QTest::newRow(".ssh") << QStringLiteral("ssh") << QStringLiteral("holds .ssh");
        QTest::newRow(".gnupg") << QStringLiteral("gnupg") << QStringLiteral("holds .gnupg");
        QTest::newRow("above the data folder")
            << QStringLiteral("above data") << QStringLiteral("Sandcastle's own data folder");
        QTest::newRow("the data folder") << QStringLiteral("data") << QStringLiteral("data folder");
    }

    void refusedFoldersSayWhy()
    {
        QFETCH(QString, which);
        QFETCH(QString, because);
        QString path;
        if (which == QLatin1String("missing")) {
            path = m_root.filePath(QStringLiteral("nowhere"));
        } else if (which == QLatin1String("file")) {
            path = m_root.filePath(QStringLiteral("notes.txt"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
        } else if (which == QLatin1String("empty")) {
            path = QStringLiteral("  ");
        } else if (which == QLatin1String("/")) {
            path = QStringLiteral("/");
        } else if (which == QLatin1String("home")) {
            path = m_home;
        } else if (which == QLatin1String("home/")) {
            path = m_home + QStringLiteral("/./");
        } else if (which == QLatin1String("ssh")) {
            path = folder(QStringLiteral("home/ada/dotfiles"));
            QDir().mkpath(path + QStringLiteral("/.ssh"));
        } else if (which == QLatin1String("gnupg")) {
            path = folder(QStringLiteral("home/ada/backup"));
            QDir().mkpath(path + QStringLiteral("/.gnupg"));
        } else if (which == QLatin1String("above data")) {
            path = m_root.filePath(QStringLiteral("home/ada/.local"));
        } else {
            path = m_data;
        }
        const Result<ProjectFolder> opened = ProjectFolder::check(path, m_home, m_data);
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains(because), qPrintable(opened.error()));
        QVERIFY2(opened.error().startsWith(QStringLiteral("Cannot open ")),
                 qPrintable(opened.error()));
    }
};

QTEST_GUILESS_MAIN(TestProjectFolder)
#include "tst_projectfolder.moc"
