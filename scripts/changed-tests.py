#!/usr/bin/env python3
"""The ctest tests whose inputs changed since a git revision, for scripts/test --changed.

    changed-tests.py BUILD_DIR SOURCE_DIR BASE

Prints two lines: the build targets those tests need, then a ctest regular expression naming
them (empty lines when nothing changed that a test depends on). What a test depends on comes
from the build itself: the executables and scripts of its command line and environment, the
units linked into each executable (its debug information: of a static library only the members
it uses), every header those units included (the deps log of the last build) and the data files
ninja builds it from (`ninja -t inputs`: resources, translations). A change to the build description (CMakeLists.txt, cmake/,
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


CPP = (".cpp", ".cxx", ".cc", ".c", ".h", ".hpp", ".hxx")


def compiled_units(executable):
    """The source files compiled into an executable, from its debug information (every preset
    that runs tests has line tables): from a static library only the members it linked."""
    try:
        dump = subprocess.run(["readelf", "--debug-dump=info", "--dwarf-depth=1", executable],
                              check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    units, in_unit = set(), False
    for line in dump.split("\n"):
        if "DW_TAG_compile_unit" in line:
            in_unit = True
        elif in_unit and "DW_AT_name" in line:
            units.add(os.path.normpath(line.rsplit(": ", 1)[-1].strip()))
            in_unit = False
    return units


def target_files(build, target, deps, objects):
    """Every file the build target is made from: the units linked into it with what they
    included, and the data files the build reads for it (resources, scripts)."""
    inputs = {os.path.normpath(os.path.join(build, f))
              for f in run(["ninja", "-t", "inputs", target], build).split("\n") if f}
    units = compiled_units(os.path.join(build, target))
    if not units:  # no debug information: whatever ninja builds it from
        units = {f for f in inputs if f.endswith(CPP)}
    files = {f for f in inputs if not f.endswith(CPP)} | units
    for unit in units:
        for obj in objects.get(unit, []):
            files.update(deps.get(obj, []))
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
    objects = {}  # source -> the object files made from it
    for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
        source_file = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        output = entry.get("output")
        if output is None:
            match = re.search(r"\s-o\s+(\S+)", entry.get("command", ""))
            output = match.group(1) if match else None
        if output:
            objects.setdefault(source_file, []).append(output)
    # The build targets ninja knows, by the file they make (an executable's path).
    made = {}
    for line in run(["ninja", "-t", "targets", "all"], build).split("\n"):
        name = line.split(":", 1)[0]
        if name:
            made[os.path.normpath(os.path.join(build, name))] = name
    cache = {}
    selected, targets, used = [], set(), set()
    def files_of(target):
        if target not in cache:
            cache[target] = target_files(build, target, deps, objects)
        return cache[target]

    def mentions(files, word):
        for path in files:
            if path.endswith(CPP) and path.startswith(source + os.sep):
                try:
                    if word in open(path, errors="replace").read():
                        return True
                except OSError:
                    pass
        return False

    for test in tests:
        needs, mine = set(), set()
        for word in test.get("command") or []:
            path = os.path.normpath(word) if os.path.isabs(word) else None
            if path in made:
                needs.add(made[path])
                mine |= files_of(made[path])
            elif path and path.startswith(source + os.sep) and os.path.isfile(path):
                mine.add(path)  # a script the test runs
        # A program named in the environment (SANDCASTLE_BINARY, ...) counts for the tests whose
        # code reads that variable; every test gets the same environment.
        for prop in test.get("properties", []):
            if prop["name"] != "ENVIRONMENT":
                continue
            for variable in prop["value"]:
                name, _, value = variable.partition("=")
                path = os.path.normpath(value) if os.path.isabs(value) else None
                if path in made and mentions(mine, name):
                    needs.add(made[path])
                    mine |= files_of(made[path])
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
