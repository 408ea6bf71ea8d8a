#pragma once

// Shared by the libFuzzer targets. A broken property traps, so that libFuzzer keeps the input
// as a finding; streams are fed whole, a unit at a time and in reads whose sizes follow from a
// seed, because every parser here must give the same answer however its input was cut.

#include <QByteArray>
#include <QHashFunctions>
#include <QList>
#include <QString>
#include <QtGlobal>

#include <cstddef>
#include <cstdint>

namespace Sandcastle::Fuzzing {

inline void require(bool ok)
{
    if (!ok)
        __builtin_trap();
}

inline QByteArray bytesOf(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// Pieces of `whole` (a QByteArray or a QString) of 1 to maxRead units, the sizes drawn from
// `seed`; maxRead 1 cuts at every unit.
template<typename Text>
QList<Text> cut(const Text &whole, quint32 seed, qsizetype maxRead = 64)
{
    QList<Text> pieces;
    quint32 state = seed | 1u; // xorshift32: never 0
    for (qsizetype at = 0; at < whole.size();) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        const qsizetype n = qMin(whole.size() - at, 1 + qsizetype(state % quint32(maxRead)));
        pieces << whole.mid(at, n);
        at += n;
    }
    return pieces;
}

// The three ways every stream target feeds its input: whole, one unit at a time, and in
// seeded reads of up to 64 units.
template<typename Text>
QList<QList<Text>> cuttings(const Text &whole)
{
    return {{whole}, cut(whole, 0, 1), cut(whole, quint32(qHash(whole)))};
}

} // namespace Sandcastle::Fuzzing
