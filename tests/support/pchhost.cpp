// The unit that carries the test suites' precompiled header (tests/CMakeLists.txt): the header
// is made for it and reused by every tst_*.cpp of the same layer. Nothing else lives here.
