// The stand-in PyTorch installs built by fixtures/torch_standins (two tiny
// "releases" that differ in known ways, laid out as real installs are) and
// the extensions built against them. Tests that use them skip when the
// fixtures are not built (TORCHABI_BUILD_FIXTURES=OFF).
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace torchabi::test {

#ifdef TORCHABI_STANDIN_DIR
inline constexpr bool kHaveStandins = true;
inline std::string standin(const std::string& rel) { return std::string(TORCHABI_STANDIN_DIR) + "/" + rel; }
inline std::string standin_v1_version() { return TORCHABI_STANDIN_V1_VERSION; }
inline std::string standin_v2_version() { return TORCHABI_STANDIN_V2_VERSION; }
#else
inline constexpr bool kHaveStandins = false;
inline std::string standin(const std::string&) { return {}; }
inline std::string standin_v1_version() { return {}; }
inline std::string standin_v2_version() { return {}; }
#endif

inline std::string standin_v1() { return standin("v1/torch"); }          // a site-packages/torch
inline std::string standin_v2() { return standin("v2/libtorch"); }       // a libtorch directory
inline std::string standin_wheel() { return standin("torch-9.1.0-cp311-cp311-linux_x86_64.whl"); }
inline std::string standin_ext() { return standin("ext/libstandin_ext.so"); }        // built against v1
inline std::string standin_ext_v2() { return standin("ext/libstandin_ext_v2.so"); }  // built against v2
inline std::string standin_stable() { return standin("ext/libstandin_stable.so"); }  // one stable shim import, v1

}  // namespace torchabi::test

#define TORCHABI_REQUIRE_STANDINS()                                                                 \
  do {                                                                                              \
    if (!::torchabi::test::kHaveStandins) GTEST_SKIP() << "fixtures/torch_standins is not built"; \
  } while (0)
