#pragma once

// One row of the benchmark table: a figure with its median and p95, the baseline measured
// in the same run, the ratio the target is about, and whether the target is met. Each bench
// executable prints its rows and appends them as JSON lines to $SANDCASTLE_BENCH_RESULTS;
// bench_report turns those into the table and bench-results.json.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace Bench {

struct Stats
{
    double median = 0;
    double p95 = 0;
    std::size_t n = 0;
};

inline Stats stats(std::vector<double> v)
{
    if (v.empty())
        return {};
    std::sort(v.begin(), v.end());
    const std::size_t p95 = std::min(v.size() - 1, (v.size() * 95 + 99) / 100 - 1);
    return {v[v.size() / 2], v[p95], v.size()};
}

// Resident memory of a process (this one by default) in KiB, from /proc.
inline long long residentKiB(long long pid = 0)
{
    const std::string path
        = pid > 0 ? "/proc/" + std::to_string(pid) + "/status" : std::string("/proc/self/status");
    std::FILE *file = std::fopen(path.c_str(), "r");
    if (!file)
        return 0;
    char line[256];
    long long kib = 0;
    while (std::fgets(line, sizeof line, file))
        if (std::sscanf(line, "VmRSS: %lld", &kib) == 1)
            break;
    std::fclose(file);
    return kib;
}

inline Stats single(double value)
{
    return {value, value, 1};
}

struct Row
{
    std::string figure;
    std::string unit;
    Stats value;
    std::string baseline; // empty when the figure has none
    Stats baselineValue;
    std::string ratioLabel; // e.g. "docker exec / warm session"; empty: no ratio
    double ratio = 0;
    std::string target;
    bool met = false;
    std::string note;
};

inline std::string jsonString(const std::string &s)
{
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

inline std::string jsonStats(const Stats &s)
{
    char buf[128];
    std::snprintf(
        buf, sizeof buf, "{\"median\":%.6g,\"p95\":%.6g,\"n\":%zu}", s.median, s.p95, s.n);
    return buf;
}

inline void record(const Row &row)
{
    std::printf("  %-52s median %10.3f %-5s p95 %10.3f (n=%zu)\n",
                row.figure.c_str(),
                row.value.median,
                row.unit.c_str(),
                row.value.p95,
                row.value.n);
    if (!row.baseline.empty())
        std::printf("    baseline %-43s median %10.3f %-5s p95 %10.3f (n=%zu)\n",
                    row.baseline.c_str(),
                    row.baselineValue.median,
                    row.unit.c_str(),
                    row.baselineValue.p95,
                    row.baselineValue.n);
    if (!row.ratioLabel.empty())
        std::printf("    ratio %-46s %10.2f\n", row.ratioLabel.c_str(), row.ratio);
    if (!row.target.empty())
        std::printf("    target %-45s %s\n", row.target.c_str(), row.met ? "met" : "MISSED");
    if (!row.note.empty())
        std::printf("    %s\n", row.note.c_str());
    std::fflush(stdout);

    const char *path = std::getenv("SANDCASTLE_BENCH_RESULTS");
    if (!path || !*path)
        return;
    std::FILE *file = std::fopen(path, "a");
    if (!file)
        return;
    char ratio[64];
    std::snprintf(ratio, sizeof ratio, "%.6g", row.ratio);
    const std::string line
        = "{\"figure\":" + jsonString(row.figure) + ",\"unit\":" + jsonString(row.unit)
          + ",\"value\":" + jsonStats(row.value) + ",\"baseline\":" + jsonString(row.baseline)
          + ",\"baseline_value\":" + jsonStats(row.baselineValue)
          + ",\"ratio_label\":" + jsonString(row.ratioLabel) + ",\"ratio\":" + ratio
          + ",\"target\":" + jsonString(row.target) + ",\"met\":" + (row.met ? "true" : "false")
          + ",\"note\":" + jsonString(row.note) + "}\n";
    std::fputs(line.c_str(), file);
    std::fclose(file);
}

} // namespace Bench
