# Finds QScintilla built for Qt 6. Debian ships no CMake config for it
# (libqscintilla2-qt6-dev), so look for the header and the library by hand.
# Defines QScintilla_FOUND and the imported target QScintilla::QScintilla.

find_path(QScintilla_INCLUDE_DIR
    NAMES Qsci/qsciscintilla.h
    HINTS ${Qt6Widgets_INCLUDE_DIRS} ${Qt6_DIR}/../../../include
    PATH_SUFFIXES qt6 x86_64-linux-gnu/qt6 aarch64-linux-gnu/qt6)

find_library(QScintilla_LIBRARY
    NAMES qscintilla2_qt6 qscintilla2-qt6)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QScintilla
    REQUIRED_VARS QScintilla_LIBRARY QScintilla_INCLUDE_DIR)

if(QScintilla_FOUND AND NOT TARGET QScintilla::QScintilla)
    add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
    set_target_properties(QScintilla::QScintilla PROPERTIES
        IMPORTED_LOCATION "${QScintilla_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${QScintilla_INCLUDE_DIR}"
        INTERFACE_COMPILE_DEFINITIONS "QSCINTILLA_DLL")
    target_link_libraries(QScintilla::QScintilla INTERFACE Qt6::Widgets Qt6::PrintSupport)
endif()

mark_as_advanced(QScintilla_INCLUDE_DIR QScintilla_LIBRARY)
