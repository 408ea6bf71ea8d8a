#include "storegenerator.h"

#include <app/store/conversationstore.h>
#include <app/store/storesql.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <QSet>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace Sandcastle::StoreGenerator {

namespace {

// The most frequent words first: what people and models write about code.
const char *const kCommonWords[] = {
    "the",       "to",        "a",       "and",         "of",         "is",      "in",
    "it",        "you",       "this",    "that",        "for",        "i",       "with",
    "data",      "on",        "be",      "file",        "can",        "not",     "function",
    "we",        "from",      "if",      "code",        "error",      "as",      "are",
    "python",    "have",      "list",    "value",       "will",       "use",     "an",
    "or",        "by",        "return",  "but",         "at",         "print",   "all",
    "my",        "test",      "so",      "output",      "one",        "what",    "type",
    "run",       "import",    "now",     "result",      "there",      "new",     "how",
    "let",       "me",        "string",  "each",        "line",       "first",   "make",
    "number",    "time",      "which",   "do",          "table",      "here",    "should",
    "get",       "need",      "plot",    "class",       "json",       "script",  "column",
    "index",     "read",      "write",   "check",       "frame",      "model",   "array",
    "loop",      "fix",       "into",    "when",        "then",       "also",    "more",
    "like",      "only",      "out",     "path",        "dict",       "key",     "name",
    "size",      "input",     "call",    "method",      "example",    "work",    "works",
    "because",   "same",      "missing", "pandas",      "numpy",      "csv",     "row",
    "rows",      "values",    "sort",    "filter",      "group",      "mean",    "sum",
    "count",     "chart",     "image",   "shell",       "command",    "package", "install",
    "version",   "module",    "config",  "option",      "parse",      "format",  "date",
    "query",     "server",    "request", "response",    "status",     "again",   "step",
    "above",     "below",     "instead", "after",       "before",     "about",   "want",
    "some",      "other",     "any",     "just",        "see",        "look",    "found",
    "show",      "try",       "next",    "last",        "change",     "update",  "add",
    "remove",    "create",    "delete",  "open",        "close",      "save",    "load",
    "start",     "stop",      "wait",    "thread",      "process",    "memory",  "cache",
    "buffer",    "stream",    "socket",  "token",       "user",       "object",  "field",
    "struct",    "pointer",   "vector",  "matrix",      "graph",      "node",    "tree",
    "edge",      "weight",    "score",   "train",       "dataset",    "sample",  "random",
    "seed",      "split",     "feature", "label",       "accuracy",   "loss",    "epoch",
    "batch",     "regex",     "match",   "pattern",     "replace",    "lower",   "upper",
    "strip",     "join",      "range",   "len",         "min",        "max",     "true",
    "false",     "none",      "null",    "self",        "args",       "kwargs",  "lambda",
    "yield",     "async",     "await",   "except",      "raise",      "assert",  "while",
    "break",     "continue",  "global",  "penguins",    "weather",    "prices",  "sales",
    "customers", "orders",    "invoice", "temperature", "population", "revenue", "inventory",
    "latency",   "histogram", "scatter", "regression",  "cluster",    "outlier", "median",
};

const char *const kOnsets[]
    = {"b", "c", "d",  "f",  "g",  "h",  "k",  "l",  "m",  "n",  "p",  "r",  "s",  "t",  "v",
       "w", "z", "br", "cr", "dr", "gr", "pl", "st", "tr", "sh", "ch", "th", "qu", "sp", "fl"};
const char *const kNuclei[] = {"a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y"};
const char *const kCodas[] = {"", "", "", "n", "r", "s", "t", "l", "m", "x", "nd", "rk", "st"};

constexpr int kVocabulary = 4000;

QStringList makeVocabulary()
{
    QStringList words;
    for (const char *w : kCommonWords)
        words << QString::fromLatin1(w);
    // The rest made of syllables, deterministically (its own generator: the same list whatever
    // the seed of a store).
    std::mt19937_64 rng(7);
    QSet<QString> seen(words.cbegin(), words.cend());
    while (words.size() < kVocabulary) {
        const int syllables = 2 + int(rng() % 3);
        QString w;
        for (int s = 0; s < syllables; ++s) {
            w += QString::fromLatin1(kOnsets[rng() % std::size(kOnsets)]);
            w += QString::fromLatin1(kNuclei[rng() % std::size(kNuclei)]);
            if (s == syllables - 1)
                w += QString::fromLatin1(kCodas[rng() % std::size(kCodas)]);
        }
        if (!seen.contains(w)) {
            seen.insert(w);
            words << w;
        }
    }
    return words;
}

void fold(quint64 &h, const std::string &text)
{
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    h ^= 0xff; // a separator no UTF-8 text holds
    h *= 1099511628211ull;
}

void foldMessage(quint64 &h,
                 const std::string &role,
                 const std::string &content,
                 const std::string &toolCallId)
{
    fold(h, role);
    fold(h, content);
    fold(h, toolCallId);
}

// Words with a Zipf-like distribution (exponent 1.07 over the vocabulary's ranks).
class Text
{
public:
    explicit Text(quint64 seed)
        : m_rng(seed)
    {
        for (const QString &w : vocabulary())
            m_words.push_back(w.toStdString());
        double total = 0;
        for (std::size_t r = 0; r < m_words.size(); ++r) {
            total += 1.0 / std::pow(double(r + 1), 1.07);
            m_cdf.push_back(total);
        }
        for (double &c : m_cdf)
            c /= total;
    }

