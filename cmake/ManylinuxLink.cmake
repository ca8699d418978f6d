# The wheel's program, linked for an old glibc (manylinux_2_28; docs/install.md,
# "Which systems"): `torchabi-manylinux`, the same objects as `torchabi`
# linked again against the glibc of TORCHABI_GLIBC_SYSROOT (Debian bullseye's
# libc6 and libc6-dev, glibc 2.31, unpacked by scripts/fetch-glibc-sysroot.sh;
# scripts/build-wheel.sh sets it). Only the link differs: the start files
# (Scrt1.o: the old __libc_start_main, which runs the program's constructors)
# and libc.so/libpthread.so/libdl.so of the old glibc bind every call to the
# version glibc 2.31 has (libc_nonshared.a supplies stat & co., inlines
# before 2.33), libstdc++ is linked statically (the program lives in the
# environment's scripts directory, which no RUNPATH into the package can
# reach), and packaging/glibc_compat/compat.c (a static archive here) supplies
# what the objects, compiled with the build machine's newer headers, take from
# a newer glibc (arc4random, __libc_single_threaded). The few references to
# glibc 2.29-2.31 left are re-pointed by packaging/glibc_floor.py like the
# shipped libraries'.
#
# Also `torchabi_glibc_compat_shared`: compat.c as libtorchabi-glibc-compat.so,
# linked against the old libc.so.6 only, for the shipped libraries; and
# `torchabi_runtime_manylinux`: the reference runtime's libraries linked
# again the same way into manylinux/torchabi-runtime/, with compat_cxx.cpp
# (libstdc++ functions newer than GCC 8's) but the system's libstdc++: the
# runtime shares its process with the extension it runs.
set(TORCHABI_GLIBC_SYSROOT "" CACHE PATH "An old glibc (scripts/fetch-glibc-sysroot.sh): adds the torchabi-manylinux target")
if(NOT TORCHABI_GLIBC_SYSROOT)
  return()
endif()
set(_s ${TORCHABI_GLIBC_SYSROOT})
set(_multiarch x86_64-linux-gnu)
if(NOT EXISTS ${_s}/usr/lib/${_multiarch}/Scrt1.o OR NOT EXISTS ${_s}/lib/${_multiarch}/libc.so.6)
  message(FATAL_ERROR "TORCHABI_GLIBC_SYSROOT=${_s} holds no glibc (scripts/fetch-glibc-sysroot.sh unpacks one)")
endif()
set(_compat_source ${PROJECT_SOURCE_DIR}/packaging/glibc_compat/compat.c)

# Objects, not an archive: the linker would not go back to an archive for
# what libstdc++.a, linked after everything, needs (__libc_single_threaded).
add_library(torchabi_glibc_compat OBJECT ${_compat_source})
# Its own declarations only (compat.c includes no header), no stack protector
# (__stack_chk_fail is glibc's), no unity batch.
target_compile_options(torchabi_glibc_compat PRIVATE -fno-stack-protector -fvisibility=hidden)
set_target_properties(torchabi_glibc_compat PROPERTIES UNITY_BUILD OFF POSITION_INDEPENDENT_CODE ON)

add_library(torchabi_glibc_compat_shared SHARED ${_compat_source})
target_compile_options(torchabi_glibc_compat_shared PRIVATE -fno-stack-protector -fvisibility=hidden)
target_link_options(torchabi_glibc_compat_shared PRIVATE -nostdlib
  -Wl,--version-script=${PROJECT_SOURCE_DIR}/packaging/glibc_compat/compat.map)
set_property(TARGET torchabi_glibc_compat_shared APPEND PROPERTY LINK_DEPENDS
  ${PROJECT_SOURCE_DIR}/packaging/glibc_compat/compat.map)
target_link_libraries(torchabi_glibc_compat_shared PRIVATE ${_s}/lib/${_multiarch}/libc.so.6)
set_target_properties(torchabi_glibc_compat_shared PROPERTIES UNITY_BUILD OFF OUTPUT_NAME torchabi-glibc-compat
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/manylinux NO_SONAME OFF)

add_executable(torchabi-manylinux $<TARGET_OBJECTS:torchabi> $<TARGET_OBJECTS:torchabi_glibc_compat>)
set_target_properties(torchabi-manylinux PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/manylinux
  OUTPUT_NAME torchabi)
target_link_libraries(torchabi-manylinux PRIVATE torchabi_cli torchabi_common)
# -B: the old start files; -L: the old libc.so & co. (linker scripts naming
# /lib/...: --sysroot has the linker read those inside the sysroot); -pthread:
# libpthread after libstdc++.a (glibc 2.31 keeps pthread_create there; the
# build machine's FindThreads, on glibc 2.36, adds nothing); libgcc_s is the
# build machine's (GCC 12's, which needs _dl_find_object of glibc 2.35): only
# its interface is linked, the system's copy is what runs, hence
# --allow-shlib-undefined.
set(_old_glibc_link
  -B${_s}/usr/lib/${_multiarch}/ -L${_s}/usr/lib/${_multiarch} -L${_s}/lib/${_multiarch} -Wl,--sysroot=${_s}
  -pthread -Wl,--allow-shlib-undefined)
target_link_options(torchabi-manylinux PRIVATE ${_old_glibc_link} -static-libstdc++)

add_custom_target(torchabi_runtime_manylinux)
get_target_property(_runtime_targets torchabi_runtime_libs MANUALLY_ADDED_DEPENDENCIES)
foreach(_t IN LISTS _runtime_targets)
  if(NOT _t MATCHES "^torchabi_runtime_[0-9_]+$")
    continue()  # the stand-in template: C, nothing newer than glibc 2.28's
  endif()
  get_target_property(_name ${_t} OUTPUT_NAME)
  get_target_property(_opts ${_t} LINK_OPTIONS)
  get_target_property(_deps ${_t} LINK_DEPENDS)
  add_library(${_t}_manylinux SHARED $<TARGET_OBJECTS:torchabi_runtime_objects>
    $<TARGET_OBJECTS:torchabi_glibc_compat> ${PROJECT_SOURCE_DIR}/packaging/glibc_compat/compat_cxx.cpp)
  set_target_properties(${_t}_manylinux PROPERTIES OUTPUT_NAME ${_name} UNITY_BUILD OFF
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/manylinux/torchabi-runtime LINK_DEPENDS "${_deps}")
  target_link_options(${_t}_manylinux PRIVATE ${_opts} ${_old_glibc_link})
  add_dependencies(torchabi_runtime_manylinux ${_t}_manylinux)
endforeach()
