// libFuzzer target for the partial-JSON decoder the editor streams code with. On any text, a
// field once started only grows as more text arrives (never changes what it showed, never goes
// back to null). On a complete JSON document, the decoder agrees with nlohmann/json on the
// first top-level "code" member, and every prefix of the document shows a prefix of that value
// (or nothing when the document has no such string).
#include "fuzzing.h"

#include <base/partialjson.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

const QString kKey = QStringLiteral("code");

// Finds the first top-level member named `code` with nlohmann's SAX reader (the DOM would keep
// the last of duplicate keys; the decoder reads the first).
class FirstMember : public nlohmann::json_sax<nlohmann::json>
{
public:
    bool isObject = false;
    bool found = false;
    std::optional<std::string> text; // set when the member is a string

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t &) override { return value(); }
    bool string(string_t &s) override { return value(&s); }
    bool binary(binary_t &) override { return value(); }
    bool start_object(std::size_t) override
    {
        if (m_depth == 0)
            isObject = true;
        value();
        ++m_depth;
        return true;
    }
    bool key(string_t &name) override
    {
        m_next = m_depth == 1 && !found && name == "code";
        return true;
    }
    bool end_object() override
    {
        --m_depth;
        return true;
    }
    bool start_array(std::size_t) override
    {
        value();
        ++m_depth;
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return false;
    }

private:
    bool value(const string_t *s = nullptr)
    {
        if (m_next) {
            found = true;
            if (s)
                text = *s;
        }
        m_next = false;
        return true;
    }

    int m_depth = 0;
    bool m_next = false;
};

// Prefix lengths to try: all of them for short texts, about 200 spread out for long ones.
QList<qsizetype> prefixLengths(qsizetype size)
{
    QList<qsizetype> lengths;
    const qsizetype step = qMax<qsizetype>(1, size / 200);
    for (qsizetype n = 0; n < size; n += step)
        lengths << n;
    lengths << size;
    return lengths;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(bytesOf(data, size));
    // The field, where a complete document names one; null when it has none that is a string.
    std::optional<QString> expected;
    FirstMember reader;
    const std::string utf8 = text.toStdString();
    if (nlohmann::json::sax_parse(utf8, &reader) && reader.isObject) {
        expected = reader.text ? QString::fromStdString(*reader.text) : QString();
        const QString value = partialJsonStringField(text, kKey);
        require(value == *expected && value.isNull() == expected->isNull());
    }
    // A whole object's string fields: of duplicates the last, as the parser keeps it.
    const nlohmann::json dom = nlohmann::json::parse(utf8, nullptr, false);
    if (!dom.is_discarded() && dom.is_object()) {
        const auto fields = jsonObjectStringFields(text, {kKey});
        require(fields.has_value());
        const auto it = dom.find(kKey.toStdString());
        if (it != dom.end() && it->is_string())
            require(fields->value(kKey) == QString::fromStdString(it->get<std::string>())
                    && fields->contains(kKey));
        else
            require(!fields->contains(kKey));
    }
    // Following the text as it grows gives, at each length, what reading it whole gives.
    QString shown;
    PartialJsonStringField growing(kKey);
    for (const qsizetype n : prefixLengths(text.size())) {
        const QString value = partialJsonStringField(text.left(n), kKey);
        require(shown.isNull() || (!value.isNull() && value.startsWith(shown)));
        if (expected)
            require(value.isNull() || (!expected->isNull() && expected->startsWith(value)));
        const QString followed = growing.read(text.left(n));
        require(followed == value && followed.isNull() == value.isNull());
        shown = value;
    }
    return 0;
}