    double uniform() { return double(m_rng() >> 11) * (1.0 / 9007199254740992.0); }
    int between(int lo, int hi) { return lo + int(m_rng() % quint64(hi - lo + 1)); }
    bool chance(double p) { return uniform() < p; }
    // Log-uniform between lo and hi: many short, some long.
    int logBetween(int lo, int hi)
    {
        return int(std::exp(std::log(double(lo)) + uniform() * std::log(double(hi) / lo)));
    }
    const std::string &word()
    {
        const auto it = std::lower_bound(m_cdf.begin(), m_cdf.end(), uniform());
        return m_words[std::min<std::size_t>(std::size_t(it - m_cdf.begin()), m_words.size() - 1)];
    }
    // A word from the rarer half of the vocabulary (identifiers are less Zipfian than prose).
    const std::string &anyWord() { return m_words[m_rng() % m_words.size()]; }

    std::string prose(int chars)
    {
        std::string out;
        while (int(out.size()) < chars) {
            const int n = between(5, 18);
            for (int i = 0; i < n; ++i) {
                std::string w = word();
                if (i == 0 && !w.empty())
                    w[0] = char(std::toupper(static_cast<unsigned char>(w[0])));
                out += w;
                out += i + 1 == n ? (chance(0.15) ? "? " : ". ") : (chance(0.08) ? ", " : " ");
            }
            if (chance(0.12))
                out += "\n\n";
        }
        return out;
    }

    std::string identifier() { return chance(0.5) ? word() + "_" + anyWord() : anyWord(); }

    std::string code(int chars)
    {
        std::string out;
        int indent = 0;
        while (int(out.size()) < chars) {
            const std::string pad(std::size_t(indent) * 4, ' ');
            switch (between(0, 9)) {
            case 0:
                out += "import " + word() + "\n";
                break;
            case 1:
                out += pad + "def " + identifier() + "(" + identifier() + ", " + word() + "):\n";
                indent = std::min(indent + 1, 3);
                break;
            case 2:
                out += pad + "for " + word() + " in " + identifier() + ":\n";
                indent = std::min(indent + 1, 3);
                break;
            case 3:
                out += pad + "return " + identifier() + "\n";
                indent = std::max(indent - 1, 0);
                break;
            case 4:
                out += pad + "# " + prose(between(20, 70)) + "\n";
                break;
            case 5:
                out += pad + "print(f\"" + word() + " {" + identifier() + "}\")\n";
                break;
            default:
                out += pad + identifier() + " = " + identifier() + "." + word() + "(" + identifier()
                       + ", " + std::to_string(between(0, 999)) + ")\n";
            }
        }
        return out;
    }

    std::string output(int chars)
    {
        std::string out;
        while (int(out.size()) < chars) {
            if (chance(0.1))
                out += "Traceback (most recent call last):\n  File \"" + word() + ".py\", line "
                       + std::to_string(between(1, 400)) + "\n" + identifier()
                       + "Error: " + prose(between(20, 60)) + "\n";
            else
                out += identifier() + ": " + std::to_string(between(0, 99999)) + "."
                       + std::to_string(between(0, 99)) + "  " + word() + "\n";
        }
        return out;
    }

