"""Sandcastle's in-container Python kernel.

Started with `docker exec -i <container> python3 /opt/sandcastle/kernel.py`. It keeps one
globals dict alive, so a variable set in one run is there in the next.

Protocol (JSON lines in each direction, and output as binary frames):
  host -> kernel  {"op": "run", "id": 7, "code": "print(1)"}
                  {"op": "shell", "id": 8, "command": "ls -l"}      (bash -lc in /workspace)
                  {"op": "interrupt"}      KeyboardInterrupt in the running code (or SIGINT
                                           to the shell command); the kernel and its state live on
  kernel -> host  {"ev": "ready", "pid": 12}
                  #out 7 stdout 2\n1\n   a header line, then that many raw bytes
                  {"ev": "done", "id": 7, "status": "ok", "exit_code": 0}
                  {"ev": "done", "id": 7, "status": "error", "exit_code": 1,
                   "error": "Traceback ..."}       (exit_code is SystemExit's code if raised)
                  {"ev": "files", "id": 7, "changed": [["a/b.csv", "f", 12, 1764000000]],
                   "removed": ["old.txt"], "overflow": false}
                                   before "done", when the request had "files": true (a remote
                                   engine's copy mode): what the run changed in /workspace
                                   against the kernel's last look, so that the host fetches
                                   only that, without another `docker exec`; a name that
                                   is not UTF-8 is sent with U+FFFD for its bad bytes (the
                                   host cannot name it back, and says so)
                  {"ev": "quota", "id": 7, "bytes": 70000000}
                                   during a run whose request had "quota": N (copy mode, where
                                   the host cannot watch the volume fill): /workspace holds
                                   more than N bytes; the host then stops the run

Started with `--preimport numpy,pandas,matplotlib.pyplot`, the kernel imports those modules on
a background thread once it is ready, one at a time and never while a run's code executes (a
run that comes first waits only for a module it imports itself, on Python's import lock). A
module that cannot be imported is skipped without a word: the run that imports it sees the
error as if nothing had been tried. When they are done:
  kernel -> host  {"ev": "preimported", "ok": ["numpy"], "failed": ["nosuch"], "ms": 812}

File descriptors 1 and 2 are redirected into pipes that reader threads forward as output
frames (raw bytes: the host decodes them, so a flood costs no JSON on either side), so output
of subprocesses and C extensions streams too; the protocol itself goes to a private duplicate
of the original stdout that user code never sees. Requests are read by a thread, so that an
interrupt arrives while code runs. Matplotlib figures shown with plt.show() or left open at
the end of a run are saved under /workspace/outputs/.
"""

import fcntl
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import traceback

_END = b"\x00\x1esandcastle-end\x1e\x00"
_WORKSPACE = os.environ.get("SANDCASTLE_WORKSPACE", "/workspace")


