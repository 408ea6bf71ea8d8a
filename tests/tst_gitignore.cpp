#include <base/gitignore.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using Sandcastle::GitIgnore;

// .gitignore rules as git reads them. Each case is checked against the rules here and, where
// git is installed, against `git check-ignore` itself on the same tree.
class TestGitIgnore : public QObject
{
    Q_OBJECT

    struct Case
    {
        QString path;
        bool isDir;
        bool ignored;
    };

    // folder -> .gitignore text, and the verdicts expected.
    static QList<QPair<QString, QString>> files()
    {
        return {
            {QString(),
             QStringLiteral("# build output\n"
                            "build/\n"
                            "*.pyc\n"
                            "!keep.pyc\n"
                            "/top-only.txt\n"
                            "docs/*.html\n"
                            "**/cache\n"
                            "logs/**\n"
                            "!logs/important/\n"
                            "data/**/raw\n"
                            "name\\ with\\ space \n"
                            "\\#hash\n"
                            "\\!bang\n"
                            "file[0-9].txt\n"
                            "ab?.md\n"
                            "trailing   \n"
                            "  \n"
                            "secret*\n"
                            "!secret-public.txt\r\n")},
            {QStringLiteral("src"),
             QStringLiteral("generated.py\n"
                            "/local-only.py\n"
                            "!important.pyc\n")},
        };
    }

    static QList<Case> cases()
    {
        return {
            {QStringLiteral("build"), true, true},
            {QStringLiteral("build/out.o"), false, true},
            {QStringLiteral("src/build"), true, true},   // no slash inside: at any depth
            {QStringLiteral("lib/build"), false, false}, // build/ is for folders only
            {QStringLiteral("a.pyc"), false, true},
            {QStringLiteral("src/deep/b.pyc"), false, true},
            {QStringLiteral("keep.pyc"), false, false},
            {QStringLiteral("src/important.pyc"), false, false}, // a deeper file re-includes
            {QStringLiteral("other/important.pyc"), false, true},
            {QStringLiteral("top-only.txt"), false, true},
            {QStringLiteral("src/top-only.txt"), false, false}, // anchored to the root
            {QStringLiteral("docs/index.html"), false, true},
            {QStringLiteral("docs/api/index.html"), false, false}, // * does not cross /
            {QStringLiteral("cache"), true, true},
            {QStringLiteral("a/b/cache"), true, true},
            {QStringLiteral("a/b/cache/x"), false, true},
            {QStringLiteral("logs/x.log"), false, true},
            {QStringLiteral("logs/important/y.log"), false, true}, // inside logs/**: stays out
            {QStringLiteral("data/raw"), true, true},
            {QStringLiteral("data/2024/01/raw"), true, true},
            {QStringLiteral("data/rawer"), true, false},
            {QStringLiteral("name with space"), false, true},
            {QStringLiteral("#hash"), false, true},
            {QStringLiteral("!bang"), false, true},
            {QStringLiteral("file3.txt"), false, true},
            {QStringLiteral("filex.txt"), false, false},
            {QStringLiteral("abc.md"), false, true},
            {QStringLiteral("ab.md"), false, false},
            {QStringLiteral("trailing"), false, true},
            {QStringLiteral("secret.key"), false, true},
            {QStringLiteral("secret-public.txt"), false, false},
            {QStringLiteral("src/generated.py"), false, true},
            {QStringLiteral("src/x/generated.py"), false, true},
            {QStringLiteral("generated.py"), false, false}, // src's rules are about src
            {QStringLiteral("src/local-only.py"), false, true},
            {QStringLiteral("src/x/local-only.py"), false, false},
            {QStringLiteral("README.md"), false, false},
        };
    }

    static GitIgnore rules()
    {
        GitIgnore ignore;
        for (const auto &[folder, text] : files())
            ignore.addRules(folder, text);
        return ignore;
    }

private Q_SLOTS:
    void readsRulesAsGitDoes()
    {
        const GitIgnore ignore = rules();
        for (const Case &c : cases())
            QVERIFY2(ignore.isIgnored(c.path, c.isDir) == c.ignored,
                     qPrintable(QStringLiteral("%1%2 should%3 be ignored")
                                    .arg(c.path,
                                         c.isDir ? QStringLiteral("/") : QString(),
                                         c.ignored ? QString() : QStringLiteral(" not"))));
    }

    // The same verdicts from git itself, so that the cases above say what git does.
    void gitAgrees()
    {
        const QString git = QStandardPaths::findExecutable(QStringLiteral("git"));
        if (git.isEmpty()) {
            // The scripts install git; in CI its absence is a failure, not a skip.
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("git is not installed");
            QSKIP("git is not installed");
        }
        QTemporaryDir dir;
        const auto run = [&](const QStringList &args, const QByteArray &input = {}) {
            QProcess p;
            p.setWorkingDirectory(dir.path());
            p.start(git, args);
            p.write(input);
            p.closeWriteChannel();
            p.waitForFinished(Sandcastle::Testing::kWaitMs);
            return p.readAllStandardOutput();
        };
        run({QStringLiteral("init"), QStringLiteral("-q")});
        for (const auto &[folder, text] : files()) {
            QDir(dir.path()).mkpath(folder.isEmpty() ? QStringLiteral(".") : folder);
            QFile f(QDir(dir.path())
                        .filePath(folder.isEmpty() ? QStringLiteral(".gitignore")
                                                   : folder + QStringLiteral("/.gitignore")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
        }
        const QList<Case> all = cases();
        QByteArray input;
        for (const Case &c : all) {
            const QString full = QDir(dir.path()).filePath(c.path);
            if (c.isDir) {
                QDir().mkpath(full);
            } else {
                QDir().mkpath(QFileInfo(full).path());
                QFile f(full);
                QVERIFY(f.open(QIODevice::WriteOnly));
            }
            input += c.path.toUtf8() + (c.isDir ? "/" : "") + '\n';
        }
        // --no-index: the verdict of the rules, tracked or not; -v -n lists every path.
        const QString out = QString::fromUtf8(run({QStringLiteral("check-ignore"),
                                                   QStringLiteral("--stdin"),
                                                   QStringLiteral("-v"),
                                                   QStringLiteral("-n"),
                                                   QStringLiteral("--no-index")},
                                                  input));
        const QStringList lines = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), all.size());
        for (qsizetype i = 0; i < lines.size(); ++i) {
            // "source:line:pattern<TAB>path"; "::<TAB>path" when no rule matched; a matching
            // negation ("!…") means not ignored.
            const QStringList parts = lines.at(i).split(QLatin1Char('\t'));
            const QString pattern = parts.first().section(QLatin1Char(':'), 2);
            const bool ignored = !pattern.isEmpty() && !pattern.startsWith(QLatin1Char('!'));
            const Case &c = all.at(i);
            QVERIFY2(
                ignored == c.ignored,
                qPrintable(
                    QStringLiteral("git says %1 is%2 ignored (%3)")
                        .arg(c.path, ignored ? QString() : QStringLiteral(" not"), lines.at(i))));
        }
    }

    void inputThatIsNotARuleIsSkipped()
    {
        GitIgnore ignore;
        ignore.addRules(QString(), QStringLiteral("\n#only a comment\n   \n!\n/\n[unclosed\n"));
        QVERIFY(!ignore.isIgnored(QStringLiteral("a"), false));
        QVERIFY(ignore.isIgnored(QStringLiteral("[unclosed"), false)); // a literal [
    }
};

QTEST_GUILESS_MAIN(TestGitIgnore)
#include "tst_gitignore.moc"
