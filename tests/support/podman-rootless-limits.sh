#!/usr/bin/env bash
# Rootless Podman and the sandbox's limits (ctest podman_rootless_limits): on cgroups v1, where
# rootless Podman ignores --memory, --pids-limit and --cpus, `sandcastle exec` refuses to run
# code and says why, and runs it when SANDCASTLE_ALLOW_UNLIMITED=1; on cgroups v2 it runs with
# the limits in force (the container's memory.max and pids.max).
#   tests/support/podman-rootless-limits.sh SANDCASTLE_BINARY
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$(realpath "$1")"
rootless() { bash "$root/scripts/podman-rootless" run env SANDCASTLE_ENGINE=podman "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

code="$(mktemp /tmp/sandcastle-rootless-XXXXXX.py)"
trap 'rm -f "$code"' EXIT
chmod 644 "$code"
cat > "$code" <<'PY'
import os
def read(path):
    try:
        return open(path).read().strip()
    except OSError:
        return "-"
print("ran as", os.getuid(), "memory.max", read("/sys/fs/cgroup/memory.max"), "pids.max", read("/sys/fs/cgroup/pids.max"))
PY
version="$(bash "$root/scripts/podman-rootless" cgroups)"
echo "cgroups v$version as rootless Podman sees them"
out="$(rootless "$bin" exec "$code" 2>&1)"; rc=$?
echo "without SANDCASTLE_ALLOW_UNLIMITED (exit $rc): $out"
if [[ "$version" == 1 ]]; then
    [[ $rc -ne 0 ]] || fail "code ran although the engine ignores the limits"
    grep -q "ignores the sandbox's memory, process and CPU limits" <<<"$out" || fail "no reason given"
    grep -q "SANDCASTLE_ALLOW_UNLIMITED=1" <<<"$out" || fail "the way out is not named"
    out="$(rootless env SANDCASTLE_ALLOW_UNLIMITED=1 "$bin" exec "$code" 2>&1)"; rc=$?
    echo "with SANDCASTLE_ALLOW_UNLIMITED=1 (exit $rc): $out"
    [[ $rc -eq 0 ]] && grep -q "^ran as $(id -u sandcastle-rootless) " <<<"$out" \
        || fail "the allowed run did not run as the rootless user"
else
    [[ $rc -eq 0 ]] || fail "code did not run on cgroups v2"
    grep -q "memory.max 1073741824 pids.max 256" <<<"$out" || fail "the limits are not in force"
fi
echo "PASS"
