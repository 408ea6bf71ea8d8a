#include "enginepage.h"

#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <sandbox/daemonendpoint.h>
#include <sandbox/engineprobe.h>
#include <sandbox/imagetransfer.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QThreadPool>

namespace Sandcastle {

namespace {

// The default endpoint's entry: no --context, so DOCKER_HOST or the current context.
const QString kDefault;

struct TestAnswer
{
    QString engine;  // the engine's own line, or why it did not answer
    QString address; // where it is
    bool answered = false;
    bool local = false; // it sees this machine's folders
    int image = 0;      // 1 there (the same build), 0 not there, -1 another build
    bool imageHere = false;
};

TestAnswer ask(const SandboxConfig &config)
{
    TestAnswer answer;
    answer.address = DaemonEndpoint::hostOf(config);
    const ContainerEngine engine(config.engine, config.context);
    const ContainerEngine::Output info
        = engine.run(EngineProbe::infoArguments(config.engine), 30000);
    if (!info.started) {
        answer.engine = QCoreApplication::translate("Sandcastle::EnginePage",
                                                    "%1 could not be started: is it installed?")
                            .arg(config.engine);
        return answer;
    }
    const EngineProbe::Facts facts = EngineProbe::parseInfo(config.engine, info.stdoutData);
    if (info.exitCode != 0 && facts.error.isEmpty()) {
        answer.engine
            = QString::fromUtf8(info.stderrData).trimmed().section(QLatin1Char('\n'), -1).left(300);
        return answer;
    }
    answer.engine = EngineProbe::describe(facts);
    answer.answered = facts.error.isEmpty();
    if (!answer.answered)
        return answer;
    answer.local = config.daemonIsLocal();
    const QString there = ImageTransfer::inputsOf(config, true);
    const QString here = ImageTransfer::inputsOf(config, false);
    answer.imageHere = !here.isEmpty();
    answer.image = there.isEmpty() ? 0 : (here.isEmpty() || there == here ? 1 : -1);
    return answer;
}

} // namespace

EnginePage::EnginePage(const AppSettings &settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
{
    setObjectName(QStringLiteral("enginePage"));
    m_engine = new QComboBox(this);
    m_engine->setObjectName(QStringLiteral("engine"));
    m_engine->setEditable(true);
    m_engine->addItems({QStringLiteral("docker"), QStringLiteral("podman")});
    m_engine->setCurrentText(settings.engine);
    m_engine->setToolTip(tr("The container engine's command: docker, podman, or a path to either"));
    m_context = new QComboBox(this);
    m_context->setObjectName(QStringLiteral("context"));
    m_context->setEditable(true);
    m_context->addItem(tr("(default)"), kDefault);
    if (!settings.engineContext.isEmpty())
        m_context->addItem(settings.engineContext, settings.engineContext);
    m_context->setCurrentIndex(qMax(0, m_context->findData(settings.engineContext)));
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("workspaceMode"));
    m_mode->addItem(tr("Decide from the engine"), QStringLiteral("auto"));
    m_mode->addItem(tr("Mount the folder (the engine is on this machine)"), QStringLiteral("bind"));
    m_mode->addItem(tr("Copy the folder in and the changes back"), QStringLiteral("copy"));
    m_mode->setCurrentIndex(qMax(0, m_mode->findData(settings.workspaceMode)));
    m_test = new QPushButton(tr("&Test"), this);
    m_test->setObjectName(QStringLiteral("testEngine"));
    m_send = new QPushButton(tr("&Send the image there"), this);
    m_send->setObjectName(QStringLiteral("sendImage"));
    m_send->setEnabled(false);
    m_report = new QLabel(this);
    m_report->setObjectName(QStringLiteral("engineReport"));
    m_report->setWordWrap(true);
    m_report->setTextFormat(Qt::PlainText);
    m_report->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout(this);
    form->addRow(tr("Engine"), m_engine);
    form->addRow(tr("Context"), m_context);
    auto *help = new QLabel(tr("A Docker context (docker context create NAME --docker "
                               "host=ssh://me@box) or a Podman connection. On an engine that "
                               "cannot see this machine's folders, the workspace is copied in "
                               "and what runs change comes back."),
                            this);
    help->setWordWrap(true);
    form->addRow(QString(), help);
    form->addRow(tr("Workspace"), m_mode);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addWidget(m_send);
    buttons->addStretch(1);
    form->addRow(QString(), buttons);
    form->addRow(QString(), m_report);

    connect(m_test, &QPushButton::clicked, this, &EnginePage::test);
    connect(m_send, &QPushButton::clicked, this, &EnginePage::sendImage);
    connect(m_engine, &QComboBox::currentTextChanged, this, [this] {
        m_send->setEnabled(false);
        listEndpoints();
    });
    connect(m_context, &QComboBox::currentTextChanged, this, [this] { m_send->setEnabled(false); });
    listEndpoints();
}

void EnginePage::apply(AppSettings &settings) const
{
    settings.engine = m_engine->currentText().trimmed().isEmpty()
                          ? QStringLiteral("docker")
                          : m_engine->currentText().trimmed();
    const int index = m_context->findText(m_context->currentText());
    settings.engineContext
        = index >= 0 ? m_context->itemData(index).toString() : m_context->currentText().trimmed();
    settings.workspaceMode = m_mode->currentData().toString();
}

SandboxConfig EnginePage::configFromFields() const
{
    AppSettings s = m_settings;
    apply(s);
    return s.sandboxConfig(QString(), QString());
}

QString EnginePage::report() const
{
    return m_report->text();
}

void EnginePage::setBusy(bool busy)
{
    m_test->setEnabled(!busy);
    m_engine->setEnabled(!busy);
    m_context->setEnabled(!busy);
}

void EnginePage::listEndpoints()
{
    const QString engine = m_engine->currentText().trimmed();
    const int generation = ++m_generation;
    QPointer<EnginePage> self(this);
    blockingJobs()->start([self, engine, generation] {
        const ContainerEngine cli(engine);
        const ContainerEngine::Output out = cli.run(EngineProbe::listArguments(engine), 15000);
        const QList<EngineProbe::Endpoint> found = EngineProbe::parseList(engine, out.stdoutData);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, found, generation] {
            if (!self || generation != self->m_generation)
                return;
            const QString chosen = self->m_context->currentText();
            const QVariant chosenData = self->m_context->currentData();
            self->m_context->blockSignals(true);
            self->m_context->clear();
            self->m_context->addItem(tr("(default)"), kDefault);
            for (const EngineProbe::Endpoint &endpoint : found) {
                if (endpoint.name == QLatin1String("default"))
                    continue; // the same as (default) unless DOCKER_HOST says otherwise
                self->m_context->addItem(endpoint.name, endpoint.name);
                self->m_context->setItemData(
                    self->m_context->count() - 1, endpoint.address, Qt::ToolTipRole);
            }
            const int again = self->m_context->findData(chosenData);
            if (again >= 0)
                self->m_context->setCurrentIndex(again);
            else
                self->m_context->setCurrentText(chosen);
            self->m_context->blockSignals(false);
            Q_EMIT self->listed();
        });
    });
}

