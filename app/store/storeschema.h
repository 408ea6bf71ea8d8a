#pragma once

#include <base/result.h>

#include <QString>

// The store's file brought to the current schema: the version check, WAL and the migrations, on
// one connection. ConversationStore::open() does it on its own; for a new data folder the
// application starts it on a worker thread as soon as it exists, so that the migrations run while
// the main thread builds the widgets, and open() only waits for what is left. (An existing store
// is not prepared that way: the extra connection's open and close cost more than they save.)
namespace Sandcastle::StoreSchema {

// On the connection `connection` (open, on this thread) to `path`: refuses a database from a
// newer Sandcastle without touching it, switches to WAL and synchronous=FULL, and runs the
// migrations that are due (each in one transaction with its version).
Result<bool> bringUpToDate(const QString &connection, const QString &path);

// Does the same on a worker thread with a connection of its own, closed at the end. Nothing of
// it is reported: a failure is found again, and said, by the open() that follows.
void prepareInBackground(const QString &path);
// Waits for a preparation of `path` started above, if one is under way; true if there was one.
bool waitForPreparation(const QString &path);

} // namespace Sandcastle::StoreSchema
