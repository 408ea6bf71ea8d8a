// The tar streams between this machine and a remote engine's volume: our writer read by GNU
// tar and GNU tar's archives read by us; and the extractor against what a hostile or broken
// remote may send — links, devices, "..", absolute paths, a path through a planted link, more
// bytes than the quota, malformed and cut-short archives.
#include <sandbox/tarextractor.h>
#include <sandbox/tarstream.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

namespace {

QByteArray fileEntry(const QString &path, const QByteArray &data, int mode = 0644)
{
    return Tar::header(path, Tar::EntryType::File, data.size(), mode, 1700000000) + data
           + Tar::padding(data.size());
}

QByteArray special(const QString &path, char flag, const QString &link = QString())
{
    Tar::Entry entry;
    entry.path = path;
    entry.typeFlag = flag;
    entry.linkTarget = link;
    return Tar::header(entry);
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Feeds the stream in pieces of `piece` bytes (headers and data split anywhere).
Result<bool> extract(TarExtractor &extractor, const QByteArray &stream, int piece = 7)
{
    for (qsizetype at = 0; at < stream.size(); at += piece) {
        const Result<bool> fed = extractor.feed(stream.mid(at, piece));
        if (!fed)
            return fed;
    }
    return extractor.finish();
}

} // namespace

class TestTarStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ourArchiveIsReadBackInAnyPieces()
    {
        const QString longName
            = QStringLiteral("deep/") + QString(150, QLatin1Char('n')) + QStringLiteral(".txt");
        QByteArray stream
            = Tar::header(QStringLiteral("deep"), Tar::EntryType::Directory, 0, 0755, 0);
        stream += fileEntry(QStringLiteral("a.txt"), "alpha\n");
        stream += fileEntry(longName, QByteArray(1000, 'x'), 0755);
        stream += fileEntry(QStringLiteral("empty"), QByteArray());
        stream += Tar::end();
        QTemporaryDir root;
        TarExtractor extractor(root.path(), 1 << 20);
        QVERIFY2(extract(extractor, stream),
                 qPrintable(extractor.refused().join(QLatin1Char('\n'))));
        QCOMPARE(extractor.written(),
                 (QStringList{QStringLiteral("a.txt"), longName, QStringLiteral("empty")}));
        QCOMPARE(readFile(root.filePath(QStringLiteral("a.txt"))), QByteArray("alpha\n"));
        QCOMPARE(readFile(root.filePath(longName)).size(), 1000);
        QVERIFY(QFileInfo(root.filePath(longName)).isExecutable());
        QVERIFY(extractor.refused().isEmpty());
    }

