#pragma once

#include <app/project/projectenvironment.h>

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace Sandcastle {

// The bar over the editor through which the person decides what gets network: a folder's
// requirements.txt / apt.txt asking to be built (with the diff against what they approved) or
// the agent's install_packages (the packages and its reason) waits for Build / Not now; then the
// build's progress with Cancel; then a failure with its message and the log's place. Thin: the
// decisions go to the ProjectEnvironment.
class EnvironmentBar : public QFrame
{
    Q_OBJECT
public:
    explicit EnvironmentBar(QWidget *parent = nullptr);

    // Follows `environment` (the conversation's; one for the window's life).
    void setEnvironment(ProjectEnvironment *environment);
    QString text() const;

private:
    void showApproval(const ProjectEnvironment::Approval &approval);
    void showBuilding();
    void showFinished(bool ok, const QString &message);
    // The text behind the toggle: the diff of an approval, or a build's log.
    void showDetails(const QString &text, bool log);
    void nameDetails();

    ProjectEnvironment *m_environment = nullptr;
    QLabel *m_text;
    QProgressBar *m_progress;
    QPlainTextEdit *m_details;
    QPushButton *m_approve;
    QPushButton *m_decline;
    QPushButton *m_toggleDetails;
    QPushButton *m_cancel;
    QPushButton *m_dismiss;
    bool m_detailsAreLog = false;
};

} // namespace Sandcastle
