#pragma once

#include <QDialog>

class QLabel;

namespace Sandcastle {

class ContainerEngine;

// Help → About: what Sandcastle is and the versions a bug report needs — Sandcastle, Qt (built
// with and running), QScintilla, and the container engine (asked off the UI thread).
class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    AboutDialog(const ContainerEngine &engine, QWidget *parent = nullptr);

    // The versions as plain lines (also what "Copy" puts on the clipboard).
    QString versionsText() const;

private:
    void showVersions();

    QLabel *m_versions = nullptr;
    QString m_engineName;
    QString m_engineVersion;
};

} // namespace Sandcastle