    void gnuTarReadsOurArchiveAndWeReadGnuTars()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("tar")).isEmpty())
            QSKIP("no tar");
        const QString longName = QString(120, QLatin1Char('l')) + QStringLiteral("/file name.txt");
        QByteArray stream = fileEntry(longName, "long\n")
                            + fileEntry(QStringLiteral("x/y.csv"), "1,2\n") + Tar::end();
        QTemporaryDir out;
        QProcess tar;
        tar.start(QStringLiteral("tar"),
                  {QStringLiteral("-x"),
                   QStringLiteral("-f"),
                   QStringLiteral("-"),
                   QStringLiteral("-C"),
                   out.path()});
        tar.write(stream);
        tar.closeWriteChannel();
        QVERIFY(tar.waitForFinished(Sandcastle::Testing::kWaitMs));
        QCOMPARE(tar.exitCode(), 0);
        QCOMPARE(readFile(out.filePath(longName)), QByteArray("long\n"));
        // GNU tar's own archive (its default format, long names in 'L' entries) read by us.
        writeFile(out.filePath(QStringLiteral("sub/") + QString(200, QLatin1Char('z'))),
                  QByteArray(70000, 'q'));
        QProcess create;
        create.start(QStringLiteral("tar"),
                     {QStringLiteral("-c"),
                      QStringLiteral("-f"),
                      QStringLiteral("-"),
                      QStringLiteral("-C"),
                      out.path(),
                      QStringLiteral(".")});
        QVERIFY(create.waitForFinished(Sandcastle::Testing::kWaitMs));
        QTemporaryDir back;
        TarExtractor extractor(back.path(), 1 << 20);
        QVERIFY(extract(extractor, create.readAllStandardOutput(), 4096));
        QCOMPARE(readFile(back.filePath(longName)), QByteArray("long\n"));
        QCOMPARE(
            readFile(back.filePath(QStringLiteral("sub/") + QString(200, QLatin1Char('z')))).size(),
            70000);
        QCOMPARE(readFile(back.filePath(QStringLiteral("x/y.csv"))), QByteArray("1,2\n"));
    }

    void linksDevicesAndEscapesAreRefusedAndNamed()
    {
        QTemporaryDir root;
        QTemporaryDir outside;
        QVERIFY(QFile::link(outside.path(), root.filePath(QStringLiteral("planted"))));
        QByteArray stream;
        stream += special(QStringLiteral("link-to-ssh"), '2', QStringLiteral("/root/.ssh/id_rsa"));
        stream += special(QStringLiteral("hard"), '1', QStringLiteral("/etc/passwd"));
        stream += special(QStringLiteral("pipe"), '6');
        stream += special(QStringLiteral("disk"), '4');
        stream += fileEntry(QStringLiteral("../escaped.txt"), "out");
        stream += fileEntry(QStringLiteral("a/../../escaped2.txt"), "out");
        stream += fileEntry(QStringLiteral("/tmp/absolute.txt"), "out");
        stream += fileEntry(QStringLiteral("planted/through-link.txt"), "out");
        stream += fileEntry(QStringLiteral("line\nbreak.txt"), "a name with a newline is a name");
        stream += fileEntry(QStringLiteral("ok.txt"), "fine");
        stream += Tar::end();
        TarExtractor extractor(root.path(), 1 << 20);
        QVERIFY(extract(extractor, stream));
        QCOMPARE(extractor.written(),
                 (QStringList{QStringLiteral("line\nbreak.txt"), QStringLiteral("ok.txt")}));
        QCOMPARE(extractor.refused().size(), 8);
        const QString refused = extractor.refused().join(QLatin1Char('\n'));
        QVERIFY(refused.contains(QStringLiteral("a symbolic link")));
        QVERIFY(refused.contains(QStringLiteral("a hard link")));
        QVERIFY(refused.contains(QStringLiteral("absolute")));
        QVERIFY(QDir(outside.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
        QVERIFY(!QFileInfo::exists(
            QFileInfo(root.path()).dir().filePath(QStringLiteral("escaped.txt"))));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/absolute.txt")));
        QVERIFY(!QFileInfo(root.filePath(QStringLiteral("link-to-ssh"))).exists());
        QVERIFY(!QFileInfo(root.filePath(QStringLiteral("pipe"))).exists());
    }

    void onlyTheFilesAskedForAreWritten()
    {
        QTemporaryDir root;
        QByteArray stream;
        stream += Tar::header(QStringLiteral("out"), Tar::EntryType::Directory, 0, 0755, 0);
        stream += fileEntry(QStringLiteral("out/asked.csv"), "1,2\n");
        stream += Tar::header(QStringLiteral("sneaky"), Tar::EntryType::Directory, 0, 0755, 0);
        stream += fileEntry(QStringLiteral("sneaky/extra.txt"), "not asked");
        stream += fileEntry(QStringLiteral("out/other.csv"), "not asked");
        stream += fileEntry(QStringLiteral("top.txt"), "asked");
        stream += Tar::end();
        TarExtractor extractor(root.path(), 1 << 20);
        extractor.onlyThese({QStringLiteral("out/asked.csv"), QStringLiteral("top.txt")});
        QVERIFY(extract(extractor, stream));
        QCOMPARE(extractor.written(),
                 (QStringList{QStringLiteral("out/asked.csv"), QStringLiteral("top.txt")}));
        QCOMPARE(extractor.refused().size(), 3);
        QVERIFY(
            extractor.refused().join(QLatin1Char('\n')).contains(QStringLiteral("not asked for")));
        QVERIFY(!QFileInfo::exists(root.filePath(QStringLiteral("sneaky"))));
        QVERIFY(!QFileInfo::exists(root.filePath(QStringLiteral("out/other.csv"))));
        QCOMPARE(readFile(root.filePath(QStringLiteral("top.txt"))), QByteArray("asked"));
    }

    void theQuotaStopsTheStreamAndLeavesNoPartialFile()
    {
        QTemporaryDir root;
        // A sparse 10 GB file as tar sends it without --sparse: a header that says 10 GB.
        QByteArray stream = fileEntry(QStringLiteral("small.txt"), "ok");
        stream += Tar::header(
            QStringLiteral("sparse.bin"), Tar::EntryType::File, qint64(10) << 30, 0644, 0);
        stream += QByteArray(64 * 1024, '\0');
        TarExtractor extractor(root.path(), 1 << 20);
        const Result<bool> fed = extract(extractor, stream, 8192);
        QVERIFY(!fed);
        QVERIFY2(fed.error().contains(QStringLiteral("quota")), qPrintable(fed.error()));
        QVERIFY(!QFileInfo::exists(root.filePath(QStringLiteral("sparse.bin"))));
        QCOMPARE(readFile(root.filePath(QStringLiteral("small.txt"))), QByteArray("ok"));
        // Within the quota's count, data that goes on past it is stopped as it comes.
        QTemporaryDir root2;
        TarExtractor tight(root2.path(), 100);
        const Result<bool> two
            = extract(tight,
                      fileEntry(QStringLiteral("a"), QByteArray(60, 'a'))
                          + fileEntry(QStringLiteral("b"), QByteArray(60, 'b')) + Tar::end());
        QVERIFY(!two);
        QVERIFY(QFileInfo::exists(root2.filePath(QStringLiteral("a"))));
        QVERIFY(!QFileInfo::exists(root2.filePath(QStringLiteral("b"))));
    }

    void malformedOrCutShortArchivesAreErrors()
    {
        QTemporaryDir root;
        QByteArray bad = fileEntry(QStringLiteral("a.txt"), "x") + Tar::end();
        bad[150] = '9'; // the checksum field
        TarExtractor one(root.path(), 1 << 20);
        QVERIFY(!extract(one, bad));
        TarExtractor two(root.path(), 1 << 20);
        const QByteArray whole
            = fileEntry(QStringLiteral("b.txt"), QByteArray(2000, 'b')) + Tar::end();
        QVERIFY(!extract(two, whole.left(1200)));
        QVERIFY(
            !QFileInfo::exists(root.filePath(QStringLiteral("b.txt")))); // the partial file went
        TarReader reader;
        QVERIFY(!reader.feed(QByteArray(512, 'j')));
    }
};

QTEST_GUILESS_MAIN(TestTarStream)
#include "tst_tarstream.moc"
