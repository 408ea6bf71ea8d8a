# The Debian package (scripts/package; tests/install/check-deb.sh installs it with apt-get into a
# clean container). Shared libraries are found by dpkg-shlibdeps; what Qt loads as plugins (the
# SVG icon engine) and what Sandcastle runs (git) are named by hand; the container engine is a
# recommendation, since Docker and Podman both serve and either may be installed its own way.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sandcastle)
set(CPACK_PACKAGE_VENDOR "The Sandcastle developers")
set(CPACK_PACKAGE_CONTACT "The Sandcastle developers <sandcastle@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Desktop IDE where an LLM agent writes code, runs it in a sandbox and answers")
set(CPACK_PACKAGE_DESCRIPTION
    "Sandcastle is a desktop IDE in which a coding agent writes Python, runs it in a hardened
container on your own machine (Docker or Podman), reads the output, fixes its own mistakes
and answers, while you watch every step and can take part.")
set(CPACK_PACKAGE_HOMEPAGE_URL "${SANDCASTLE_HOMEPAGE}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6, git")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "docker.io | podman, debootstrap")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-translations-l10n")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
