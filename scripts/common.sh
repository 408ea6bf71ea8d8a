# Shared by scripts/setup, scripts/run and scripts/test; sourced, not run.
# Everything here is idempotent: a second call finds the work done and returns at once.

set -euo pipefail

SANDCASTLE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SANDCASTLE_PRESET="${SANDCASTLE_PRESET:-dev}"
SANDCASTLE_BUILD_DIR="$SANDCASTLE_ROOT/build/$SANDCASTLE_PRESET"
SANDCASTLE_ENGINE="${SANDCASTLE_ENGINE:-docker}"

# Debian/Ubuntu packages the build, the tests and the sandbox need.
SANDCASTLE_PACKAGES=(
    cmake ninja-build g++ pkg-config mold
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqscintilla2-qt6-dev nlohmann-json3-dev qtkeychain-qt6-dev libgl-dev libqt6svg6
    docker.io debootstrap ca-certificates git
    desktop-file-utils appstream dpkg-dev bash-completion man-db
    nodejs npm python3-nbformat openssh-server openssh-client iproute2 podman catatonit uidmap
)

# CI's other stages (scripts/lint, scripts/fuzz) install theirs with the rest, in one apt run.
if [[ "${CI:-}" == true ]]; then
    SANDCASTLE_PACKAGES+=(clang-format clang-tidy clang-14 libclang-rt-14-dev python3)
fi

# The sanitizer build uses clang (CMakePresets.json says why) and its sanitizer runtimes.
if [[ "$SANDCASTLE_PRESET" == asan ]]; then
    SANDCASTLE_PACKAGES+=(clang-14 libclang-rt-14-dev)
fi

# Packages that another source may provide as a command instead: NodeSource's nodejs carries
# its own npm and conflicts with Debian's, so a working command counts as installed.
declare -A SANDCASTLE_PACKAGE_COMMANDS=([nodejs]=node [npm]=npm)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        say "sudo $*"
        sudo "$@"
    else
        die "'$*' needs root and sudo is not installed"
    fi
}

install_packages() {
    local missing=()
    local pkg
    for pkg in "${SANDCASTLE_PACKAGES[@]}"; do
        local cmd="${SANDCASTLE_PACKAGE_COMMANDS[$pkg]:-}"
        if [[ -n "$cmd" ]] && command -v "$cmd" >/dev/null 2>&1 && "$cmd" --version >/dev/null 2>&1; then
            continue
        fi
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        return 0
    fi
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install these yourself: ${missing[*]}"
    say "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

docker_ok() { "$SANDCASTLE_ENGINE" info >/dev/null 2>&1; }

start_docker() {
    if docker_ok; then
        return 0
    fi
    [[ "$SANDCASTLE_ENGINE" == docker ]] || die "$SANDCASTLE_ENGINE does not answer; start it yourself"
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
        say "starting the Docker service"
        as_root systemctl start docker || true
    fi
    # Another dockerd (scripts/remote-engine's, with its own pid file) is not this machine's
    # daemon: only a live process in the default pid file is.
    local running
    running="$(cat /var/run/docker.pid 2>/dev/null || true)"
    if [[ -n "$running" ]] && [[ "$(cat "/proc/$running/comm" 2>/dev/null)" != dockerd ]]; then
        running=""
    fi
    if ! docker_ok && command -v dockerd >/dev/null 2>&1 && [[ -z "$running" ]]; then
        local log="${TMPDIR:-/tmp}/sandcastle-dockerd.log"
        say "starting dockerd (log: $log)"
        # setsid keeps the daemon alive after this script and its terminal are gone.
        as_root setsid nohup dockerd >"$log" 2>&1 </dev/null &
    fi
    local i
    for i in $(seq 1 60); do
        if docker_ok; then
            return 0
        fi
        sleep 1
    done
    if [[ $(id -u) -ne 0 ]] && ! docker_ok && [[ -S /var/run/docker.sock ]]; then
        die "the Docker daemon runs but this user may not use it: 'sudo usermod -aG docker $USER', then log in again"
    fi
    die "the Docker daemon did not start; see ${TMPDIR:-/tmp}/sandcastle-dockerd.log"
}

build_project() {
    if [[ ! -f "$SANDCASTLE_BUILD_DIR/build.ninja" ]]; then
        say "configuring ($SANDCASTLE_PRESET)"
        cmake --preset "$SANDCASTLE_PRESET" -S "$SANDCASTLE_ROOT" >/dev/null
    fi
    say "building ($SANDCASTLE_PRESET)"
    (cd "$SANDCASTLE_ROOT" && cmake --build --preset "$SANDCASTLE_PRESET" --parallel "$(nproc)") \
        || die "the build failed"
}

build_image() {
    bash "$SANDCASTLE_ROOT/sandbox/image/build-image.sh"
}

# The MCP reference servers the tests talk to, from the npm registry at the versions the lock
# file names (tests/mcp/node_modules); again only when the lock file changed.
install_mcp_servers() {
    local dir="$SANDCASTLE_ROOT/tests/mcp"
    if cmp -s "$dir/package-lock.json" "$dir/node_modules/.sandcastle-lock" 2>/dev/null; then
        return 0
    fi
    command -v npm >/dev/null 2>&1 || die "npm not found: install Debian's nodejs and npm"
    say "installing the MCP test servers (npm ci in tests/mcp)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in tests/mcp failed"
    cp "$dir/package-lock.json" "$dir/node_modules/.sandcastle-lock"
}

# The sandbox image builds while the compiler works: on a fresh machine it is mostly debootstrap
# and apt waiting for the mirror. Its output goes to a log; what it says last (built, or up to
# date) is shown, and the whole log when it fails.
setup_all() {
    install_packages
    start_docker
    install_mcp_servers
    local image_log
    image_log="$(mktemp "${TMPDIR:-/tmp}/sandcastle-image.XXXXXX")"
    build_image >"$image_log" 2>&1 &
    local image_pid=$! build_status=0 image_status=0
    (build_project) || build_status=$?
    wait "$image_pid" || image_status=$?
    if [[ $image_status -ne 0 ]]; then
        cat "$image_log" >&2
        rm -f "$image_log"
        die "the sandbox image did not build (exit $image_status)"
    fi
    grep '^==>' "$image_log" | tail -n 1 >&2 || true
    rm -f "$image_log"
    [[ $build_status -eq 0 ]] || exit "$build_status"
}
