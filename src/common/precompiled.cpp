// Gives CMake a translation unit to build precompiled.h from (src/CMakeLists.txt).
