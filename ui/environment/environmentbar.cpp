#include "environmentbar.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace Sandcastle {

EnvironmentBar::EnvironmentBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_details(new QPlainTextEdit(this))
    , m_approve(new QPushButton(this))
    , m_decline(new QPushButton(this))
    , m_toggleDetails(new QPushButton(this))
    , m_cancel(new QPushButton(tr("Cancel build"), this))
    , m_dismiss(new QPushButton(tr("Dismiss"), this))
{
    setObjectName(QStringLiteral("environmentBar"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setObjectName(QStringLiteral("environmentText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText); // package names and reasons come from the model
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_approve->setObjectName(QStringLiteral("environmentApprove"));
    m_decline->setObjectName(QStringLiteral("environmentDecline"));
    m_cancel->setObjectName(QStringLiteral("environmentCancel"));
    m_dismiss->setObjectName(QStringLiteral("environmentDismiss"));
    m_progress->setObjectName(QStringLiteral("environmentProgress"));
    m_details->setObjectName(QStringLiteral("environmentDetails"));
    m_details->setReadOnly(true);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setMaximumHeight(160);
    m_details->setMaximumBlockCount(2000);
    m_details->hide();

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_progress, 1);
    buttons->addStretch();
    for (QPushButton *button : {m_toggleDetails, m_approve, m_decline, m_cancel, m_dismiss})
        buttons->addWidget(button);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(m_details);
    layout->addLayout(buttons);
    hide();

    connect(m_toggleDetails, &QPushButton::clicked, this, [this] {
        m_details->setVisible(!m_details->isVisible());
        nameDetails();
    });
    connect(m_approve, &QPushButton::clicked, this, [this] {
        if (m_environment)
            m_environment->approve();
    });
    connect(m_decline, &QPushButton::clicked, this, [this] {
        if (m_environment)
            m_environment->decline();
        hide();
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_environment)
            m_environment->cancelBuild();
    });
    connect(m_dismiss, &QPushButton::clicked, this, &QWidget::hide);
}

QString EnvironmentBar::text() const
{
    return m_text->text();
}

void EnvironmentBar::setEnvironment(ProjectEnvironment *environment)
{
    m_environment = environment;
    connect(environment, &ProjectEnvironment::approvalNeeded, this, &EnvironmentBar::showApproval);
    connect(environment,
            &ProjectEnvironment::stateChanged,
            this,
            [this](ProjectEnvironment::State state) {
                if (state == ProjectEnvironment::State::Building)
                    showBuilding();
                else if (state == ProjectEnvironment::State::Default
                         || state == ProjectEnvironment::State::Ready) {
                    if (!m_dismiss->isVisible())
                        hide(); // nothing waits any more (another conversation, say)
                }
            });
    connect(environment,
            &ProjectEnvironment::buildProgress,
            this,
            [this](int step, int steps, const QString &instruction) {
                m_progress->setRange(0, steps);
                m_progress->setValue(step);
                m_progress->setFormat(tr("Step %1 of %2").arg(step).arg(steps));
                m_progress->setToolTip(instruction);
            });
    connect(environment, &ProjectEnvironment::buildOutput, this, [this](const QString &text) {
        m_details->moveCursor(QTextCursor::End);
        m_details->insertPlainText(text);
    });
    connect(environment, &ProjectEnvironment::buildFinished, this, &EnvironmentBar::showFinished);
}

void EnvironmentBar::showDetails(const QString &text, bool log)
{
    m_detailsAreLog = log;
    m_details->setPlainText(text);
    m_details->hide();
    m_toggleDetails->setVisible(!text.isEmpty() || log);
    nameDetails();
}

void EnvironmentBar::nameDetails()
{
    const bool shown = m_details->isVisible();
    m_toggleDetails->setText(m_detailsAreLog ? (shown ? tr("Hide log") : tr("Show log"))
                                             : (shown ? tr("Hide changes") : tr("Show changes")));
}

void EnvironmentBar::showApproval(const ProjectEnvironment::Approval &approval)
{
    QString text;
    if (approval.kind == ProjectEnvironment::Approval::Kind::Install) {
        QStringList names;
        if (!approval.pip.isEmpty())
            names << tr("pip: %1").arg(approval.pip.join(QStringLiteral(", ")));
        if (!approval.apt.isEmpty())
            names << tr("apt: %1").arg(approval.apt.join(QStringLiteral(", ")));
        text = tr("The agent asks to install %1.\nIts reason: %2\nThey are added to the project's "
                  "requirements.txt / apt.txt and the environment is rebuilt; the build uses the "
                  "network, the runs stay offline, and the Python session restarts.")
                   .arg(names.join(QStringLiteral("; ")), approval.reason);
        m_approve->setText(tr("Install"));
        m_decline->setText(tr("Decline"));
    } else {
        text = tr("This folder's requirements.txt / apt.txt ask for packages that are not "
                  "built: %1.\nBuilding the environment uses the network; the runs stay "
                  "offline, and the Python session restarts on it.")
                   .arg(approval.summary);
        m_approve->setText(tr("Build environment"));
        m_decline->setText(tr("Not now"));
    }
    if (!approval.concerns.isEmpty())
        text += QLatin1Char('\n')
                + tr("Check these lines, which reach beyond the package index: %1")
                      .arg(approval.concerns.join(QStringLiteral("; ")));
    m_text->setText(text);
    showDetails(approval.diff, false);
    m_progress->hide();
    m_cancel->hide();
    m_dismiss->hide();
    m_approve->show();
    m_decline->show();
    show();
}

void EnvironmentBar::showBuilding()
{
    m_text->setText(tr("Building the environment… (the log is in the console)"));
    showDetails(QString(), true);
    m_progress->setRange(0, 0); // busy until the first step
    m_progress->show();
    m_cancel->show();
    m_approve->hide();
    m_decline->hide();
    m_dismiss->hide();
    show();
}

void EnvironmentBar::showFinished(bool ok, const QString &message)
{
    m_progress->hide();
    m_cancel->hide();
    m_approve->hide();
    m_decline->hide();
    if (ok) {
        hide();
        return;
    }
    // The reason and where things stand; the installer's output is behind Show log.
    const QStringList lines = message.split(QLatin1Char('\n'));
    QStringList shown{lines.value(0)};
    for (const QString &line : lines.mid(1)) {
        if (line.startsWith(QLatin1String("(the whole log"))
            || line.startsWith(QLatin1String("The sandbox keeps")))
            shown << line;
    }
    m_text->setText(tr("The environment was not built: %1").arg(shown.join(QLatin1Char('\n'))));
    if (m_details->toPlainText().isEmpty())
        showDetails(message, true);
    m_toggleDetails->setVisible(true);
    m_dismiss->show();
    show();
}

} // namespace Sandcastle
