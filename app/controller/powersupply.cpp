#include "powersupply.h"

#include <QDir>
#include <QFile>

namespace Sandcastle::PowerSupply {

namespace {
QString readValue(const QString &supply, const char *name)
{
    QFile file(supply + QLatin1Char('/') + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.read(64)).trimmed();
}
} // namespace

bool onBattery(const QString &root)
{
    bool discharging = false;
    const QDir supplies(root);
    for (const QString &name : supplies.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString supply = supplies.filePath(name);
        const QString type = readValue(supply, "type");
        if (type == QLatin1String("Mains") || type.startsWith(QLatin1String("USB"))) {
            if (readValue(supply, "online") == QLatin1String("1"))
                return false; // plugged in
        } else if (type == QLatin1String("Battery")) {
            if (readValue(supply, "status") == QLatin1String("Discharging"))
                discharging = true;
        }
    }
    return discharging;
}

} // namespace Sandcastle::PowerSupply
