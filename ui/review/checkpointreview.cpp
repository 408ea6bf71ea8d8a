#include "checkpointreview.h"

#include <app/controller/conversationcontroller.h>
#include <app/project/checkpointqueue.h>

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace Sandcastle {

namespace {

QString statusWord(char status)
{
    switch (status) {
    case 'A':
        return CheckpointReview::tr("new");
    case 'D':
        return CheckpointReview::tr("deleted");
    case 'T':
        return CheckpointReview::tr("type changed");
    default:
        return CheckpointReview::tr("modified");
    }
}

QString stepName(const Checkpoint &step)
{
    if (step.kind == QLatin1String("turn"))
        return CheckpointReview::tr("Turn %1").arg(step.turn + 1);
    if (step.kind == QLatin1String("run"))
        return CheckpointReview::tr("Your run");
    return step.label;
}

} // namespace

QString CheckpointReview::summary(const Checkpoint &step, const QList<CheckpointChange> &changes)
{
    int added = 0;
    int removed = 0;
    for (const CheckpointChange &change : changes) {
        added += change.added;
        removed += change.removed;
    }
    return tr("%1 · %n file(s) changed, +%2 −%3", nullptr, int(changes.size()))
        .arg(stepName(step))
        .arg(added)
        .arg(removed);
}

CheckpointReview::CheckpointReview(ConversationController *controller,
                                   const Checkpoint &step,
                                   const QList<CheckpointChange> &changes,
                                   QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_step(step)
    , m_changes(changes)
{
    setObjectName(QStringLiteral("checkpointReview"));
    setWindowTitle(tr("Review: %1").arg(summary(step, changes)));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1000, 640);

    QLabel *note = nullptr;
    QLabel *title = buildHeader(&note);
    QSplitter *split = buildBody();
    QDialogButtonBox *buttons = buildButtons();
    connect(m_files, &QListWidget::currentRowChanged, this, &CheckpointReview::showFile);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(note);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    if (!changes.isEmpty())
        m_files->setCurrentRow(0);
    else
        m_diff->setText(tr("This step changed no files."));
}

// The prompt (or step), and the notes: files too big to record, the kernel not rewound.
QLabel *CheckpointReview::buildHeader(QLabel **noteOut)
{
    auto *title = new QLabel(this);
    title->setTextFormat(Qt::PlainText);
    title->setWordWrap(true);
    title->setText(m_step.label.section(QLatin1Char('\n'), 0, 0).left(200));
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    QStringList notes;
    if (!m_step.skipped.isEmpty()) {
        QStringList names;
        for (const SkippedFile &file : m_step.skipped)
            names << tr("%1 (%2 MB)").arg(file.path).arg(file.size / (1024 * 1024));
        notes << tr("Not recorded, too big for a checkpoint: %1")
                     .arg(names.join(QStringLiteral(", ")));
    }
    notes << tr(
        "Undo and Restore put files back; variables in the Python session are not rewound.");
    auto *note = new QLabel(notes.join(QLatin1Char('\n')), this);
    note->setTextFormat(Qt::PlainText);
    note->setWordWrap(true);
    note->setEnabled(false);

    *noteOut = note;
    return title;
}

// The changed files beside the diff of the selected one.
QSplitter *CheckpointReview::buildBody()
{
    m_files = new QListWidget(this);
    m_files->setObjectName(QStringLiteral("reviewFiles"));
    for (const CheckpointChange &change : m_changes) {
        const QString counts
            = change.binary ? tr("binary")
                            : QStringLiteral("+%1 −%2").arg(change.added).arg(change.removed);
        auto *item = new QListWidgetItem(
            QStringLiteral("%1  (%2, %3)").arg(change.path, statusWord(change.status), counts),
            m_files);
        item->setData(Qt::UserRole, change.path);
        item->setToolTip(change.path);
    }
    m_diff = new QsciScintilla(this);
    m_diff->setObjectName(QStringLiteral("reviewDiff"));
    auto *lexer = new QsciLexerDiff(m_diff);
    lexer->setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setLexer(lexer);
    m_diff->setReadOnly(true);
    m_diff->setMarginWidth(0, 0);
    m_diff->setWrapMode(QsciScintilla::WrapNone);
    auto *split = new QSplitter(this);
    split->addWidget(m_files);
    split->addWidget(m_diff);
    split->setStretchFactor(1, 3);

    return split;
}

// Undo, the two restores and Close.
QDialogButtonBox *CheckpointReview::buildButtons()
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_undo = buttons->addButton(m_step.kind == QLatin1String("turn") ? tr("&Undo this turn")
                                                                     : tr("&Undo this step"),
                                QDialogButtonBox::ActionRole);
    m_restore = buttons->addButton(tr("Restore to &here"), QDialogButtonBox::ActionRole);
    m_restore->setToolTip(tr("Put the whole folder back as it was after this step: every later "
                             "change is undone"));
    m_restoreBefore = buttons->addButton(tr("Restore to &before"), QDialogButtonBox::ActionRole);
    m_restoreBefore->setToolTip(tr("Put the whole folder back as it was before this step"));
    m_undo->setEnabled(!m_changes.isEmpty());
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_undo, &QPushButton::clicked, this, &CheckpointReview::undo);
    connect(m_restore, &QPushButton::clicked, this, [this] { restore(false); });
    connect(m_restoreBefore, &QPushButton::clicked, this, [this] { restore(true); });
    connect(m_controller,
            &ConversationController::checkpointActionFinished,
            this,
            [this](bool ok, const QString &message) {
                for (QPushButton *button : {m_undo, m_restore, m_restoreBefore})
                    button->setEnabled(true);
                if (ok)
                    accept();
                else
                    QMessageBox::warning(this, windowTitle(), message);
            });
    return buttons;
}

