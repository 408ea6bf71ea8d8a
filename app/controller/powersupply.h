#pragma once

#include <QString>

namespace Sandcastle::PowerSupply {

// Whether this machine runs on its battery now, from Linux's power_supply class (`root`,
// /sys/class/power_supply unless a test gives another): a battery discharging and no mains
// or USB supply online. A desktop without a battery, or a machine that does not say, is not.
bool onBattery(const QString &root = QStringLiteral("/sys/class/power_supply"));

} // namespace Sandcastle::PowerSupply
