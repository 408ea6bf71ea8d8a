#pragma once

#include <sandbox/environmentbuild.h>
#include <sandbox/environmentspec.h>

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// What Sandcastle remembers of one folder's environment, in
// <data>/environments/<hash of the folder's path>.json: the image its last good build made (in
// use until a later build succeeds, so a failed build loses nothing) and what the person
// approved — the content hashes a networked build may run for, and the files as last
// approved, against which a change is shown as a diff.
struct EnvironmentRecord
{
    QString workspace;
    QString image; // the last good build's tag; empty: the default image
    QString hash;
    QString packages;
    QByteArray approvedRequirements;
    QByteArray approvedApt;
    QStringList approvedHashes; // EnvironmentSpec::contentHash() values

    static QString fileFor(const QString &dataDir, const QString &workspace);
    // Where a build of `spec` keeps its log.
    static QString logFileFor(const QString &dataDir, const EnvironmentSpec &spec);
    // An empty record when there is none (or it cannot be read: it is rebuilt, not trusted).
    static EnvironmentRecord load(const QString &dataDir, const QString &workspace);
    Result<bool> save(const QString &dataDir) const;

    bool isApproved(const EnvironmentSpec &spec) const;
    void approve(const EnvironmentSpec &spec);
    // A good build: in use from now on, and its files approved.
    void recordBuilt(const EnvironmentImage &built, const EnvironmentSpec &spec);
    // The image a session on this folder uses while `spec` has none built: the last good one,
    // or the default.
    QString imageOr(const QString &defaultImage) const;
};

} // namespace Sandcastle
