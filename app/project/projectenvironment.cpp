#include "projectenvironment.h"

#include <app/agent/unifieddiff.h>
#include <sandbox/pathguard.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {

QString canonicalName(const QString &name)
{
    static const QRegularExpression separators(QStringLiteral("[-_.]+"));
    return QString(name).replace(separators, QStringLiteral("-")).toLower();
}

QByteArray appendLines(QByteArray file, const QStringList &lines)
{
    if (lines.isEmpty())
        return file;
    if (!file.isEmpty() && !file.endsWith('\n'))
        file += '\n';
    for (const QString &line : lines)
        file += line.toUtf8() + '\n';
    return file;
}

} // namespace

ProjectEnvironment::ProjectEnvironment(QObject *parent)
    : QObject(parent)
{}

ProjectEnvironment::~ProjectEnvironment()
{
    // A label lookup still under way ends with the conversation (builds end in their own
    // destructors, which cancel them).
    const QList<QProcess *> lookups = findChildren<QProcess *>(Qt::FindDirectChildrenOnly);
    for (QProcess *lookup : lookups) {
        lookup->disconnect(this);
        lookup->kill();
        lookup->waitForFinished(2000);
    }
    if (m_installDone)
        std::exchange(m_installDone, nullptr)(
            Result<QString>::failure(QStringLiteral("the conversation was closed")));
}

void ProjectEnvironment::setTarget(const AppSettings &settings, const QString &workspace)
{
    ++m_generation;
    if (m_build) {
        m_build->disconnect(this);
        m_build->cancel();
        m_build->deleteLater();
    }
    finishInstall(Result<QString>::failure(QStringLiteral("the conversation was switched")));
    m_settings = settings;
    m_workspace = workspace;
    m_record = EnvironmentRecord::load(settings.dataDir, workspace);
    m_image = m_record.imageOr(settings.image);
    m_packages = m_record.image.isEmpty() ? QString() : m_record.packages;
    m_approval.reset();
    m_pendingSpec.reset();
    m_declined.clear();
    m_seenHash.clear();
    m_lastLog.clear();
    setState(m_record.image.isEmpty() ? State::Default : State::Ready);
    refresh();
}

void ProjectEnvironment::setSettings(const AppSettings &settings)
{
    m_settings = settings;
    if (m_record.image.isEmpty())
        m_image = settings.image;
}

void ProjectEnvironment::holdLookUps(bool hold)
{
    m_held = hold;
    if (!hold && std::exchange(m_refreshAsked, false))
        refresh();
}

void ProjectEnvironment::refresh()
{
    if (m_held) {
        m_refreshAsked = true;
        return;
    }
    if (m_workspace.isEmpty() || m_state == State::Building || m_state == State::AwaitingApproval)
        return;
    const Result<EnvironmentSpec> spec = EnvironmentSpec::read(m_workspace);
    if (!spec) {
        const QString hash = QStringLiteral("unreadable:") + spec.error();
        if (std::exchange(m_seenHash, hash) != hash)
            Q_EMIT buildFinished(
                false, tr("The project's environment files cannot be used: %1").arg(spec.error()));
        return;
    }
    const QString hash = spec.value().contentHash();
    if (std::exchange(m_seenHash, hash) == hash)
        return;
    lookUp(spec.value());
}

void ProjectEnvironment::lookUp(const EnvironmentSpec &spec)
{
    const quint64 generation = m_generation;
    if (spec.isEmpty()) {
        // No files: the default image (or the last good build, kept while the files are
        // gone), whose label names what it has.
        auto *inspect = new QProcess(this);
        const QString image = m_image;
        connect(inspect,
                &QProcess::finished,
                this,
                [this, inspect, image, generation](int exitCode, QProcess::ExitStatus status) {
                    inspect->deleteLater();
                    if (generation != m_generation)
                        return;
                    if (status == QProcess::NormalExit && exitCode == 0)
                        m_packages = QString::fromUtf8(inspect->readAllStandardOutput()).trimmed();
                    Q_EMIT imageChanged(image, m_packages, false);
                });
        const QStringList global
            = m_settings.engineContext.isEmpty()
                  ? QStringList()
                  : QStringList{QStringLiteral("--context"), m_settings.engineContext};
        inspect->start(
            m_settings.engine,
            global
                + QStringList{
                    QStringLiteral("image"),
                    QStringLiteral("inspect"),
                    QStringLiteral("--format"),
                    QStringLiteral("{{index .Config.Labels \"org.sandcastle.packages\"}}"),
                    image});
        return;
    }
    auto *lookup
        = new EnvironmentBuild(m_settings.environmentRequest(m_workspace, spec, false), this);
    connect(lookup,
            &EnvironmentBuild::finished,
            this,
            [this, lookup, spec, generation](const Result<EnvironmentImage> &found) {
                lookup->deleteLater();
                if (generation == m_generation)
                    onLookedUp(spec, found);
            });
    lookup->start();
}

