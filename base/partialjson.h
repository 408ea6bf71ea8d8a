#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sandcastle {

// The value of a top-level string field of a JSON object that may still be arriving, decoded
// as far as it has come: `{"code": "print(\"hi` with key "code" gives `print("hi`. Returns a
// null QString while the field has not started. Lets the editor show code as it streams.
QString partialJsonStringField(const QString &partialJson, const QString &key);

// The top-level string fields named in `keys` of a complete JSON object, decoded, without
// building the whole document (a megabyte of code in a tool call is read in one pass, into one
// string): a key that is absent or not a string is missing from the result; of duplicates the
// last counts, as with a JSON parser. Nothing when the text is not an object.
std::optional<QHash<QString, QString>> jsonObjectStringFields(const QString &json,
                                                              const QStringList &keys);

// The same for a text that only grows (a tool call's arguments as they stream): each read()
// decodes only what arrived since the last, so that following a megabyte of arguments a frame
// at a time costs as much as the megabyte once, not once a frame. A text shorter than the last
// one starts over.
class PartialJsonStringField
{
public:
    explicit PartialJsonStringField(QString key);
    QString read(const QString &partialJson);

private:
    // Where the value starts (past its opening quote), or -1 while it has not; the search goes
    // on where the last one stopped, so that another field that arrives first (a megabyte of a
    // file's content before the code) is passed over once, not once a read.
    qsizetype findValue(const QString &partialJson);
    bool passValue(const QString &partialJson); // true at the end of the value passed over

    enum class Search { Object, Name, Value, After };

    QString m_key;
    Search m_search = Search::Object;
    qsizetype m_at = 0;         // where the search goes on
    bool m_stringValue = false; // the value passed over is a string (m_at is inside it)
    int m_depth = 0;            // otherwise: the nesting inside it so far
    bool m_inString = false;    // and whether m_at is inside one of its strings
    qsizetype m_seen = 0;       // the length of the text last read
    qsizetype m_resume = -1;    // where decoding goes on inside the value; -1 until it started
    bool m_complete = false;    // the closing quote was seen
    QString m_value;            // decoded so far
};

} // namespace Sandcastle
