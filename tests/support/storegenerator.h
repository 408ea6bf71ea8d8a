#pragma once

// Fills a conversation store with many conversations of realistic shape, quickly and the same
// way every time (seeded): what bench_scale measures and tst_storescale checks.
//
// Each conversation is a series of turns: a person's prompt; rounds of an assistant's tool call
// (JSON arguments, a run_python call also recorded as a run through the store's own statements)
// and the tool's output; and an answer of prose and code blocks (50-4000 characters). Words come
// from a vocabulary of 4,000 with a Zipf-like distribution (a few words everywhere, most rare),
// so full-text queries of common words, rare words and prefixes are meaningful. Conversation
// sizes are skewed too (a few very long ones), and their turns are interleaved in time, as a
// person switching between conversations makes them.
//
// The conversations, their settings and the schema go through ConversationStore; the messages
// and runs are written in bulk on a second connection to the same file (one transaction per
// few thousand messages, synchronous=OFF while generating), with the store's own column layout
// and statements, so its FTS5 triggers index them as they would index appends.

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle::StoreGenerator {

struct Options
{
    int conversations = 1000;
    qint64 messages = 1000000;
    quint64 seed = 20240601;
    // A word put into one person's prompt of conversation `plantedConversation` (by creation
    // order), the first at or after its message `plantedMessage`; empty: none.
    QString plantedWord;
    int plantedConversation = 0;
    int plantedMessage = 0;
    // Progress on stderr every this many messages (0: quiet).
    qint64 progressEvery = 0;
};

struct Generated
{
    QString error;               // empty when it worked
    QStringList ids;             // in creation order
    QList<int> messageCounts;    // per conversation, in the same order
    QList<quint64> fingerprints; // per conversation: fingerprint() of its messages in order
    qint64 messages = 0;
    qint64 runs = 0;
    qint64 contentBytes = 0;      // UTF-8 bytes of message content, tool calls and reasoning
    int plantedMessageIndex = -1; // where the planted word went in its conversation
    double seconds = 0;
    int largest() const; // index of the conversation with the most messages
    int typical() const; // index of the conversation of median size
};

Generated generate(const QString &path, const Options &options);

// The vocabulary, most frequent first.
const QStringList &vocabulary();

// Order-sensitive FNV-1a over each message's role, content and tool_call_id: what
// Generated::fingerprints holds, computed here from what the store gives back.
quint64 fingerprint(const nlohmann::json &messages);

} // namespace Sandcastle::StoreGenerator
