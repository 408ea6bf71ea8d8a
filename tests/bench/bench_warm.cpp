// The first moments of a conversation and the sandboxes left running, measured side by side in
// one run on the real engine and image:
//   - a new conversation until its kernel is ready, adopting the warm spare, against a bare
//     `docker run --rm IMAGE true` (and a new conversation without a spare, for reference);
//   - the first `import pandas, numpy, matplotlib.pyplot` plus a describe() in a new
//     conversation whose spare has pre-imported them, against the same in one without
//     pre-imports;
//   - ten open conversations, one looked at: sandboxes still running after the idle time,
//     against those running before it.
// Prints each figure with its baseline and ratio (benchreport.h).
#include "benchreport.h"
#include "benchtiming.h"

#include <app/appsettings.h>
#include <app/controller/conversationcontroller.h>
#include <app/controller/warmspare.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThreadPool>

#include <cstdio>
#include <memory>
#include <vector>

using namespace Sandcastle;
using Bench::timeMs;

namespace {

const QString kFirstDataRun
    = QStringLiteral("import pandas as pd, numpy as np, matplotlib.pyplot as plt\n"
                     "df = pd.DataFrame({'a': np.arange(1000), 'b': np.arange(1000) * 0.5})\n"
                     "print(df.describe().loc['mean', 'b'])\n");

AppSettings benchSettings(const QString &dataDir)
{
    AppSettings settings = AppSettings::load(); // the engine and image of the environment
    settings.dataDir = dataDir;
    settings.preimports = AppSettings().preimports;
    settings.warmSpare = true;
    settings.fresh = false;
    return settings;
}

// The spare is ready and its kernel has finished its pre-imports (as it has a few seconds
// after the last conversation took the one before: the person types, the model answers).
bool spareSettled(WarmSpare &spare, bool imports)
{
    spare.replenish(0);
    return Bench::waitUntil(
        [&] { return spare.isReady() && (!imports || spare.session()->preimportsDone()); }, 60000);
}

double firstRunMs(SandboxSession *session, const QString &code, bool *ok)
{
    ExecutionResult result;
    const auto connection = QObject::connect(
        session, &SandboxSession::finished, [&](const ExecutionResult &r) { result = r; });
    const double ms = timeMs([&] {
        session->runPython(code);
        Bench::waitFor(session, SIGNAL(finished(Sandcastle::ExecutionResult)), 60000);
    });
    QObject::disconnect(connection);
    *ok = *ok && result.status == ExecutionResult::Status::Ok;
    if (result.status != ExecutionResult::Status::Ok)
        std::fprintf(stderr, "bench_warm: the run failed: %s\n", qPrintable(result.error));
    return ms;
}

int runningSandboxes(const ContainerEngine &engine, const QString &ownerData)
{
    const ContainerEngine::Output listed
        = engine.run({QStringLiteral("ps"),
                      QStringLiteral("--quiet"),
                      QStringLiteral("--filter"),
                      QStringLiteral("label=sandcastle.owner-data=") + ownerData},
                     30000);
    if (listed.exitCode != 0)
        return -1;
    return int(
        QString::fromUtf8(listed.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size());
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir data;
    const AppSettings settings = benchSettings(data.path());
    const ContainerEngine engine(settings.engine, settings.engineContext);
    constexpr int kSamples = 10;
    bool ok = true;

    // 1. New conversation -> kernel ready.
    std::vector<double> adopted, cold, bare;
    {
        ConversationController controller(settings);
        WarmSpare spare(settings, [] { return false; });
        controller.setWarmSpare(&spare);
        for (int i = 0; i < kSamples + 1; ++i) {
            if (!spareSettled(spare, false)) {
                std::fprintf(
                    stderr, "bench_warm: no spare became ready (%s)\n", qPrintable(spare.reason()));
                return 1;
            }
            const double ms = timeMs([&] {
                controller.newConversation();
                Bench::waitUntil(
                    [&] { return controller.session()->state() == SandboxSession::State::Ready; },
                    60000);
            });
            if (i > 0) // the first warms this process's caches
                adopted.push_back(ms);
        }
        controller.setWarmSpare(nullptr);
        for (int i = 0; i < kSamples; ++i) {
            cold.push_back(timeMs([&] {
                controller.newConversation();
                Bench::waitUntil(
                    [&] { return controller.session()->state() == SandboxSession::State::Ready; },
                    60000);
            }));
            bare.push_back(timeMs([&] {
                engine.run({QStringLiteral("run"),
                            QStringLiteral("--rm"),
                            QStringLiteral("--pull"),
                            QStringLiteral("never"),
                            settings.image,
                            QStringLiteral("true")},
                           60000);
            }));
        }
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }
    blockingJobs()->waitForDone();

    // 2. The first data run of a new conversation.
    std::vector<double> preimported, plain;
    {
        ConversationController controller(settings);
        WarmSpare spare(settings, [] { return false; });
        controller.setWarmSpare(&spare);
        for (int i = 0; i < kSamples / 2 && ok; ++i) {
            if (!spareSettled(spare, true))
                return 1;
            controller.newConversation();
            preimported.push_back(firstRunMs(controller.session(), kFirstDataRun, &ok));
        }
        controller.setWarmSpare(nullptr);
        AppSettings without = settings;
        without.preimports.clear();
        controller.applySettings(without);
        for (int i = 0; i < kSamples / 2 && ok; ++i) {
            controller.newConversation();
            Bench::waitUntil(
                [&] { return controller.session()->state() == SandboxSession::State::Ready; },
                60000);
            plain.push_back(firstRunMs(controller.session(), kFirstDataRun, &ok));
        }
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }
    blockingJobs()->waitForDone();

    // 3. Ten open conversations, one looked at, after the idle time (2 s here; 30 min by
    // default): what still runs, the spare included.
    int before = 0, after = 0;
    {
        AppSettings idle = settings;
        idle.idleStopS = 2;
        WarmSpare spare(idle, [] { return false; });
        std::vector<std::unique_ptr<ConversationController>> open;
        for (int i = 0; i < 10; ++i) {
            open.push_back(std::make_unique<ConversationController>(idle));
            open.back()->setWarmSpare(&spare);
            open.back()->warmUp();
        }
        open.front()->setLookedAt(true);
        spare.replenish(0);
        Bench::waitUntil(
            [&] {
                for (const auto &controller : open)
                    if (controller->session()->state() == SandboxSession::State::Starting)
                        return false;
                return spare.isReady();
            },
            120000);
        before = 0;
        for (const auto &controller : open)
            before += controller->session()->state() == SandboxSession::State::Ready;
        before += spare.isReady();
        Bench::waitUntil([] { return false; }, idle.idleStopS * 1000 + 1500);
        blockingJobs()->waitForDone(); // the stopped ones' removals
        after = runningSandboxes(engine, SandboxConfig::ownerDataFor(data.path()));
        for (const auto &controller : open)
            controller->shutDown(ConversationController::ShutDownMode::Wait);
    }
    blockingJobs()->waitForDone();

    const Bench::Stats a = Bench::stats(adopted), c = Bench::stats(cold), b = Bench::stats(bare);
    const Bench::Stats p = Bench::stats(preimported), q = Bench::stats(plain);
    std::printf("Warm spare and pre-imports (%s, image %s)\n",
                qPrintable(settings.engine),
                qPrintable(settings.image));
    Bench::record(
        {"new conversation -> kernel ready (warm spare)",
         "ms",
         a,
         "docker run --rm IMAGE true",
         b,
         "docker run / new conversation",
         b.median / a.median,
         "<= 50 ms median",
         a.median <= 50,
         "without a spare the same takes " + std::to_string(int(c.median + 0.5)) + " ms"});
    Bench::record({"first import pandas+numpy+pyplot and describe() in a new conversation",
                   "ms",
                   p,
                   "the same without pre-imports",
                   q,
                   "without / with pre-imports",
                   q.median / p.median,
                   "<= 50 ms median",
                   ok && p.median <= 50,
                   ""});
    Bench::record({"sandboxes running, 10 open conversations after the idle time",
                   "",
                   Bench::single(after),
                   "before the idle time",
                   Bench::single(before),
                   "before / after",
                   after > 0 ? double(before) / after : 0,
                   "<= 2 (the one looked at and the spare)",
                   after >= 0 && after <= 2,
                   ""});
    return ok ? 0 : 1;
}
