#include <sandbox/outputbatcher.h>

#include <QtTest>

using namespace Sandcastle;

class TestOutputBatcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mergesManySmallChunksOfOneStreamIntoOne()
    {
        OutputBatcher batcher;
        for (int i = 0; i < 10000; ++i)
            batcher.append(OutputStream::Stdout, QStringLiteral("%1\n").arg(i));
        const auto chunks = batcher.take();
        QCOMPARE(chunks.size(), 1);
        QVERIFY(chunks.first().text.startsWith(QStringLiteral("0\n1\n")));
        QVERIFY(chunks.first().text.endsWith(QStringLiteral("9999\n")));
        QVERIFY(batcher.isEmpty());
    }

    void keepsTheInterleavingOfStdoutAndStderr()
    {
        OutputBatcher batcher;
        batcher.append(OutputStream::Stdout, QStringLiteral("a"));
        batcher.append(OutputStream::Stdout, QStringLiteral("b"));
        batcher.append(OutputStream::Stderr, QStringLiteral("E"));
        batcher.append(OutputStream::Stdout, QStringLiteral("c"));
        batcher.append(OutputStream::Stdout, QString());
        const auto chunks = batcher.take();
        QCOMPARE(chunks.size(), 3);
        QCOMPARE(chunks.at(0).text, QStringLiteral("ab"));
        QCOMPARE(chunks.at(1).stream, OutputStream::Stderr);
        QCOMPARE(chunks.at(2).text, QStringLiteral("c"));
        QVERIFY(batcher.take().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestOutputBatcher)
#include "tst_outputbatcher.moc"
