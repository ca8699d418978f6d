// `torchabi rules import`: a rules directory from an installed torch's stable
// headers (the stand-ins, and PyTorch's real ones), usable with --rules-dir;
// and lint, which imports the torch headers of the compile flags by itself,
// on the real headers at every TORCH_TARGET_VERSION they serve.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <sstream>
#include <algorithm>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e::lint {
namespace {

// The first integer `#define NAME <int>` / `NAME: "<a>.<b>"` of a file.
int read_number(const std::string& path, const std::string& pattern) {
  std::smatch m;
  const std::string text = read_all(path);
  return std::regex_search(text, m, std::regex(pattern)) ? std::stoi(m[1].str()) : -1;
}

// (major, minor) of every release from the rules' baseline to the real headers' own.
std::vector<std::pair<int, int>> real_targets() {
  const std::string version_h = ::torchabi::test::real_torch_include() + "/torch/headeronly/version.h";
  const int major = read_number(version_h, R"(#define\s+TORCH_VERSION_MAJOR\s+([0-9]+))");
  const int minor = read_number(version_h, R"(#define\s+TORCH_VERSION_MINOR\s+([0-9]+))");
  const std::string releases = source_dir() + "/rules/api/releases.yaml";
  const int base_major = read_number(releases, R"(baseline:\s*"([0-9]+)\.)");
  const int base_minor = read_number(releases, R"(baseline:\s*"[0-9]+\.([0-9]+))");
  std::vector<std::pair<int, int>> out;
  if (major == base_major)
    for (int m = base_minor; m <= minor; ++m) out.emplace_back(major, m);
  return out;
}

TEST(RulesImport, WritesARulesDirectoryTheToolLoads) {
  const std::string out = make_temp_dir() + "/torch-rules";
  auto r = run_torchabi({"rules", "import", "--torch-include", stand_ins(), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(torch 2.12)"), std::string::npos) << r.out;
  const std::string c = read_all(out + "/api/stable_c_functions.tsv");
  EXPECT_NE(c.find("torch_dtype_float8_e8m0fnu\t2.11.0\tfunction"), std::string::npos);
  // Every row keeps the catalog's nine columns: which backend, library and
  // build a function needs is the rules' knowledge, not the headers'.
  size_t rows = 0;
  std::istringstream lines(c);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 8) << line;
  }
  EXPECT_GT(rows, 0u);
  EXPECT_NE(c.find("\tcuda\tlibtorch_cuda\tUSE_CUDA\n"), std::string::npos);
  const std::string cxx = read_all(out + "/api/stable_cxx_apis.tsv");
  EXPECT_NE(cxx.find("torch::stable::reshape\t2.10\tfunction\ttorch/csrc/stable/ops.h"), std::string::npos);
  EXPECT_NE(cxx.find("STD_CUDA_KERNEL_LAUNCH_CHECK\t2.10\tmacro\ttorch/csrc/stable/macros.h"), std::string::npos);

  auto list = run_torchabi({"--rules-dir", out, "rules", "list", "--format", "json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  auto lint = run_torchabi({"--rules-dir", out, "lint", "--format", "json", "--cache-dir", make_temp_dir(), "--no-torch-import",
                            fixture("version-api-after-target/fires.cpp"), "--", "-std=c++17", "-I", stand_ins(),
                            "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_EQ(findings_of(lint.json(), "version-api-after-target").size(), 1u) << lint.out;
}

// The bug this guards against: the import saw only the headers' newest
// declarations, dated new_empty 2.10 by name, and lint then reported the 2.9
// overload that code built for 2.9 resolves to.
TEST(RulesImport, RealHeadersTwoNineOverloadsAreCleanAtEveryTarget) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto targets = real_targets();
  ASSERT_GE(targets.size(), 2u);
  const std::string cache = make_temp_dir();  // one import for all targets
  for (auto [major, minor] : targets) {
    char target[64];
    std::snprintf(target, sizeof target, "-DTORCH_TARGET_VERSION=0x%02x%02x000000000000", major, minor);
    auto r = run_torchabi({"lint", "--format", "json", "--cache-dir", cache,
                           fixture("version-api-after-target/real_overloads.cpp"), "--", "-std=c++17", "-I",
                           ::torchabi::test::real_torch_include(), target});
    ASSERT_NE(r.exit_code, 2) << r.err;
    auto json = r.json();
    EXPECT_TRUE(findings_of(json, "version-api-after-target").empty()) << target << "\n" << r.out;
    EXPECT_TRUE(findings_of(json, "version-target-implausible").empty()) << target << "\n" << r.out;
  }
  auto fires = run_torchabi({"lint", "--format", "json", "--cache-dir", cache, fixture("version-api-after-target/real_fires.cpp"),
                             "--", "-std=c++17", "-I", ::torchabi::test::real_torch_include(),
                             "-DTORCH_TARGET_VERSION=0x0209000000000000"});
  EXPECT_EQ(findings_of(fires.json(), "version-api-after-target"),
            (std::vector<Found>{{fixture("version-api-after-target/real_fires.cpp"), 11, 84, "torch::stable::reshape"}}))
      << fires.out;
}

TEST(RulesImport, CxxTableFromTheRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string table = make_temp_dir() + "/cxx.tsv";
  auto r = run_torchabi({"rules", "import", "--torch-include", ::torchabi::test::real_torch_include(), "--cxx-table", table});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("also parsed at TORCH_TARGET_VERSION"), std::string::npos) << r.out;
  const std::string t = read_all(table);
  EXPECT_NE(t.find("\ntorch::stable::Tensor\t"), std::string::npos);
  // Every row is name, since, kind, header.
  std::istringstream in(t);
  size_t rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 3) << line;
  }
  EXPECT_GT(rows, 100u);
}

