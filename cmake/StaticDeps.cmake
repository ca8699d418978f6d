# The small C/C++ libraries torchabi uses, linked statically when their
# archives are installed (Debian's -dev packages ship them): every shared
# library costs each process its relocations at start, and libarchive alone
# brought libxml2, ICU, libcrypto, nettle, acl, lzma and lz4 (20 libraries in
# all, ~2/3 of an audit's start-up; bench/audit). Statically, only the code
# torchabi reaches is linked: libarchive's tar reader with its bzip2 and zstd
# filters needs none of those. The wheel (scripts/build-wheel.sh) then ships
# fewer libraries too. libzip is loaded on first use instead
# (src/inputs/libzip_loader): Debian has no libzip.a.
#
# Rewrites the imported targets found by the top-level CMakeLists.txt, so that
# everything linking them (the tool, the tests, the fixture generators) links
# the archives; except libarchive: its writers (which the tests and fixture
# generators use) need more libraries (libxml2, lzma, nettle, ...), so only
# torchabi's readers link `torchabi_libarchive`: its archive followed by those
# libraries, of which the linker's --as-needed (Debian's default) keeps only
# what the linked members use. OFF: the shared libraries, as before.
option(TORCHABI_STATIC_DEPS "Link libarchive, libelf, yaml-cpp, zstd, bzip2 and zlib statically when their archives are installed" ON)

add_library(torchabi_libarchive INTERFACE)
if(TORCHABI_STATIC_DEPS)
  set(_torchabi_static_found "")
  # $1: a variable set to the archive's path, or left empty.
  macro(_torchabi_find_archive var name)
    find_library(${var} NAMES lib${name}.a NO_CACHE)
  endmacro()
  _torchabi_find_archive(_a_archive archive)
  _torchabi_find_archive(_a_elf elf)
  _torchabi_find_archive(_a_yaml yaml-cpp)
  _torchabi_find_archive(_a_zstd zstd)
  _torchabi_find_archive(_a_bz2 bz2)
  _torchabi_find_archive(_a_z z)
  set(_zstd ${ZSTD_LIBRARY})
  set(_z ZLIB::ZLIB)
  if(_a_zstd)
    set(_zstd ${_a_zstd})
    set(ZSTD_LIBRARY ${_a_zstd})
    list(APPEND _torchabi_static_found zstd)
  endif()
  if(_a_z)
    set_target_properties(ZLIB::ZLIB PROPERTIES IMPORTED_LOCATION ${_a_z})
    foreach(_cfg RELEASE DEBUG NONE)
      get_target_property(_loc ZLIB::ZLIB IMPORTED_LOCATION_${_cfg})
      if(_loc)
        set_target_properties(ZLIB::ZLIB PROPERTIES IMPORTED_LOCATION_${_cfg} ${_a_z})
      endif()
    endforeach()
    list(APPEND _torchabi_static_found zlib)
  endif()
  if(_a_archive)
    # The readers torchabi uses (tar, bzip2, zstd) and what they need.
    get_target_property(_inc PkgConfig::LIBARCHIVE INTERFACE_INCLUDE_DIRECTORIES)
    if(_inc)
      target_include_directories(torchabi_libarchive INTERFACE ${_inc})
    endif()
    # What `pkg-config --static` names (nettle, acl, lzma, zstd, lz4, bz2, z,
    # xml2): the archive when found above, else the shared library, else its
    # runtime file (Debian's liblz4-dev, libacl1-dev need not be installed).
    set(_deps "")
    foreach(_l IN LISTS LIBARCHIVE_STATIC_LIBRARIES)
      if(_l STREQUAL "archive")
        continue()
      elseif(_l STREQUAL "zstd")
        list(APPEND _deps ${_zstd})
      elseif(_l STREQUAL "z")
        list(APPEND _deps ${_z})
      elseif(_l STREQUAL "bz2" AND _a_bz2)
        list(APPEND _deps ${_a_bz2})
      else()
        find_library(_dep NAMES ${_l} lib${_l}.so.1 lib${_l}.so.2 lib${_l}.so.5 lib${_l}.so.8 NO_CACHE)
        if(_dep)
          list(APPEND _deps ${_dep})
        endif()
        unset(_dep)
      endif()
    endforeach()
    target_link_libraries(torchabi_libarchive INTERFACE ${_a_archive} ${_deps})
    list(APPEND _torchabi_static_found libarchive)
  endif()
  if(_a_elf)
    set_target_properties(PkgConfig::LIBELF PROPERTIES INTERFACE_LINK_LIBRARIES "${_a_elf};${_zstd};${_z}")
    list(APPEND _torchabi_static_found libelf)
  endif()
  if(_a_yaml)
    foreach(_cfg RELEASE DEBUG NONE RELWITHDEBINFO MINSIZEREL)
      get_target_property(_loc yaml-cpp IMPORTED_LOCATION_${_cfg})
      if(_loc)
        set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION_${_cfg} ${_a_yaml})
      endif()
    endforeach()
    list(APPEND _torchabi_static_found yaml-cpp)
  endif()
  message(STATUS "Linked statically: ${_torchabi_static_found}")
endif()
if(NOT _a_archive)
  target_link_libraries(torchabi_libarchive INTERFACE PkgConfig::LIBARCHIVE)
endif()
