#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/project/environmentrecord.h>
#include <sandbox/containerengine.h>
#include <sandbox/environmentbuild.h>

#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>

#include <optional>

namespace Sandcastle::Cli {

namespace {

// Runs `build` to its end; the build's log goes to stderr when `echo` is set.
Result<EnvironmentImage> waitFor(EnvironmentBuild &build, bool echo)
{
    std::optional<Result<EnvironmentImage>> outcome;
    QEventLoop loop;
    if (echo)
        QObject::connect(
            &build, &EnvironmentBuild::output, &loop, [](const QString &text) { writeErr(text); });
    QObject::connect(
        &build, &EnvironmentBuild::finished, &loop, [&](const Result<EnvironmentImage> &result) {
            outcome = result;
            loop.quit();
        });
    const SigintWatcher sigint([&build] { build.cancel(); });
    QMetaObject::invokeMethod(
        &build, [&build] { build.start(); }, Qt::QueuedConnection);
    loop.exec();
    return *outcome;
}

struct EnvOptions
{
    QString workspace;
    bool json = false;
    bool yes = false;
};

int showEnvironment(const AppSettings &settings, const EnvOptions &options)
{
    const Result<EnvironmentSpec> spec = EnvironmentSpec::read(options.workspace);
    if (!spec)
        return failure(spec.error());
    const EnvironmentRecord record = EnvironmentRecord::load(settings.dataDir, options.workspace);
    QString state = QStringLiteral("default");
    QString image = settings.image;
    QString hash;
    QString packages;
    if (!spec.value().isEmpty()) {
        EnvironmentBuild lookup(
            settings.environmentRequest(options.workspace, spec.value(), false));
        const Result<EnvironmentImage> found = waitFor(lookup, false);
        if (!found) {
            writeErr(QStringLiteral("sandcastle: ") + found.error() + QLatin1Char('\n'));
            return kExitEngine;
        }
        hash = found.value().hash;
        if (found.value().origin == EnvironmentImage::Origin::Reused) {
            state = QStringLiteral("built");
            image = found.value().tag;
            packages = found.value().packages;
        } else {
            state = QStringLiteral("not built");
            image = record.imageOr(settings.image);
        }
    }
    if (packages.isEmpty()) {
        // The image in use says what it has.
        const ContainerEngine engine(settings.engine, settings.engineContext);
        const ContainerEngine::Output out
            = engine.run({QStringLiteral("image"),
                          QStringLiteral("inspect"),
                          QStringLiteral("--format"),
                          QStringLiteral("{{index .Config.Labels \"org.sandcastle.packages\"}}"),
                          image});
        packages = QString::fromUtf8(out.stdoutData).trimmed();
    }
    const QStringList list = packages.split(QStringLiteral("; "), Qt::SkipEmptyParts);
    if (options.json) {
        nlohmann::ordered_json packagesJson = nlohmann::ordered_json::array();
        for (const QString &p : list)
            packagesJson.push_back(utf8(p));
        nlohmann::ordered_json concerns = nlohmann::ordered_json::array();
        for (const QString &c : spec.value().describeConcerns())
            concerns.push_back(utf8(c));
        emitJson({{"workspace", utf8(options.workspace)},
                  {"state", utf8(state)},
                  {"image", utf8(image)},
                  {"hash", utf8(hash)},
                  {"apt", spec.value().aptPackages.size()},
                  {"requirements", spec.value().requirementLines().size()},
                  {"concerns", concerns},
                  {"packages", packagesJson}});
        return kExitOk;
    }
    writeOut(QStringLiteral("folder: %1\n").arg(options.workspace));
    if (state == QLatin1String("default")) {
        writeOut(
            QStringLiteral("environment: the default image (no requirements.txt or apt.txt)\n"));
    } else {
        writeOut(QStringLiteral("environment: %1, %2 (requirements.txt: %3 line(s), apt.txt: %4 "
                                "package(s))\n")
                     .arg(EnvironmentBuild::tagFor(hash), state)
                     .arg(spec.value().requirementLines().size())
                     .arg(spec.value().aptPackages.size()));
        if (state == QLatin1String("not built"))
            writeOut(QStringLiteral("  in use until it is built: %1 (sandcastle env build)\n")
                         .arg(image));
    }
    for (const QString &concern : spec.value().describeConcerns())
        writeOut(QStringLiteral("  needs attention: %1\n").arg(concern));
    writeOut(QStringLiteral("image: %1\npackages:\n").arg(image));
    for (const QString &p : list)
        writeOut(QStringLiteral("  %1\n").arg(p));
    return kExitOk;
}

int build(const AppSettings &settings, const EnvOptions &options)
{
    const Result<EnvironmentSpec> spec = EnvironmentSpec::read(options.workspace);
    if (!spec)
        return failure(spec.error());
    if (spec.value().isEmpty())
        return failure(QStringLiteral("%1 has no requirements.txt or apt.txt: the default image "
                                      "is its environment")
                           .arg(options.workspace));
    if (spec.value().hasRefusals())
        return failure(QStringLiteral("these lines cannot be installed:\n  ")
                       + spec.value().describeConcerns().join(QStringLiteral("\n  ")));
    if (spec.value().needsConfirmation() && !options.yes)
        return failure(QStringLiteral("these lines reach beyond the package index; build with "
                                      "--yes to accept them:\n  ")
                       + spec.value().describeConcerns().join(QStringLiteral("\n  ")));
    EnvironmentRequest request = settings.environmentRequest(options.workspace, spec.value(), true);
    request.confirmed = options.yes;
    EnvironmentBuild environment(request);
    const Result<EnvironmentImage> built = waitFor(environment, !options.json);
    if (!built) {
        writeErr(QStringLiteral("sandcastle: ") + built.error() + QLatin1Char('\n'));
        return kExitFailure;
    }
    // The person ran the build: its files are approved and the image is the folder's now.
    EnvironmentRecord record = EnvironmentRecord::load(settings.dataDir, options.workspace);
    record.recordBuilt(built.value(), spec.value());
    if (const Result<bool> saved = record.save(settings.dataDir); !saved)
        writeErr(QStringLiteral("sandcastle: ") + saved.error() + QLatin1Char('\n'));
    const bool reused = built.value().origin == EnvironmentImage::Origin::Reused;
    if (options.json) {
        emitJson({{"image", utf8(built.value().tag)},
                  {"hash", utf8(built.value().hash)},
                  {"reused", reused},
                  {"elapsed_ms", built.value().elapsedMs},
                  {"log", utf8(reused ? QString() : built.value().logFile)}});
    } else {
        writeOut(QStringLiteral("%1 %2 in %3 s\n")
                     .arg(built.value().tag,
                          reused ? QStringLiteral("already built, found") : QStringLiteral("built"))
                     .arg(built.value().elapsedMs / 1000.0, 0, 'f', 1));
    }
    return kExitOk;
}

} // namespace

QString projectImage(const AppSettings &settings, const QString &workspace)
{
    const Result<EnvironmentSpec> spec = EnvironmentSpec::read(workspace);
    if (!spec) {
        writeErr(QStringLiteral("sandcastle: the project's environment is not used: %1\n")
                     .arg(spec.error()));
        return settings.image;
    }
    if (spec.value().isEmpty())
        return settings.image;
    EnvironmentBuild lookup(settings.environmentRequest(workspace, spec.value(), false));
    const Result<EnvironmentImage> found = waitFor(lookup, false);
    if (found && found.value().origin == EnvironmentImage::Origin::Reused)
        return found.value().tag;
    QString fallback = EnvironmentRecord::load(settings.dataDir, workspace).imageOr(settings.image);
    writeErr(QStringLiteral("sandcastle: the project's environment (requirements.txt, apt.txt) is "
                            "not built; using %1 (build it with: sandcastle env build --workspace "
                            "%2)\n")
                 .arg(fallback, workspace));
    return fallback;
}

int runEnv(const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption workspace(
        QStringLiteral("workspace"), QStringLiteral("project folder"), QStringLiteral("DIR"));
    const QCommandLineOption wheelhouse(QStringLiteral("wheelhouse"),
                                        QStringLiteral("install from these wheels only"),
                                        QStringLiteral("DIR"));
    const QCommandLineOption timeout(
        QStringLiteral("timeout"), QStringLiteral("seconds"), QStringLiteral("S"));
    const QCommandLineOption yes(QStringLiteral("yes"),
                                 QStringLiteral("accept lines that reach beyond the index"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("JSON output"));
    parser.addOptions({workspace, wheelhouse, timeout, yes, json});
    if (!parseOptions(parser, QStringLiteral("env"), args))
        return kExitUsage;
    const QStringList words = parser.positionalArguments();
    if (words.size() != 1
        || (words.first() != QLatin1String("build") && words.first() != QLatin1String("show")))
        return usageError(
            QStringLiteral("the env command is: sandcastle env build|show [--workspace DIR]"));
    AppSettings settings = AppSettings::load();
    EnvOptions options;
    options.workspace
        = QDir(parser.isSet(workspace) ? parser.value(workspace) : QDir::currentPath())
              .absolutePath();
    if (!QFileInfo(options.workspace).isDir())
        return usageError(QStringLiteral("%1 is not a folder").arg(options.workspace));
    options.json = parser.isSet(json);
    options.yes = parser.isSet(yes);
    if (parser.isSet(wheelhouse)) {
        settings.wheelhouse = QDir(parser.value(wheelhouse)).absolutePath();
        if (!QFileInfo(settings.wheelhouse).isDir())
            return usageError(
                QStringLiteral("--wheelhouse: %1 is not a folder").arg(settings.wheelhouse));
    }
    if (parser.isSet(timeout)) {
        bool ok = false;
        const int seconds = parser.value(timeout).toInt(&ok);
        if (!ok || seconds <= 0)
            return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
        settings.environmentTimeoutS = seconds;
    }
    return words.first() == QLatin1String("build") ? build(settings, options)
                                                   : showEnvironment(settings, options);
}

} // namespace Sandcastle::Cli
