#pragma once

#include "executionresult.h"

#include <QList>
#include <QString>

namespace Sandcastle {

// Collects output chunks between flushes so that listeners get a bounded number of updates
// however fast the code prints. Consecutive chunks of one stream merge; a change of stream
// starts a new entry so that the interleaving of stdout and stderr is kept.
class OutputBatcher
{
public:
    struct Chunk
    {
        OutputStream stream;
        QString text;
    };

    void append(OutputStream stream, const QString &text);
    QList<Chunk> take();
    bool isEmpty() const { return m_chunks.isEmpty(); }

private:
    QList<Chunk> m_chunks;
};

} // namespace Sandcastle
