# `cmake --install` and `cpack -G DEB`: the torchabi binary in bin/ and the
# reference runtime next to it in lib/torchabi-runtime/, where `torchabi run`
# looks first (driver/supervisor.cpp). Rules are compiled into the binary.
# Included before src/ so that its folders see GNUInstallDirs.
include(GNUInstallDirs)
# The binary and the runtime libraries are installed by their own folders
# (src/cli, src/analyzers/runtime). `cmake --install` and cpack install what
# was built; they do not build it again (CI runs them after the build, and a
# rebuild during the test suite would replace the binary under running tests).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT torchabi)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT torchabi)

set(CPACK_PACKAGE_NAME torchabi)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Checks PyTorch C++/CUDA extensions against the LibTorch stable ABI")
set(CPACK_PACKAGE_CONTACT "torchabi maintainers <torchabi@invalid>")
set(CPACK_COMPONENTS_ALL torchabi)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Debug information stays in the build tree (the binary is 10x larger with it).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Shared libraries the binary links come from dpkg-shlibdeps (libarchive,
# libelf, yaml-cpp, zstd, bzip2 and zlib are linked statically:
# cmake/StaticDeps.cmake); libclang and libzip are loaded at run time
# (libclang_loader.h, libzip_loader.h), so their packages are named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
get_filename_component(_libclang_real "${LIBCLANG_LIBRARY}" REALPATH)
execute_process(COMMAND dpkg-query -S "${_libclang_real}" OUTPUT_VARIABLE _libclang_owner ERROR_QUIET
                OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "^[^:]+" _libclang_pkg "${_libclang_owner}")
if(_libclang_pkg)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_libclang_pkg}")
endif()
# libzip is loaded on first use too (src/inputs/libzip_loader): named the same way.
find_library(_libzip_so NAMES zip NO_CACHE)
if(_libzip_so)
  get_filename_component(_libzip_real "${_libzip_so}" REALPATH)
  execute_process(COMMAND dpkg-query -S "${_libzip_real}" OUTPUT_VARIABLE _libzip_owner ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX MATCH "^[^:]+" _libzip_pkg "${_libzip_owner}")
  if(_libzip_pkg)
    list(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS "${_libzip_pkg}")
    string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}")
  endif()
endif()
# `torchabi scan` runs its front end (share/torchabi/scan.py) on Debian's
# Python with Dask; the rest of the tool works without them.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-distributed")
# The runtime libraries' own directory is not a system library directory:
# dpkg-shlibdeps must not look for them in shlibs files.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
include(CPack)
