#!/usr/bin/env bash
# The Debian package of a build tree, installed with apt-get into a clean container made from
# the debootstrap base image (Debian's packages and nothing else), then run there:
# `sandcastle --version`, `sandcastle doctor` (which must say what is missing, not crash) and
# the window's first frame, offscreen. Needs the engine and the base image (scripts/setup).
#   check-deb.sh BUILD_DIR
set -euo pipefail
build="$1"
engine="${SANDCASTLE_ENGINE:-docker}"
work="$(mktemp -d)"
tag="sandcastle-debtest:$$"
trap '"$engine" rmi -f "$tag" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
fail() { echo "check-deb: $*" >&2; exit 1; }

base=sandcastle-base:bookworm
"$engine" image inspect "$base" >/dev/null 2>&1 || fail "no $base image (run scripts/setup)"
(cd "$build" && cpack -G DEB -B "$work/deb" >/dev/null) || fail "cpack failed"
deb="$(ls "$work"/deb/sandcastle_*.deb)"
cp "$deb" "$work/sandcastle.deb"
cat > "$work/Dockerfile" <<DOCKERFILE
FROM $base
COPY sandcastle.deb /tmp/sandcastle.deb
# What the package asks for and nothing else: no recommends, as a minimal system would.
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/sandcastle.deb \
 && rm -rf /var/lib/apt/lists/*
DOCKERFILE
"$engine" build -q -t "$tag" "$work" >/dev/null || fail "apt-get could not install the package"
run() { "$engine" run --rm --network none -e HOME=/tmp -e QT_QPA_PLATFORM=offscreen "$tag" "$@"; }
version="$(run sandcastle --version)"
[[ "$version" == "sandcastle "* ]] || fail "--version printed '$version'"
status=0
doctor="$(run sandcastle doctor 2>&1)" || status=$?
# No engine in there: doctor says so and fails, as it should; a crash is a signal (>= 128).
[[ $status -lt 128 ]] || fail "doctor crashed ($status): $doctor"
grep -qi "docker" <<<"$doctor" || fail "doctor did not name the engine: $doctor"
# The window until its first frame, then stopped.
first="$(run sh -c 'SANDCASTLE_REPORT_FIRST_PAINT=1 sandcastle >/tmp/out 2>/tmp/log & app=$!
    for i in $(seq 600); do grep -q first-paint /tmp/out && break; sleep 0.1; done
    kill $app; cat /tmp/out; cat /tmp/log >&2')"
[[ "$first" == "first-paint" ]] || fail "the window did not paint in the container"
echo "check-deb: $(basename "$deb") installs with apt-get and runs: $version"
