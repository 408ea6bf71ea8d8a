#include "chunkfields.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace Sandcastle {

namespace {

// Which keys of interest were seen in the current object: a duplicate means "fall back".
struct Seen
{
    unsigned bits = 0;
    bool mark(unsigned bit)
    {
        if (bits & bit)
            return false;
        bits |= bit;
        return true;
    }
};

class Scanner
{
public:
    explicit Scanner(const QByteArray &json)
        : p(json.constData())
        , end(json.constData() + json.size())
    {}

    // Any failure, structural or "unusual", ends in fallback.
    bool failed = false;

    bool atEnd()
    {
        skipSpace();
        return p == end;
    }

    void skipSpace()
    {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            ++p;
    }

    bool peek(char c)
    {
        skipSpace();
        return p < end && *p == c;
    }

    bool expect(char c)
    {
        skipSpace();
        if (p < end && *p == c) {
            ++p;
            return true;
        }
        failed = true;
        return false;
    }

    // Reads a string into UTF-8 bytes (decode = false only validates and skips).
    bool readString(std::string *out)
    {
        if (!expect('"'))
            return false;
        for (;;) {
            const char *start = p;
            while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20
                   && static_cast<unsigned char>(*p) < 0x80)
                ++p;
            if (out)
                out->append(start, std::size_t(p - start));
            if (p >= end)
                return fail();
            const unsigned char c = static_cast<unsigned char>(*p);
            if (c == '"') {
                ++p;
                return true;
            }
            if (c < 0x20)
                return fail();
            if (c >= 0x80) {
                const char *utf8 = p;
                if (!skipUtf8Sequence())
                    return fail();
                if (out)
                    out->append(utf8, std::size_t(p - utf8));
                continue;
            }
            ++p; // a backslash escape
            if (!readEscape(out))
                return false;
        }
    }

    // What follows a backslash in a string.
    bool readEscape(std::string *out)
    {
        if (p >= end)
            return fail();
        const char e = *p++;
        if (e == 'u')
            return readUnicodeEscape(out);
        const char simple = simpleEscape(e);
        if (!simple)
            return fail();
        if (out)
            out->push_back(simple);
        return true;
    }

    // The character a one-letter escape stands for; 0 for none.
    static char simpleEscape(char e)
    {
        switch (e) {
        case '"':
        case '\\':
        case '/':
            return e;
        case 'b':
            return '\b';
        case 'f':
            return '\f';
        case 'n':
            return '\n';
        case 'r':
            return '\r';
        case 't':
            return '\t';
        default:
            return 0;
        }
    }

    // A backslash-u escape (four hex digits); a surrogate pair is two of them.
    bool readUnicodeEscape(std::string *out)
    {
        unsigned code = 0;
        if (!readHex4(&code))
            return fail();
        if (code >= 0xD800 && code <= 0xDBFF) {
            unsigned low = 0;
            if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
                return fail();
            p += 2;
            if (!readHex4(&low) || low < 0xDC00 || low > 0xDFFF)
                return fail();
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return fail();
        }
        if (out)
            appendUtf8(out, code);
        return true;
    }

    bool readQString(QString *out)
    {
        std::string bytes;
        if (!readString(&bytes))
            return false;
        *out = QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
        return true;
    }

    // A JSON number; `integer` receives it when it is a plain integer that fits in qint64.
    bool readNumber(std::optional<qint64> *integer)
    {
        skipSpace();
        const char *start = p;
        if (p < end && *p == '-')
            ++p;
        if (p >= end)
            return fail();
        if (*p == '0') {
            ++p;
        } else if (*p >= '1' && *p <= '9') {
            while (p < end && *p >= '0' && *p <= '9')
                ++p;
        } else {
            return fail();
        }
        bool plain = true;
        if (p < end && *p == '.') {
            plain = false;
            ++p;
            if (p >= end || *p < '0' || *p > '9')
                return fail();
            while (p < end && *p >= '0' && *p <= '9')
                ++p;
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
            plain = false;
            ++p;
            if (p < end && (*p == '+' || *p == '-'))
                ++p;
            if (p >= end || *p < '0' || *p > '9')
                return fail();
            while (p < end && *p >= '0' && *p <= '9')
                ++p;
        }
        // nlohmann reads a number that is not a plain qint64 as a double and rejects the chunk
        // when that overflows (1e999, or 400 digits): only numbers well inside a double's range
        // stay on the fast path, whatever the rounding at its edges.
        const bool small = plain && p - start <= 18;
        if (!small && !wellInsideDoubleRange(start, p))
            return fail();
        if (integer) {
            integer->reset();
            if (small)
                *integer = std::stoll(std::string(start, std::size_t(p - start)));
        }
        return true;
    }

