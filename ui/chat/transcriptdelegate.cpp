#include "transcriptdelegate.h"

#include "transcriptmodel.h"

#include "../theme.h"

#include <QAbstractItemView>
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <memory>
#include <vector>

namespace Sandcastle {

namespace {

constexpr int Margin = 6;  // around each row's frame
constexpr int Padding = 8; // inside it
constexpr int Gap = 4;     // between parts
constexpr int CollapsedCodeLines = 6;
constexpr int ExpandedCodeLines = 400;

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor statusColour(const QString &status, bool dark)
{
    if (status == QLatin1String("ok"))
        return dark ? QColor(0x4c, 0xc3, 0x6a) : QColor(0x22, 0x86, 0x3a);
    if (status == QLatin1String("running"))
        return dark ? QColor(0xe3, 0xb3, 0x41) : QColor(0xb0, 0x80, 0x00);
    if (status == QLatin1String("error") || status == QLatin1String("timeout")
        || status == QLatin1String("out_of_memory") || status == QLatin1String("killed")
        || status == QLatin1String("engine_error"))
        return dark ? QColor(0xf8, 0x71, 0x71) : QColor(0xcb, 0x24, 0x31);
    return dark ? QColor(0x9a, 0x9e, 0xa5) : QColor(0x6a, 0x73, 0x7d);
}

QString statusText(const QString &status)
{
    if (status == QLatin1String("running"))
        return TranscriptDelegate::tr("running…");
    if (status == QLatin1String("ok"))
        return TranscriptDelegate::tr("ok");
    if (status == QLatin1String("error"))
        return TranscriptDelegate::tr("error");
    if (status == QLatin1String("timeout"))
        return TranscriptDelegate::tr("timed out");
    if (status == QLatin1String("out_of_memory"))
        return TranscriptDelegate::tr("out of memory");
    if (status == QLatin1String("killed"))
        return TranscriptDelegate::tr("stopped");
    if (status == QLatin1String("engine_error"))
        return TranscriptDelegate::tr("sandbox error");
    return status;
}

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return TranscriptDelegate::tr("%1 ms").arg(ms);
    return TranscriptDelegate::tr("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}

// A document that never loads anything: an image or a link in the model's Markdown must not
// make the window read a file of the person's or reach the network.
class InertDocument : public QTextDocument
{
public:
    using QTextDocument::QTextDocument;

protected:
    QVariant loadResource(int, const QUrl &) override { return {}; }
};

// Colours Python and shell code: in the whole document (a tool card) or only in Markdown's
// fenced code blocks (an answer).
class CodeHighlighter : public QSyntaxHighlighter
{
public:
    CodeHighlighter(QTextDocument *document, bool wholeDocument, bool dark)
        : QSyntaxHighlighter(document)
        , m_whole(wholeDocument)
    {
        m_keyword.setForeground(dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0xa6, 0x26, 0xa4));
        m_keyword.setFontWeight(QFont::DemiBold);
        m_string.setForeground(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x50, 0xa1, 0x4f));
        m_comment.setForeground(dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x8a, 0x8f, 0x98));
        m_comment.setFontItalic(true);
        m_number.setForeground(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x98, 0x68, 0x01));
    }

protected:
    void highlightBlock(const QString &text) override
    {
        if (!m_whole && !currentBlock().blockFormat().hasProperty(QTextFormat::BlockCodeFence))
            return;
        static const QRegularExpression keywords(QStringLiteral(
            "\\b(and|as|assert|async|await|break|case|class|continue|def|del|do|done|elif|else|"
            "esac|except|fi|finally|for|from|function|global|if|import|in|is|lambda|local|"
            "match|None|nonlocal|not|or|pass|raise|return|then|True|False|try|while|with|"
            "yield)\\b"));
        static const QRegularExpression numbers(QStringLiteral("\\b\\d+(\\.\\d+)?\\b"));
        static const QRegularExpression strings(
            QStringLiteral("(\"([^\"\\\\]|\\\\.)*\"?|'([^'\\\\]|\\\\.)*'?)"));
        auto apply = [&](const QRegularExpression &re, const QTextCharFormat &format) {
            auto it = re.globalMatch(text);
            while (it.hasNext()) {
                const auto m = it.next();
                setFormat(int(m.capturedStart()), int(m.capturedLength()), format);
            }
        };
        apply(keywords, m_keyword);
        apply(numbers, m_number);
        // Strings, then a comment that starts outside of them.
        int commentFrom = -1;
        auto it = strings.globalMatch(text);
        int scanned = 0;
        while (it.hasNext()) {
            const auto m = it.next();
            const int hash = int(text.indexOf(QLatin1Char('#'), scanned));
            if (hash >= 0 && hash < m.capturedStart()) {
                commentFrom = hash;
                break;
            }
            setFormat(int(m.capturedStart()), int(m.capturedLength()), m_string);
            scanned = int(m.capturedEnd());
        }
        if (commentFrom < 0) {
            const int hash = int(text.indexOf(QLatin1Char('#'), scanned));
            if (hash >= 0)
                commentFrom = hash;
        }
        if (commentFrom >= 0)
            setFormat(commentFrom, int(text.size()) - commentFrom, m_comment);
    }

