#include "filespane.h"

#include <sandbox/pathguard.h>

#include <QDesktopServices>
#include <QDir>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle {

FilesPane::FilesPane(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Files"), this))
    , m_model(new QFileSystemModel(this))
    , m_view(new QTreeView(this))
{
    m_model->setFilter(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    m_model->setReadOnly(true);
    m_view->setObjectName(QStringLiteral("filesView"));
    m_view->setModel(m_model);
    m_view->setHeaderHidden(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->setColumnHidden(2, true); // type
    m_view->setColumnHidden(3, true); // date
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (m_model->isDir(index))
            return;
        // The code could have planted a link to ~/.ssh; open only what really is in the workspace.
        const QString relative = QDir(m_root).relativeFilePath(m_model->filePath(index));
        const Result<int> fd = PathGuard::openInside(m_root, relative, O_RDONLY | O_NONBLOCK);
        if (!fd) {
            m_title->setText(tr("Not opened: %1").arg(fd.error()));
            return;
        }
        ::close(fd.value());
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_model->filePath(index)));
    });
}

void FilesPane::setRoot(const QString &path)
{
    m_root = path;
    QDir().mkpath(path);
    m_view->setRootIndex(m_model->setRootPath(path));
    m_title->setText(tr("Files — %1").arg(QDir::toNativeSeparators(path)));
    m_title->setToolTip(path);
}

void FilesPane::highlight(const QStringList &relativePaths)
{
    if (relativePaths.isEmpty())
        return;
    const QModelIndex index = m_model->index(QDir(m_root).filePath(relativePaths.first()));
    if (index.isValid())
        m_view->setCurrentIndex(index);
}

} // namespace Sandcastle