TEST(RulesImport, NothingToWriteIsOneLineExit2) {
  auto r = run_torchabi({"rules", "import", "--torch-include", stand_ins()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(RulesImport, DirectoryWithoutStableHeadersIsOneLineExit2) {
  const std::string out = make_temp_dir() + "/r";
  auto r = run_torchabi({"rules", "import", "--torch-include", "/usr/include", "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("/usr/include"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
}

std::string run_command(const std::string& cmd) {
  std::string out;
  if (FILE* f = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
    ::pclose(f);
  }
  return out;
}

// A whole install: the headers found from the library directory (Debian keeps
// them in /usr/include), the operator schemas from its torchgen, and every
// shim function its libraries export known to the written catalog.
TEST(RulesImport, WholeDebianInstallGivesHeadersSchemasAndExports) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string libdir = ::torchabi::test::real_torch_libdir();
  const std::string out = make_temp_dir() + "/from-install";
  auto r = run_torchabi({"rules", "import", "--torch", libdir, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("its ATen operator schemas"), std::string::npos) << r.out;

  // The schemas are the install's: one row per `- func:` of its native_functions.yaml.
  const std::string yaml = read_all(::torchabi::test::real_native_functions());
  size_t funcs = 0;
  for (size_t p = yaml.find("\n- func: "); p != std::string::npos; p = yaml.find("\n- func: ", p + 1)) ++funcs;
  const std::string ops = read_all(out + "/schema/aten_ops.tsv");
  size_t rows = 0;
  std::istringstream in(ops);
  for (std::string line; std::getline(in, line);) rows += !line.empty() && line[0] != '#';
  EXPECT_EQ(rows, funcs);
  const std::string version_py = read_all(::torchabi::test::real_torch_root().value() +
                                          "/usr/lib/python3/dist-packages/torch/version.py");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(version_py, m, std::regex(R"(__version__ = '([0-9]+\.[0-9]+\.[0-9]+))")));
  EXPECT_NE(ops.find("# release: " + m[1].str() + "\n"), std::string::npos) << ops.substr(0, 400);

  // Every C shim function libtorch_cpu exports is in the written catalog.
  const std::string catalog = read_all(out + "/api/stable_c_functions.tsv");
  auto nm = run_command("nm -D --defined-only '" + libdir + "/libtorch_cpu.so'");
  std::istringstream syms(nm);
  size_t exported = 0;
  for (std::string line; std::getline(syms, line);) {
    const std::string name = line.substr(line.rfind(' ') + 1);
    if (!name.starts_with("aoti_torch_") && !name.starts_with("torch_")) continue;
    ++exported;
    EXPECT_NE(catalog.find("\n" + name + "\t"), std::string::npos) << name;
  }
  EXPECT_GT(exported, 100u);

  // The rules directory works.
  auto list = run_torchabi({"--rules-dir", out, "rules", "list"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
}

TEST(RulesImport, NoInstallOrBothSourcesIsOneLineExit2) {
  const std::string out = make_temp_dir() + "/r";
  const std::string empty = make_temp_dir();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"rules", "import", "--torch", empty, "-o", out},
           {"rules", "import", "--torch", empty, "--torch-include", stand_ins(), "-o", out},
           {"rules", "import", "-o", out}}) {
    auto r = run_torchabi(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace
}  // namespace torchabi::e2e::lint
