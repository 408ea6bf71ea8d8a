#pragma once

#include <QLineEdit>

namespace Sandcastle {

// QLineEdit::setClearButtonEnabled(true), but on the first text typed: the button shows only
// over a text anyway, and its icon comes from the style as a PNG, whose reading loads every
// image plugin (a few milliseconds the window's first frame does not need).
inline void enableClearButtonWhenTyped(QLineEdit *edit)
{
    const auto enable = [edit] {
        if (!edit->isClearButtonEnabled() && !edit->text().isEmpty())
            edit->setClearButtonEnabled(true);
    };
    enable();
    QObject::connect(edit, &QLineEdit::textChanged, edit, enable);
}

} // namespace Sandcastle