void ProjectEnvironment::onLookedUp(const EnvironmentSpec &spec,
                                    const Result<EnvironmentImage> &found)
{
    if (!found) {
        m_lastLog.clear();
        setState(State::Failed);
        Q_EMIT buildFinished(false, found.error());
        return;
    }
    const EnvironmentImage &image = found.value();
    if (image.origin == EnvironmentImage::Origin::Reused) {
        const bool changed = image.tag != m_image;
        m_image = image.tag;
        m_packages = image.packages;
        if (changed && !spec.isEmpty()) {
            m_record.image = image.tag;
            m_record.hash = image.hash;
            m_record.packages = image.packages;
            m_record.save(m_settings.dataDir);
        }
        setState(State::Ready);
        Q_EMIT imageChanged(m_image, m_packages, false);
        return;
    }
    // Not built. Content the person approved before (the base image changed since, say)
    // builds at once; anything else waits for them.
    if (m_record.isApproved(spec) && !spec.hasRefusals())
        build(spec, true);
    else
        ask(spec, Approval());
}

QString ProjectEnvironment::describe(const EnvironmentSpec &spec)
{
    QStringList parts;
    if (!spec.requirementLines().isEmpty())
        parts << QStringLiteral("pip: ") + spec.requirementLines().join(QStringLiteral(", "));
    if (!spec.aptPackages.isEmpty())
        parts << QStringLiteral("apt: ") + spec.aptPackages.join(QStringLiteral(", "));
    return parts.join(QStringLiteral("; "));
}

void ProjectEnvironment::ask(const EnvironmentSpec &spec, Approval approval)
{
    if (spec.hasRefusals()) {
        setState(State::Failed);
        const QString message = tr("The project's environment cannot be built: %1")
                                    .arg(spec.describeConcerns().join(QStringLiteral("; ")));
        Q_EMIT buildFinished(false, message);
        finishInstall(Result<QString>::failure(message));
        return;
    }
    if (approval.kind == Approval::Kind::FolderFiles && m_declined.contains(spec.contentHash()))
        return;
    if (!m_canAsk) {
        const QString message
            = approval.kind == Approval::Kind::Install
                  ? QStringLiteral("install_packages needs the person's approval, which cannot be "
                                   "asked for here; they can add the packages to requirements.txt "
                                   "or apt.txt and run: sandcastle env build --workspace %1")
                        .arg(m_workspace)
                  : tr("The project's requirements.txt or apt.txt asks for packages that are not "
                       "built; the sandbox uses %1 (build them with: sandcastle env build "
                       "--workspace %2).")
                        .arg(m_image, m_workspace);
        Q_EMIT buildFinished(false, message);
        finishInstall(Result<QString>::failure(message));
        return;
    }
    approval.summary = describe(spec);
    const QString requirementsDiff = unifiedDiff(QString::fromUtf8(m_record.approvedRequirements),
                                                 QString::fromUtf8(spec.requirements),
                                                 QStringLiteral("requirements.txt (approved)"),
                                                 QStringLiteral("requirements.txt"));
    const QString aptDiff = unifiedDiff(QString::fromUtf8(m_record.approvedApt),
                                        QString::fromUtf8(spec.apt),
                                        QStringLiteral("apt.txt (approved)"),
                                        QStringLiteral("apt.txt"));
    approval.diff = requirementsDiff + aptDiff;
    approval.concerns = spec.describeConcerns();
    m_approval = approval;
    m_pendingSpec = spec;
    setState(State::AwaitingApproval);
    Q_EMIT approvalNeeded(approval);
}

void ProjectEnvironment::approve()
{
    if (!m_approval || !m_pendingSpec)
        return;
    const Approval approval = *std::exchange(m_approval, std::nullopt);
    EnvironmentSpec spec = *std::exchange(m_pendingSpec, std::nullopt);
    if (approval.kind == Approval::Kind::Install) {
        const Result<EnvironmentSpec> written = writeFiles(m_installRequirements, m_installApt);
        if (!written) {
            setState(State::Failed);
            Q_EMIT buildFinished(false, written.error());
            finishInstall(Result<QString>::failure(written.error()));
            return;
        }
        spec = written.value();
        m_seenHash = spec.contentHash();
    }
    m_record.approve(spec);
    m_record.save(m_settings.dataDir);
    build(spec, true);
}

