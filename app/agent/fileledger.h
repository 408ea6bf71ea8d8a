#pragma once

#include <QHash>
#include <QString>

namespace Sandcastle {

// What the model last saw of each file it read or wrote in a conversation's workspace: size
// and modification time. edit_file refuses to change a file that changed on disk since (the
// code it ran, the person or another program wrote it): the model's idea of its text is stale.
class FileLedger
{
public:
    // The file as it is now (after the model read or wrote it).
    void note(const QString &workspace, const QString &relative);
    // Why the file is not as last noted ("changed on disk since …"); empty when it is, or when
    // the model never read it.
    QString changedSince(const QString &workspace, const QString &relative) const;
    void clear() { m_stamps.clear(); }

private:
    struct Stamp
    {
        qint64 size = -1;
        qint64 mtimeNs = 0;
        bool operator==(const Stamp &other) const
        {
            return size == other.size && mtimeNs == other.mtimeNs;
        }
    };
    static Stamp stampOf(const QString &workspace, const QString &relative);
    QHash<QString, Stamp> m_stamps;
};

} // namespace Sandcastle
