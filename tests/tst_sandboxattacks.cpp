#include <app/agent/filetools.h>
#include <app/agent/tools.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/processinfo.h>
#include <support/sanitizers.h>
#include <support/securitycase.h>
#include <support/testtimeouts.h>
#include <ui/files/filepreview.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;
using Sandcastle::Testing::LoadGauge;
using Sandcastle::Testing::residentKiB;
using Sandcastle::Testing::SecurityCase;

namespace {

// The model's copy of a result must serialise (nlohmann refuses invalid UTF-8) and be UTF-8.
bool modelGetsValidUtf8(const ExecutionResult &result)
{
    try {
        const std::string text = Tools::resultJson(result).dump();
        const QByteArray bytes = QByteArray::fromStdString(text);
        return QString::fromUtf8(bytes).toUtf8() == bytes;
    } catch (const std::exception &) {
        return false;
    }
}

// The host's event loop keeps ticking while something runs: the worst lateness of a 10 ms timer.
// Bounded on an idle machine and, on a busy one, times how much slower other jobs make the test
// (a LoadGauge that reads only before and after the run: the sandbox's own burning is what the
// bound is about, not an excuse).
class Ticker
{
public:
    explicit Ticker(QObject *context)
    {
        m_since.start();
        QObject::connect(&m_timer, &QTimer::timeout, context, [this] {
            m_worstLateMs = qMax(m_worstLateMs, m_since.restart() - 10);
        });
        m_timer.start(10);
    }
    qint64 worstLateMs() const { return m_worstLateMs; }

private:
    QTimer m_timer;
    QElapsedTimer m_since;
    qint64 m_worstLateMs = 0;
};

} // namespace