QString CheckpointReview::shownDiff() const
{
    return m_diff->text();
}

void CheckpointReview::setConfirmation(std::function<bool(const QString &)> confirm)
{
    m_confirm = std::move(confirm);
}

bool CheckpointReview::confirm(const QString &question)
{
    if (m_confirm)
        return m_confirm(question);
    return QMessageBox::question(this, windowTitle(), question) == QMessageBox::Yes;
}

void CheckpointReview::showFile(int row)
{
    if (row < 0 || row >= m_changes.size())
        return;
    const CheckpointChange change = m_changes.at(row);
    if (change.binary) {
        m_diff->setText(tr("%1 is a binary file (%2): its content is not shown.")
                            .arg(change.path, statusWord(change.status)));
        Q_EMIT diffShown(change.path);
        return;
    }
    m_diff->setText(tr("Loading…"));
    const quint64 generation = ++m_generation;
    const QString before = m_step.before;
    const QString after = m_step.id;
    const QString path = change.path;
    m_controller->checkpoints()->submit<Result<QByteArray>>(
        this,
        [before, after, path](Checkpoints &checkpoints) {
            return checkpoints.diff(before, after, path);
        },
        [this, generation, path](const Result<QByteArray> &diff) {
            if (generation != m_generation)
                return;
            m_diff->setText(diff ? QString::fromUtf8(diff.value()) : diff.error());
            Q_EMIT diffShown(path);
        });
}

void CheckpointReview::undo()
{
    const Checkpoint step = m_step;
    m_undo->setEnabled(false);
    m_controller->checkpoints()->submit<Result<Checkpoints::UndoPlan>>(
        this,
        [step](Checkpoints &checkpoints) { return checkpoints.planUndo(step); },
        [this](const Result<Checkpoints::UndoPlan> &plan) {
            m_undo->setEnabled(true);
            if (!plan) {
                QMessageBox::warning(this, windowTitle(), plan.error());
                return;
            }
            QStringList lost;
            if (!plan.value().editedSince.isEmpty())
                lost << tr("your own edits since the last step: %1")
                            .arg(plan.value().editedSince.join(QStringLiteral(", ")));
            if (!plan.value().changedLater.isEmpty())
                lost << tr("changes a later step made: %1")
                            .arg(plan.value().changedLater.join(QStringLiteral(", ")));
            if (!lost.isEmpty()
                && !confirm(tr("Undoing this would overwrite %1.\n\nGo ahead? (The undo can itself "
                               "be undone.)")
                                .arg(lost.join(tr("; and ")))))
                return;
            for (QPushButton *button : {m_undo, m_restore, m_restoreBefore})
                button->setEnabled(false);
            m_controller->undoCheckpoint(m_step);
        });
}

void CheckpointReview::restore(bool before)
{
    m_controller->checkpoints()->submit<Result<QStringList>>(
        this,
        [](Checkpoints &checkpoints) { return checkpoints.editedSinceLast(); },
        [this, before](const Result<QStringList> &edited) {
            if (!edited) {
                QMessageBox::warning(this, windowTitle(), edited.error());
                return;
            }
            const QString question
                = edited.value().isEmpty()
                      ? tr("Put every file of the folder back as it was %1? Later changes are "
                           "undone (this can itself be undone).")
                            .arg(before ? tr("before this step") : tr("after this step"))
                      : tr("Put every file of the folder back as it was %1? This overwrites your "
                           "own edits since the last step: %2 (the restore can itself be undone).")
                            .arg(before ? tr("before this step") : tr("after this step"),
                                 edited.value().join(QStringLiteral(", ")));
            if (!confirm(question))
                return;
            for (QPushButton *button : {m_undo, m_restore, m_restoreBefore})
                button->setEnabled(false);
            m_controller->restoreCheckpoint(m_step, before);
        });
}

} // namespace Sandcastle
