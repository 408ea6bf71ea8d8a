// libFuzzer target for a project's environment files (requirements.txt and apt.txt), which the
// agent can write and which decide what a build with network installs. The input is the two
// files, split at the first NUL. Whatever they hold: every apt package is a plain Debian name
// (it goes into a shell line of the Dockerfile); a spec without concerns, once rewritten for the
// build and read the way pip reads it (str.splitlines, its split of a line into requirement and
// options), has as many lines as it had, no option but the harmless ones, no option after a
// requirement but --hash, and no URL; the hash is stable; every concern has a line and a reason.
#include "fuzzing.h"

#include <sandbox/environmentspec.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

// A workspace with what requirements may name: a wheel, a package folder, a FIFO and a link out.
struct Fixture
{
    QTemporaryDir base;
    QString root;

    Fixture()
    {
        root = base.filePath(QStringLiteral("ws"));
        QDir().mkpath(root + QStringLiteral("/dist"));
        QDir().mkpath(root + QStringLiteral("/pkg"));
        QFile wheel(root + QStringLiteral("/dist/tool-1.0-py3-none-any.whl"));
        require(wheel.open(QIODevice::WriteOnly) && wheel.write("wheel") == 5);
        QFile setup(root + QStringLiteral("/pkg/setup.py"));
        require(setup.open(QIODevice::WriteOnly) && setup.write("x") == 1);
        require(::mkfifo(QFile::encodeName(root + QStringLiteral("/pipe")).constData(), 0600) == 0);
        require(::symlink("/etc", QFile::encodeName(root + QStringLiteral("/out")).constData())
                == 0);
        root = QFileInfo(root).canonicalFilePath();
    }
};

// Python's str.splitlines(), which pip uses to read a requirements file.
QStringList pythonLines(const QString &text)
{
    static const QRegularExpression lineBreak(QStringLiteral(
        "\\r\\n|[\\n\\r\\x{0b}\\x{0c}\\x{1c}\\x{1d}\\x{1e}\\x{85}\\x{2028}\\x{2029}]"));
    QStringList lines = text.split(lineBreak);
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    return lines;
}

void checkRewritten(const EnvironmentSpec &spec)
{
    const QStringList lines = pythonLines(QString::fromUtf8(spec.rewrittenRequirements()));
    require(lines.size() == spec.requirementLines().size());
    static const QRegularExpression harmless(
        QStringLiteral("^(--pre|--prefer-binary|--require-hashes|--no-index"
                       "|--(only|no)-binary(=|\\s+)[A-Za-z0-9:_.,-]+)$"));
    static const QRegularExpression hashes(
        QStringLiteral("^(\\s*--hash(=|\\s+)[A-Za-z0-9]+:[A-Za-z0-9]+)*\\s*$"));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        require(!line.isEmpty());
        if (line.startsWith(QLatin1Char('-'))) {
            require(harmless.match(line).hasMatch());
            continue;
        }
        // pip's break_args_options: the words before the first one starting with '-'.
        QStringList args;
        const QStringList tokens = line.split(QLatin1Char(' '));
        int i = 0;
        for (; i < tokens.size() && !tokens.at(i).startsWith(QLatin1Char('-')); ++i)
            args.append(tokens.at(i));
        const QString requirement = args.join(QLatin1Char(' '));
        require(hashes.match(line.mid(requirement.size())).hasMatch());
        require(!requirement.contains(QStringLiteral("://")));
        require(!requirement.section(QLatin1Char(';'), 0, 0).contains(QLatin1Char('@')));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Fixture fixture;
    const QByteArray input = bytesOf(data, size);
    const qsizetype nul = input.indexOf('\0');
    const QByteArray requirements = nul < 0 ? input : input.left(nul);
    const QByteArray apt = nul < 0 ? QByteArray() : input.mid(nul + 1);

    const EnvironmentSpec spec = EnvironmentSpec::parse(requirements, apt, fixture.root);

    static const QRegularExpression package(
        QStringLiteral("^[a-z0-9][a-z0-9+.-]+(=[A-Za-z0-9.+~:-]+)?$"));
    for (const QString &name : spec.aptPackages)
        require(package.match(name).hasMatch());
    require(spec.describeConcerns().size() == spec.concerns.size());
    for (const EnvironmentSpec::Concern &concern : spec.concerns)
        require(concern.line >= 1 && !concern.reason.isEmpty());
    for (const EnvironmentSpec::LocalPath &path : spec.localPaths) {
        const bool inside = path.absolute == fixture.root
                            || path.absolute.startsWith(fixture.root + QLatin1Char('/'));
        // A path outside is always a concern; one inside may still lead out through a link.
        require(inside || !path.inside);
    }
    if (spec.concerns.isEmpty())
        checkRewritten(spec);
    require(spec.contentHash()
            == EnvironmentSpec::parse(requirements, apt, fixture.root).contentHash());
    return 0;
}
