#pragma once

#include <app/store/conversationstore.h>
#include <support/clirunner.h>
#include <support/datachecks.h>
#include <support/securitycase.h>

#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace Sandcastle::Testing {

// The fault suites' way of asking: the real `sandcastle chat --json` with its own data folder,
// one prompt, against a misbehaving model server; then checks that each fault ended in the
// right class of error (or a recovery) with the conversation intact.
class FaultChat
{
public:
    static inline const QByteArray kKey = "sk-sandcastle-fault-suite-SECRET-91c2";
    static inline const QString kPrompt = QStringLiteral("What is 6 times 7?");

    struct Outcome
    {
        int exitCode = -1;
        QList<nlohmann::json> events;
        QByteArray err;
        qint64 elapsedMs = 0;
        QString dataDir;

        QList<nlohmann::json> ofType(const char *type) const
        {
            QList<nlohmann::json> found;
            for (const nlohmann::json &e : events) {
                if (e.value("type", std::string()) == type)
                    found << e;
            }
            return found;
        }
        QString firstOf(const char *type, const char *field) const
        {
            const auto found = ofType(type);
            return found.isEmpty()
                       ? QString()
                       : QString::fromStdString(found.first().value(field, std::string()));
        }
        QString errorCode() const { return firstOf("error", "code"); }
        QString errorMessage() const { return firstOf("error", "message"); }
        QString doneStatus() const
        {
            return events.isEmpty()
                       ? QString()
                       : QString::fromStdString(events.last().value("status", std::string()));
        }
    };

    // One chat; `api` is `chat --api`'s value ("" leaves it out).
    Outcome chat(const QString &baseUrl, const QString &api = {}, int timeoutMs = 120000)
    {
        auto dir = std::make_shared<QTemporaryDir>();
        m_dirs << dir;
        {
            // A short idle timeout, so that the stalled stream ends in seconds, not minutes.
            QSettings settings(dir->filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
            settings.setValue(QStringLiteral("model/idleTimeoutS"), 3);
            settings.setValue(QStringLiteral("agent/maxTurns"), 4);
        }
        QProcessEnvironment env = cliEnvironment(dir->path());
        env.insert(QStringLiteral("SANDCASTLE_API_KEY"), QString::fromLatin1(kKey));
        QStringList args{QStringLiteral("chat"),
                         QStringLiteral("--prompt"),
                         kPrompt,
                         QStringLiteral("--base-url"),
                         baseUrl,
                         QStringLiteral("--json")};
        if (!api.isEmpty())
            args << QStringLiteral("--api") << api;
        QElapsedTimer clock;
        clock.start();
        const CliRun run = runSandcastle(args, env, {}, timeoutMs);
        Outcome outcome;
        outcome.exitCode = run.exitCode;
        outcome.events = jsonLines(run.out);
        outcome.err = run.err;
        outcome.elapsedMs = clock.elapsed();
        outcome.dataDir = dir->path();
        return outcome;
    }

    // Every data folder made so far, for the secrets scan.
    const QList<std::shared_ptr<QTemporaryDir>> &dataDirs() const { return m_dirs; }

    static QString describe(const Outcome &o)
    {
        QString text = QStringLiteral("exit %1 after %2 ms; stderr: %3\n")
                           .arg(o.exitCode)
                           .arg(o.elapsedMs)
                           .arg(QString::fromUtf8(o.err.left(500)));
        for (const nlohmann::json &e : o.events)
            text += QString::fromStdString(e.dump()).left(300) + QLatin1Char('\n');
        return text;
    }

    // The conversation survived the fault: the store opens, passes SQLite's integrity check
    // and holds the person's prompt (and the answer, when there was one).
    static bool dataIntact(const Outcome &o, const QString &answer, QString *why)
    {
        const QString path = ConversationStore::defaultPath(o.dataDir);
        const QString integrity = DataChecks::integrityCheck(path);
        if (integrity != QLatin1String("ok")) {
            *why = QStringLiteral("integrity check: ") + integrity;
            return false;
        }
        ConversationStore store;
        if (!store.open(path)) {
            *why = QStringLiteral("the store does not open");
            return false;
        }
        const auto list = store.list();
        if (!list || list.value().size() != 1) {
            *why = QStringLiteral("not one conversation");
            return false;
        }
        const auto messages = store.messages(list.value().first().id);
        const QString dump = messages ? QString::fromStdString(messages.value().dump()) : QString();
        if (!dump.contains(kPrompt)) {
            *why = QStringLiteral("the prompt is not saved: ") + dump.left(300);
            return false;
        }
        if (!answer.isEmpty() && !dump.contains(answer)) {
            *why = QStringLiteral("the answer is not saved: ") + dump.left(300);
            return false;
        }
        return true;
    }

    // A fault that ends the turn with an error: exit 1, an `error` event with this code (and
    // text), `done` with status error, the data intact. The case notes what was seen.
    static void expectError(SecurityCase &c,
                            const Outcome &o,
                            const QString &code,
                            const QString &messagePart,
                            int maxRetries = 0)
    {
        QVERIFY2(o.exitCode == 1, qPrintable(describe(o)));
        QVERIFY2(o.errorCode() == code, qPrintable(describe(o)));
        QVERIFY2(o.errorMessage().contains(messagePart, Qt::CaseInsensitive),
                 qPrintable(describe(o)));
        QVERIFY2(o.ofType("retry").size() <= maxRetries, qPrintable(describe(o)));
        QVERIFY2(o.doneStatus() == QLatin1String("error"), qPrintable(describe(o)));
        QString why;
        QVERIFY2(dataIntact(o, QString(), &why), qPrintable(why));
        c.note(QStringLiteral("\"%1\" (%2), exit 1 after %3 ms, %4 retries, store intact")
                   .arg(o.errorMessage().left(90), code)
                   .arg(o.elapsedMs)
                   .arg(o.ofType("retry").size()));
    }

    // A fault the agent gets past: it answers, exit 0, the data intact.
    static void expectAnswer(const Outcome &o, const QString &answer)
    {
        QVERIFY2(o.exitCode == 0, qPrintable(describe(o)));
        QVERIFY2(o.doneStatus() == QLatin1String("answered"), qPrintable(describe(o)));
        QString why;
        QVERIFY2(dataIntact(o, answer, &why), qPrintable(why));
    }

private:
    QList<std::shared_ptr<QTemporaryDir>> m_dirs;
};

} // namespace Sandcastle::Testing