private:
    bool m_whole;
    QTextCharFormat m_keyword, m_string, m_comment, m_number;
};

QFont codeFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(std::max(7.0, QApplication::font().pointSizeF() - 0.5));
    return font;
}

} // namespace

struct TranscriptDelegate::Layout
{
    QRect frame, header, toggle, open, retry, reasoning, body, files;
    int height = 0;
};

struct TranscriptDelegate::Rendered
{
    quint32 revision = 0;
    int width = 0;
    bool dark = false;
    std::unique_ptr<QTextDocument> reasoning;
    // The body as a column of documents. An answer is rendered as Markdown chunks cut at blank
    // lines outside code fences: while it streams, only its last chunk changes and only that
    // one is rendered again, so a frame costs the same for a long answer as for a short one.
    // Every other row has one chunk: its text, or a tool card's code.
    struct Chunk
    {
        qsizetype start = 0;
        qsizetype end = 0;
        bool complete = false; // a boundary follows it: its text will not change
        std::unique_ptr<QTextDocument> doc;
        int top = 0; // from the top of the body
        int height = 0;
    };
    std::vector<Chunk> chunks;
    QString chunkedText;
    QString header;    // "You", "Sandcastle", the tool's name
    QString meta;      // a tool's status, exit code, duration
    QString moreLines; // "… 12 more lines" under a cut card
    QString files;
    Layout layout;
};

std::vector<TranscriptDelegate::MarkdownChunk>
TranscriptDelegate::markdownChunks(const QString &text)
{
    std::vector<MarkdownChunk> chunks;
    qsizetype start = 0;
    qsizetype pos = 0;
    bool inFence = false;
    bool previousBlank = false;
    while (pos < text.size()) {
        qsizetype eol = text.indexOf(QLatin1Char('\n'), pos);
        if (eol < 0)
            eol = text.size();
        const QStringView line = QStringView(text).mid(pos, eol - pos);
        const QStringView trimmed = line.trimmed();
        const bool blank = trimmed.isEmpty();
        if (!inFence && previousBlank && !blank && pos > start && !line.front().isSpace()) {
            chunks.push_back({start, pos, true});
            start = pos;
        }
        if (trimmed.startsWith(QLatin1String("```")) || trimmed.startsWith(QLatin1String("~~~")))
            inFence = !inFence;
        previousBlank = blank;
        pos = eol + 1;
    }
    if (start < text.size() || chunks.empty())
        chunks.push_back({start, text.size(), false});
    return chunks;
}

TranscriptDelegate::TranscriptDelegate(QAbstractItemView *view)
    : QStyledItemDelegate(view)
    , m_view(view)
    , m_cache(256)
{}

TranscriptDelegate::~TranscriptDelegate() = default;

void TranscriptDelegate::clearCache()
{
    m_cache.clear();
    m_heights.clear();
}

int TranscriptDelegate::contentWidth() const
{
    return std::max(120, m_view->viewport()->width());
}