    static bool wellInsideDoubleRange(const char *first, const char *last)
    {
        double value = 0;
        const auto [ptr, ec] = std::from_chars(first, last, value);
        if (ec != std::errc() || ptr != last)
            return false;
        const double magnitude = std::fabs(value);
        return magnitude < 1e300 && (magnitude == 0 || magnitude > 1e-300);
    }

    bool readLiteral(const char *word)
    {
        skipSpace();
        const std::size_t n = std::strlen(word);
        if (std::size_t(end - p) < n || std::memcmp(p, word, n) != 0)
            return fail();
        p += n;
        return true;
    }

    char peekValueStart()
    {
        skipSpace();
        return p < end ? *p : '\0';
    }

    bool skipValue(int depth = 0)
    {
        if (depth > 256)
            return fail(); // nlohmann has no limit, but such input is not a chunk worth a fast path
        switch (peekValueStart()) {
        case '"':
            return readString(nullptr);
        case '{':
            return forEachMember([&](const std::string &) { return skipValue(depth + 1); });
        case '[':
            return forEachElement([&](int) { return skipValue(depth + 1); });
        case 't':
            return readLiteral("true");
        case 'f':
            return readLiteral("false");
        case 'n':
            return readLiteral("null");
        default:
            return readNumber(nullptr);
        }
    }

    template<typename Fn>
    bool forEachMember(Fn fn)
    {
        if (!expect('{'))
            return false;
        if (peek('}')) {
            ++p;
            return true;
        }
        for (;;) {
            std::string key;
            if (!readString(&key) || !expect(':') || !fn(key))
                return fail();
            if (peek(',')) {
                ++p;
                continue;
            }
            return expect('}');
        }
    }

    template<typename Fn>
    bool forEachElement(Fn fn)
    {
        if (!expect('['))
            return false;
        if (peek(']')) {
            ++p;
            return true;
        }
        for (int i = 0;; ++i) {
            if (!fn(i))
                return fail();
            if (peek(',')) {
                ++p;
                continue;
            }
            return expect(']');
        }
    }

    bool fail()
    {
        failed = true;
        return false;
    }

private:
    bool readHex4(unsigned *code)
    {
        if (end - p < 4)
            return false;
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = *p++;
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= unsigned(c - 'A' + 10);
            else
                return false;
        }
        *code = value;
        return true;
    }

    // Validates one UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF).
    bool skipUtf8Sequence()
    {
        const auto byte = [this](std::ptrdiff_t i) {
            return static_cast<unsigned char>(p[i]);
        };
        const unsigned char c = byte(0);
        std::ptrdiff_t n = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0)
                lo = 0xA0;
            if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0)
                lo = 0x90;
            if (c == 0xF4)
                hi = 0x8F;
        } else {
            return false;
        }
        if (end - p < n)
            return false;
        if (byte(1) < lo || byte(1) > hi)
            return false;
        for (std::ptrdiff_t i = 2; i < n; ++i) {
            if (byte(i) < 0x80 || byte(i) > 0xBF)
                return false;
        }
        p += n;
        return true;
    }

    static void appendUtf8(std::string *out, unsigned code)
    {
        if (code < 0x80) {
            out->push_back(char(code));
        } else if (code < 0x800) {
            out->push_back(char(0xC0 | (code >> 6)));
            out->push_back(char(0x80 | (code & 0x3F)));
        } else if (code < 0x10000) {
            out->push_back(char(0xE0 | (code >> 12)));
            out->push_back(char(0x80 | ((code >> 6) & 0x3F)));
            out->push_back(char(0x80 | (code & 0x3F)));
        } else {
            out->push_back(char(0xF0 | (code >> 18)));
            out->push_back(char(0x80 | ((code >> 12) & 0x3F)));
            out->push_back(char(0x80 | ((code >> 6) & 0x3F)));
            out->push_back(char(0x80 | (code & 0x3F)));
        }
    }

    const char *p;
    const char *end;
};

// A string field the DOM path reads with jsonString(): a string is taken, any other type is
// ignored there, so only strings are allowed on the fast path.
bool readStringField(Scanner &s, QString *out)
{
    if (s.peekValueStart() != '"') {
        // null is what streams send for absent values and the DOM path ignores it as well
        if (s.peekValueStart() == 'n')
            return s.readLiteral("null");
        return s.fail();
    }
    return s.readQString(out);
}

