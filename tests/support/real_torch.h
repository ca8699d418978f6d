// Debian's newest PyTorch, unpacked by scripts/fetch-torch.sh (the README's
// test command runs it before building): the real stable headers, the real
// libtorch libraries and torchgen's native_functions.yaml. Every check that
// depends on what PyTorch's files say is also tested against these; the tests
// skip with the fetch script's one-line reason only when they are absent.
#pragma once

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace torchabi::test {

// DEST/root of scripts/fetch-torch.sh; nullopt when the fetch did not happen.
inline std::optional<std::string> real_torch_root() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("TORCHABI_REAL_TORCH_ROOT");
  std::string root = env && *env ? env : TORCHABI_REAL_TORCH_ROOT;
  if (!fs::exists(fs::path(root) / ".torchabi-fetched")) return std::nullopt;
  return root;
}

// Why real PyTorch is not there: the fetch script's own message, or how to get it.
inline std::string real_torch_missing_reason() {
  namespace fs = std::filesystem;
  std::string root = TORCHABI_REAL_TORCH_ROOT;
  std::ifstream err(fs::path(root).parent_path() / "fetch-error");
  std::string line;
  if (err && std::getline(err, line) && !line.empty()) return line;
  return "Debian's newest PyTorch is not unpacked at " + root + " (run scripts/fetch-torch.sh)";
}

inline std::string real_torch_include() { return real_torch_root().value_or("") + "/usr/include"; }

// The directory holding libtorch_cpu.so (usr/lib/<multiarch triplet>).
inline std::string real_torch_libdir() {
  namespace fs = std::filesystem;
  auto root = real_torch_root();
  if (!root) return {};
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(fs::path(*root) / "usr/lib", ec))
    if (fs::exists(d.path() / "libtorch_cpu.so")) return d.path().string();
  return {};
}

inline std::string real_native_functions() {
  return real_torch_root().value_or("") +
         "/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml";
}

// ATen's native_functions.yaml of the PyTorch this machine has installed from
// its own Debian suite (bookworm's python3-torch: 1.13.1), a test dependency.
inline std::string installed_native_functions() {
  return "/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml";
}

// The first of `candidates` that exists; the last one when none does (for the skip message).
inline std::string first_existing(std::initializer_list<std::string> candidates) {
  for (const auto& c : candidates)
    if (!c.empty() && std::filesystem::exists(c)) return c;
  return candidates.size() ? *(candidates.end() - 1) : std::string();
}

// "libtorch-dev 2.14.1+dfsg-1" ...: what was unpacked, for messages.
inline std::string real_torch_packages() {
  std::ifstream in(real_torch_root().value_or("") + "/.torchabi-fetched");
  std::string all, line;
  while (std::getline(in, line)) all += (all.empty() ? "" : ", ") + line;
  return all;
}

}  // namespace torchabi::test

// Skips the current test, with the reason, when real PyTorch is not unpacked.
#define TORCHABI_REQUIRE_REAL_TORCH()                                                   \
  do {                                                                                  \
    if (!::torchabi::test::real_torch_root()) GTEST_SKIP() << ::torchabi::test::real_torch_missing_reason(); \
  } while (0)
