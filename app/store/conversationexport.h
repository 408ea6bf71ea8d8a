#pragma once

#include "conversationstore.h"

#include <QSet>

namespace Sandcastle::ConversationExport {

// The pictures of an export: the images the runs made that were copied into `folder` (relative
// to the Markdown file, keeping their workspace paths), each shown under its run's result.
struct ImageLinks
{
    QString folder;
    QSet<QString> available; // workspace paths
};

// The conversation as a Markdown document: the person's and the agent's messages, each tool
// call with its code, each result with its output (and its images, when `images` has them).
// No settings, no key.
QString markdown(const ConversationInfo &info,
                 const nlohmann::json &messages,
                 const QList<StoredRun> &runs,
                 const ImageLinks &images = {});
// The images the runs of these messages made (workspace paths, in order, once each).
QStringList imagesIn(const nlohmann::json &messages);

// The same for a stored conversation, and written to a file (atomically) with the runs' images
// beside it in "<name>_files/" (read through PathGuard; an image gone from the workspace is
// left out).
Result<QString> markdown(const ConversationStore &store, const QString &conversationId);
Result<bool>
writeMarkdown(const ConversationStore &store, const QString &conversationId, const QString &path);

// A folder that reproduces the conversation's work (it must not exist, or be empty):
//   README.md        what is here and how to re-run it with `sandcastle exec`
//   transcript.md    the Markdown above;  transcript.json  messages and runs
//   runs/NNN-python.py | NNN-shell.sh, NNN-output.txt   every run, numbered, with its output
//   replay.py        the runs that succeeded, in order, as one program (the kernel kept
//                    variables from run to run, so they are run in one process here too)
//   workspace/       the workspace files (symlinks and the logs under .sandcastle are left out;
//                    nothing outside the workspace is ever read)
// Returns the list of files written, relative to the folder.
Result<QStringList>
bundle(const ConversationStore &store, const QString &conversationId, const QString &targetDir);

} // namespace Sandcastle::ConversationExport