    std::mt19937_64 &rng() { return m_rng; }

private:
    std::mt19937_64 m_rng;
    std::vector<std::string> m_words;
    std::vector<double> m_cdf;
};

struct Conversation
{
    QString id;
    int target = 0;
    int written = 0;
    int calls = 0;
    quint64 fingerprint = 14695981039346656037ull;
    qint64 firstMs = 0;
    qint64 lastMs = 0;
};

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

const QStringList &vocabulary()
{
    static const QStringList words = makeVocabulary();
    return words;
}

quint64 fingerprint(const nlohmann::json &messages)
{
    quint64 h = 14695981039346656037ull;
    for (const auto &m : messages) {
        const auto text = [&](const char *key) {
            const auto it = m.find(key);
            return it != m.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        foldMessage(h, text("role"), text("content"), text("tool_call_id"));
    }
    return h;
}

int Generated::largest() const
{
    return int(std::max_element(messageCounts.cbegin(), messageCounts.cend())
               - messageCounts.cbegin());
}

int Generated::typical() const
{
    QList<int> order(messageCounts.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [this](int a, int b) {
        return messageCounts[a] < messageCounts[b];
    });
    return order.isEmpty() ? -1 : order[order.size() / 2];
}

Generated generate(const QString &path, const Options &options)
{
    Generated out;
    QElapsedTimer clock;
    clock.start();
    Text text(options.seed);
    const int n = std::max(1, options.conversations);

    // Sizes: Zipf-like over a shuffled order (exponent 0.5: the largest is ~60 times the median),
    // at least 2 messages each, summing to options.messages.
    std::vector<double> weight(static_cast<std::size_t>(n), 0.0);
    std::vector<int> rank(static_cast<std::size_t>(n));
    std::iota(rank.begin(), rank.end(), 1);
    std::shuffle(rank.begin(), rank.end(), text.rng());
    double total = 0;
    for (int i = 0; i < n; ++i)
        total += weight[std::size_t(i)] = 1.0 / std::sqrt(double(rank[std::size_t(i)]));
    std::vector<Conversation> conversations(static_cast<std::size_t>(n));
    qint64 assigned = 0;
    for (int i = 0; i < n; ++i) {
        Conversation &c = conversations[std::size_t(i)];
        c.id = QStringLiteral("gen-%1").arg(i, 5, 10, QLatin1Char('0'));
        c.target = std::max(2, int(double(options.messages) * weight[std::size_t(i)] / total));
        assigned += c.target;
    }
    // What rounding left over goes to the first ones.
    for (int i = 0; assigned < options.messages; i = (i + 1) % n, ++assigned)
        ++conversations[std::size_t(i)].target;

    // The schema, the conversations and their settings through the store.
    const qint64 startMs = 1704067200000; // 2024-01-01
    {
        ConversationStore store;
        const Result<bool> opened = store.open(path);
        if (!opened) {
            out.error = opened.error();
            return out;
        }
        for (int i = 0; i < n; ++i) {
            Conversation &c = conversations[std::size_t(i)];
            const QString title = ConversationInfo::titleFromPrompt(fromStd(text.prose(80)));
            const bool owns = !text.chance(0.2);
            const QString workspace
                = owns ? QStringLiteral("/data/workspaces/") + c.id
                       : QStringLiteral("/home/person/projects/") + fromStd(text.word());
            const auto created = store.create(c.id, title, workspace, owns);
            if (!created) {
                out.error = created.error();
                return out;
            }
            const qint64 tokens = qint64(c.target) * text.between(200, 900);
            const bool settings
                = store.setSetting(c.id, QStringLiteral("model"), "gpt-4o-mini")
                  && store.setSetting(c.id, QStringLiteral("base_url"), "https://api.openai.com/v1")
                  && store.setSetting(c.id,
                                      QStringLiteral("usage"),
                                      {{"tokens", tokens},
                                       {"cached_tokens", tokens / 3},
                                       {"cost_usd", double(tokens) * 0.00000015}});
            if (!settings) {
                out.error = QStringLiteral("could not save the settings");
                return out;
            }
            out.ids << c.id;
        }
    }

    // The messages and runs in bulk, on a connection of our own.
    const QString connection
        = QStringLiteral("generator-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        if (!db.open()) {
            out.error = StoreSql::errorText(db.lastError());
        } else {
            QSqlQuery pragma(db);
            pragma.exec(QStringLiteral("PRAGMA synchronous=OFF"));
            pragma.exec(QStringLiteral("PRAGMA cache_size=-65536"));
            QSqlQuery insert(db);
            insert.prepare(QStringLiteral(
                "INSERT INTO messages (conversation_id, role, content, reasoning,"
                " tool_calls, tool_call_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"));
            const QVariant null{QMetaType(QMetaType::QString)};
            qint64 clockMs = startMs;
            std::vector<int> active;
            int next = 0;
            constexpr int kActive = 12;
            qint64 inTransaction = 0;
            db.transaction();

            const auto add = [&](Conversation &c,
                                 const char *role,
                                 const std::string *content,
                                 const std::string *reasoning,
                                 const std::string *toolCalls,
                                 const std::string &toolCallId) -> qint64 {
                clockMs += text.between(500, 90000);
                insert.bindValue(0, c.id);
                insert.bindValue(1, QString::fromLatin1(role));
                insert.bindValue(2, content ? QVariant(fromStd(*content)) : null);
                insert.bindValue(3, reasoning ? QVariant(fromStd(*reasoning)) : null);
                insert.bindValue(4, toolCalls ? QVariant(fromStd(*toolCalls)) : null);
                insert.bindValue(5, toolCallId.empty() ? null : QVariant(fromStd(toolCallId)));
                insert.bindValue(6, clockMs);
                if (!insert.exec()) {
                    out.error = StoreSql::errorText(insert.lastError());
                    return -1;
                }
                foldMessage(c.fingerprint, role, content ? *content : std::string(), toolCallId);
                ++c.written;
                if (c.written == 1)
                    c.firstMs = clockMs;
                c.lastMs = clockMs;
                ++out.messages;
                ++inTransaction;
                out.contentBytes
                    += qint64((content ? content->size() : 0) + (reasoning ? reasoning->size() : 0)
                              + (toolCalls ? toolCalls->size() : 0));
                if (options.progressEvery > 0 && out.messages % options.progressEvery == 0)
                    std::fprintf(stderr,
                                 "  generated %lld messages in %.1f s\n",
                                 static_cast<long long>(out.messages),
                                 double(clock.nsecsElapsed()) / 1e9);
                return insert.lastInsertId().toLongLong();
            };

            // One turn of conversation c: as many messages as its target still allows.
            const auto turn = [&](int index) -> bool {
                Conversation &c = conversations[std::size_t(index)];
                const int left = c.target - c.written;
                // The prompt.
                std::string prompt = text.prose(text.logBetween(30, 600));
                if (text.chance(0.15))
                    prompt += "\n```python\n" + text.code(text.logBetween(50, 800)) + "```\n";
                if (!options.plantedWord.isEmpty() && index == options.plantedConversation
                    && out.plantedMessageIndex < 0 && c.written >= options.plantedMessage) {
                    prompt += " " + options.plantedWord.toStdString() + " " + text.word();
                    out.plantedMessageIndex = c.written;
                }
                if (add(c, "user", &prompt, nullptr, nullptr, {}) < 0)
                    return false;
                // Tool rounds, each two messages, leaving one for the answer.
                const int rounds = std::min(text.between(0, 4), (left - 2) / 2);
                for (int r = 0; r < rounds; ++r) {
                    const std::string callId
                        = "call_" + c.id.toStdString() + "_" + std::to_string(++c.calls);
                    const int kind = text.between(0, 9);
                    const std::string name = kind < 6   ? "run_python"
                                             : kind < 8 ? "run_shell"
                                             : kind < 9 ? "write_file"
                                                        : "read_file";
                    const std::string code
                        = name == "run_shell"
                              ? text.word() + " --" + text.word() + " " + text.identifier() + ".csv"
                              : text.code(text.logBetween(50, 4000));
                    nlohmann::json arguments;
                    if (name == "run_python")
                        arguments = {{"code", code}};
                    else if (name == "run_shell")
                        arguments = {{"command", code}};
                    else
                        arguments = {{"path", text.identifier() + ".py"}, {"content", code}};
                    const nlohmann::json calls = nlohmann::json::array(
                        {{{"id", callId},
                          {"type", "function"},
                          {"function", {{"name", name}, {"arguments", arguments.dump()}}}}});
                    const std::string callsText = calls.dump();
                    std::string before;
                    const bool says = text.chance(0.4);
                    if (says)
                        before = text.prose(text.logBetween(20, 300));
                    std::string reasoning;
                    const bool thinks = text.chance(0.3);
                    if (thinks)
                        reasoning = text.prose(text.logBetween(100, 800));
                    if (add(c,
                            "assistant",
                            says ? &before : nullptr,
                            thinks ? &reasoning : nullptr,
                            &callsText,
                            {})
                        < 0)
                        return false;
                    const std::string result = text.output(text.logBetween(20, 2000));
                    if (name == "run_python" || name == "run_shell") {
                        StoredRun run;
                        run.conversationId = c.id;
                        run.toolCallId = fromStd(callId);
                        run.code = fromStd(code);
                        run.language = name == "run_python" ? QStringLiteral("python")
                                                            : QStringLiteral("shell");
                        const Result<qint64> started = StoreSql::insertRun(db, run);
                        ExecutionResult done;
                        done.status = text.chance(0.85) ? ExecutionResult::Status::Ok
                                                        : ExecutionResult::Status::Error;
                        done.exitCode = done.isOk() ? 0 : 1;
                        done.durationMs = text.logBetween(5, 20000);
                        done.stdoutText = fromStd(result);
                        if (!started || !StoreSql::finishRun(db, started.value(), done)) {
                            out.error = QStringLiteral("could not save a run");
                            return false;
                        }
                        ++out.runs;
                    }
                    if (add(c, "tool", &result, nullptr, nullptr, callId) < 0)
                        return false;
                }
                // The answer (when the target allows it: a last turn may be the prompt alone).
                if (c.written < c.target) {
                    std::string answer = text.prose(text.logBetween(40, 800));
                    const int blocks = text.between(0, 2);
                    for (int b = 0; b < blocks; ++b)
                        answer += "\n\n```python\n" + text.code(text.logBetween(50, 4000))
                                  + "```\n\n" + text.prose(text.logBetween(20, 300));
                    if (add(c, "assistant", &answer, nullptr, nullptr, {}) < 0)
                        return false;
                }
                // Now and then the person runs the code again in the editor.
                if (text.chance(0.05)) {
                    StoredRun run;
                    run.conversationId = c.id;
                    run.code = fromStd(text.code(text.logBetween(50, 1500)));
                    run.origin = QStringLiteral("person");
                    const Result<qint64> started = StoreSql::insertRun(db, run);
                    ExecutionResult done;
                    done.durationMs = text.logBetween(5, 5000);
                    done.stdoutText = fromStd(text.output(text.logBetween(20, 1000)));
                    if (!started || !StoreSql::finishRun(db, started.value(), done)) {
                        out.error = QStringLiteral("could not save a run");
                        return false;
                    }
                    ++out.runs;
                }
                return true;
            };

            while (out.error.isEmpty()) {
                while (int(active.size()) < kActive && next < n)
                    active.push_back(next++);
                if (active.empty())
                    break;
                const std::size_t pick = std::size_t(text.rng()() % active.size());
                const int index = active[pick];
                if (!turn(index))
                    break;
                if (conversations[std::size_t(index)].written
                    >= conversations[std::size_t(index)].target)
                    active.erase(active.begin() + std::ptrdiff_t(pick));
                if (inTransaction >= 5000) {
                    if (!db.commit())
                        out.error = StoreSql::errorText(db.lastError());
                    db.transaction();
                    inTransaction = 0;
                }
            }
            if (out.error.isEmpty() && !db.commit())
                out.error = StoreSql::errorText(db.lastError());
            if (!out.error.isEmpty())
                db.rollback();
            // Each conversation as last changed when its last message came; its creation a
            // little before its first.
            QSqlQuery times(db);
            times.prepare(QStringLiteral(
                "UPDATE conversations SET updated_at = ?, created_at = ? WHERE id = ?"));
            db.transaction();
            for (const Conversation &c : conversations) {
                times.bindValue(0, c.lastMs);
                times.bindValue(1, c.firstMs - 1000);
                times.bindValue(2, c.id);
                if (out.error.isEmpty() && !times.exec())
                    out.error = StoreSql::errorText(times.lastError());
            }
            db.commit();
            // What a store that has been in use looks like: its WAL folded into the file.
            pragma.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            pragma.finish();
            insert.finish();
            times.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(connection);
    for (const Conversation &c : conversations) {
        out.messageCounts << c.written;
        out.fingerprints << c.fingerprint;
    }
    out.seconds = double(clock.nsecsElapsed()) / 1e9;
    return out;
}

} // namespace Sandcastle::StoreGenerator
