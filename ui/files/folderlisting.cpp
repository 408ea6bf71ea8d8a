#include "folderlisting.h"

#include <sandbox/pathguard.h>

#include <QDir>
#include <QFile>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace Sandcastle {

QString TreeNode::relativePath() const
{
    if (!parent)
        return QString();
    const QString above = parent->relativePath();
    return above.isEmpty() ? name : above + QLatin1Char('/') + name;
}

namespace FolderListing {

// Natural order, case aside: runs of digits compare as numbers ("f2" before "f10"); ties are
// broken case first, then byte for byte, so that the order is total. Written out rather than
// QCollator's, whose numeric mode depends on the locale (none under LANG=C).
int compareNames(const QString &a, const QString &b)
{
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < n && j < m) {
        const QChar x = a.at(i);
        const QChar y = b.at(j);
        if (x.isDigit() && y.isDigit()) {
            qsizetype ei = i;
            qsizetype ej = j;
            while (ei < n && a.at(ei) == QLatin1Char('0'))
                ++ei;
            while (ej < m && b.at(ej) == QLatin1Char('0'))
                ++ej;
            qsizetype di = ei;
            qsizetype dj = ej;
            while (di < n && a.at(di).isDigit())
                ++di;
            while (dj < m && b.at(dj).isDigit())
                ++dj;
            if (di - ei != dj - ej)
                return di - ei < dj - ej ? -1 : 1; // more digits: a bigger number
            for (qsizetype k = 0; k < di - ei; ++k) {
                if (a.at(ei + k) != b.at(ej + k))
                    return a.at(ei + k) < b.at(ej + k) ? -1 : 1;
            }
            i = di;
            j = dj;
            continue;
        }
        const QChar lx = x.toCaseFolded();
        const QChar ly = y.toCaseFolded();
        if (lx != ly)
            return lx < ly ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < n || j < m)
        return i < n ? 1 : -1;
    return a.compare(b);
}

int compare(const TreeNode &a, const TreeNode &b)
{
    if (a.isDir != b.isDir)
        return a.isDir ? -1 : 1;
    return compareNames(a.name, b.name);
}

std::shared_ptr<Listing>
list(const QString &root, const QString &folder, const GitIgnore &rules, bool ignored)
{
    // A reader of the tree yields to the window's thread: nice 10, once per thread of the
    // listing pool (a thread cannot take it back, which is why the pool is its own).
    thread_local const bool niced = ::setpriority(PRIO_PROCESS, ::gettid(), 10) == 0;
    Q_UNUSED(niced)
    auto result = std::make_shared<Listing>();
    result->folder = folder;
    result->rules = rules;
    const QString prefix = folder.isEmpty() ? QString() : folder + QLatin1Char('/');
    // The folder's own .gitignore, when it is a regular file inside the root (never through a
    // link the code planted).
    if (!ignored) {
        const Result<QByteArray> text
            = PathGuard::readFile(root, prefix + QStringLiteral(".gitignore"), 1024 * 1024);
        if (text)
            result->rules.addRules(folder, QString::fromUtf8(text.value()));
    }
    const QDir dir(folder.isEmpty() ? root : QDir(root).filePath(folder));
    const QStringList names = dir.entryList(
        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::NoSort);
    result->entries.reserve(std::size_t(names.size()));
    for (const QString &name : names) {
        if (name == QLatin1String(".git"))
            continue;
        struct stat st
        {
        };
        if (::lstat(QFile::encodeName(dir.filePath(name)).constData(), &st) != 0)
            continue;
        auto node = std::make_unique<TreeNode>();
        node->name = name;
        node->isLink = S_ISLNK(st.st_mode);
        node->isDir = S_ISDIR(st.st_mode);
        node->ignored = ignored || result->rules.matches(prefix + name, node->isDir);
        node->internal = folder.isEmpty() && name == QLatin1String(".sandcastle");
        result->entries.push_back(std::move(node));
    }
    std::sort(result->entries.begin(),
              result->entries.end(),
              [](const std::unique_ptr<TreeNode> &a, const std::unique_ptr<TreeNode> &b) {
                  return compare(*a, *b) < 0;
              });
    return result;
}

} // namespace FolderListing

} // namespace Sandcastle
