"""Lists what a Sandcastle image has installed, for the system prompt and `sandcastle env show`.

  packages.py scan [--base MANIFEST] [--apt PKG ...] [--pip NAME ...] > manifest.json
  packages.py summary MANIFEST                                          > one line of text

scan finds, for each Debian package, the Python distributions it ships (their names, versions
and import names) or, for a package without Python code, its own version; for each pip name,
the installed distribution. With --base the result extends an earlier manifest (a project's
environment on top of the default image). summary prints the manifest as one line,
"numpy 1.24.2; scikit-learn 1.2.1 (import sklearn); ...; apt: graphviz 2.42", which the build
puts in the image's org.sandcastle.packages label. Runs at build time only.
"""

import importlib.metadata as metadata
import json
import os
import re
import subprocess
import sys


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _import_names(dist):
    top = dist.read_text("top_level.txt")
    if top:
        names = [line.strip() for line in top.splitlines() if line.strip()]
    else:
        names = sorted({str(f).split("/")[0].removesuffix(".py") for f in (dist.files or [])
                        if not str(f).startswith("..") and ".dist-info" not in str(f)
                        and ".egg-info" not in str(f) and "__pycache__" not in str(f)})
    return [n for n in names if n.isidentifier() and not n.startswith("_")]


def _entry(dist, source):
    return {"name": dist.metadata["Name"], "version": dist.version,
            "import": _import_names(dist), "from": source}


def _dpkg_version(package):
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def _dpkg_dists(package):
    out = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    found = []
    for path in out.stdout.splitlines():
        if path.endswith((".dist-info", ".egg-info")) and "-packages/" in path:
            found.extend(metadata.Distribution.discover(path=[os.path.dirname(path)],
                                                        name=os.path.basename(path).split("-")[0]))
    return found


def scan(base, apt, pip):
    manifest = base or {"python": "", "packages": [], "apt": []}
    manifest["python"] = ".".join(map(str, sys.version_info[:3]))
    seen = {_canonical(p["name"]) for p in manifest["packages"]}
    for package in apt:
        dists = _dpkg_dists(package)
        if not dists:
            version = _dpkg_version(package)
            if version and all(a["name"] != package for a in manifest["apt"]):
                manifest["apt"].append({"name": package, "version": version})
        for dist in dists:
            if _canonical(dist.metadata["Name"]) not in seen:
                seen.add(_canonical(dist.metadata["Name"]))
                manifest["packages"].append(_entry(dist, "apt:" + package))
    for name in pip:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        key = _canonical(dist.metadata["Name"])
        manifest["packages"] = [p for p in manifest["packages"] if _canonical(p["name"]) != key]
        manifest["packages"].append(_entry(dist, "pip"))
        seen.add(key)
    return manifest


def summary(manifest):
    parts = []
    for p in manifest["packages"]:
        text = "%s %s" % (p["name"], p["version"])
        imports = p.get("import") or []
        names = {_canonical(i) for i in imports}
        if imports and _canonical(p["name"]) not in names:
            text += " (import %s)" % imports[0]
        parts.append(text)
    apt = ["%s %s" % (a["name"], a["version"]) for a in manifest.get("apt", [])]
    line = "; ".join(parts)
    if apt:
        line += "; apt: " + ", ".join(apt)
    return line


def main(argv):
    if len(argv) >= 1 and argv[0] == "summary" and len(argv) == 2:
        with open(argv[1], encoding="utf-8") as f:
            print(summary(json.load(f)))
        return 0
    if not argv or argv[0] != "scan":
        print(__doc__, file=sys.stderr)
        return 2
    base, apt, pip, target = None, [], [], None
    for arg in argv[1:]:
        if arg in ("--apt", "--pip", "--base"):
            target = arg
        elif target == "--base":
            with open(arg, encoding="utf-8") as f:
                base = json.load(f)
        elif target == "--apt":
            apt.append(arg)
        elif target == "--pip":
            pip.append(arg)
        else:
            print("packages.py: unexpected argument: " + arg, file=sys.stderr)
            return 2
    json.dump(scan(base, apt, pip), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
