#pragma once

#include <QWidget>

class QFileSystemModel;
class QLabel;
class QTreeView;

namespace Sandcastle {

// The workspace browser: the conversation's folder as a tree, updated as the code writes.
class FilesPane : public QWidget
{
    Q_OBJECT
public:
    explicit FilesPane(QWidget *parent = nullptr);

    void setRoot(const QString &path);
    QString root() const { return m_root; }
    QFileSystemModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    void highlight(const QStringList &relativePaths);

private:
    QString m_root;
    QLabel *m_title = nullptr;
    QFileSystemModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
};

} // namespace Sandcastle
