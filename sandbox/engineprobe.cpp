#include "engineprobe.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Sandcastle::EngineProbe {

bool isPodman(const QString &engine)
{
    return QFileInfo(engine).fileName().startsWith(QLatin1String("podman"));
}

QStringList listArguments(const QString &engine)
{
    if (isPodman(engine))
        return {QStringLiteral("system"),
                QStringLiteral("connection"),
                QStringLiteral("list"),
                QStringLiteral("--format"),
                QStringLiteral("json")};
    return {QStringLiteral("context"),
            QStringLiteral("ls"),
            QStringLiteral("--format"),
            QStringLiteral("{{json .}}")};
}

QList<Endpoint> parseList(const QString &engine, const QByteArray &output)
{
    QList<Endpoint> endpoints;
    if (isPodman(engine)) {
        // One JSON array: [{"Name": …, "URI": …, "Default": true}, …]
        const QJsonArray all = QJsonDocument::fromJson(output).array();
        for (const auto &value : all) {
            const QJsonObject o = value.toObject();
            const QString name = o.value(QStringLiteral("Name")).toString();
            if (!name.isEmpty())
                endpoints.append({name,
                                  o.value(QStringLiteral("URI")).toString(),
                                  o.value(QStringLiteral("Default")).toBool()});
        }
        return endpoints;
    }
    // One JSON object a line: {"Current":true,"DockerEndpoint":"unix:///…","Name":"default",…}
    for (const QByteArray &line : output.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QString name = o.value(QStringLiteral("Name")).toString();
        if (name.isEmpty())
            continue;
        const QJsonValue current = o.value(QStringLiteral("Current"));
        endpoints.append(
            {name,
             o.value(QStringLiteral("DockerEndpoint")).toString(),
             current.isBool() ? current.toBool() : current.toString() == QLatin1String("*")});
    }
    return endpoints;
}

QStringList infoArguments(const QString &engine)
{
    if (isPodman(engine))
        return {QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("json")};
    return {QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .}}")};
}

Facts parseInfo(const QString &engine, const QByteArray &output)
{
    Facts facts;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(output.trimmed(), &error);
    if (!document.isObject()) {
        facts.error = QStringLiteral("the engine's answer is not what it should be: %1")
                          .arg(QString::fromUtf8(output.left(200)).trimmed());
        return facts;
    }
    const QJsonObject o = document.object();
    if (isPodman(engine)) {
        const QJsonObject host = o.value(QStringLiteral("host")).toObject();
        const QJsonObject distribution = host.value(QStringLiteral("distribution")).toObject();
        facts.product = QStringLiteral("Podman");
        facts.version = o.value(QStringLiteral("version"))
                            .toObject()
                            .value(QStringLiteral("Version"))
                            .toString();
        const QString os = distribution.value(QStringLiteral("distribution")).toString()
                           + QLatin1Char(' ')
                           + distribution.value(QStringLiteral("version")).toString();
        facts.os = os.trimmed();
        facts.cpus = host.value(QStringLiteral("cpus")).toInt();
        facts.memoryBytes = host.value(QStringLiteral("memTotal")).toInteger();
    } else {
        facts.product = QStringLiteral("Docker");
        facts.version = o.value(QStringLiteral("ServerVersion")).toString();
        facts.os = o.value(QStringLiteral("OperatingSystem")).toString();
        facts.cpus = o.value(QStringLiteral("NCPU")).toInt();
        facts.memoryBytes = o.value(QStringLiteral("MemTotal")).toInteger();
        // A CLI whose daemon does not answer still prints its own part, with the error.
        const QJsonArray errors = o.value(QStringLiteral("ServerErrors")).toArray();
        if (!errors.isEmpty())
            facts.error = errors.first().toString();
    }
    if (facts.version.isEmpty() && facts.error.isEmpty())
        facts.error = QStringLiteral("the engine did not say its version");
    return facts;
}

QString describe(const Facts &facts)
{
    if (!facts.error.isEmpty())
        return facts.error;
    QString line = facts.product + QLatin1Char(' ') + facts.version;
    if (!facts.os.isEmpty())
        line += QStringLiteral(" on ") + facts.os;
    if (facts.cpus > 0)
        line += QStringLiteral(", %1 CPU%2")
                    .arg(facts.cpus)
                    .arg(facts.cpus == 1 ? QString() : QStringLiteral("s"));
    if (facts.memoryBytes > 0)
        line += QStringLiteral(", %1 GiB")
                    .arg(double(facts.memoryBytes) / double(1LL << 30), 0, 'f', 1);
    return line;
}

} // namespace Sandcastle::EngineProbe
