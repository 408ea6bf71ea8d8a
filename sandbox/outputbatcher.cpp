#include "outputbatcher.h"

#include <utility>

namespace Sandcastle {

void OutputBatcher::append(OutputStream stream, const QString &text)
{
    if (text.isEmpty())
        return;
    if (!m_chunks.isEmpty() && m_chunks.last().stream == stream)
        m_chunks.last().text += text;
    else
        m_chunks.append({stream, text});
}

QList<OutputBatcher::Chunk> OutputBatcher::take()
{
    return std::exchange(m_chunks, {});
}

} // namespace Sandcastle
