// libclang is loaded on first use, not linked: commands that parse C++ fail
// with one line naming the library when it cannot be loaded (exit 2), and the
// commands that never parse C++ do not notice. TORCHABI_LIBCLANG names the
// library to load instead of the one found at build time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "audit_fixtures.h"
#include "cli_harness.h"

namespace torchabi::e2e {
namespace {

constexpr const char* kMissing = "/nonexistent/libclang-e2e.so";

// run_torchabi passes this process's environment to the child.
struct MissingLibclang {
  MissingLibclang() { setenv("TORCHABI_LIBCLANG", kMissing, 1); }
  ~MissingLibclang() { unsetenv("TORCHABI_LIBCLANG"); }
};

std::string one_source() {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/a.cpp") << "int f() { return 1; }\n";
  return dir + "/a.cpp";
}

TEST(LibclangLoading, LintWithoutLibclangFailsInOneLine) {
  const std::string src = one_source();
  MissingLibclang env;
  auto r = run_torchabi({"lint", "--no-cache", src, "--", "-std=c++17"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, std::string("torchabi: error: ") + kMissing +
                       ": cannot load libclang (from TORCHABI_LIBCLANG): cannot open shared object file: No such file "
                       "or directory; lint, migrate and the registration checks need libclang\n");
  EXPECT_EQ(r.out, "");
}

TEST(LibclangLoading, LintLoadsLibclangWhenPresent) {
  auto r = run_torchabi({"lint", "--no-cache", one_source(), "--", "-std=c++17"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(LibclangLoading, AuditNeverLoadsLibclang) {
  if (!std::filesystem::exists(audit::stable_lib())) GTEST_SKIP() << "fixtures not built";
  auto with = run_torchabi({"audit", "--format", "json", audit::stable_lib()});
  MissingLibclang env;
  auto without = run_torchabi({"audit", "--format", "json", audit::stable_lib()});
  EXPECT_EQ(without.exit_code, with.exit_code) << without.err;
  EXPECT_EQ(without.err.find("libclang"), std::string::npos) << without.err;
  EXPECT_EQ(without.json()["findings"], with.json()["findings"]);
}

}  // namespace
}  // namespace torchabi::e2e