void ProjectEnvironment::decline()
{
    if (!m_approval || !m_pendingSpec)
        return;
    const Approval approval = *std::exchange(m_approval, std::nullopt);
    const EnvironmentSpec spec = *std::exchange(m_pendingSpec, std::nullopt);
    if (approval.kind == Approval::Kind::FolderFiles)
        m_declined.append(spec.contentHash());
    setState(m_record.image.isEmpty() ? State::Default : State::Ready);
    finishInstall(
        Result<QString>::failure(QStringLiteral("the person declined to install these packages")));
}

void ProjectEnvironment::withdrawInstall()
{
    if (!m_approval || m_approval->kind != Approval::Kind::Install)
        return;
    m_approval.reset();
    m_pendingSpec.reset();
    m_installDone = nullptr;
    setState(m_record.image.isEmpty() ? State::Default : State::Ready);
}

void ProjectEnvironment::cancelBuild()
{
    if (m_build)
        m_build->cancel();
}

void ProjectEnvironment::build(const EnvironmentSpec &spec, bool confirmed)
{
    EnvironmentRequest request = m_settings.environmentRequest(m_workspace, spec, true);
    request.confirmed = confirmed;
    m_lastLog = request.logFile;
    m_build = new EnvironmentBuild(request, this);
    connect(m_build, &EnvironmentBuild::output, this, &ProjectEnvironment::buildOutput);
    connect(m_build, &EnvironmentBuild::progress, this, &ProjectEnvironment::buildProgress);
    const quint64 generation = m_generation;
    EnvironmentBuild *started = m_build;
    connect(m_build,
            &EnvironmentBuild::finished,
            this,
            [this, started, spec, generation](const Result<EnvironmentImage> &built) {
                started->deleteLater();
                if (generation == m_generation)
                    onBuilt(spec, built);
            });
    setState(State::Building);
    m_build->start();
}

void ProjectEnvironment::onBuilt(const EnvironmentSpec &spec, const Result<EnvironmentImage> &built)
{
    if (!built) {
        setState(State::Failed);
        const QString message = tr("%1\nThe sandbox keeps using %2.").arg(built.error(), m_image);
        Q_EMIT buildFinished(false, message);
        finishInstall(Result<QString>::failure(message));
        return;
    }
    m_record.recordBuilt(built.value(), spec);
    m_record.save(m_settings.dataDir);
    const bool changed = built.value().tag != m_image;
    m_image = built.value().tag;
    m_packages = built.value().packages;
    setState(State::Ready);
    Q_EMIT buildFinished(true,
                         built.value().origin == EnvironmentImage::Origin::Built
                             ? tr("Built the environment %1 in %2 s.")
                                   .arg(m_image)
                                   .arg(built.value().elapsedMs / 1000.0, 0, 'f', 1)
                             : tr("The environment %1 was already built.").arg(m_image));
    Q_EMIT imageChanged(m_image, m_packages, changed);
    finishInstall(Result<QString>::ok(m_packages));
}

void ProjectEnvironment::install(const QStringList &pip,
                                 const QStringList &apt,
                                 const QString &reason,
                                 InstallDone done)
{
    if (m_installDone || m_state == State::Building || m_state == State::AwaitingApproval) {
        done(Result<QString>::failure(QStringLiteral(
            "another environment build or approval is under way; try again when it has finished")));
        return;
    }
    if (pip.isEmpty() && apt.isEmpty()) {
        done(Result<QString>::failure(QStringLiteral("name at least one package in pip or apt")));
        return;
    }
    const Result<EnvironmentSpec> current = EnvironmentSpec::read(m_workspace);
    if (!current) {
        done(Result<QString>::failure(current.error()));
        return;
    }
    const Result<std::pair<QByteArray, QByteArray>> files = withPackages(current.value(), pip, apt);
    if (!files) {
        done(Result<QString>::failure(files.error()));
        return;
    }
    const EnvironmentSpec next
        = EnvironmentSpec::parse(files.value().first, files.value().second, m_workspace);
    m_installRequirements = files.value().first;
    m_installApt = files.value().second;
    m_installDone = std::move(done);
    Approval approval;
    approval.kind = Approval::Kind::Install;
    approval.pip = pip;
    approval.apt = apt;
    approval.reason = reason;
    ask(next, approval);
}

