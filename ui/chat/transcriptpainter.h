#pragma once

#include "transcriptmodel.h"
#include "transcriptrowlayout.h"

#include <QColor>
#include <QRect>

class QModelIndex;
class QPainter;
class QStyleOptionViewItem;
class QTextDocument;

namespace Sandcastle {

class Thumbnails;

// Paints one laid-out transcript row: its frame (a tinted bubble for the person, a bordered card
// for a tool, a banner for an error or a note; the answer sits on the plain ground), the header
// with a tool's status, the buttons, and the documents of the part of the row that is visible.
class TranscriptPainter
{
public:
    // `visible`: what of the view shows, in the view's coordinates.
    TranscriptPainter(QPainter *painter,
                      const QStyleOptionViewItem &option,
                      const QModelIndex &index,
                      const TranscriptRowLayout &row,
                      const QRect &visible,
                      const Thumbnails *thumbnails = nullptr);

    void paint();

private:
    void paintFrame();
    QRect paintToolStatus(QRect header);
    void paintHeader();
    void paintButtons();
    void paintSection(const TranscriptRowLayout::Section &section, const QColor &colour);
    void paintDocuments();
    void drawDocument(QTextDocument *doc, const QRect &rect, const QColor &colour);
    void paintFooter();
    void paintThumbnails();

    QPainter *m_painter;
    const QStyleOptionViewItem &m_option;
    const QModelIndex &m_index;
    const TranscriptRowLayout &m_row;
    QRect m_visible; // in the row's coordinates
    const Thumbnails *m_thumbnails = nullptr;
    TranscriptModel::Kind m_kind;
    QColor m_text, m_base, m_muted, m_error, m_notice;
};

} // namespace Sandcastle
