#!/usr/bin/env bash
# Builds the Sandcastle sandbox image, offline-capable.
#
#   build-image.sh [--force] [--quiet-if-current]
#
# Environment: SANDCASTLE_IMAGE (default sandcastle-sandbox:latest), SANDCASTLE_ENGINE
# (docker or podman), SANDCASTLE_DEBIAN_MIRROR (default http://deb.debian.org/debian).
#
# The image carries a label with the hash of its inputs (this folder), so a second call is a
# no-op until the Dockerfile or the kernel changes. When debian:bookworm-slim is neither
# present nor pullable (no registry, as on CI), the base is bootstrapped with debootstrap and
# imported, then the Dockerfile is built on top of it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
engine="${SANDCASTLE_ENGINE:-docker}"
image="${SANDCASTLE_IMAGE:-sandcastle-sandbox:latest}"
mirror="${SANDCASTLE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
upstream_base="debian:bookworm-slim"
local_base="sandcastle-base:bookworm"
force=0
for arg in "$@"; do
    case "$arg" in
    --force) force=1 ;;
    *) echo "build-image.sh: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

step() { printf '==> %s\n' "$*"; }

if ! command -v "$engine" >/dev/null 2>&1; then
    echo "build-image.sh: '$engine' not found; install Docker (apt-get install docker.io)" >&2
    exit 125
fi
if ! "$engine" info >/dev/null 2>&1; then
    echo "build-image.sh: the $engine daemon is not reachable (is it running? may you use its socket?)" >&2
    exit 125
fi

inputs_hash="$(cd "$here" && cat Dockerfile kernel.py packages.py sandcastle_mpl.py | sha256sum | cut -c1-16)"
current="$("$engine" image inspect --format '{{ index .Config.Labels "org.sandcastle.inputs" }}' "$image" 2>/dev/null || true)"
if [[ $force -eq 0 && "$current" == "$inputs_hash" ]]; then
    step "$image is up to date ($inputs_hash)"
    exit 0
fi

base=""
if "$engine" image inspect "$upstream_base" >/dev/null 2>&1; then
    base="$upstream_base"
elif "$engine" image inspect "$local_base" >/dev/null 2>&1; then
    base="$local_base"
else
    step "trying to pull $upstream_base"
    if timeout 60 "$engine" pull "$upstream_base" >/dev/null 2>&1; then
        base="$upstream_base"
    else
        step "no registry reachable: bootstrapping $local_base from $mirror with debootstrap"
        if ! command -v debootstrap >/dev/null 2>&1; then
            echo "build-image.sh: debootstrap is needed to build the base offline (apt-get install debootstrap)" >&2
            exit 125
        fi
        if [[ $(id -u) -ne 0 ]]; then
            echo "build-image.sh: debootstrap needs root; run as root or with sudo" >&2
            exit 125
        fi
        rootfs="$(mktemp -d /var/tmp/sandcastle-rootfs.XXXXXX)"
        trap 'rm -rf "$rootfs"' EXIT
        debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || {
            tail -n 30 "$rootfs.log" >&2
            echo "build-image.sh: debootstrap failed (log: $rootfs.log)" >&2
            exit 125
        }
        rm -f "$rootfs.log"
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
        step "importing $local_base"
        tar -C "$rootfs" -c . | "$engine" import --change 'CMD ["/bin/bash"]' - "$local_base" >/dev/null
        rm -rf "$rootfs"
        trap - EXIT
        base="$local_base"
    fi
fi

step "building $image on $base"
started=$SECONDS
"$engine" build --build-arg "BASE=$base" -t "$image" "$here"
# The manifest the build wrote becomes a label, so that the system prompt (and `sandcastle env
# show`) can name what is installed without starting a container; the build's own duration
# goes beside it for scripts/bench.
summary="$("$engine" run --rm --network none --entrypoint python3 "$image" \
    /opt/sandcastle/packages.py summary /opt/sandcastle/packages.json)"
seconds=$((SECONDS - started))
printf 'FROM %s\n' "$image" | "$engine" build -q -t "$image" \
    --label "org.sandcastle.inputs=$inputs_hash" --label "org.sandcastle.packages=$summary" \
    --label "org.sandcastle.build-seconds=$seconds" - >/dev/null
size="$("$engine" image inspect --format '{{.Size}}' "$image")"
step "built $image ($inputs_hash) in ${seconds}s, $((size / 1000000)) MB"
