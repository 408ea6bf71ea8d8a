"""Writes a tiny wheel, sandcastle_probe-VERSION-py3-none-any.whl, into a folder.

  python3 probewheel.py OUT_DIR [VERSION]

The environment tests install it from a wheelhouse (--no-index): a package no index has,
built here from a three-line module, so that a build that installs it proves it came from the
wheelhouse. Written with zipfile alone: no pip, setuptools or network needed.
"""
import base64, hashlib, sys, zipfile
out = sys.argv[1]
name = "sandcastle_probe"
version = sys.argv[2] if len(sys.argv) > 2 else "1.0"
files = {
    f"{name}/__init__.py": f"ANSWER = 42\nVERSION = {version!r}\n".encode(),
    f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: sandcastle-probe\nVersion: {version}\n".encode(),
    f"{name}-{version}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: sandcastle-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    f"{name}-{version}.dist-info/top_level.txt": f"{name}\n".encode(),
}
record = []
for path, data in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append(f"{path},sha256={digest},{len(data)}")
record.append(f"{name}-{version}.dist-info/RECORD,,")
files[f"{name}-{version}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
with zipfile.ZipFile(f"{out}/sandcastle_probe-{version}-py3-none-any.whl", "w") as z:
    for path, data in files.items():
        z.writestr(path, data)
