#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// The packages a project asks for, after repo2docker's convention: `requirements.txt` (pip) and
// `apt.txt` (Debian packages, one per line) at the top of the workspace. Pure: parse() reads
// bytes, and read() only adds the two files' reading. A line that would send the build's
// network somewhere the person did not choose (another index, a URL, an editable install, a
// path outside the folder) is a concern the person must confirm; a line that cannot be a
// package at all is refused.
struct EnvironmentSpec
{
    static constexpr qint64 kMaxFileBytes = 256 * 1024;
    static constexpr qint64 kHashedBytes = 64 * 1024 * 1024; // of local paths' files, in all
    static constexpr int kHashedFiles = 20000;

    struct Concern
    {
        QString file; // "requirements.txt" or "apt.txt"
        int line = 0; // 1-based
        QString text; // the line as written
        QString reason;
        bool confirmable = true; // false: refused whatever the person says
    };

    // A requirement that names a file or folder: copied into the build, its line rewritten.
    struct LocalPath
    {
        int line = 0;
        QString written;  // as in the file, without extras or markers ("./pkg", "dist/x.whl")
        QString absolute; // resolved against the workspace
        bool inside = true;
    };

    QByteArray requirements; // the files' bytes as read (empty when missing)
    QByteArray apt;
    QStringList aptPackages; // what apt-get installs, in order ("graphviz", "gdal-bin=3.6.2")
    QStringList pipNames;    // distribution names, for the manifest ("scikit-image", "tool")
    QList<LocalPath> localPaths;
    QList<Concern> concerns;

    static EnvironmentSpec
    parse(const QByteArray &requirements, const QByteArray &apt, const QString &workspace);
    // Reads the two files of `workspace` (a missing file is an empty one). Fails when one cannot
    // be read, is not a regular file or is larger than kMaxFileBytes.
    static Result<EnvironmentSpec> read(const QString &workspace);

    bool isEmpty() const { return aptPackages.isEmpty() && requirementLines().isEmpty(); }
    bool hasRefusals() const;
    bool needsConfirmation() const; // confirmable concerns only
    // The concerns as lines a person reads ("requirements.txt:3: --index-url …: reason").
    QStringList describeConcerns() const;

    // requirements.txt's logical lines (continuations joined, comments and blanks dropped).
    QStringList requirementLines() const;
    // The requirements file the build uses: local paths replaced by `local/<n>-<name>`.
    QByteArray rewrittenRequirements() const;
    // Where LocalPath number `index` goes inside the build's context.
    static QString localTarget(int index, const QString &absolute);

    // Hash of what the files ask for (their bytes and the local files they name), for
    // remembering what the person approved; the image's tag adds the base and the wheelhouse.
    QString contentHash() const;
    // Not a link, a FIFO, a socket or a device (lstat): what may be read or copied.
    static bool isRegularFile(const QString &path);
};

} // namespace Sandcastle
