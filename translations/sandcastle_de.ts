<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Sandcastle::MainWindow</name>
    <message>
        <source>New conversation</source>
        <translation>Neues Gespräch</translation>
    </message>
</context>
</TS>