const TranscriptDelegate::Rendered &TranscriptDelegate::rendered(const QModelIndex &index) const
{
    const int width = contentWidth();
    const auto revision = index.data(TranscriptModel::RevisionRole).toUInt();
    const bool dark = paletteIsDark(m_view->palette());
    std::vector<Rendered::Chunk> previousChunks;
    QString previousText;
    if (Rendered *cached = m_cache.object(index.row())) {
        if (cached->revision == revision && cached->width == width && cached->dark == dark)
            return *cached;
        if (cached->width == width && cached->dark == dark) {
            previousChunks = std::move(cached->chunks);
            previousText = cached->chunkedText;
        }
    }
    auto r = std::make_unique<Rendered>();
    r->revision = revision;
    r->width = width;
    r->dark = dark;

    const auto kind = index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    const QString text = index.data(TranscriptModel::TextRole).toString();
    const bool expanded = index.data(TranscriptModel::ExpandedRole).toBool();
    const QFontMetrics fm(m_view->font());
    const int line = fm.height();
    const int inner = width - 2 * Margin - 2 * Padding;
    Layout &l = r->layout;

    auto makeDocument = [&](const QFont &font) {
        auto doc = std::make_unique<InertDocument>();
        doc->setDefaultFont(font);
        doc->setDocumentMargin(0);
        return doc;
    };

    int y = Margin + Padding;
    const int x = Margin + Padding;
    l.header = QRect(x, y, inner, line);
    y += line + Gap;

    std::unique_ptr<QTextDocument> body; // the one document of a row that is not an answer
    auto plainBody = [&](const QString &plain, const QFont &font) {
        body = makeDocument(font);
        body->setPlainText(plain);
    };
    switch (kind) {
    case TranscriptModel::Kind::User:
        r->header = TranscriptModel::tr("You");
        plainBody(text, m_view->font());
        break;
    case TranscriptModel::Kind::Assistant: {
        r->header = TranscriptModel::tr("Sandcastle");
        if (index.data(TranscriptModel::StreamingRole).toBool())
            r->header += QStringLiteral(" …");
        const QString reasoning = index.data(TranscriptModel::ReasoningRole).toString();
        if (!reasoning.isEmpty()) {
            l.toggle = QRect(x, y, inner, line);
            y += line + Gap;
            if (expanded) {
                QFont font = m_view->font();
                font.setItalic(true);
                r->reasoning = makeDocument(font);
                r->reasoning->setPlainText(reasoning);
                r->reasoning->setTextWidth(inner - Padding);
                l.reasoning = QRect(
                    x + Padding, y, inner - Padding, int(std::ceil(r->reasoning->size().height())));
                y += l.reasoning.height() + Gap;
            }
        }
        // Code blocks on a tinted ground, in the code font, coloured.
        const QColor base = m_view->palette().color(QPalette::Base);
        const QColor tint = mix(base, m_view->palette().color(QPalette::Text), 0.06);
        int top = 0;
        const int chunkGap = line / 2;
        for (const auto &[start, end, complete] : markdownChunks(text)) {
            Rendered::Chunk chunk;
            chunk.start = start;
            chunk.end = end;
            chunk.complete = complete;
            // The same complete chunk as in the last rendering: kept as it was laid out.
            for (Rendered::Chunk &old : previousChunks) {
                if (old.doc && old.complete && complete && old.start == start && old.end == end
                    && QStringView(previousText).mid(start, end - start)
                           == QStringView(text).mid(start, end - start)) {
                    chunk.doc = std::move(old.doc);
                    break;
                }
            }
            if (!chunk.doc) {
                chunk.doc = makeDocument(m_view->font());
                chunk.doc->setMarkdown(text.mid(start, end - start));
                ++m_renderedChunks;
                for (QTextBlock b = chunk.doc->begin(); b.isValid(); b = b.next()) {
                    if (!b.blockFormat().hasProperty(QTextFormat::BlockCodeFence))
                        continue;
                    QTextCursor c(b);
                    QTextBlockFormat f;
                    f.setBackground(tint);
                    c.mergeBlockFormat(f);
                }
                new CodeHighlighter(chunk.doc.get(), false, dark);
                chunk.doc->setTextWidth(inner);
            }
            chunk.top = top;
            chunk.height = int(std::ceil(chunk.doc->size().height()));
            top += chunk.height + chunkGap;
            r->chunks.push_back(std::move(chunk));
        }
        r->chunkedText = text;
        if (!r->chunks.empty()) {
            l.body = QRect(x, y, inner, top - chunkGap);
            y += l.body.height() + Gap;
        }
        break;
    }
    case TranscriptModel::Kind::Tool: {
        r->header = index.data(TranscriptModel::ToolNameRole).toString();
        const QString status = index.data(TranscriptModel::StatusRole).toString();
        QStringList meta{statusText(status)};
        const int exitCode = index.data(TranscriptModel::ExitCodeRole).toInt();
        if (exitCode >= 0 && status != QLatin1String("running"))
            meta << tr("exit %1").arg(exitCode);
        const qint64 duration = index.data(TranscriptModel::DurationRole).toLongLong();
        if (duration >= 0)
            meta << durationText(duration);
        r->meta = meta.join(QStringLiteral(" · "));
        l.toggle = l.header;
        if (TranscriptModel::runsCode(r->header)) {
            const int w = fm.horizontalAdvance(tr("Open in editor")) + 2 * Padding;
            l.open = QRect(l.header.right() - w, l.header.top(), w, line);
            l.toggle.setRight(l.open.left() - Gap);
        }
        QStringList lines = text.split(QLatin1Char('\n'));
        while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
            lines.removeLast();
        const int keep = expanded ? ExpandedCodeLines : CollapsedCodeLines;
        if (lines.size() > keep) {
            r->moreLines = tr("… %n more line(s)", nullptr, int(lines.size() - keep));
            lines = lines.mid(0, keep);
        }
        if (!lines.isEmpty()) {
            plainBody(lines.join(QLatin1Char('\n')), codeFont());
            new CodeHighlighter(body.get(), true, dark);
        }
        const QStringList files = index.data(TranscriptModel::FilesRole).toStringList();
        if (!files.isEmpty())
            r->files = tr("Files: %1").arg(files.join(QStringLiteral(", ")));
        break;
    }
    case TranscriptModel::Kind::Notice:
        r->header = TranscriptModel::tr("Note");
        plainBody(text, m_view->font());
        break;
    case TranscriptModel::Kind::Error:
        r->header = TranscriptModel::tr("Error");
        plainBody(text, m_view->font());
        if (index.data(TranscriptModel::RetryableRole).toBool()) {
            const int w = fm.horizontalAdvance(tr("Retry")) + 4 * Padding;
            l.retry = QRect(x + inner - w, l.header.top(), w, line + Padding);
        }
        break;
    }

    if (body) {
        body->setTextWidth(inner);
        Rendered::Chunk chunk;
        chunk.height = int(std::ceil(body->size().height()));
        chunk.doc = std::move(body);
        l.body = QRect(x, y, inner, chunk.height);
        y += l.body.height() + Gap;
        r->chunks.push_back(std::move(chunk));
    }
    if (!r->moreLines.isEmpty())
        y += line + Gap;
    if (!r->files.isEmpty()) {
        l.files = QRect(x, y, inner, line);
        y += line + Gap;
    }
    y += Padding - Gap;
    l.frame = QRect(Margin, Margin, width - 2 * Margin, y - Margin);
    l.height = y + Margin;

    Rendered *result = r.release();
    m_cache.insert(index.row(), result);
    return *result;
}

