#pragma once

class QThreadPool;

namespace Sandcastle {

// The thread pool for work that blocks: container engine commands (which can take seconds on
// a loaded or remote daemon), walks of big folders, reads of files. Never the global pool:
// Qt's raster painting splits its fills across QThreadPool::globalInstance() and waits for
// them, so two engine commands there freeze every repaint for as long as they take.
// The pool belongs to the application object and is waited for when it goes, so a container
// being removed at exit is gone before the process is. Needs a QCoreApplication.
QThreadPool *blockingJobs();

// A pool of its own for one kind of work, made on the first call for `name`
// and kept like blockingJobs()'s: owned by the application object, waited for when it goes.
QThreadPool *applicationPool(const char *name, int maxThreads);

} // namespace Sandcastle
