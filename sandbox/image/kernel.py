"""Sandcastle's in-container Python kernel.

Started with `docker exec -i <container> python3 /opt/sandcastle/kernel.py`. It keeps one
globals dict alive, so a variable set in one run is there in the next.

Protocol (one JSON object per line in each direction):
  host -> kernel  {"op": "run", "id": 7, "code": "print(1)"}
  kernel -> host  {"ev": "ready", "pid": 12}
                  {"ev": "out", "id": 7, "stream": "stdout", "text": "1\\n"}
                  {"ev": "done", "id": 7, "status": "ok", "exit_code": 0}
                  {"ev": "done", "id": 7, "status": "error", "exit_code": 1,
                   "error": "Traceback ..."}       (exit_code is SystemExit's code if raised)

File descriptors 1 and 2 are redirected into pipes that reader threads forward as "out"
events, so output of subprocesses and C extensions streams too; the protocol itself goes to
a private duplicate of the original stdout that user code never sees.
"""

import codecs
import json
import os
import sys
import threading
import traceback

_END = b"\x00\x1esandcastle-end\x1e\x00"


class _Channel:
    def __init__(self, fd):
        self._file = os.fdopen(fd, "w", encoding="utf-8", newline="\n", buffering=1)
        self._lock = threading.Lock()

    def send(self, obj):
        line = json.dumps(obj, ensure_ascii=False)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()


class _Forwarder(threading.Thread):
    """Reads one redirected stream and forwards it; stops at each end marker to signal."""

    def __init__(self, channel, read_fd, name):
        super().__init__(daemon=True)
        self._channel = channel
        self._fd = read_fd
        self._name = name
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.run_id = 0
        self.drained = threading.Event()

    def _emit(self, data, final=False):
        text = self._decoder.decode(data, final)
        if text:
            self._channel.send({"ev": "out", "id": self.run_id, "stream": self._name, "text": text})

    def run(self):
        pending = b""
        while True:
            chunk = os.read(self._fd, 65536)
            if not chunk:
                return
            pending += chunk
            while True:
                at = pending.find(_END)
                if at < 0:
                    break
                self._emit(pending[:at], final=True)
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


def main():
    channel = _Channel(os.dup(1))
    forwarders = []
    for fd, name in ((1, "stdout"), (2, "stderr")):
        read_fd, write_fd = os.pipe()
        os.dup2(write_fd, fd)
        os.close(write_fd)
        forwarder = _Forwarder(channel, read_fd, name)
        forwarder.start()
        forwarders.append(forwarder)
    sys.stdout = os.fdopen(1, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)

    user_globals = {"__name__": "__main__", "__builtins__": __builtins__}
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # user code reading stdin gets EOF, not the protocol
    os.close(devnull)
    channel.send({"ev": "ready", "pid": os.getpid()})

    for line in requests:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            run_id = int(request["id"])
            code = str(request["code"])
        except (ValueError, KeyError, TypeError) as exc:
            channel.send({"ev": "protocol_error", "message": str(exc)})
            continue
        for forwarder in forwarders:
            forwarder.run_id = run_id
            forwarder.drained.clear()
        status, error, exit_code = "ok", None, 0
        try:
            compiled = compile(code, "<cell>", "exec")
            exec(compiled, user_globals)
        except SystemExit as exc:
            if exc.code not in (None, 0):
                status, error = "error", "SystemExit: %s" % (exc.code,)
                exit_code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # the kernel survives whatever the user's code raises
            status, exit_code = "error", 1
            kind, value, tb = sys.exc_info()
            # Drop the kernel's own frame so the traceback starts in the user's code.
            error = "".join(traceback.format_exception(kind, value, tb.tb_next if tb else None))
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        for fd in (1, 2):
            os.write(fd, _END)
        for forwarder in forwarders:
            forwarder.drained.wait(5)
        done = {"ev": "done", "id": run_id, "status": status, "exit_code": exit_code}
        if error is not None:
            done["error"] = error
        channel.send(done)


if __name__ == "__main__":
    main()
