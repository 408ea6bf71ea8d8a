#pragma once

#include <app/project/checkpoints.h>

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSplitter;
class QsciScintilla;

namespace Sandcastle {

class ConversationController;

// The review of one checkpoint: the files a step (an agent turn, a run of the person's, an
// undo) changed, each file's diff, and the ways back: Undo this step, Restore the folder to
// after it or to before it. Each asks first when it would overwrite the person's own edits or
// a later step's, and says that the Python session's variables are not rewound.
class CheckpointReview : public QDialog
{
    Q_OBJECT
public:
    CheckpointReview(ConversationController *controller,
                     const Checkpoint &step,
                     const QList<CheckpointChange> &changes,
                     QWidget *parent = nullptr);

    QListWidget *fileList() const { return m_files; }
    QsciScintilla *diffView() const { return m_diff; }
    QPushButton *undoButton() const { return m_undo; }
    // The diff shown for the selected file (or a note for a binary one).
    QString shownDiff() const;
    // Answers the question "go ahead?" without a dialog (tests).
    void setConfirmation(std::function<bool(const QString &)> confirm);

    // A step's one-line summary: "Turn 2 · 3 files changed, +12 −4".
    static QString summary(const Checkpoint &step, const QList<CheckpointChange> &changes);

Q_SIGNALS:
    void diffShown(const QString &path);

private:
    QLabel *buildHeader(QLabel **note);
    QSplitter *buildBody();
    QDialogButtonBox *buildButtons();
    void showFile(int row);
    void undo();
    void restore(bool before);
    bool confirm(const QString &question);

    ConversationController *m_controller;
    Checkpoint m_step;
    QList<CheckpointChange> m_changes;
    QListWidget *m_files = nullptr;
    QsciScintilla *m_diff = nullptr;
    QPushButton *m_undo = nullptr;
    QPushButton *m_restore = nullptr;
    QPushButton *m_restoreBefore = nullptr;
    std::function<bool(const QString &)> m_confirm;
    quint64 m_generation = 0;
};

} // namespace Sandcastle
