#pragma once

#include <QtGlobal>

// Budgets for tests that measure time or memory, under the asan preset (SANDCASTLE_SANITIZED,
// set by SANDCASTLE_SANITIZE in CMakeLists.txt). AddressSanitizer checks every access of our
// code and gives every reallocation a fresh block (no growth in place), so work on big
// buffers takes several times as long; it also keeps freed memory in a quarantine (256 MB by
// default) and maps shadow memory (1/8 of the heap), which count in the resident set. A test
// states the budget of the optimised build and asks for it through these, never skips.
namespace Sandcastle::Testing {

#ifdef SANDCASTLE_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// How much longer our own code takes under the sanitizers at -O1 (measured: a 50 MB console
// flood stalls the event loop 216-234 ms against 44-55 ms in the ci build).
inline constexpr int kSanitizerSlowdown = 5;

constexpr qint64 timeBudgetMs(qint64 ms)
{
    return kSanitized ? ms * kSanitizerSlowdown : ms;
}

constexpr qint64 memoryBudgetKiB(qint64 kib)
{
    constexpr qint64 quarantineKiB = 256 * 1024;
    return kSanitized ? kib + kib / 8 + quarantineKiB : kib;
}

} // namespace Sandcastle::Testing
