#include "partialjson.h"

namespace Sandcastle {

namespace {

// The character a one-letter escape (`\n`, `\"`, …) stands for.
QChar unescaped(QChar e)
{
    switch (e.unicode()) {
    case 'n':
        return QLatin1Char('\n');
    case 't':
        return QLatin1Char('\t');
    case 'r':
        return QLatin1Char('\r');
    case 'b':
        return QLatin1Char('\b');
    case 'f':
        return QLatin1Char('\f');
    default:
        return e; // \" \\ \/
    }
}

// Decodes the inside of a JSON string from `*i` (just past the opening quote, or where an
// earlier call stopped) onto `out`; true at the closing quote (left past it). At the end of the
// text, or before an escape cut off there, it stops with `*i` where it should go on.
// A null `out` passes over the string, keeping nothing.
bool decode(const QString &s, qsizetype *i, QString *out)
{
    const qsizetype size = s.size();
    while (*i < size) {
        // A run of plain characters in one append.
        qsizetype end = *i;
        while (end < size && s.at(end) != QLatin1Char('"') && s.at(end) != QLatin1Char('\\'))
            ++end;
        if (out)
            out->append(QStringView(s).mid(*i, end - *i));
        *i = end;
        if (end == size)
            return false;
        if (s.at(end) == QLatin1Char('"')) {
            ++*i;
            return true;
        }
        if (end + 1 >= size)
            return false;
        const QChar e = s.at(end + 1);
        if (e == QLatin1Char('u')) {
            if (end + 6 > size)
                return false;
            bool ok = false;
            const ushort code = QStringView(s).mid(end + 2, 4).toUShort(&ok, 16);
            if (!ok)
                return false; // not JSON: it stops here, however much follows
            if (out)
                out->append(QChar(code)); // surrogate halves pair up in the QString
            *i = end + 6;
            continue;
        }
        if (out)
            out->append(unescaped(e));
        *i = end + 2;
    }
    return false;
}

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
        QString out;
        ++i; // opening quote
        *complete = decode(s, &i, &out);
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

    // Past the `{` that opens the top-level object; false when the text does not start so.
    bool openObject()
    {
        skipSpace();
        if (atEnd() || s.at(i) != QLatin1Char('{'))
            return false;
        ++i;
        return true;
    }

    // A member's `"name":`, leaving `i` at its value; false when the text is not that or ends
    // before the value.
    bool readName(QString *name)
    {
        skipSpace();
        if (atEnd() || s.at(i) != QLatin1Char('"'))
            return false;
        bool complete = false;
        *name = readString(&complete);
        if (!complete)
            return false;
        skipSpace();
        if (atEnd() || s.at(i) != QLatin1Char(':'))
            return false;
        ++i;
        skipSpace();
        return !atEnd();
    }

    // What follows a member's value: ',' (and `i` past it), '}', or a null QChar when the text
    // ends there or goes on with anything else.
    QChar afterValue()
    {
        skipSpace();
        if (atEnd())
            return {};
        const QChar c = s.at(i);
        if (c == QLatin1Char(','))
            ++i;
        return c == QLatin1Char(',') || c == QLatin1Char('}') ? c : QChar();
    }
};

} // namespace

std::optional<QHash<QString, QString>> jsonObjectStringFields(const QString &json,
                                                              const QStringList &keys)
{
    Scanner sc{json};
    if (!sc.openObject())
        return std::nullopt;
    QHash<QString, QString> fields;
    sc.skipSpace();
    if (!sc.atEnd() && json.at(sc.i) == QLatin1Char('}'))
        return fields;
    QString name;
    for (;;) {
        if (!sc.readName(&name))
            return std::nullopt;
        if (json.at(sc.i) == QLatin1Char('"') && keys.contains(name)) {
            bool complete = false;
            QString value = sc.readString(&complete);
            if (!complete)
                return std::nullopt;
            fields.insert(name, value.isNull() ? QStringLiteral("") : value);
        } else {
            fields.remove(name); // a later value that is not a string replaces an earlier one
            if (!sc.skipValue())
                return std::nullopt;
        }
        const QChar next = sc.afterValue();
        if (next == QLatin1Char('}'))
            return fields;
        if (next != QLatin1Char(','))
            return std::nullopt;
    }
}

QString partialJsonStringField(const QString &partialJson, const QString &key)
{
    return PartialJsonStringField(key).read(partialJson);
}

PartialJsonStringField::PartialJsonStringField(QString key)
    : m_key(std::move(key))
{}

QString PartialJsonStringField::read(const QString &partialJson)
{
    if (partialJson.size() < m_seen) {
        m_search = Search::Object;
        m_at = 0;
        m_resume = -1;
        m_complete = false;
        m_value.clear();
    }
    m_seen = partialJson.size();
    if (m_resume < 0) {
        m_resume = findValue(partialJson);
        if (m_resume < 0)
            return {};
        m_value = QStringLiteral(""); // started: not null, even while empty
    }
    if (!m_complete)
        m_complete = decode(partialJson, &m_resume, &m_value);
    return m_value;
}

qsizetype PartialJsonStringField::findValue(const QString &partialJson)
{
    for (;;) {
        switch (m_search) {
        case Search::Object: {
            Scanner sc{partialJson};
            if (!sc.openObject())
                return -1;
            m_at = sc.i;
            m_search = Search::Name;
            break;
        }
        case Search::Name: {
            Scanner sc{partialJson, m_at};
            QString name;
            if (!sc.readName(&name))
                return -1;
            if (name == m_key)
                return partialJson.at(sc.i) == QLatin1Char('"') ? sc.i + 1 : -1;
            m_stringValue = partialJson.at(sc.i) == QLatin1Char('"');
            m_at = m_stringValue ? sc.i + 1 : sc.i;
            m_depth = 0;
            m_inString = false;
            m_search = Search::Value;
            break;
        }
        case Search::Value:
            if (!passValue(partialJson))
                return -1;
            m_search = Search::After;
            break;
        case Search::After: {
            Scanner sc{partialJson, m_at};
            if (sc.afterValue() != QLatin1Char(','))
                return -1;
            m_at = sc.i;
            m_search = Search::Name;
            break;
        }
        }
    }
}

bool PartialJsonStringField::passValue(const QString &partialJson)
{
    if (m_stringValue)
        return decode(partialJson, &m_at, nullptr);
    // Anything else as Scanner::skipValue() passes over it: up to the ',' or the closing
    // bracket that ends it, with the strings inside it whole.
    const qsizetype size = partialJson.size();
    while (m_at < size) {
        if (m_inString) {
            if (!decode(partialJson, &m_at, nullptr))
                return false;
            m_inString = false;
            continue;
        }
        const QChar c = partialJson.at(m_at);
        if (c == QLatin1Char('"')) {
            m_inString = true;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            ++m_depth;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
            if (m_depth == 0)
                return true;
            --m_depth;
        } else if (c == QLatin1Char(',') && m_depth == 0) {
            return true;
        }
        ++m_at;
    }
    return false;
}

} // namespace Sandcastle
