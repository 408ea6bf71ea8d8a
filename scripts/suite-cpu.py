"""scripts/suite-cpu's report: each test's share of the machine's processor time.

Arguments: the time-stamped ctest output, the /proc/stat samples, how many rows, clock ticks
per second."""
import bisect
import re
import sys

START = re.compile(r"\s*Start\s+\d+: (\S+)")
END = re.compile(r"\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(.*?)\s+([\d.]+) sec")


def main(ctest_log, stat_log, top, ticks):
    samples = []
    for line in open(stat_log):
        fields = line.split()
        if len(fields) == 3:
            samples.append((float(fields[0]), int(fields[1])))
    if not samples:
        sys.exit("suite-cpu: no /proc/stat samples were taken")
    times = [s[0] for s in samples]

    def busy(at):
        i = min(bisect.bisect_left(times, at), len(samples) - 1)
        return samples[i][1]

    started, rows = {}, []
    for line in open(ctest_log):
        stamp, _, text = line.rstrip("\n").partition(" ")
        try:
            at = float(stamp)
        except ValueError:
            continue
        match = START.match(text)
        if match:
            started[match.group(1)] = at
            continue
        match = END.match(text)
        if match and match.group(1) in started:
            name = match.group(1)
            cpu = (busy(at) - busy(started[name])) / ticks
            rows.append((cpu, at - started[name], name, match.group(2)))
    if not rows:
        sys.exit("suite-cpu: ctest ran no test")
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    print(f"{len(rows)} tests: {total:.0f} s of processor time over {sum(r[1] for r in rows):.0f} s")
    print(f"{'test':34} {'CPU s':>7} {'wall s':>7} {'share':>6}  result")
    for cpu, wall, name, result in rows[:top]:
        print(f"{name:34} {cpu:7.1f} {wall:7.1f} {100 * cpu / max(total, 1e-9):5.1f}%  {result}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: suite-cpu.py CTEST_LOG STAT_LOG ROWS TICKS")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