void EnginePage::test()
{
    const SandboxConfig config = configFromFields();
    const int generation = ++m_generation;
    setBusy(true);
    m_send->setEnabled(false);
    m_report->setText(
        tr("Asking %1…").arg(config.context.isEmpty() ? config.engine : config.context));
    QPointer<EnginePage> self(this);
    blockingJobs()->start([self, config, generation] {
        const TestAnswer answer = ask(config);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, config, answer, generation] {
            if (!self || generation != self->m_generation)
                return;
            self->setBusy(false);
            QStringList lines{answer.address.isEmpty()
                                  ? answer.engine
                                  : tr("%1 at %2").arg(answer.engine, answer.address)};
            if (answer.answered) {
                lines << (answer.local
                              ? tr("It sees this machine's folders: the workspace is mounted.")
                              : tr("It cannot see this machine's folders: the workspace is "
                                   "copied in, and what runs change comes back."));
                if (answer.image == 1)
                    lines << tr("The sandbox image %1 is there.").arg(config.image);
                else if (answer.image == -1)
                    lines
                        << tr("Another build of %1 is there; Send replaces it with this machine's.")
                               .arg(config.image);
                else
                    lines << (answer.imageHere
                                  ? tr("The sandbox image %1 is not there: Send it from "
                                       "this machine.")
                                        .arg(config.image)
                                  : tr("The sandbox image %1 is neither there nor here: "
                                       "build it first.")
                                        .arg(config.image));
                self->m_send->setEnabled(answer.image != 1 && answer.imageHere && !answer.local);
            }
            self->m_report->setText(lines.join(QLatin1Char('\n')));
            Q_EMIT self->tested();
        });
    });
}

void EnginePage::sendImage()
{
    const SandboxConfig config = configFromFields();
    const int generation = ++m_generation;
    setBusy(true);
    m_send->setEnabled(false);
    m_report->setText(tr("Sending %1…").arg(config.image));
    QPointer<EnginePage> self(this);
    blockingJobs()->start([self, config, generation] {
        const Result<bool> sent
            = ImageTransfer::send(config, [self, generation](const ImageTransfer::Progress &p) {
                  QMetaObject::invokeMethod(QCoreApplication::instance(), [self, p, generation] {
                      if (!self || generation != self->m_generation)
                          return;
                      self->m_report->setText(tr("Sending the image: %1 MB of about %2 MB")
                                                  .arg(p.sentBytes >> 20)
                                                  .arg(p.totalBytes >> 20));
                  });
              });
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, sent, generation] {
            if (!self || generation != self->m_generation)
                return;
            self->setBusy(false);
            self->m_report->setText(sent ? tr("The image is there now.")
                                         : tr("Could not send the image: %1").arg(sent.error()));
            Q_EMIT self->imageSent();
        });
    });
}

} // namespace Sandcastle