Result<std::pair<QByteArray, QByteArray>> ProjectEnvironment::withPackages(
    const EnvironmentSpec &spec, const QStringList &pip, const QStringList &apt)
{
    using Files = std::pair<QByteArray, QByteArray>;
    static const QRegularExpression requirement(
        QStringLiteral("^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\\[[A-Za-z0-9._,-]+\\])?"
                       "(\\s*(==|>=|<=|~=|!=|>|<)\\s*[A-Za-z0-9.*+!-]+(\\s*,\\s*(==|>=|<=|~=|!=|>|<"
                       ")\\s*[A-Za-z0-9.*+!-]+)*)?$"));
    static const QRegularExpression package(
        QStringLiteral("^[a-z0-9][a-z0-9+.-]+(=[A-Za-z0-9.+~:-]+)?$"));
    QStringList have;
    for (const QString &name : spec.pipNames)
        have << canonicalName(name);
    QStringList newPip;
    for (const QString &raw : pip) {
        const QString wanted = raw.trimmed();
        const QRegularExpressionMatch match = requirement.match(wanted);
        if (!match.hasMatch())
            return Result<Files>::failure(
                QStringLiteral("'%1' is not a package name pip installs from an index (no options, "
                               "URLs or paths)")
                    .arg(raw));
        if (!have.contains(canonicalName(match.captured(1))))
            newPip << wanted;
        have << canonicalName(match.captured(1));
    }
    QStringList haveApt;
    for (const QString &name : spec.aptPackages)
        haveApt << name.section(QLatin1Char('='), 0, 0);
    QStringList newApt;
    for (const QString &raw : apt) {
        const QString wanted = raw.trimmed();
        if (!package.match(wanted).hasMatch())
            return Result<Files>::failure(
                QStringLiteral("'%1' is not a Debian package name").arg(raw));
        if (!haveApt.contains(wanted.section(QLatin1Char('='), 0, 0)))
            newApt << wanted;
        haveApt << wanted.section(QLatin1Char('='), 0, 0);
    }
    return Result<Files>::ok(
        {appendLines(spec.requirements, newPip), appendLines(spec.apt, newApt)});
}

Result<EnvironmentSpec> ProjectEnvironment::writeFiles(const QByteArray &requirements,
                                                       const QByteArray &apt)
{
    // Through PathGuard: a requirements.txt the code replaced by a link is refused, never
    // followed. New files get the folder's owner (root writes into a person's folder).
    // A conversation's own workspace is made when its sandbox first starts: perhaps not yet.
    QDir().mkpath(m_workspace);
    struct stat folder
    {
    };
    std::optional<std::pair<unsigned, unsigned>> owner;
    if (::getuid() == 0 && ::stat(QFile::encodeName(m_workspace).constData(), &folder) == 0)
        owner = std::make_pair(unsigned(folder.st_uid), unsigned(folder.st_gid));
    const std::pair<QString, QByteArray> files[2]
        = {{QStringLiteral("requirements.txt"), requirements}, {QStringLiteral("apt.txt"), apt}};
    for (const auto &[name, bytes] : files) {
        if (bytes.isEmpty() && !QFileInfo::exists(m_workspace + QLatin1Char('/') + name))
            continue;
        const Result<int> fd = PathGuard::openInside(
            m_workspace, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, false, owner);
        if (!fd)
            return Result<EnvironmentSpec>::failure(
                QStringLiteral("cannot write %1: %2").arg(name, fd.error()));
        qint64 written = 0;
        while (written < bytes.size()) {
            const ssize_t n
                = ::write(fd.value(), bytes.constData() + written, size_t(bytes.size() - written));
            if (n <= 0)
                break;
            written += n;
        }
        ::close(fd.value());
        if (written != bytes.size())
            return Result<EnvironmentSpec>::failure(QStringLiteral("cannot write %1").arg(name));
    }
    return EnvironmentSpec::read(m_workspace);
}

void ProjectEnvironment::setState(State state)
{
    if (std::exchange(m_state, state) != state)
        Q_EMIT stateChanged(state);
}

void ProjectEnvironment::finishInstall(const Result<QString> &outcome)
{
    if (m_installDone)
        std::exchange(m_installDone, nullptr)(outcome);
}

} // namespace Sandcastle
