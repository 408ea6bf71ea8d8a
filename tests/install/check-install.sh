#!/usr/bin/env bash
# `cmake --install` of a build tree into a fresh prefix, then Sandcastle run from there:
# every desktop file in place and valid, the command line, and the window's first frame
# (offscreen). Fails, never skips, when a validator is missing.
#   check-install.sh BUILD_DIR
set -euo pipefail
build="$1"
prefix="$(mktemp -d)"
data="$(mktemp -d)"
trap 'rm -rf "$prefix" "$data"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install failed"
id=org.sandcastle.Sandcastle
for f in bin/sandcastle \
    "share/applications/$id.desktop" \
    "share/metainfo/$id.metainfo.xml" \
    "share/icons/hicolor/scalable/apps/$id.svg" \
    share/man/man1/sandcastle.1 \
    share/sandcastle/translations/sandcastle_de.qm \
    share/sandcastle/translations/sandcastle_fr.qm \
    share/bash-completion/completions/sandcastle; do
    [[ -s "$prefix/$f" ]] || fail "$f is not installed"
done
for size in 16 22 24 32 48 64 128 256; do
    png="$prefix/share/icons/hicolor/${size}x${size}/apps/$id.png"
    [[ -s "$png" ]] || fail "the ${size}px icon is not installed"
    # The PNG's own header says its size (bytes 16-23: width and height, big-endian).
    read -r w h < <(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4, $7*256+$8}')
    [[ "$w" == "$size" && "$h" == "$size" ]] || fail "the ${size}px icon is ${w}x${h}"
done
desktop-file-validate "$prefix/share/applications/$id.desktop"
appstreamcli validate --no-net "$prefix/share/metainfo/$id.metainfo.xml" >/dev/null \
    || fail "appstreamcli validate failed"
# The launchable, the icon and the metainfo agree, as a software centre reads them.
appstreamcli validate-tree --no-net "$prefix" >/dev/null || fail "appstreamcli validate-tree failed"
man --warnings -l "$prefix/share/man/man1/sandcastle.1" >/dev/null 2>"$data/man.log" \
    || fail "the man page does not render"
[[ ! -s "$data/man.log" ]] || fail "man page warnings: $(cat "$data/man.log")"
grep -q "Exec=sandcastle" "$prefix/share/applications/$id.desktop" || fail "Exec is not sandcastle"

# The bash completion offers the commands and the --api values.
complete_words() {
    bash -c 'source /usr/share/bash-completion/bash_completion
             source "$0"
             COMP_WORDS=("${@}"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
             COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
             _sandcastle; printf "%s\n" "${COMPREPLY[@]}"' \
        "$prefix/share/bash-completion/completions/sandcastle" "$@"
}
[[ -f /usr/share/bash-completion/bash_completion ]] || fail "bash-completion is not installed"
# (Captured first: grep -q leaving a pipe early would fail it under pipefail.)
offered="$(complete_words sandcastle ch)"
grep -qx chat <<<"$offered" || fail "completion: 'ch' gives '$offered', not chat"
offered="$(complete_words sandcastle chat --api "")"
grep -qx messages <<<"$offered" || fail "completion: --api gives '$offered'"

# Run from the prefix: the command line, then the window's first frame.
export SANDCASTLE_DATA_DIR="$data"
[[ "$("$prefix/bin/sandcastle" --version)" == "sandcastle "* ]] || fail "--version"
help="$("$prefix/bin/sandcastle" --help)"
grep -q "sandcastle chat" <<<"$help" || fail "--help"
status=0
"$prefix/bin/sandcastle" frobnicate 2>/dev/null || status=$?
[[ $status -eq 2 ]] || fail "an unknown command exits $status, not 2"
# No engine: the window must paint whatever the sandbox's state (and leave no container).
QT_QPA_PLATFORM=offscreen SANDCASTLE_REPORT_FIRST_PAINT=1 SANDCASTLE_ENGINE=/nonexistent/docker \
    "$prefix/bin/sandcastle" >"$data/window.out" 2>"$data/window.log" &
app=$!
for _ in $(seq 600); do
    grep -q first-paint "$data/window.out" && break
    kill -0 "$app" 2>/dev/null || break
    sleep 0.1
done
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
grep -q first-paint "$data/window.out" || fail "the window did not paint: $(cat "$data/window.log")"
echo "check-install: installed into a prefix and ran from there"
