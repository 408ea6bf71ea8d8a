#!/usr/bin/env python3
"""The ctest tests whose inputs changed since a git revision, for scripts/test --changed.

    changed-tests.py BUILD_DIR SOURCE_DIR BASE

Prints two lines: the build targets those tests need, then a ctest regular expression naming
them (empty lines when nothing changed that a test depends on). What a test depends on comes
from the build itself: the executables and scripts of its command line and environment, every
source ninja builds them from (`ninja -t inputs`) and every header those units included (the
deps log of the last build). A change to the build description (CMakeLists.txt, cmake/,
CMakePresets.json) selects every test. Files that no test depends on are listed on stderr.
"""
import json
import os
import re
import subprocess
import sys


def run(args, cwd):
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout


def changed_files(source, base):
    merge_base = run(["git", "merge-base", "HEAD", base], source).strip()
    names = set(run(["git", "diff", "--name-only", merge_base], source).split("\n"))
    names |= set(run(["git", "ls-files", "--others", "--exclude-standard"], source).split("\n"))
    return {os.path.normpath(os.path.join(source, n)) for n in names if n}


def deps_log(build):
    """object file -> the files its compile read (its source first, then headers)."""
    deps = {}
    current = None
    for line in run(["ninja", "-t", "deps"], build).split("\n"):
        if line and not line.startswith(" "):
            current = line.split(":", 1)[0]
            deps[current] = []
        elif line.strip() and current is not None:
            deps[current].append(os.path.normpath(os.path.join(build, line.strip())))
    return deps


def target_files(build, target, deps):
    """Every file the build target is made from: sources and what they include."""
    files = {os.path.normpath(os.path.join(build, f))
             for f in run(["ninja", "-t", "inputs", target], build).split("\n") if f}
    for command in run(["ninja", "-t", "commands", target], build).split("\n"):
        match = re.search(r"\s-o\s+(\S+\.o)\b", command)
        if match:
            files.update(deps.get(match.group(1), []))
    return files


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: changed-tests.py BUILD_DIR SOURCE_DIR BASE")
    build, source, base = (os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]),
                           sys.argv[3])
    try:
        changed = changed_files(source, base)
    except subprocess.CalledProcessError as error:
        sys.exit(f"changed-tests.py: git could not compare with '{base}': {error.stderr.strip()}")
    tests = json.loads(run(["ctest", "--show-only=json-v1"], build))["tests"]
    everything = any(os.path.relpath(f, source).split(os.sep)[0] in ("CMakeLists.txt", "cmake",
                                                                     "CMakePresets.json")
                     or os.path.basename(f) == "CMakeLists.txt" for f in changed)
    deps = deps_log(build)
    # The build targets ninja knows, by the file they make (an executable's path).
    made = {}
    for line in run(["ninja", "-t", "targets", "all"], build).split("\n"):
        name = line.split(":", 1)[0]
        if name:
            made[os.path.normpath(os.path.join(build, name))] = name
    cache = {}
    selected, targets, used = [], set(), set()
    for test in tests:
        words = list(test.get("command") or [])
        for prop in test.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                words += [v.split("=", 1)[1] for v in prop["value"] if "=" in v]
        needs = set()
        mine = set()
        for word in words:
            path = os.path.normpath(word) if os.path.isabs(word) else None
            if path is None:
                continue
            if path in made:
                target = made[path]
                needs.add(target)
                if target not in cache:
                    cache[target] = target_files(build, target, deps)
                mine |= cache[target]
            elif path.startswith(source + os.sep) and os.path.isfile(path):
                mine.add(path)  # a script the test runs, or a file it reads
        hit = changed & mine
        if everything or hit:
            selected.append(test["name"])
            targets |= needs
            used |= hit
    for path in sorted(changed - used):
        if not everything and os.path.exists(path):
            print(f"no test depends on {os.path.relpath(path, source)}", file=sys.stderr)
    print(" ".join(sorted(targets)))
    print("^(" + "|".join(re.escape(n) for n in selected) + ")$" if selected else "")


if __name__ == "__main__":
    main()
