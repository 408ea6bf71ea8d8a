#include "partialjson.h"

namespace Sandcastle {

namespace {

struct Scanner
{
    const QString &s;
    qsizetype i = 0;

    bool atEnd() const { return i >= s.size(); }
    void skipSpace()
    {
        while (!atEnd() && s.at(i).isSpace())
            ++i;
    }

    // Decodes a string starting at the opening quote. `complete` tells whether the closing
    // quote was seen. An escape cut off at the end is dropped.
    QString readString(bool *complete)
    {
        *complete = false;
        QString out;
        ++i; // opening quote
        while (!atEnd()) {
            const QChar c = s.at(i);
            if (c == QLatin1Char('"')) {
                ++i;
                *complete = true;
                return out;
            }
            if (c != QLatin1Char('\\')) {
                out += c;
                ++i;
                continue;
            }
            if (i + 1 >= s.size())
                return out;
            const QChar e = s.at(i + 1);
            switch (e.unicode()) {
            case 'n':
                out += QLatin1Char('\n');
                break;
            case 't':
                out += QLatin1Char('\t');
                break;
            case 'r':
                out += QLatin1Char('\r');
                break;
            case 'b':
                out += QLatin1Char('\b');
                break;
            case 'f':
                out += QLatin1Char('\f');
                break;
            case 'u': {
                if (i + 6 > s.size())
                    return out;
                bool ok = false;
                const ushort code = s.mid(i + 2, 4).toUShort(&ok, 16);
                if (!ok)
                    return out;
                out += QChar(code); // surrogate halves pair up in the QString
                i += 6;
                continue;
            }
            default:
                out += e;
                break; // \" \\ \/
            }
            i += 2;
        }
        return out;
    }

    // Skips any value; returns false when the text ends inside it.
    bool skipValue()
    {
        skipSpace();
        if (atEnd())
            return false;
        if (s.at(i) == QLatin1Char('"')) {
            bool complete = false;
            readString(&complete);
            return complete;
        }
        int depth = 0;
        while (!atEnd()) {
            const QChar c = s.at(i);
            if (c == QLatin1Char('"')) {
                bool complete = false;
                readString(&complete);
                if (!complete)
                    return false;
                continue;
            }
            if (c == QLatin1Char('{') || c == QLatin1Char('['))
                ++depth;
            else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
                if (depth == 0)
                    return true;
                --depth;
            } else if (c == QLatin1Char(',') && depth == 0)
                return true;
            ++i;
        }
        return false;
    }
};

} // namespace

QString partialJsonStringField(const QString &partialJson, const QString &key)
{
    Scanner sc{partialJson};
    sc.skipSpace();
    if (sc.atEnd() || partialJson.at(sc.i) != QLatin1Char('{'))
        return {};
    ++sc.i;
    for (;;) {
        sc.skipSpace();
        if (sc.atEnd() || partialJson.at(sc.i) != QLatin1Char('"'))
            return {};
        bool complete = false;
        const QString name = sc.readString(&complete);
        if (!complete)
            return {};
        sc.skipSpace();
        if (sc.atEnd() || partialJson.at(sc.i) != QLatin1Char(':'))
            return {};
        ++sc.i;
        sc.skipSpace();
        if (sc.atEnd())
            return {};
        if (name == key) {
            if (partialJson.at(sc.i) != QLatin1Char('"'))
                return {};
            QString value = sc.readString(&complete);
            if (value.isNull())
                value = QStringLiteral(""); // started but empty: not null
            return value;
        }
        if (!sc.skipValue())
            return {};
        sc.skipSpace();
        if (sc.atEnd() || partialJson.at(sc.i) != QLatin1Char(','))
            return {};
        ++sc.i;
    }
}

} // namespace Sandcastle
