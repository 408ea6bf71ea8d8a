// A stand-alone fake OpenAI-compatible server for trying the CLI and the window by hand:
//   fake_openai_server --script script.json [--port N]
// prints the base URL, then serves the scripted responses in order until stopped.
#include "fakeopenaiserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scripted OpenAI-compatible server on 127.0.0.1"));
    parser.addHelpOption();
    const QCommandLineOption script(
        QStringLiteral("script"), QStringLiteral("JSON script file"), QStringLiteral("FILE"));
    const QCommandLineOption port(
        QStringLiteral("port"), QStringLiteral("port (default: any free)"), QStringLiteral("N"));
    parser.addOptions({script, port});
    parser.process(app);

    Sandcastle::Testing::FakeOpenAiServer server;
    if (parser.isSet(script)) {
        QFile file(parser.value(script));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(
                stderr, "fake_openai_server: cannot read %s\n", qPrintable(parser.value(script)));
            return 2;
        }
        QString error;
        if (!server.loadScript(file.readAll(), &error)) {
            std::fprintf(stderr, "fake_openai_server: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (!server.listen(quint16(parser.value(port).toUShort()))) {
        std::fprintf(stderr, "fake_openai_server: cannot listen\n");
        return 1;
    }
    std::printf("%s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);
    return app.exec();
}
