#pragma once

#include "sandboxconfig.h"
#include "sandboxengine.h"

#include <base/result.h>

#include <QHash>
#include <QStringList>

#include <optional>
#include <utility>

namespace Sandcastle {

// The blocking steps that move a workspace between this machine and a container's volume on a
// remote engine, each one program run in the session's container through the engine's execIn
// (`docker exec`, later `kubectl exec`), for a worker thread.
namespace VolumeSteps {

// What the volume holds: each entry's type (find's %y: 'f' file, 'd' folder, 'l' link, ...),
// size and modification time in whole seconds. The private .sandcastle folder is left out.
struct RemoteEntry
{
    char type = 'f';
    qint64 size = 0;
    qint64 mtime = 0;
    bool operator==(const RemoteEntry &o) const
    {
        return type == o.type && size == o.size && mtime == o.mtime;
    }
};
using Manifest = QHash<QString, RemoteEntry>;

// A name that can travel between here and the volume: one whose bytes were UTF-8 on the side
// that listed it (other bytes arrive as U+FFFD, and the name cannot be said back).
inline bool nameTravels(const QString &path)
{
    return !path.contains(QChar::ReplacementCharacter);
}

QStringList travelling(const QStringList &paths);

// find's NUL-separated "%y %s %T@ %P" records, read (malformed records are skipped).
Manifest parseManifest(const QByteArray &output);
Result<Manifest> readManifest(const SandboxEngine &engine, const QString &container);

// Sends these workspace files (relative paths; read through PathGuard, links never followed)
// into the volume as one tar stream, written as it is read.
Result<bool> pushFiles(const SandboxEngine &engine,
                       const QString &container,
                       const QString &root,
                       const QStringList &paths);
// Removes these files from the volume.
Result<bool>
removeRemote(const SandboxEngine &engine, const QString &container, const QStringList &paths);

struct Pulled
{
    QStringList files;   // written here
    QStringList refused; // "path: why", not written
    QString error;       // the stream was stopped (quota, a broken archive, the engine)
};
// Who owns what comes back when root on this machine writes it: the folder's user, as the
// code's own writes are in bind mode (the person's for an opened folder, the sandbox's for one
// Sandcastle made); nothing when this process is not root (its own user then).
using Owner = std::optional<std::pair<unsigned, unsigned>>;
Owner hostOwner(const SandboxConfig &config);

// Brings these files of the volume back into `root` through a TarExtractor within
// `quotaBytes`.
Pulled pullFiles(const SandboxEngine &engine,
                 const QString &container,
                 const QString &root,
                 const QStringList &paths,
                 qint64 quotaBytes,
                 const Owner &owner);
// Removes files here that the run removed there (regular files only, through PathGuard).
QStringList removeLocal(const QString &root, const QStringList &paths);

constexpr int StepTimeoutMs = 300000;

} // namespace VolumeSteps

} // namespace Sandcastle
