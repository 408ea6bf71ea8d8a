#pragma once

#include <QString>

namespace Sandcastle {

struct SandboxConfig;

// Where the engine's daemon is, and whether it sees this machine's folders: the test that
// decides between bind-mounting the workspace and copying it (the remote-engine issue: "decide
// 'local' from the endpoint, not a guess"). A unix socket is not proof enough — a daemon in
// another mount namespace or a VM listens on one too — so the socket's peer is asked for its
// pid and the folder is looked up through that process's root.
class DaemonEndpoint
{
public:
    // The endpoint the engine's CLI talks to for this configuration ("unix:///var/run/docker.sock",
    // "ssh://me@box", "tcp://host:2376"): the context's (or the current one's, which honours
    // DOCKER_HOST and DOCKER_CONTEXT) as `docker context inspect` prints it; for podman its
    // connection's URI, or empty for podman itself on this machine. Blocking (one CLI call,
    // ≈ 40 ms), remembered for the process's lifetime per engine, context and environment.
    static QString hostOf(const SandboxConfig &config);

    // Whether a daemon at `host` opens `folder` (or its nearest existing parent) as the same
    // inode as this process: true for a unix socket whose peer process sees the folder, and for
    // podman without a connection (it runs the container itself), and for a socket nobody
    // answers (the start fails with the engine's own words either way); false for ssh://,
    // tcp://, or a peer in a namespace where the folder is another file. When the
    // peer's root cannot be read (a root daemon and a user without the right to inspect it), the
    // daemon counts as local: the usual docker.sock set-up, where the bind mount works.
    static bool seesFolder(const QString &host, const QString &folder);

    // hostOf() and seesFolder() together, remembered per endpoint and folder.
    static bool sharesFolder(const SandboxConfig &config);

    // The pid of the process listening on a unix socket (SO_PEERCRED), or -1.
    static qint64 socketPeerPid(const QString &path);
};

} // namespace Sandcastle
