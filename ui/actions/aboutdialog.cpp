#include "aboutdialog.h"

#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>

#include <Qsci/qsciglobal.h>

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>

namespace Sandcastle {

AboutDialog::AboutDialog(const ContainerEngine &engine, QWidget *parent)
    : QDialog(parent)
    , m_versions(new QLabel(this))
    , m_engineName(QFileInfo(engine.program()).fileName())
    , m_engineVersion(tr("asking…"))
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Sandcastle"));
    auto *title = new QLabel(QStringLiteral("<h2>Sandcastle %1</h2>")
                                 .arg(QStringLiteral(SANDCASTLE_VERSION).toHtmlEscaped()),
                             this);
    auto *what = new QLabel(tr("A desktop IDE in which a language model writes code, runs it in "
                               "a container on your machine, reads the output and fixes its own "
                               "mistakes while you watch and take part."),
                            this);
    what->setWordWrap(true);
    m_versions->setObjectName(QStringLiteral("aboutVersions"));
    m_versions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy versions"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(versionsText());
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(what);
    layout->addWidget(m_versions);
    layout->addWidget(buttons);
    showVersions();
    // The engine may take seconds to answer (or not be there): never on the UI thread.
    QPointer<AboutDialog> self(this);
    blockingJobs()->start([self, engine] {
        const Result<QString> version = engine.checkDaemon();
        const QString text = version ? version.value() : version.error();
        QMetaObject::invokeMethod(qApp, [self, text] {
            if (self) {
                self->m_engineVersion = text;
                self->showVersions();
            }
        });
    });
}

QString AboutDialog::versionsText() const
{
    return QStringLiteral("Sandcastle %1\nQt %2 (built with %3)\nQScintilla %4\n%5: %6")
        .arg(QStringLiteral(SANDCASTLE_VERSION),
             QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR),
             QStringLiteral(QSCINTILLA_VERSION_STR),
             m_engineName,
             m_engineVersion);
}

void AboutDialog::showVersions()
{
    m_versions->setText(versionsText());
}

} // namespace Sandcastle
