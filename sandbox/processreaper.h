#pragma once

class QProcess;

namespace Sandcastle::ProcessReaper {

// Takes a process over and ends it without waiting for it: its signals are cut, its input
// closed, it is killed unless it has finished, and it is deleted once it has. The caller goes
// on at once (the UI thread never waits for a process to die). Processes still alive when the
// application object goes away are killed and waited for then.
void reap(QProcess *process);

// The waiting way, for the command line: cut, kill, wait up to `timeoutMs` and delete.
void killAndWait(QProcess *process, int timeoutMs);

} // namespace Sandcastle::ProcessReaper