// The security suite's attacks from code in the sandbox, against the real engine with the
// default (hardened) settings. Each case states what it tries and asserts it was contained.
class TestSandboxAttacks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_workspace;
    std::unique_ptr<SandboxSession> m_session;

    SandboxConfig defaults() const
    {
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.workspace = m_workspace.path();
        config.conversationId = QStringLiteral("tst-attacks");
        return config;
    }

    static ExecutionResult
    run(SandboxSession &session, const QString &code, bool shell = false, int timeoutMs = -1)
    {
        QSignalSpy finished(&session, &SandboxSession::finished);
        if (shell)
            session.runShell(code, timeoutMs);
        else
            session.runPython(code, timeoutMs);
        if (!finished.wait(180000)) {
            ExecutionResult none;
            none.status = ExecutionResult::Status::EngineError;
            none.error = QStringLiteral("no result in 180 s");
            return none;
        }
        return finished.first().at(0).value<ExecutionResult>();
    }
    ExecutionResult run(const QString &code, bool shell = false, int timeoutMs = -1)
    {
        return run(*m_session, code, shell, timeoutMs);
    }
    static QString describe(const ExecutionResult &result)
    {
        return ExecutionResult::statusName(result.status) + QLatin1Char(' ')
               + QString::number(result.exitCode) + QLatin1Char(' ') + result.error
               + QStringLiteral("\nstdout: ") + result.stdoutText.left(2000)
               + QStringLiteral("\nstderr: ") + result.stderrText.left(2000);
    }
    // The session answers again after whatever the case did.
    static bool answersAgain(SandboxSession &session)
    {
        const ExecutionResult back = run(session, QStringLiteral("print('back', 6 * 7)"));
        return back.status == ExecutionResult::Status::Ok
               && back.stdoutText == QStringLiteral("back 42\n");
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QVERIFY(m_workspace.isValid());
        m_session
            = Sandcastle::Testing::readySession(m_workspace.path(), defaults().conversationId);
        QVERIFY2(m_session, "the session did not become ready");
    }

    void cleanupTestCase()
    {
        m_session.reset();
        SecurityCase::printTotals();
    }

    void aForkBombHitsThePidLimitAndTheHostKeepsTicking()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("fork bomb"));
        SandboxSession session(defaults());
        const LoadGauge load(LoadGauge::Reads::BeforeAndAfter);
        const Ticker ticker(this);
        const ExecutionResult result
            = run(session, QStringLiteral("bomb() { bomb | bomb & }; bomb; sleep 30"), true, 4000);
        QVERIFY2(result.status == ExecutionResult::Status::Timeout, qPrintable(describe(result)));
        const qint64 late = ticker.worstLateMs(); // before the gauge's busy work holds the loop
        const LoadGauge::Budget lateLimit = load.budget(1000);
        QVERIFY2(late < lateLimit.ms,
                 qPrintable(QStringLiteral("host timer late by %1 ms, over %2")
                                .arg(late)
                                .arg(lateLimit.describe())));
        QVERIFY(answersAgain(session));
        c.note(QStringLiteral("stopped at the time limit; host timer late by at most %1 ms")
                   .arg(late));
    }

    void aMemoryBombIsKilledAtTheLimit()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("memory bomb"));
        SandboxConfig config = defaults();
        config.memory = QStringLiteral("256m");
        SandboxSession session(config);
        const Ticker ticker(this);
        const ExecutionResult result = run(
            session, QStringLiteral("hog = []\nwhile True:\n    hog.append(bytearray(64 << 20))"));
        QVERIFY2(result.status == ExecutionResult::Status::OutOfMemory,
                 qPrintable(describe(result)));
        QCOMPARE(result.exitCode, 137);
        QVERIFY(result.error.contains(QStringLiteral("256m")));
        QVERIFY(answersAgain(session));
        c.note(QStringLiteral("killed at 256m, reported out_of_memory; host timer late by at most "
                              "%1 ms")
                   .arg(ticker.worstLateMs()));
    }

    void aCpuBurnInManyProcessesGetsOneCpu()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("CPU burn in 4 processes"));
        const LoadGauge load(LoadGauge::Reads::BeforeAndAfter);
        const Ticker ticker(this);
        const ExecutionResult result = run(QStringLiteral(
            "import os, time\n"
            "start = time.time()\n"
            "pids = []\n"
            "for _ in range(4):\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        end = time.time() + 3\n"
            "        while time.time() < end:\n"
            "            pass\n"
            "        os._exit(0)\n"
            "    pids.append(pid)\n"
            "for pid in pids:\n"
            "    os.waitpid(pid, 0)\n"
            "t = os.times()\n"
            "print('cpus used %.2f' % ((t.children_user + t.children_system) / (time.time() - "
            "start)))\n"));
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        const QString used = result.stdoutText.section(QStringLiteral("cpus used "), 1).trimmed();
        bool ok = false;
        const double cpus = used.toDouble(&ok);
        QVERIFY2(ok, qPrintable(result.stdoutText));
        // --cpus 1: four busy processes share one CPU (a little slack for accounting).
        QVERIFY2(cpus <= 1.15, qPrintable(result.stdoutText));
        const qint64 late = ticker.worstLateMs(); // before the gauge's busy work holds the loop
        const LoadGauge::Budget lateLimit = load.budget(250);
        QVERIFY2(late < lateLimit.ms,
                 qPrintable(QStringLiteral("host timer late by %1 ms, over %2")
                                .arg(late)
                                .arg(lateLimit.describe())));
        c.note(QStringLiteral("4 burning processes got %1 CPUs together; host timer late by at "
                              "most %2 ms")
                   .arg(cpus, 0, 'f', 2)
                   .arg(late));
    }

    void fillingTmpStopsAtItsSize()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("/tmp fill"));
        const ExecutionResult result = run(
            QStringLiteral("dd if=/dev/zero of=/tmp/fill bs=1M count=2048 2>&1 | grep -v records; "
                           "echo size $(stat -c %s /tmp/fill); rm -f /tmp/fill"),
            true);
        QVERIFY2(result.stdoutText.contains(QStringLiteral("No space left on device")),
                 qPrintable(describe(result)));
        const qint64 size
            = result.stdoutText.section(QStringLiteral("size "), 1).trimmed().toLongLong();
        QVERIFY2(size > 0 && size <= 256LL * 1024 * 1024, qPrintable(describe(result)));
        QVERIFY(answersAgain(*m_session));
        c.note(QStringLiteral("ENOSPC after %1 MiB (tmpfs of 256m)").arg(size / (1024 * 1024)));
    }

    void fillingTheWorkspaceStopsAtTheQuota()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("workspace fill beyond the host-side quota"));
        SandboxConfig config = defaults();
        config.workspaceQuotaBytes = 64LL * 1024 * 1024;
        SandboxSession session(config);
        // 8 MiB every 40 ms: 4 GiB would take 20 s; the quota must stop it long before.
        const ExecutionResult result
            = run(session,
                  QStringLiteral("import time\n"
                                 "block = b'\\0' * (8 << 20)\n"
                                 "with open('/workspace/fill.bin', 'wb') as f:\n"
                                 "    for _ in range(512):\n"
                                 "        f.write(block); f.flush(); time.sleep(0.04)\n"
                                 "print('wrote it all')\n"));
        const qint64 size = QFileInfo(m_workspace.filePath(QStringLiteral("fill.bin"))).size();
        QFile::remove(m_workspace.filePath(QStringLiteral("fill.bin")));
        QVERIFY2(result.status == ExecutionResult::Status::Killed, qPrintable(describe(result)));
        QVERIFY2(result.error.contains(QStringLiteral("quota of 64 MiB")),
                 qPrintable(result.error));
        QVERIFY(!result.stdoutText.contains(QStringLiteral("wrote it all")));
        QVERIFY2(size < 512LL * 1024 * 1024, qPrintable(QString::number(size)));
        QVERIFY(answersAgain(session));
        c.note(QStringLiteral("stopped against a quota of 64 MiB (%1 MiB of it here), the person "
                              "told: \"%2\"")
                   .arg(size / (1024 * 1024))
                   .arg(result.error));
    }

    void aHundredMegabyteLineIsCutAndTheHostStaysSmall()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("one 100 MB line"));
        const qint64 before = residentKiB();
        const ExecutionResult result = run(QStringLiteral(
            "import sys\nsys.stdout.write('x' * 100_000_000)\nsys.stdout.flush()\n"));
        const qint64 grownMiB = (residentKiB() - before) / 1024;
        // Past the 64 MiB output cap the run is stopped; the result keeps at most 8 MiB. When the
        // engine's pipe held the rest and the code ended before the interrupt reached it (seen
        // once on Podman on a busy machine), the run is done but the result says it was cut.
        QVERIFY2(result.status == ExecutionResult::Status::Killed
                     || result.status == ExecutionResult::Status::Ok,
                 qPrintable(describe(result)));
        QVERIFY2(result.error.contains(QStringLiteral("more than 64 MiB")),
                 qPrintable(result.error));
        QVERIFY(result.truncated);
        QVERIFY(result.stdoutText.size() <= 8 * 1024 * 1024);
        // 256 MiB; under the sanitizers plus ASan's quarantine of freed blocks (the 8 MiB kept
        // is copied several times on its way), which took the growth to 226-256 MiB there.
        const qint64 limitMiB = Sandcastle::Testing::memoryBudgetKiB(256 * 1024) / 1024;
        QVERIFY2(grownMiB < limitMiB,
                 qPrintable(QStringLiteral("%1 MiB, over %2").arg(grownMiB).arg(limitMiB)));
        QVERIFY(modelGetsValidUtf8(result));
        QVERIFY(answersAgain(*m_session));
        c.note(QStringLiteral("%1 at the 64 MiB cap, %2 MiB kept, host grew %3 MiB")
                   .arg(result.status == ExecutionResult::Status::Killed
                            ? QStringLiteral("stopped")
                            : QStringLiteral("cut (the code had ended)"))
                   .arg(result.stdoutText.size() / (1024 * 1024))
                   .arg(grownMiB));
    }

    void aYesFloodIsCappedAndStopped()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("yes flood"));
        QElapsedTimer timer;
        timer.start();
        const ExecutionResult result = run(QStringLiteral("yes"), true);
        QVERIFY2(result.status == ExecutionResult::Status::Killed, qPrintable(describe(result)));
        QVERIFY(result.error.contains(QStringLiteral("more than 64 MiB")));
        QVERIFY(result.truncated);
        const qint64 log
            = QFileInfo(m_workspace.filePath(result.logFile)).size(); // the spilled output
        QVERIFY2(log <= 64LL * 1024 * 1024, qPrintable(QString::number(log)));
        QVERIFY(answersAgain(*m_session));
        c.note(QStringLiteral("stopped after %1 ms at the 64 MiB cap; log of %2 MiB")
                   .arg(timer.elapsed())
                   .arg(log / (1024 * 1024)));
    }

    void anInfiniteLoopTimesOutAndKeepsTheState()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("infinite loop"));
        QCOMPARE(run(QStringLiteral("kept = 'still here'")).status, ExecutionResult::Status::Ok);
        const ExecutionResult result = run(QStringLiteral("while True:\n    pass"), false, 1500);
        QVERIFY2(result.status == ExecutionResult::Status::Timeout, qPrintable(describe(result)));
        QCOMPARE(result.exitCode, 124);
        QCOMPARE(run(QStringLiteral("print(kept)")).stdoutText, QStringLiteral("still here\n"));
        c.note(QStringLiteral("interrupted at the 1.5 s limit after %1 ms, variables kept")
                   .arg(result.durationMs));
    }

    void sleepingForeverTimesOut()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("sleep 1e6"));
        const LoadGauge load;
        const ExecutionResult python
            = run(QStringLiteral("import time\ntime.sleep(1e6)"), false, 1500);
        QVERIFY2(python.status == ExecutionResult::Status::Timeout, qPrintable(describe(python)));
        const ExecutionResult shell = run(QStringLiteral("sleep 1e6"), true, 1500);
        QVERIFY2(shell.status == ExecutionResult::Status::Timeout, qPrintable(describe(shell)));
        // At the 1.5 s limit (the interrupt's grace and the kill after it included): 10 s on an
        // idle machine, a run never stopped would take 1e6 s; on a busy machine, times how much
        // slower it runs the test.
        const LoadGauge::Budget limit = load.budget(10000);
        QVERIFY2(python.durationMs < limit.ms && shell.durationMs < limit.ms,
                 qPrintable(QStringLiteral("%1 ms and %2 ms, over %3")
                                .arg(python.durationMs)
                                .arg(shell.durationMs)
                                .arg(limit.describe())));
        QVERIFY(answersAgain(*m_session));
        c.note(QStringLiteral("Python and shell ended at the limit (%1 ms, %2 ms)")
                   .arg(python.durationMs)
                   .arg(shell.durationMs));
    }

    void writesToTheSystemAreRefused()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("writes to /, /etc, /usr"));
        const ExecutionResult result = run(QStringLiteral(
            "import os\n"
            "for path in ['/evil', '/etc/evil', '/etc/passwd', '/usr/evil', '/usr/bin/python3',\n"
            "             '/usr/lib/evil.so', '/bin/sh', '/var/evil', '/root/evil']:\n"
            "    try:\n"
            "        with open(path, 'a') as f:\n"
            "            f.write('x')\n"
            "        print('WROTE', path)\n"
            "    except OSError as e:\n"
            "        print('refused', path, e.errno)\n"
            "try:\n"
            "    os.mkdir('/usr/evil-dir'); print('WROTE /usr/evil-dir')\n"
            "except OSError as e:\n"
            "    print('refused mkdir', e.errno)\n"));
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        QVERIFY2(!result.stdoutText.contains(QStringLiteral("WROTE")),
                 qPrintable(result.stdoutText));
        QCOMPARE(result.stdoutText.count(QStringLiteral("refused")), 10);
        c.note(QStringLiteral("10 of 10 writes refused (read-only root, unprivileged user)"));
    }

    void hostSecretsAreOutOfReach()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("reading /proc/1/environ and host paths"));
        // A secret in the host's environment and a file on the host: neither may be seen.
        qputenv("SANDCASTLE_API_KEY", "sk-canary-host-environment-0123456789");
        QTemporaryDir host(QDir::tempPath() + QStringLiteral("/sandcastle-host-XXXXXX"));
        const QString canary = host.filePath(QStringLiteral("canary.txt"));
        {
            QFile file(canary);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("host-canary-file-contents");
        }
        SandboxSession session(defaults());
        const ExecutionResult result = run(
            session,
            QStringLiteral(
                "import os, glob\n"
                "seen = b''\n"
                "for path in glob.glob('/proc/[0-9]*/environ'):\n"
                "    try:\n"
                "        seen += open(path, 'rb').read()\n"
                "    except OSError:\n"
                "        pass\n"
                "print('environ bytes', len(seen))\n"
                "print('key seen' if b'sk-canary' in seen else 'no key')\n"
                "for path in ['%1', '/etc/shadow', '/root/.ssh/id_rsa', '/var/run/docker.sock',\n"
                "             '/run/docker.sock', '/home']:\n"
                "    try:\n"
                "        data = open(path, 'rb').read() if not os.path.isdir(path) else "
                "str(os.listdir(path)).encode()\n"
                "        print('READ', path, data[:40])\n"
                "    except OSError as e:\n"
                "        print('unreachable', path, e.errno)\n")
                .arg(canary));
        qunsetenv("SANDCASTLE_API_KEY");
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        QVERIFY2(result.stdoutText.contains(QStringLiteral("no key")),
                 qPrintable(result.stdoutText));
        QVERIFY2(!result.stdoutText.contains(QStringLiteral("host-canary")),
                 qPrintable(result.stdoutText));
        // /home exists in the image, empty: listing it is allowed, it holds nothing of the host.
        QVERIFY2(result.stdoutText.count(QStringLiteral("unreachable")) >= 5,
                 qPrintable(result.stdoutText));
        QVERIFY2(!result.stdoutText.contains(QStringLiteral("READ /etc/shadow"))
                     && !result.stdoutText.contains(QStringLiteral("docker.sock b")),
                 qPrintable(result.stdoutText));
        c.note(QStringLiteral("no host environment or files visible; /etc/shadow and the Docker "
                              "socket unreachable"));
    }

    void privilegesCannotBeRegained()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("setuid, chown, mount, mknod, raw sockets, ptrace"));
        const ExecutionResult result = run(QStringLiteral(
            "import ctypes, os, socket, subprocess\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "def attempt(name, fn):\n"
            "    try:\n"
            "        ok = fn()\n"
            "        print(('ALLOWED ' if ok else 'denied ') + name)\n"
            "    except OSError as e:\n"
            "        print('denied', name, e.errno)\n"
            "attempt('setuid', lambda: os.setuid(0) or True)\n"
            "attempt('setgid', lambda: os.setgid(0) or True)\n"
            "open('/workspace/mine.txt', 'w').close()\n"
            "attempt('chown', lambda: os.chown('/workspace/mine.txt', 0, 0) or True)\n"
            "attempt('mount', lambda: libc.mount(b'none', b'/tmp', b'tmpfs', 0, None) == 0)\n"
            "cmdlines = []\n"
            "for pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
            "    try:\n"
            "        cmdlines.append(open('/proc/%s/cmdline' % pid, 'rb').read())\n"
            "    except OSError:\n"
            "        pass\n"
            "print('processes', len(cmdlines))\n"
            "print('HOST PROCESS' if any(b'dockerd' in c or b'tst_' in c for c in cmdlines) "
            "else 'only its own processes')\n"
            "attempt('raw socket', lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, "
            "socket.IPPROTO_ICMP) and True)\n"
            "attempt('packet socket', lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW) "
            "and True)\n"
            "attempt('mknod', lambda: os.mknod('/tmp/sda', 0o600 | 0o060000, os.makedev(8, 0)) "
            "or True)\n"
            "status = dict(l.split(':', 1) for l in open('/proc/self/status'))\n"
            "for key in ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb', 'NoNewPrivs', 'Seccomp']:\n"
            "    print(key, status[key].strip())\n"
            "print('sudo', subprocess.run(['sh', '-c', 'command -v sudo su'], "
            "capture_output=True).stdout)\n"));
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        QVERIFY2(!result.stdoutText.contains(QStringLiteral("ALLOWED")),
                 qPrintable(result.stdoutText));
        QCOMPARE(result.stdoutText.count(QStringLiteral("denied ")), 7);
        // ptrace is Docker's default (debuggers work), but it reaches only the sandbox's own
        // processes: its PID namespace shows no process of the host.
        QVERIFY2(result.stdoutText.contains(QStringLiteral("only its own processes")),
                 qPrintable(result.stdoutText));
        for (const char *key : {"CapEff", "CapPrm", "CapBnd", "CapAmb"})
            QVERIFY2(result.stdoutText.contains(QLatin1String(key)
                                                + QStringLiteral(" 0000000000000000")),
                     qPrintable(result.stdoutText));
        QVERIFY(result.stdoutText.contains(QStringLiteral("NoNewPrivs 1")));
        QVERIFY2(result.stdoutText.contains(QStringLiteral("Seccomp 2")),
                 qPrintable(result.stdoutText));
        c.note(QStringLiteral("7 of 7 refused; no capabilities at all, no_new_privs, seccomp "
                              "filter on; ptrace sees no host process"));
    }

    void theNetworkIsOnlyLoopback()
    {
        SecurityCase c(SecurityCase::Kind::Attack, QStringLiteral("network"));
        // Proved from inside, without dialling out: only lo, no name lookup, no route.
        const ExecutionResult result = run(QStringLiteral(
            "import os, socket\n"
            "print('ifaces', sorted(os.listdir('/sys/class/net')))\n"
            "try:\n    socket.getaddrinfo('deb.debian.org', 80)\n    print('LOOKUP WORKED')\n"
            "except OSError:\n    print('lookup failed')\n"
            "s = socket.socket()\n"
            "try:\n    s.connect(('127.0.0.1', 9))\n    print('CONNECTED')\n"
            "except ConnectionRefusedError:\n    print('loopback refused')\n"
            "print('routes', open('/proc/net/route').read().count('\\n') - 1)\n"));
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        QVERIFY2(result.stdoutText.contains(QStringLiteral("ifaces ['lo']")),
                 qPrintable(result.stdoutText));
        QVERIFY(result.stdoutText.contains(QStringLiteral("lookup failed")));
        QVERIFY(result.stdoutText.contains(QStringLiteral("loopback refused")));
        QVERIFY2(result.stdoutText.contains(QStringLiteral("routes 0")),
                 qPrintable(result.stdoutText));
        c.note(QStringLiteral("only lo, no routes, lookups fail, loopback connect refused"));
    }

    void linksToHostFilesAreRefusedByEveryHostReader()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("symlink and hard link in the workspace to host files"));
        const QString ws = m_workspace.path();
        // The code plants symlinks; a host file also gets a second name in the workspace (a
        // hard link, as when the workspace shares a file system with the person's files).
        const ExecutionResult planted
            = run(QStringLiteral("import os\n"
                                 "os.symlink('/etc/passwd', '/workspace/leak.txt')\n"
                                 "os.symlink('/', '/workspace/rootfs')\n"
                                 "os.symlink('/etc/shadow', '/workspace/notes.txt')\n"
                                 "print('planted')\n"));
        QVERIFY2(planted.stdoutText.contains(QStringLiteral("planted")),
                 qPrintable(describe(planted)));
        if (defaults().copiesWorkspace()) {
            // Copy mode: the links stay in the volume (only regular files come back, and the
            // person is told); the same links made here test the host's readers just the same.
            for (const QString &name : {QStringLiteral("leak.txt"),
                                        QStringLiteral("rootfs"),
                                        QStringLiteral("notes.txt")}) {
                QVERIFY2(!QFileInfo(ws + QLatin1Char('/') + name).isSymLink()
                             && !QFileInfo::exists(ws + QLatin1Char('/') + name),
                         qPrintable(name));
                QVERIFY2(planted.workspaceNote.contains(name), qPrintable(planted.workspaceNote));
            }
            QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), ws + QStringLiteral("/leak.txt")));
            QVERIFY(QFile::link(QStringLiteral("/"), ws + QStringLiteral("/rootfs")));
            QVERIFY(QFile::link(QStringLiteral("/etc/shadow"), ws + QStringLiteral("/notes.txt")));
        }
        QTemporaryDir host(ws + QStringLiteral("/../host-XXXXXX"));
        const QString secret = host.filePath(QStringLiteral("secret.txt"));
        {
            QFile file(secret);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("host-secret-contents");
        }
        QCOMPARE(::link(QFile::encodeName(secret).constData(),
                        QFile::encodeName(ws + QStringLiteral("/hard.txt")).constData()),
                 0);
        int refusals = 0;
        const QStringList traps{QStringLiteral("leak.txt"),
                                QStringLiteral("rootfs/etc/passwd"),
                                QStringLiteral("hard.txt")};
        for (const QString &trap : traps) {
            // the file preview
            const FilePreview preview = FilePreview::load(ws, trap);
            QVERIFY2(preview.kind == FilePreview::Kind::Message, qPrintable(trap));
            QVERIFY2(preview.message.contains(QStringLiteral("link")), qPrintable(preview.message));
            ++refusals;
            // read_file, as the model calls it
            const nlohmann::json read = FileTools::readFile(ws, trap, 1 << 20);
            QCOMPARE(QString::fromStdString(read.value("status", std::string())),
                     QStringLiteral("error"));
            QVERIFY(!read.contains("content"));
            ++refusals;
            // write_file through it
            const nlohmann::json written
                = FileTools::writeFile(ws, trap, QStringLiteral("overwritten"));
            QCOMPARE(QString::fromStdString(written.value("status", std::string())),
                     QStringLiteral("error"));
            ++refusals;
        }
        // The export bundle copies the workspace without either link.
        ConversationStore store;
        QTemporaryDir data;
        QVERIFY(store.open(data.filePath(QStringLiteral("store.db"))));
        QVERIFY(store.create(QStringLiteral("c1"), QStringLiteral("links"), ws, false));
        const QString bundleDir = data.filePath(QStringLiteral("bundle"));
        const auto bundle = ConversationExport::bundle(store, QStringLiteral("c1"), bundleDir);
        QVERIFY2(bundle, bundle ? "" : qPrintable(bundle.error()));
        QVERIFY(!QFileInfo::exists(bundleDir + QStringLiteral("/workspace/leak.txt")));
        QVERIFY(!QFileInfo::exists(bundleDir + QStringLiteral("/workspace/hard.txt")));
        QVERIFY(!QFileInfo::exists(bundleDir + QStringLiteral("/workspace/rootfs")));
        ++refusals;
        // An upload named like a planted link lands beside it, never through it.
        QTemporaryDir person;
        const QString dropped = person.filePath(QStringLiteral("notes.txt"));
        {
            QFile file(dropped);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("the person's notes");
        }
        const Result<QString> uploaded = FileTools::upload(ws, dropped);
        QVERIFY2(uploaded, uploaded ? "" : qPrintable(uploaded.error()));
        QVERIFY(uploaded.value() != QStringLiteral("notes.txt"));
        QVERIFY(QFileInfo(ws + QStringLiteral("/notes.txt")).isSymLink());
        ++refusals;
        // Nothing of the host's changed.
        QFile check(secret);
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), QByteArray("host-secret-contents"));
        for (const QString &name : {QStringLiteral("leak.txt"),
                                    QStringLiteral("rootfs"),
                                    QStringLiteral("notes.txt"),
                                    QStringLiteral("hard.txt"),
                                    uploaded.value()})
            QFile::remove(ws + QLatin1Char('/') + name);
        c.note(QStringLiteral("%1 of %1 host reads and writes refused (preview, read_file, "
                              "write_file, export, upload)")
                   .arg(refusals));
    }

    void strangeFileNamesAreReportedSafely()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("file names with a newline, 255 bytes, invalid UTF-8"));
        const ExecutionResult result
            = run(QStringLiteral("open('/workspace/two\\nlines.txt', 'w').write('newline')\n"
                                 "open('/workspace/' + 'n' * 251 + '.txt', 'w').write('long')\n"
                                 "open(b'/workspace/bad-\\xff\\xfe.txt', 'wb').write(b'bad')\n"
                                 "print('made')\n"));
        QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(describe(result)));
        // Copy mode (a remote engine): a name that is not UTF-8 cannot be named back from the
        // volume; it stays there and the person is told.
        const bool copies = defaults().copiesWorkspace();
        QVERIFY2(result.files.size() == (copies ? 2 : 3),
                 qPrintable(result.files.join(QLatin1Char('|')) + QStringLiteral("; note: ")
                            + result.workspaceNote));
        if (copies)
            QVERIFY2(result.workspaceNote.contains(QStringLiteral("bad-"))
                         && result.workspaceNote.contains(QStringLiteral("not UTF-8")),
                     qPrintable(result.workspaceNote));
        QVERIFY(result.files.contains(QStringLiteral("two\nlines.txt")));
        QVERIFY(result.files.contains(QString(251, QLatin1Char('n')) + QStringLiteral(".txt")));
        QVERIFY(modelGetsValidUtf8(result));
        const nlohmann::json listed = FileTools::listFiles(m_workspace.path(), QString());
        QCOMPARE(QString::fromStdString(listed.value("status", std::string())),
                 QStringLiteral("ok"));
        QVERIFY(QByteArray::fromStdString(listed.dump()).contains("lines.txt"));
        QCOMPARE(FilePreview::load(m_workspace.path(), QStringLiteral("two\nlines.txt")).text,
                 QStringLiteral("newline"));
        // The undecodable name cannot be named back: its preview is a message, not a crash.
        if (!copies) {
            const QString bad = result.files.filter(QStringLiteral("bad-")).value(0);
            QVERIFY(!bad.isEmpty());
            const FilePreview badPreview = FilePreview::load(m_workspace.path(), bad);
            QVERIFY(badPreview.kind == FilePreview::Kind::Message
                    || badPreview.text == QStringLiteral("bad"));
        }
        run(QStringLiteral("import glob, os\n[os.remove(p) for p in glob.glob(b'/workspace/*') "
                           "if not p.endswith(b'.sandcastle')]"));
        c.note(copies ? QStringLiteral("2 files came back, listed and previewed; the one whose "
                                       "name is not UTF-8 stayed in the volume, the person told; "
                                       "the model's JSON stays valid UTF-8")
                      : QStringLiteral("3 files reported, listed and previewed; the model's JSON "
                                       "stays valid UTF-8"));
    }

    void theCodeKillingItsKernelIsReportedAndRecovers()
    {
        SecurityCase c(SecurityCase::Kind::Attack,
                       QStringLiteral("the container killing its own kernel"));
        const ExecutionResult self
            = run(QStringLiteral("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"));
        QVERIFY2(self.status == ExecutionResult::Status::Killed, qPrintable(describe(self)));
        QVERIFY(self.stateLost);
        QVERIFY2(self.error.contains(QStringLiteral("stopped unexpectedly")),
                 qPrintable(self.error));
        QVERIFY(answersAgain(*m_session));
        // Killing every process in the container (init included) is the same.
        const ExecutionResult all = run(QStringLiteral("kill -9 -1; sleep 5"), true);
        QVERIFY2(all.status == ExecutionResult::Status::Killed, qPrintable(describe(all)));
        QVERIFY(all.stateLost);
        QVERIFY(answersAgain(*m_session));
        c.note(QStringLiteral("reported as \"%1\", the next run started a new kernel")
                   .arg(self.error.left(60)));
    }
};

QTEST_MAIN(TestSandboxAttacks)
#include "tst_sandboxattacks.moc"