QSize TranscriptDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &index) const
{
    const int width = contentWidth();
    const auto revision = index.data(TranscriptModel::RevisionRole).toUInt();
    const bool dark = paletteIsDark(m_view->palette());
    const auto known = m_heights.constFind(index.row());
    if (known != m_heights.constEnd() && known->revision == revision && known->width == width
        && known->dark == dark)
        return {width, known->height};
    const Rendered &r = rendered(index);
    m_heights.insert(index.row(), {r.revision, r.width, r.dark, r.layout.height});
    return {r.width, r.layout.height};
}

void TranscriptDelegate::paint(QPainter *painter,
                               const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    const Rendered &r = rendered(index);
    const Layout &l = r.layout;
    const QPalette &pal = option.palette;
    const bool dark = r.dark;
    const auto kind = index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    const QColor muted = mix(base, text, 0.6);
    const QColor errorColour = statusColour(QStringLiteral("error"), dark);
    const QColor noticeColour = statusColour(QStringLiteral("running"), dark);

    painter->save();
    painter->translate(option.rect.topLeft());
    painter->setRenderHint(QPainter::Antialiasing);

    // The frame: a tinted bubble for the person, a bordered card for a tool, a banner for an
    // error; the answer sits on the plain ground.
    QColor fill = base;
    QColor border = Qt::transparent;
    switch (kind) {
    case TranscriptModel::Kind::User:
        fill = mix(base, pal.color(QPalette::Highlight), dark ? 0.22 : 0.10);
        break;
    case TranscriptModel::Kind::Tool:
        fill = mix(base, text, 0.04);
        border = mix(base, text, 0.18);
        break;
    case TranscriptModel::Kind::Error:
        fill = mix(base, errorColour, 0.12);
        border = mix(base, errorColour, 0.5);
        break;
    case TranscriptModel::Kind::Notice:
        fill = mix(base, noticeColour, 0.12);
        border = mix(base, noticeColour, 0.5);
        break;
    case TranscriptModel::Kind::Assistant:
        break;
    }
    if (option.state & QStyle::State_Selected)
        border = pal.color(QPalette::Highlight);
    painter->setPen(border == Qt::transparent ? Qt::NoPen : QPen(border, 1));
    painter->setBrush(fill);
    painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);

    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics fm(option.font);
    QRect header = l.header;
    if (kind == TranscriptModel::Kind::Tool) {
        // Chevron, status dot, tool name, then what happened.
        const bool expanded = index.data(TranscriptModel::ExpandedRole).toBool();
        const QPointF c(header.left() + 5, header.center().y() + 0.5);
        QPainterPath chevron;
        if (expanded) {
            chevron.moveTo(c + QPointF(-4, -2));
            chevron.lineTo(c + QPointF(4, -2));
            chevron.lineTo(c + QPointF(0, 3));
        } else {
            chevron.moveTo(c + QPointF(-2, -4));
            chevron.lineTo(c + QPointF(3, 0));
            chevron.lineTo(c + QPointF(-2, 4));
        }
        chevron.closeSubpath();
        painter->setPen(Qt::NoPen);
        painter->setBrush(muted);
        painter->drawPath(chevron);
        const QString status = index.data(TranscriptModel::StatusRole).toString();
        painter->setBrush(statusColour(status, dark));
        painter->drawEllipse(QPointF(header.left() + 18, c.y()), 4, 4);
        header.setLeft(header.left() + 28);
    }
    painter->setFont(bold);
    painter->setPen(kind == TranscriptModel::Kind::Error    ? errorColour
                    : kind == TranscriptModel::Kind::Notice ? noticeColour
                                                            : text);
    painter->drawText(header, Qt::AlignLeft | Qt::AlignVCenter, r.header);
    if (!r.meta.isEmpty()) {
        QRect meta = header;
        meta.setLeft(header.left() + QFontMetrics(bold).horizontalAdvance(r.header) + 2 * Gap);
        if (l.open.isValid())
            meta.setRight(l.open.left() - Gap);
        painter->setFont(option.font);
        painter->setPen(statusColour(index.data(TranscriptModel::StatusRole).toString(), dark));
        painter->drawText(meta,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          fm.elidedText(r.meta, Qt::ElideRight, meta.width()));
    }
    painter->setFont(option.font);
    if (l.open.isValid()) {
        painter->setPen(pal.color(QPalette::Link));
        painter->drawText(l.open, Qt::AlignCenter, tr("Open in editor"));
    }
    if (l.retry.isValid()) {
        QStyleOptionButton button;
        button.rect = l.retry;
        button.text = tr("Retry");
        button.palette = pal;
        button.state = QStyle::State_Enabled | QStyle::State_Raised;
        QApplication::style()->drawControl(QStyle::CE_PushButton, &button, painter);
    }
    if (kind == TranscriptModel::Kind::Assistant && l.toggle.isValid()) {
        const bool shown = index.data(TranscriptModel::ExpandedRole).toBool();
        painter->setPen(muted);
        painter->drawText(l.toggle,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          (shown ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                              + (shown ? tr("Hide reasoning") : tr("Show reasoning")));
    }

    // What of this row is on screen, in the row's coordinates: a long answer or an open card
    // lays out only the blocks that show.
    QRect visible = m_view->viewport()->rect().intersected(option.rect);
    visible = visible.isEmpty() ? QRect(QPoint(0, 0), option.rect.size())
                                : visible.translated(-option.rect.topLeft());
    auto drawDocument = [&](QTextDocument *doc, const QRect &rect, const QColor &colour) {
        if (!doc || !rect.intersects(visible))
            return;
        painter->save();
        painter->translate(rect.topLeft());
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = pal;
        context.palette.setColor(QPalette::Text, colour);
        context.clip = QRectF(rect.intersected(visible).translated(-rect.topLeft()));
        painter->setClipRect(context.clip);
        doc->documentLayout()->draw(painter, context);
        painter->restore();
    };
    if (r.reasoning) {
        painter->setPen(mix(base, text, 0.25));
        painter->drawLine(l.reasoning.left() - Padding / 2,
                          l.reasoning.top(),
                          l.reasoning.left() - Padding / 2,
                          l.reasoning.bottom());
        drawDocument(r.reasoning.get(), l.reasoning, muted);
    }
    for (const Rendered::Chunk &chunk : r.chunks)
        drawDocument(chunk.doc.get(),
                     QRect(l.body.left(), l.body.top() + chunk.top, l.body.width(), chunk.height),
                     kind == TranscriptModel::Kind::Error ? errorColour : text);
    if (!r.moreLines.isEmpty()) {
        painter->setPen(muted);
        painter->drawText(QRect(l.body.left(), l.body.bottom() + Gap, l.body.width(), fm.height()),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          r.moreLines);
    }
    if (l.files.isValid()) {
        painter->setPen(muted);
        painter->drawText(l.files,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          fm.elidedText(r.files, Qt::ElideMiddle, l.files.width()));
    }
    painter->restore();
}