bool readToolCall(Scanner &s, ToolCallDelta *call)
{
    Seen seen;
    return s.forEachMember([&](const std::string &key) {
        if (key == "index") {
            if (!seen.mark(1) || s.peekValueStart() == 'n')
                return s.fail();
            std::optional<qint64> index;
            if (!s.readNumber(&index) || !index)
                return s.fail();
            call->index = index;
            return true;
        }
        if (key == "id")
            return seen.mark(2) ? readStringField(s, &call->id) : s.fail();
        if (key == "function") {
            if (!seen.mark(4) || s.peekValueStart() != '{')
                return s.fail();
            Seen inner;
            return s.forEachMember([&](const std::string &fnKey) {
                if (fnKey == "name")
                    return inner.mark(1) ? readStringField(s, &call->name) : s.fail();
                if (fnKey == "arguments") {
                    if (!inner.mark(2))
                        return s.fail();
                    if (s.peekValueStart() == 'n') {
                        call->hasArguments = true; // null: present, adds nothing
                        return s.readLiteral("null");
                    }
                    if (s.peekValueStart() != '"')
                        return s.fail(); // an object: the DOM path re-serialises it
                    call->hasArguments = true;
                    return s.readQString(&call->arguments);
                }
                return s.skipValue();
            });
        }
        return s.skipValue();
    });
}

bool readDelta(Scanner &s, ChunkFields *f)
{
    Seen seen;
    return s.forEachMember([&](const std::string &key) {
        if (key == "content")
            return seen.mark(1) ? readStringField(s, &f->content) : s.fail();
        if (key == "reasoning_content")
            return seen.mark(2) ? readStringField(s, &f->reasoningContent) : s.fail();
        if (key == "reasoning")
            return seen.mark(4) ? readStringField(s, &f->reasoning) : s.fail();
        if (key == "tool_calls") {
            if (!seen.mark(8) || s.peekValueStart() != '[')
                return s.fail();
            f->hasToolCalls = true;
            return s.forEachElement([&](int) {
                if (s.peekValueStart() != '{')
                    return s.fail();
                ToolCallDelta call;
                if (!readToolCall(s, &call))
                    return false;
                f->toolCalls.append(call);
                return true;
            });
        }
        return s.skipValue();
    });
}

bool readChoice(Scanner &s, ChunkFields *f)
{
    Seen seen;
    return s.forEachMember([&](const std::string &key) {
        if (key == "finish_reason")
            return seen.mark(1) ? readStringField(s, &f->finishReason) : s.fail();
        if (key == "delta") {
            if (!seen.mark(2))
                return s.fail();
            if (s.peekValueStart() != '{')
                return s.skipValue(); // the DOM path ignores a delta that is not an object
            f->hasDelta = true;
            return readDelta(s, f);
        }
        return s.skipValue();
    });
}

bool readTokens(Scanner &s, std::optional<int> *out)
{
    if (s.peekValueStart() == '-' || (s.peekValueStart() >= '0' && s.peekValueStart() <= '9')) {
        std::optional<qint64> value;
        if (!s.readNumber(&value))
            return false;
        if (!value)
            return s.fail(); // a float: the DOM path says -1, let it
        if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max())
            return s.fail();
        *out = int(*value);
        return true;
    }
    return s.skipValue(); // not a number: -1, as in the DOM path
}

// usage.prompt_tokens_details: its cached_tokens (OpenAI's prompt caching).
bool readCachedTokens(Scanner &s, std::optional<int> *out)
{
    if (s.peekValueStart() != '{')
        return s.skipValue();
    Seen seen;
    return s.forEachMember([&](const std::string &key) {
        if (key == "cached_tokens")
            return seen.mark(1) ? readTokens(s, out) : s.fail();
        return s.skipValue();
    });
}

} // namespace

ChunkFields ChunkFields::read(const QByteArray &json)
{
    ChunkFields f;
    Scanner s(json);
    Seen seen;
    const bool ok = s.peekValueStart() == '{' && s.forEachMember([&](const std::string &key) {
        if (key == "error") {
            if (!seen.mark(1))
                return s.fail();
            f.hasError = s.peekValueStart() != 'n';
            return s.skipValue();
        }
        if (key == "usage") {
            if (!seen.mark(2))
                return s.fail();
            if (s.peekValueStart() != '{')
                return s.skipValue();
            f.hasUsage = true;
            Seen inner;
            return s.forEachMember([&](const std::string &usageKey) {
                if (usageKey == "prompt_tokens")
                    return inner.mark(1) ? readTokens(s, &f.promptTokens) : s.fail();
                if (usageKey == "completion_tokens")
                    return inner.mark(2) ? readTokens(s, &f.completionTokens) : s.fail();
                if (usageKey == "prompt_tokens_details")
                    return inner.mark(4) ? readCachedTokens(s, &f.cachedPromptTokens) : s.fail();
                return s.skipValue();
            });
        }
        if (key == "choices") {
            if (!seen.mark(4))
                return s.fail();
            if (s.peekValueStart() != '[')
                return s.skipValue();
            return s.forEachElement([&](int i) {
                if (i == 0 && s.peekValueStart() == '{') {
                    f.hasChoice = true;
                    return readChoice(s, &f);
                }
                return s.skipValue();
            });
        }
        return s.skipValue();
    });
    f.fallback = !ok || s.failed || !s.atEnd();
    return f;
}

} // namespace Sandcastle
