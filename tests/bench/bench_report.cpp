// Turns the rows the benchmarks appended (JSON lines) into the table scripts/bench prints
// and bench-results.json.
//   bench_report ROWS.jsonl OUT.json
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

std::string number(double v)
{
    char buf[32];
    if (v >= 100)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (v >= 10)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_report ROWS.jsonl OUT.json\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    nlohmann::json rows = nlohmann::json::array();
    std::string line;
    while (std::getline(in, line)) {
        const auto row = nlohmann::json::parse(line, nullptr, false);
        if (row.is_object())
            rows.push_back(row);
    }
    int met = 0;
    std::printf("\n| figure | median | p95 | baseline (median) | ratio | target | |\n"
                "|---|---|---|---|---|---|---|\n");
    for (const auto &row : rows) {
        const std::string unit = row.value("unit", "");
        const auto &value = row["value"];
        std::string baseline = "—";
        if (!row.value("baseline", "").empty())
            baseline = row.value("baseline", "") + ": "
                       + number(row["baseline_value"].value("median", 0.0)) + " " + unit;
        const std::string ratio
            = row.value("ratio_label", "").empty() ? "—" : number(row.value("ratio", 0.0)) + "×";
        const bool ok = row.value("met", false);
        met += ok ? 1 : 0;
        std::printf("| %s | %s %s | %s %s | %s | %s | %s | %s |\n",
                    row.value("figure", "").c_str(),
                    number(value.value("median", 0.0)).c_str(),
                    unit.c_str(),
                    number(value.value("p95", 0.0)).c_str(),
                    unit.c_str(),
                    baseline.c_str(),
                    ratio.c_str(),
                    row.value("target", "").c_str(),
                    ok ? "met" : "**missed**");
    }
    std::printf("\ntargets met: %d/%zu\n", met, rows.size());
    std::ofstream out(argv[2]);
    out << nlohmann::json{{"rows", rows}, {"met", met}, {"total", rows.size()}}.dump(2) << "\n";
    return 0;
}