TranscriptDelegate::Hit
TranscriptDelegate::hitTest(const QModelIndex &index, const QPoint &pointInRow, QString *link) const
{
    if (!index.isValid())
        return Hit::None;
    const Rendered &r = rendered(index);
    const Layout &l = r.layout;
    if (l.open.contains(pointInRow))
        return Hit::OpenInEditor;
    if (l.retry.contains(pointInRow))
        return Hit::Retry;
    if (l.toggle.contains(pointInRow))
        return Hit::Toggle;
    for (const Rendered::Chunk &chunk : r.chunks) {
        const QRect at(l.body.left(), l.body.top() + chunk.top, l.body.width(), chunk.height);
        if (!at.contains(pointInRow))
            continue;
        const QString anchor
            = chunk.doc->documentLayout()->anchorAt(QPointF(pointInRow - at.topLeft()));
        if (!anchor.isEmpty()) {
            if (link)
                *link = anchor;
            return Hit::Link;
        }
    }
    return Hit::None;
}

QRect TranscriptDelegate::partRect(const QModelIndex &index, Hit part) const
{
    if (!index.isValid())
        return {};
    const Layout &l = rendered(index).layout;
    switch (part) {
    case Hit::Toggle:
        return l.toggle;
    case Hit::OpenInEditor:
        return l.open;
    case Hit::Retry:
        return l.retry;
    case Hit::Link:
    case Hit::None:
        break;
    }
    return {};
}

bool TranscriptDelegate::editorEvent(QEvent *event,
                                     QAbstractItemModel *model,
                                     const QStyleOptionViewItem &option,
                                     const QModelIndex &index)
{
    if (event->type() != QEvent::MouseButtonRelease)
        return QStyledItemDelegate::editorEvent(event, model, option, index);
    auto *mouse = static_cast<QMouseEvent *>(event);
    if (mouse->button() != Qt::LeftButton)
        return false;
    QString link;
    switch (hitTest(index, mouse->position().toPoint() - option.rect.topLeft(), &link)) {
    case Hit::Toggle:
        if (auto *transcript = qobject_cast<TranscriptModel *>(model))
            transcript->toggleExpanded(index.row());
        return true;
    case Hit::OpenInEditor:
        Q_EMIT openInEditorRequested(index);
        return true;
    case Hit::Retry:
        Q_EMIT retryRequested();
        return true;
    case Hit::Link:
        Q_EMIT linkActivated(link);
        return true;
    case Hit::None:
        break;
    }
    return false;
}

} // namespace Sandcastle
