#pragma once

#include "tool.h"

#include <QList>

#include <memory>

namespace Sandcastle::BuiltinTools {

// The five tools every conversation has (architecture.md §5): run_python and run_shell run in the
// sandbox and wait for approval in ask-first mode; write_file, read_file and list_files work
// on the host, confined to the workspace by FileTools.
QList<std::shared_ptr<const Tool>> all();

// The checked arguments of the file tools (what the tools hand to FileTools).
struct FileArguments
{
    QString path;
    QString content;      // write_file
    qint64 maxBytes = -1; // read_file; -1 for the default
    int startLine = 0;    // read_file: a range of numbered lines when either is given
    int endLine = 0;
    QString oldText; // edit_file
    QString newText;
    QString pattern; // search_files
    QString glob;
};
Result<FileArguments> writeFileArguments(const nlohmann::json &arguments);
Result<FileArguments> readFileArguments(const nlohmann::json &arguments);
Result<FileArguments> listFilesArguments(const nlohmann::json &arguments);
Result<FileArguments> editFileArguments(const nlohmann::json &arguments);
Result<FileArguments> searchFilesArguments(const nlohmann::json &arguments);

} // namespace Sandcastle::BuiltinTools
