#pragma once

#include <app/store/conversationstore.h>

#include <QByteArray>
#include <QHash>

namespace Sandcastle::NotebookExport {

// An image a run made, as the notebook embeds it.
struct Image
{
    QString mime; // image/png, image/jpeg or image/gif
    QByteArray bytes;
};

// The MIME type a notebook embeds an image file as, from its name and first bytes (a file
// named .png that is not a PNG is not one); empty for what is not embedded (SVG, which may
// carry script, and the rest).
QString imageMime(const QString &path, const QByteArray &bytes);

// The conversation as a Jupyter notebook (nbformat 4.5, which Debian's nbformat validates):
// a Markdown cell for each of the person's and the agent's messages, a code cell for each run
// — run_python's code as it was, run_shell's as a `%%bash` cell, the person's runs from the
// editor placed by time between the messages (`messageTimes`, from
// ConversationStore::messageTimes(); at the end when they do not match the messages) — with
// its outputs: stdout and stderr streams, an `error` output with the traceback for a failed
// run, a `display_data` for each image of `images` (workspace path -> image) the run made,
// and a note where the output was cut. The other tools (write_file, read_file…) are short
// Markdown cells, so that re-running the code cells in order reproduces the runs.
nlohmann::ordered_json notebook(const ConversationInfo &info,
                                const nlohmann::json &messages,
                                const QList<qint64> &messageTimes,
                                const QList<StoredRun> &runs,
                                const QHash<QString, Image> &images = {});

// The images the runs of a stored conversation made (the tool results' and the person's runs'
// files), once each, in order.
QStringList imagePaths(const nlohmann::json &messages, const QList<StoredRun> &runs);

// A stored conversation as a notebook file, written atomically; its images are read from the
// workspace through PathGuard (a link is never followed; one gone or too large is left out).
Result<bool>
writeNotebook(const ConversationStore &store, const QString &conversationId, const QString &path);

} // namespace Sandcastle::NotebookExport
