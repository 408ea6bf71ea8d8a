#include "quickopen.h"
#include <ui/widgets/clearbutton.h>

#include <app/agent/filesearch.h>
#include <sandbox/blockingjobs.h>

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace Sandcastle {

QuickOpen::QuickOpen(QWidget *parent)
    : QFrame(parent, Qt::Popup)
    , m_query(new QLineEdit(this))
    , m_list(new QListWidget(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("quickOpen"));
    setFrameShape(QFrame::StyledPanel);
    m_query->setObjectName(QStringLiteral("quickOpenQuery"));
    m_query->setPlaceholderText(tr("Go to file: type part of its path"));
    enableClearButtonWhenTyped(m_query);
    m_query->installEventFilter(this);
    m_list->setObjectName(QStringLiteral("quickOpenList"));
    m_list->setUniformItemSizes(true);
    m_list->setFocusPolicy(Qt::NoFocus);
    m_status->setObjectName(QStringLiteral("quickOpenStatus"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_query);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    connect(m_query, &QLineEdit::textChanged, this, &QuickOpen::requery);
    connect(m_query, &QLineEdit::returnPressed, this, &QuickOpen::choose);
    connect(m_list, &QListWidget::itemActivated, this, &QuickOpen::choose);
    connect(&m_gatherer, &QFutureWatcher<IndexPtr>::finished, this, [this] {
        const IndexPtr index = m_gatherer.result();
        m_gathering = false;
        if (index->root != m_root)
            return;
        m_index = index;
        m_last = {};
        requery();
    });
    connect(&m_matcher, &QFutureWatcher<Matches>::finished, this, [this] {
        const Matches matches = m_matcher.result();
        m_matching = false;
        if (std::exchange(m_requeryWanted, false) || matches.query != m_query->text()
            || matches.index != m_index)
            requery();
        if (matches.index != m_index)
            return;
        showMatches(matches);
        if (m_chooseWhenShown && !isBusy())
            choose();
    });
}

// The jobs hold only what they were given: the popup does not wait for them when it goes.
QuickOpen::~QuickOpen() = default;

bool QuickOpen::isBusy() const
{
    // Not the watchers' isRunning(): a job is done before its watcher has said so.
    return m_gathering || m_matching || m_requeryWanted;
}

int QuickOpen::fileCount() const
{
    return m_index ? int(m_index->paths.size()) : 0;
}

QStringList QuickOpen::shownPaths() const
{
    QStringList paths;
    for (int i = 0; i < m_list->count(); ++i)
        paths << m_list->item(i)->data(Qt::UserRole).toString();
    return paths;
}

QuickOpen::IndexPtr QuickOpen::gather(const QString &root)
{
    auto index = std::make_shared<Index>();
    index->root = root;
    FileSearch::walk(root, [&index](const FileSearch::Entry &entry) {
        if (entry.isDir)
            return true;
        if (index->paths.size() >= MaxFiles) {
            index->capped = true;
            return false;
        }
        index->paths << entry.path;
        index->lowered << entry.path.toLower();
        return true;
    });
    return index;
}

void QuickOpen::open(const QString &root, QWidget *anchor)
{
    m_chooseWhenShown = false;
    if (root != m_root) {
        m_index.reset();
        m_last = {};
        m_list->clear();
    }
    m_root = root;
    m_status->setText(tr("Reading the workspace's files…"));
    m_gathering = true;
    m_gatherer.setFuture(QtConcurrent::run(blockingJobs(), &QuickOpen::gather, root));
    QWidget *window = anchor ? anchor->window() : nullptr;
    const QSize size(window ? std::clamp(window->width() / 2, 420, 720) : 560, 360);
    resize(size);
    if (window)
        move(window->mapToGlobal(QPoint((window->width() - size.width()) / 2, 48)));
    m_query->selectAll();
    QFrame::show();
    m_query->setFocus();
}

void QuickOpen::requery()
{
    if (!m_index)
        return;
    if (m_matching) {
        m_requeryWanted = true; // once the running match ends
        return;
    }
    const QString query = m_query->text();
    // A longer query matches a subset of what its prefix matched.
    const bool narrows = m_last.index == m_index && !m_last.query.trimmed().isEmpty()
                         && query.startsWith(m_last.query);
    m_matching = true;
    m_matcher.setFuture(QtConcurrent::run(
        blockingJobs(),
        [index = m_index,
         query,
         previous = narrows ? m_last.ranking.matches : QList<int>(),
         narrows] {
            Matches matches{index, query, {}};
            if (query.trimmed().isEmpty()) {
                for (int i = 0; i < index->paths.size() && i < MaxShown; ++i)
                    matches.ranking.best << i;
                return matches;
            }
            matches.ranking = FuzzyMatcher(query).rank(
                index->paths, index->lowered, narrows ? &previous : nullptr, MaxShown);
            return matches;
        }));
}

void QuickOpen::showMatches(const Matches &matches)
{
    m_last = matches;
    m_list->clear();
    for (const int i : matches.ranking.best) {
        const QString &path = matches.index->paths.at(i);
        const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
        auto *item = new QListWidgetItem(
            slash < 0 ? path : path.mid(slash + 1) + QStringLiteral("  —  ") + path.left(slash),
            m_list);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    const int found = matches.query.trimmed().isEmpty() ? int(matches.index->paths.size())
                                                        : int(matches.ranking.matches.size());
    QString status = tr("%n file(s)", nullptr, found);
    if (matches.index->capped)
        status += QLatin1Char(' ') + tr("(only the first %1 files were read)").arg(MaxFiles);
    m_status->setText(status);
}

void QuickOpen::choose()
{
    // Enter typed before the matches of the last keystroke are in: choose from those.
    m_chooseWhenShown = isBusy() || m_last.query != m_query->text();
    if (m_chooseWhenShown)
        return;
    const QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const QString path = item->data(Qt::UserRole).toString();
    hide();
    Q_EMIT fileChosen(path);
}

bool QuickOpen::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_query && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const int row = m_list->currentRow();
        switch (key->key()) {
        case Qt::Key_Escape:
            hide();
            return true;
        case Qt::Key_Down:
            m_list->setCurrentRow(std::min(row + 1, m_list->count() - 1));
            return true;
        case Qt::Key_Up:
            m_list->setCurrentRow(std::max(row - 1, 0));
            return true;
        case Qt::Key_PageDown:
            m_list->setCurrentRow(std::min(row + 10, m_list->count() - 1));
            return true;
        case Qt::Key_PageUp:
            m_list->setCurrentRow(std::max(row - 10, 0));
            return true;
        default:
            break;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace Sandcastle
