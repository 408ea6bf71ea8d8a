// The start-up baseline: a bare QMainWindow with a QsciScintilla editor (Python lexer, line
// numbers) and nothing else, reporting its first paint the way the application does.
#include <ui/firstpaint.h>

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QMainWindow>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    Sandcastle::reportFirstPaintIfAsked();
    QMainWindow window;
    auto *editor = new QsciScintilla(&window);
    editor->setLexer(new QsciLexerPython(editor));
    editor->setMarginLineNumbers(0, true);
    editor->setText(QStringLiteral("print('hello')\n"));
    window.setCentralWidget(editor);
    window.resize(1200, 800);
    window.show();
    return app.exec();
}
