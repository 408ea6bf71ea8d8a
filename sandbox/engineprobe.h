#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// What the Settings' engine page lists and its Test button says, read from the engine's CLI:
// Docker's contexts or Podman's connections, and what a daemon answers about itself. Pure:
// the page runs the commands, these build and read them.
namespace EngineProbe {

struct Endpoint
{
    QString name;    // the context or connection, as --context takes it
    QString address; // unix:///var/run/docker.sock, ssh://me@box, …
    bool current = false;
};

// `docker context ls` or `podman system connection list`, as JSON.
QStringList listArguments(const QString &engine);
QList<Endpoint> parseList(const QString &engine, const QByteArray &output);

struct Facts
{
    QString product; // "Docker", "Podman"
    QString version;
    QString os;
    int cpus = 0;
    qint64 memoryBytes = 0;
    QString error; // the answer could not be read
};

// `docker info` / `podman info` as JSON (without the context: the caller adds it).
QStringList infoArguments(const QString &engine);
Facts parseInfo(const QString &engine, const QByteArray &output);

// One line for the page: "Docker 28.2.2 on Debian GNU/Linux 12 (bookworm), 2 CPUs, 23.5 GiB".
QString describe(const Facts &facts);

bool isPodman(const QString &engine);

} // namespace EngineProbe

} // namespace Sandcastle
