#include <sandbox/environmentbuild.h>
#include <sandbox/environmentspec.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestEnvironmentSpec : public QObject
{
    Q_OBJECT

private slots:
    void plainRequirementsAndAptNeedNothing()
    {
        const EnvironmentSpec spec = EnvironmentSpec::parse(
            "# analysis\nscikit-image>=0.19  # images\nrich==13.0 --hash=sha256:abc\n\n"
            "Tool_Kit[extra] ; python_version > '3.8'\n--prefer-binary\n",
            "graphviz\n# for plots\ngdal-bin=3.6.2+dfsg-1  libgeos-dev\n",
            QStringLiteral("/w"));
        QVERIFY2(spec.concerns.isEmpty(), qPrintable(spec.describeConcerns().join(u'\n')));
        QCOMPARE(spec.pipNames,
                 (QStringList{QStringLiteral("scikit-image"),
                              QStringLiteral("rich"),
                              QStringLiteral("Tool_Kit")}));
        QCOMPARE(spec.aptPackages,
                 (QStringList{QStringLiteral("graphviz"),
                              QStringLiteral("gdal-bin=3.6.2+dfsg-1"),
                              QStringLiteral("libgeos-dev")}));
        QVERIFY(!spec.isEmpty());
        QVERIFY(!spec.needsConfirmation());
        QVERIFY(!spec.hasRefusals());
    }

    void missingOrCommentOnlyFilesAreEmpty()
    {
        QVERIFY(EnvironmentSpec::parse({}, {}, QStringLiteral("/w")).isEmpty());
        QVERIFY(
            EnvironmentSpec::parse("# nothing\n\n", "  # none\n", QStringLiteral("/w")).isEmpty());
    }

    void continuationLinesJoin()
    {
        const EnvironmentSpec spec
            = EnvironmentSpec::parse("numpy \\\n  >=1.20\r\npandas\n", {}, QStringLiteral("/w"));
        QCOMPARE(spec.requirementLines(),
                 (QStringList{QStringLiteral("numpy   >=1.20"), QStringLiteral("pandas")}));
    }

    void indexesUrlsEditablesAndIncludesNeedConfirmation_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("index-url") << QByteArray("--index-url https://evil.example/simple")
                                   << QStringLiteral("another package index");
        QTest::newRow("-i") << QByteArray("-i https://evil.example/simple")
                            << QStringLiteral("another package index");
        QTest::newRow("extra-index") << QByteArray("--extra-index-url=https://x.example")
                                     << QStringLiteral("another package index");
        QTest::newRow("find-links")
            << QByteArray("-f https://x.example/wheels") << QStringLiteral("another location");
        QTest::newRow("trusted-host")
            << QByteArray("--trusted-host x.example") << QStringLiteral("certificate checks");
        QTest::newRow("editable") << QByteArray("-e ./pkg") << QStringLiteral("editable mode");
        QTest::newRow("include") << QByteArray("-r other.txt") << QStringLiteral("another file");
        QTest::newRow("url") << QByteArray("https://x.example/pkg-1.0.tar.gz")
                             << QStringLiteral("from a URL");
        QTest::newRow("git") << QByteArray("git+https://github.com/a/b")
                             << QStringLiteral("from a URL");
        QTest::newRow("direct reference")
            << QByteArray("pkg @ https://x.example/pkg.whl") << QStringLiteral("from a URL");
        QTest::newRow("absolute path")
            << QByteArray("/etc/pkg.whl") << QStringLiteral("outside the project folder");
        QTest::newRow("dot-dot") << QByteArray("../other/pkg")
                                 << QStringLiteral("outside the project folder");
        QTest::newRow("home") << QByteArray("~/wheels/pkg-1.0-py3-none-any.whl")
                              << QStringLiteral("outside the project folder");
    }

    void indexesUrlsEditablesAndIncludesNeedConfirmation()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, reason);
        QTemporaryDir workspace;
        const EnvironmentSpec spec
            = EnvironmentSpec::parse("numpy\n" + line + '\n', {}, workspace.path());
        QCOMPARE(spec.concerns.size(), 1);
        QCOMPARE(spec.concerns.first().line, 2);
        QCOMPARE(spec.concerns.first().file, QStringLiteral("requirements.txt"));
        QVERIFY2(spec.concerns.first().reason.contains(reason),
                 qPrintable(spec.concerns.first().reason));
        QVERIFY(spec.concerns.first().confirmable);
        QVERIFY(spec.needsConfirmation());
        QVERIFY(!spec.hasRefusals());
        QVERIFY(spec.describeConcerns().first().startsWith(QStringLiteral("requirements.txt:2: ")));
    }

    void unknownOptionsAndBadAptWordsAreRefused()
    {
        const EnvironmentSpec spec
            = EnvironmentSpec::parse("--install-option=--prefix=/\n",
                                     "graphviz\n-o Acquire::http::Proxy=x\nFoo_Bar\n",
                                     QStringLiteral("/w"));
        QCOMPARE(spec.concerns.size(), 4);
        QVERIFY(spec.hasRefusals());
        for (const EnvironmentSpec::Concern &concern : spec.concerns)
            QVERIFY(!concern.confirmable);
        QCOMPARE(spec.aptPackages, QStringList{QStringLiteral("graphviz")});
        QVERIFY(spec.concerns.at(1).reason.contains(QStringLiteral("apt options")));
        QVERIFY(spec.concerns.at(3).reason.contains(QStringLiteral("'Foo_Bar'")));
    }

    // What pip reads is what is judged: its line breaks (str.splitlines), every option on an
    // option line, and the options after a requirement.
    void linesAndOptionsAreReadAsPipReadsThem_data()
    {
        QTest::addColumn<QByteArray>("requirements");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("confirmable");
        QTest::newRow("CR inside a line") << QByteArray("numpy\r--trusted-host evil.example\n")
                                          << QStringLiteral("certificate") << true;
        QTest::newRow("form feed")
            << QByteArray("numpy\f-r other.txt\n") << QStringLiteral("another file") << true;
        QTest::newRow("unicode line separator")
            << QByteArray("numpy\xe2\x80\xa8--index-url=https://evil.example/simple\n")
            << QStringLiteral("another package index") << true;
        QTest::newRow("harmless first, index second")
            << QByteArray("--pre --index-url https://evil.example/simple\n")
            << QStringLiteral("one per line") << false;
        QTest::newRow("index after a requirement")
            << QByteArray("numpy -i https://evil.example/simple\n") << QStringLiteral("only --hash")
            << false;
        QTest::newRow("quoted option after a hash")
            << QByteArray("numpy --hash=sha256:ab '--index-url' x\n")
            << QStringLiteral("only --hash") << false;
        QTest::newRow("name@url without spaces")
            << QByteArray("pkg@https//x.example/p.whl\n") << QStringLiteral("from a URL") << true;
    }

    void linesAndOptionsAreReadAsPipReadsThem()
    {
        QFETCH(QByteArray, requirements);
        QFETCH(QString, reason);
        QFETCH(bool, confirmable);
        QTemporaryDir workspace;
        const EnvironmentSpec spec = EnvironmentSpec::parse(requirements, {}, workspace.path());
        QCOMPARE(spec.concerns.size(), 1);
        QVERIFY2(spec.concerns.first().reason.contains(reason),
                 qPrintable(spec.concerns.first().reason));
        QCOMPARE(spec.concerns.first().confirmable, confirmable);
    }

    void harmlessOptionsAndHashesPass()
    {
        const EnvironmentSpec spec = EnvironmentSpec::parse(
            "--only-binary=:all:\n--no-binary numpy,scipy\n--require-hashes\n"
            "rich==13.0 --hash=sha256:abc --hash sha256:def\n",
            {},
            QStringLiteral("/w"));
        QVERIFY2(spec.concerns.isEmpty(), qPrintable(spec.describeConcerns().join(u'\n')));
        QCOMPARE(spec.pipNames, QStringList{QStringLiteral("rich")});
    }

    void localPathsInsideAreCopiedAndRewritten()
    {
        QTemporaryDir workspace;
        QVERIFY(
            writeFile(workspace.filePath(QStringLiteral("dist/tool-1.0-py3-none-any.whl")), "w"));
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("pkg/setup.py")), "x"));
        const EnvironmentSpec spec = EnvironmentSpec::parse(
            "dist/tool-1.0-py3-none-any.whl\n./pkg\nnumpy\n", {}, workspace.path());
        QVERIFY(spec.concerns.isEmpty());
        QCOMPARE(spec.localPaths.size(), 2);
        QVERIFY(spec.localPaths.at(0).inside);
        QCOMPARE(spec.pipNames.first(), QStringLiteral("tool"));
        QCOMPARE(QString::fromUtf8(spec.rewrittenRequirements()),
                 QStringLiteral("./local/0-tool-1.0-py3-none-any.whl\n./local/1-pkg\nnumpy\n"));
    }

    // pip reads "./pkg[cli]; python_version > '3'" as the folder ./pkg with an extra and a
    // marker: only the folder is copied, and the line keeps the rest.
    void extrasAndMarkersStayOutOfALocalPath()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("pkg/setup.py")), "x"));
        const EnvironmentSpec spec
            = EnvironmentSpec::parse("./pkg[cli] ; python_version > '3' --hash=sha256:abc\n"
                                     "numpy; platform_machine == 'x86/64'\n",
                                     {},
                                     workspace.path());
        QVERIFY2(spec.concerns.isEmpty(), qPrintable(spec.describeConcerns().join(u'\n')));
        QCOMPARE(spec.localPaths.size(), 1);
        QCOMPARE(spec.localPaths.first().written, QStringLiteral("./pkg"));
        QCOMPARE(spec.localPaths.first().absolute,
                 QDir::cleanPath(workspace.filePath(QStringLiteral("pkg"))));
        QCOMPARE(spec.pipNames, (QStringList{QStringLiteral("pkg"), QStringLiteral("numpy")}));
        QCOMPARE(QString::fromUtf8(spec.rewrittenRequirements()),
                 QStringLiteral("./local/0-pkg[cli] ; python_version > '3' --hash=sha256:abc\n"
                                "numpy; platform_machine == 'x86/64'\n"));
    }

    // Found by fuzz_environmentspec: a path after the ';' was taken whole, so its file name, with
    // an '@', moved before the ';' in the rewritten line, where pip reads a URL.
    void aLineWithNothingBeforeTheMarkersIsRefused()
    {
        QTemporaryDir workspace;
        const EnvironmentSpec spec
            = EnvironmentSpec::parse(";/g--@x\n./a;b/c@d\n", {}, workspace.path());
        QCOMPARE(spec.concerns.size(), 1);
        QCOMPARE(spec.concerns.first().line, 1);
        QVERIFY(!spec.concerns.first().confirmable);
        QCOMPARE(spec.localPaths.size(), 1);
        QCOMPARE(spec.localPaths.first().written, QStringLiteral("./a"));
    }

    void aLinkOutOfTheFolderIsOutside()
    {
        QTemporaryDir workspace;
        QTemporaryDir elsewhere;
        QVERIFY(QFile::link(elsewhere.path(), workspace.filePath(QStringLiteral("pkg"))));
        const EnvironmentSpec spec = EnvironmentSpec::parse("./pkg\n", {}, workspace.path());
        QCOMPARE(spec.concerns.size(), 1);
        QVERIFY(!spec.localPaths.first().inside);
    }

    void contentHashFollowsTheFilesAndWhatLocalPathsHold()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("pkg/setup.py")), "one"));
        const auto hashOf = [&](const QByteArray &requirements, const QByteArray &apt) {
            return EnvironmentSpec::parse(requirements, apt, workspace.path()).contentHash();
        };
        const QString first = hashOf("./pkg\n", "graphviz\n");
        QCOMPARE(hashOf("./pkg\n", "graphviz\n"), first);
        QVERIFY(hashOf("./pkg\n", "graphviz\njq\n") != first);
        QVERIFY(hashOf("./pkg\nnumpy\n", "graphviz\n") != first);
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("pkg/setup.py")), "two"));
        QVERIFY(hashOf("./pkg\n", "graphviz\n") != first);
    }

    void readRefusesLinksAndHugeFiles()
    {
        QTemporaryDir workspace;
        QVERIFY(EnvironmentSpec::read(workspace.path()).value().isEmpty());
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("secret")), "numpy\n"));
        QVERIFY(QFile::link(workspace.filePath(QStringLiteral("secret")),
                            workspace.filePath(QStringLiteral("requirements.txt"))));
        Result<EnvironmentSpec> read = EnvironmentSpec::read(workspace.path());
        QVERIFY(!read);
        QVERIFY(read.error().contains(QStringLiteral("not a regular file")));
        QVERIFY(QFile::remove(workspace.filePath(QStringLiteral("requirements.txt"))));
        QVERIFY(writeFile(workspace.filePath(QStringLiteral("apt.txt")),
                          QByteArray(EnvironmentSpec::kMaxFileBytes + 1, 'a')));
        read = EnvironmentSpec::read(workspace.path());
        QVERIFY(!read);
        QVERIFY(read.error().contains(QStringLiteral("larger than")));
    }

    void theImageHashAddsTheBaseAndTheWheelhouse()
    {
        QTemporaryDir wheelhouse;
        const EnvironmentSpec spec = EnvironmentSpec::parse("tool\n", {}, QStringLiteral("/w"));
        const QString plain = EnvironmentBuild::imageHash(spec, QStringLiteral("sha256:a"), {});
        QCOMPARE(EnvironmentBuild::imageHash(spec, QStringLiteral("sha256:a"), {}), plain);
        QVERIFY(EnvironmentBuild::imageHash(spec, QStringLiteral("sha256:b"), {}) != plain);
        const QString withWheels
            = EnvironmentBuild::imageHash(spec, QStringLiteral("sha256:a"), wheelhouse.path());
        QVERIFY(writeFile(wheelhouse.filePath(QStringLiteral("tool-1.0-py3-none-any.whl")), "w"));
        QVERIFY(EnvironmentBuild::imageHash(spec, QStringLiteral("sha256:a"), wheelhouse.path())
                != withWheels);
        QCOMPARE(EnvironmentBuild::tagFor(plain),
                 QStringLiteral("sandcastle-env:") + plain.left(16));
    }

    void theDockerfileInstallsOnlyWhatIsAskedAndGoesBackToTheSandboxUser()
    {
        const EnvironmentSpec aptOnly
            = EnvironmentSpec::parse({}, "jq=1.6-2.1\n", QStringLiteral("/w"));
        const QString apt = QString::fromUtf8(
            EnvironmentBuild::dockerfile(QStringLiteral("sha256:base"), aptOnly, false));
        QVERIFY(apt.startsWith(u"# A Sandcastle"));
        QVERIFY(apt.contains(u"FROM sha256:base\n"));
        QVERIFY(apt.contains(u"apt-get install"));
        QVERIFY(!apt.contains(u"pip install"));
        QVERIFY(apt.contains(u"--apt 'jq'"));
        QVERIFY(apt.trimmed().endsWith(u"USER sandbox"));

        const EnvironmentSpec pipOnly = EnvironmentSpec::parse("tool\n", {}, QStringLiteral("/w"));
        const QString offline = QString::fromUtf8(
            EnvironmentBuild::dockerfile(QStringLiteral("sha256:base"), pipOnly, true));
        QVERIFY(!offline.contains(u"apt-get"));
        QVERIFY(offline.contains(u"--no-index --find-links wheelhouse"));
        QVERIFY(offline.contains(u"--pip 'tool'"));
        const QString online = QString::fromUtf8(
            EnvironmentBuild::dockerfile(QStringLiteral("sha256:base"), pipOnly, false));
        QVERIFY(!online.contains(u"--no-index"));
    }
};

QTEST_GUILESS_MAIN(TestEnvironmentSpec)
#include "tst_environmentspec.moc"
