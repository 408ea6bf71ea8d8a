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
    QString m_key;
    qsizetype m_seen = 0;    // the length of the text last read
    qsizetype m_resume = -1; // where decoding goes on inside the value; -1 until it started
    bool m_complete = false; // the closing quote was seen
    QString m_value;         // decoded so far
};

} // namespace Sandcastle
