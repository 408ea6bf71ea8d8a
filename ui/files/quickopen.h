#pragma once

#include <base/fuzzymatch.h>

#include <QFrame>
#include <QFutureWatcher>

#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;

namespace Sandcastle {

// Ctrl+P: a line edit over a list that finds a file of the workspace by a fuzzy match of its
// path (FuzzyMatcher); Enter chooses it, Escape closes. The workspace's files are gathered off
// the UI thread as FileSearch walks them (no .git, nothing .gitignore ignores), at most
// MaxFiles of them, and each query is matched on a worker too, narrowing the previous query's
// matches when it extends it, so typing never waits for a hundred thousand paths.
class QuickOpen : public QFrame
{
    Q_OBJECT
public:
    static constexpr int MaxFiles = 200000;
    static constexpr int MaxShown = 50;

    explicit QuickOpen(QWidget *parent);
    ~QuickOpen() override;

    // Shows the popup over `anchor`'s window and (re)gathers the files of `root`.
    void open(const QString &root, QWidget *anchor);
    QLineEdit *queryBox() const { return m_query; }
    QListWidget *list() const { return m_list; }
    bool isBusy() const;
    int fileCount() const;
    QStringList shownPaths() const;

Q_SIGNALS:
    // A file of the workspace (relative path) was chosen.
    void fileChosen(const QString &relativePath);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Index
    {
        QString root;
        QStringList paths;
        QStringList lowered;
        bool capped = false;
    };
    using IndexPtr = std::shared_ptr<const Index>;
    struct Matches
    {
        IndexPtr index;
        QString query;
        FuzzyMatcher::Ranking ranking;
    };
    static IndexPtr gather(const QString &root);
    void requery();
    void showMatches(const Matches &matches);
    void choose();

    QLineEdit *m_query = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_status = nullptr;
    IndexPtr m_index;
    QString m_root;
    QFutureWatcher<IndexPtr> m_gatherer;
    QFutureWatcher<Matches> m_matcher;
    bool m_gathering = false;
    bool m_matching = false;
    bool m_requeryWanted = false;
    bool m_chooseWhenShown = false;
    Matches m_last; // what the list shows; its matches narrow the next, longer query
};

} // namespace Sandcastle