class _Channel:
    def __init__(self, fd):
        self._fd = fd
        self._lock = threading.Lock()

    def _write(self, data):
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def send(self, obj):
        data = (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8", "replace")
        with self._lock:
            self._write(data)

    def send_output(self, run_id, stream, data):
        # A binary frame: a header line, then the bytes as the code wrote them (the host
        # decodes them); nothing to escape or encode on either side.
        header = b"#out %d %s %d\n" % (run_id, stream, len(data))
        with self._lock:
            self._write(header)
            self._write(data)


class _Forwarder(threading.Thread):
    """Reads one redirected stream and forwards it; stops at each end marker to signal."""

    def __init__(self, channel, read_fd, name):
        super().__init__(daemon=True)
        self._channel = channel
        self._fd = read_fd
        self._name = name.encode()
        self.run_id = 0
        self.drained = threading.Event()

    def _emit(self, data):
        if data:
            self._channel.send_output(self.run_id, self._name, data)

    def run(self):
        pending = b""
        while True:
            chunk = os.read(self._fd, 1 << 20)
            if not chunk:
                return
            pending += chunk
            while True:
                at = pending.find(_END)
                if at < 0:
                    break
                self._emit(pending[:at])
                pending = pending[at + len(_END):]
                self.drained.set()
            # Keep a tail that could be the start of a marker split across reads.
            keep = 0
            for n in range(min(len(_END) - 1, len(pending)), 0, -1):
                if _END.startswith(pending[-n:]):
                    keep = n
                    break
            if len(pending) > keep:
                self._emit(pending[: len(pending) - keep])
                pending = pending[len(pending) - keep:]


class _Figures:
    """Saves matplotlib figures to /workspace/outputs/ instead of showing them."""

    def __init__(self, run_id_getter):
        self._run_id = run_id_getter
        self._patched = False
        self._count = 0

    def patch(self):
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None or self._patched:
            return
        self._patched = True

        def show(*args, **kwargs):
            self.save_open()

        pyplot.show = show

    def save_open(self):
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        numbers = pyplot.get_fignums()
        if not numbers:
            return
        for number in numbers:
            figure = pyplot.figure(number)
            if getattr(figure, "_sandcastle_saved", False):
                continue  # the code saved it to a file itself (sandcastle_mpl marks it)
            os.makedirs(os.path.join(_WORKSPACE, "outputs"), exist_ok=True)
            self._count += 1
            path = os.path.join(_WORKSPACE, "outputs", "figure-%d-%d.png" % (self._run_id(), self._count))
            try:
                figure.savefig(path, dpi=100, bbox_inches="tight")
            except Exception as exc:  # a broken figure must not break the run's result
                print("could not save figure %d: %s" % (number, exc), file=sys.stderr)
        pyplot.close("all")


def _reader(requests, inbox, state):
    """Reads requests; an interrupt is acted on at once, everything else is queued.

    This thread must never die and never start another thread: under a fork bomb the pids
    limit is exhausted, and a dead reader would leave the kernel deaf."""
    for line in requests:
        try:
            line = line.strip()
            if not line:
                continue
            try:
                request = json.loads(line)
            except ValueError as exc:
                inbox.put({"op": "bad", "message": str(exc)})
                continue
            if isinstance(request, dict) and request.get("op") == "interrupt":
                state["interrupted"] = True
                state["interrupt_at"] = time.monotonic()
                child = state.get("child")
                if child is not None:
                    try:
                        os.killpg(child.pid, signal.SIGINT)
                    except OSError:
                        pass
                elif state.get("user_code"):
                    os.kill(os.getpid(), signal.SIGINT)
                continue
            inbox.put(request)
        except Exception as exc:  # keep reading whatever happened
            try:
                inbox.put({"op": "bad", "message": "reader: %s" % exc})
            except Exception:
                pass
    inbox.put(None)


_REPORT_LIMIT = 20000  # changed entries in one report; past it the host lists the volume itself
_REPORT_SECONDS = 5.0


def _shown(name):
    """A name as the host gets it: bytes that are not UTF-8 become U+FFFD."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "replace")


def _look(root):
    """path -> (type, size, mtime seconds) of everything under root but .sandcastle; None when
    it took too long (a run that made a million files): the host then lists the volume."""
    found = {}
    stack = [("", "")]  # (the folder's real path, its path as the host is told it)
    deadline = time.monotonic() + _REPORT_SECONDS
    while stack:
        folder, shown = stack.pop()
        try:
            entries = os.scandir(os.path.join(root, folder) if folder else root)
        except OSError:
            continue
        with entries:
            for entry in entries:
                real = folder + "/" + entry.name if folder else entry.name
                path = shown + "/" + _shown(entry.name) if shown else _shown(entry.name)
                if real == ".sandcastle":
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    kind = "d"
                    stack.append((real, path))
                elif entry.is_file(follow_symlinks=False):
                    kind = "f"
                elif entry.is_symlink():
                    kind = "l"
                else:
                    kind = "o"
                found[path] = (kind, st.st_size if kind == "f" else 0, int(st.st_mtime))
        if time.monotonic() > deadline:
            return None
    return found


def _file_report(state, run_id):
    now = _look(_WORKSPACE)
    before = state.get("files")
    state["files"] = now
    report = {"ev": "files", "id": run_id, "changed": [], "removed": [], "overflow": False}
    if now is None or before is None:
        report["overflow"] = True
        return report
    for path, value in now.items():
        if before.get(path) != value:
            report["changed"].append([path, value[0], value[1], value[2]])
            if len(report["changed"]) > _REPORT_LIMIT:
                return {"ev": "files", "id": run_id, "changed": [], "removed": [], "overflow": True}
    report["removed"] = [path for path in before if path not in now][:_REPORT_LIMIT]
    if len(report["removed"]) >= _REPORT_LIMIT:
        report = {"ev": "files", "id": run_id, "changed": [], "removed": [], "overflow": True}
    return report


def _used_bytes(root):
    """Bytes the file system under root has in use (a cheap look, no walk)."""
    st = os.statvfs(root)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def _workspace_bytes(root, limit):
    """The sizes of the regular files under root added up, stopping once past limit."""
    total = 0
    stack = [root]
    deadline = time.monotonic() + _REPORT_SECONDS
    while stack and total <= limit and time.monotonic() < deadline:
        try:
            entries = os.scandir(stack.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        total += entry.stat(follow_symlinks=False).st_size
                except OSError:
                    continue
    return total


class _QuotaWatch(threading.Thread):
    """Copy mode: the host's folder does not grow while a run fills the volume, so the kernel
    watches for it. The file system's use is looked at five times a second; only when it grew
    by more than the room left are the files counted, and past the quota the host is told (it
    stops the run). Started with the kernel, before any user code, and never ends."""

    def __init__(self, channel):
        super().__init__(daemon=True)
        self._channel = channel
        self._lock = threading.Lock()
        self._watch = None  # [run id, quota, used at the baseline, bytes at the baseline]

    def begin(self, run_id, quota, files):
        try:
            used = _used_bytes(_WORKSPACE)
        except OSError:
            return
        if files is None:
            held = _workspace_bytes(_WORKSPACE, quota)
        else:
            held = sum(value[1] for value in files.values())
        with self._lock:
            self._watch = [run_id, quota, used, held]

    def end(self):
        with self._lock:
            self._watch = None

    def run(self):
        while True:
            time.sleep(0.2)
            try:
                self._check()
            except Exception:  # the watch must outlive whatever happens to the volume
                pass

    def _check(self):
        with self._lock:
            if self._watch is None:
                return
            run_id, quota, base_used, base_held = self._watch
        used = _used_bytes(_WORKSPACE)
        if base_held + used - base_used <= quota:
            return
        held = _workspace_bytes(_WORKSPACE, quota)
        with self._lock:
            if self._watch is None or self._watch[0] != run_id:
                return
            if held > quota:
                self._watch = None  # told once; the host stops the run
            else:
                self._watch = [run_id, quota, used, held]  # something else grew: a new baseline
        if held > quota:
            self._channel.send({"ev": "quota", "id": run_id, "bytes": held})


def _preimport_names(argv):
    """The modules after --preimport (comma-separated), dotted names only."""
    names = []
    for at, arg in enumerate(argv):
        if arg == "--preimport" and at + 1 < len(argv):
            for name in argv[at + 1].split(","):
                name = name.strip()
                if name and all(part.isidentifier() for part in name.split(".")):
                    names.append(name)
    return names


_PREIMPORT_MIN_MEMORY = 512 * 1024 * 1024  # below this limit the code may need every byte


def _memory_limit():
    """The container's memory limit in bytes (cgroup v2 or v1), or None for none."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as f:
                value = f.read().strip()
        except OSError:
            continue
        return None if value == "max" else int(value)
    return None


def _preimport(names, channel, user_idle):
    """Imports `names` one by one, each only while no user code runs."""
    import importlib
    try:  # this thread only (Linux nice is per thread): runs, the host and its window go first
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (OSError, AttributeError):
        pass
    started = time.monotonic()
    ok, failed = [], []
    limit = _memory_limit()
    if limit is not None and limit < _PREIMPORT_MIN_MEMORY:
        names, failed = [], list(names)  # a small sandbox keeps its memory for the code
    for name in names:
        user_idle.wait()
        try:
            importlib.import_module(name)
            ok.append(name)
        except BaseException:  # an import error (or a module's SystemExit) is harmless here
            failed.append(name)
    channel.send({"ev": "preimported", "ok": ok, "failed": failed,
                  "ms": int((time.monotonic() - started) * 1000)})


def _kill_group(pgid, seconds):
    """SIGKILL the process group until it is empty (a fork bomb refills it while it can)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            return
        except OSError:
            return
        time.sleep(0.02)


def _run_shell(command, state):
    child = subprocess.Popen(
        ["bash", "-lc", command], cwd=_WORKSPACE, stdin=subprocess.DEVNULL,
        stdout=1, stderr=2, start_new_session=True)
    state["child"] = child
    try:
        while True:
            try:
                return child.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                # An interrupt is a SIGINT (sent by the reader); a second later, SIGKILL.
                at = state.get("interrupt_at")
                if state.get("interrupted") and at is not None and time.monotonic() - at > 1.0:
                    _kill_group(child.pid, 5.0)
    finally:
        state["child"] = None
        if state.get("interrupted"):
            # Nothing the interrupted command started may outlive it.
            _kill_group(child.pid, 5.0)


def main():
    import faulthandler
    # `kill -USR1` dumps every thread's stack to /tmp/.kernel-stacks, for diagnosing hangs.
    try:
        faulthandler.register(signal.SIGUSR1, file=open("/tmp/.kernel-stacks", "w"), all_threads=True)
    except OSError:
        pass
    channel = _Channel(os.dup(1))
    forwarders = []
    for fd, name in ((1, "stdout"), (2, "stderr")):
        read_fd, write_fd = os.pipe()
        try:  # a bigger pipe: fewer wake-ups of the forwarder under a flood of output
            fcntl.fcntl(write_fd, 1031, 1 << 20)  # F_SETPIPE_SZ
        except OSError:
            pass
        os.dup2(write_fd, fd)
        os.close(write_fd)
        forwarder = _Forwarder(channel, read_fd, name)
        forwarder.start()
        forwarders.append(forwarder)
    sys.stdout = os.fdopen(1, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)

    user_globals = {"__name__": "__main__", "__builtins__": __builtins__}
    # Like Jupyter: modules the code writes into the workspace can be imported.
    sys.path.insert(0, _WORKSPACE)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # user code reading stdin gets EOF, not the protocol
    os.close(devnull)

    state = {"user_code": False, "child": None, "run_id": 0}

    def on_sigint(signum, frame):
        # Checked when the signal is handled, not when it was sent: an interrupt that lands
        # after the user's code returned is dropped instead of hitting the kernel's own code.
        if state["user_code"]:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    figures = _Figures(lambda: state["run_id"])
    inbox = queue.Queue()
    threading.Thread(target=_reader, args=(requests, inbox, state), daemon=True).start()
    quota_watch = _QuotaWatch(channel)
    quota_watch.start()
    channel.send({"ev": "ready", "pid": os.getpid()})
    user_idle = threading.Event()  # set while no run's code executes
    user_idle.set()
    preimports = _preimport_names(sys.argv[1:])
    if preimports:
        threading.Thread(target=_preimport, args=(preimports, channel, user_idle),
                         daemon=True).start()

    while True:
        try:
            request = inbox.get()
        except KeyboardInterrupt:  # an interrupt that arrived between runs
            continue
        if request is None:
            return
        try:
            op = request["op"]
            run_id = int(request["id"])
            payload = str(request["code"] if op == "run" else request["command"])
            if op not in ("run", "shell"):
                raise ValueError("unknown op " + op)
        except (ValueError, KeyError, TypeError) as exc:
            message = request.get("message") if isinstance(request, dict) else None
            channel.send({"ev": "protocol_error", "message": message or str(exc)})
            continue
        state["run_id"] = run_id
        if request.get("files") and "files" not in state:
            state["files"] = _look(_WORKSPACE)  # the baseline the first report compares with
        quota = request.get("quota")
        if isinstance(quota, int) and quota > 0:
            quota_watch.begin(run_id, quota, state.get("files"))
        for forwarder in forwarders:
            forwarder.run_id = run_id
            forwarder.drained.clear()
        status, error, exit_code = "ok", None, 0
        user_idle.clear()
        state["interrupted"] = False
        state["interrupt_at"] = None
        try:
            if op == "shell":
                exit_code = _run_shell(payload, state)
                if state["interrupted"]:
                    status, exit_code = "interrupted", 130
                    error = "the command was interrupted"
                elif exit_code != 0:
                    status = "error"
                    exit_code = exit_code if exit_code > 0 else 128 - exit_code
            else:
                compiled = compile(payload, "<cell>", "exec")
                state["user_code"] = True
                try:
                    exec(compiled, user_globals)
                finally:
                    state["user_code"] = False
        except SystemExit as exc:
            if exc.code not in (None, 0):
                status, error = "error", "SystemExit: %s" % (exc.code,)
                exit_code = exc.code if isinstance(exc.code, int) else 1
        except KeyboardInterrupt:
            status, exit_code = "interrupted", 130
            error = "KeyboardInterrupt: the run was interrupted"
        except BaseException:  # the kernel survives whatever the user's code raises
            status, exit_code = "error", 1
            kind, value, tb = sys.exc_info()
            # Drop the kernel's own frame so the traceback starts in the user's code.
            error = "".join(traceback.format_exception(kind, value, tb.tb_next if tb else None))
        try:
            figures.patch()
            figures.save_open()
        except Exception:
            pass
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        quota_watch.end()
        user_idle.set()
        for fd in (1, 2):
            os.write(fd, _END)
        for forwarder in forwarders:
            forwarder.drained.wait(5)
        if request.get("files"):
            try:
                channel.send(_file_report(state, run_id))
            except Exception:
                state.pop("files", None)
        done = {"ev": "done", "id": run_id, "status": status, "exit_code": exit_code}
        if error is not None:
            done["error"] = error
        channel.send(done)


if __name__ == "__main__":
    main()
