// `audit` of conda packages, both formats (fixtures/conda, built by our
// make_conda from the fixture libraries): their libraries are audited as a
// wheel's are, and `depends` on PyTorch's packages is checked against the floor.
#include <filesystem>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "cli_harness.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

namespace {

std::string conda(const std::string& file) { return fixture("conda/" + file); }
const char* kMember = "lib/python3.11/site-packages/";

}  // namespace

TEST(AuditConda, LibrariesAuditedAndDependsCheckedAgainstTheFloor) {
  auto r = run_torchabi({"audit", "--format", "json", fixture("conda")});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the too-old packages are errors
  const auto j = r.json();
  // Walking a directory finds both formats.
  const auto too_old = conda("ext212_too_old-1.0-py311_0.conda");
  const auto too_old_bz2 = conda("ext212_too_old_bz2-1.0-py311_0.tar.bz2");
  const auto ok = conda("ext212_ok-1.0-py311_0.tar.bz2");
  const auto stable = conda("stable_ext-1.0-py311_0.conda");
  auto pkg = subject(j, too_old);
  EXPECT_EQ(pkg["kind"], "conda-package");
  EXPECT_EQ(pkg["verdict"], "STABLE");
  EXPECT_EQ(pkg["floor"], "2.12");
  EXPECT_EQ(pkg["facts"]["distribution"], "ext212_too_old 1.0");
  EXPECT_EQ(pkg["facts"]["format"], ".conda");
  EXPECT_EQ(pkg["facts"]["torch requirement"], "depends: pytorch >=2.10,<3");
  EXPECT_EQ(subject(j, too_old_bz2)["facts"]["format"], ".tar.bz2");
  EXPECT_EQ(subject(j, ok)["facts"]["torch requirement"], "depends: libtorch >=2.12.0,<2.13.0a0");
  // The library inside is audited as the same library outside is.
  const auto lib = subject(j, too_old + "!" + kMember + "ext212_too_old/_C.cpython-311-x86_64-linux-gnu.so");
  auto bare = run_torchabi({"audit", "--format", "json", stable_212_lib()}).json();
  EXPECT_EQ(lib["floor"], bare["subjects"][0]["floor"]);
  EXPECT_EQ(lib["floor_set_by"], bare["subjects"][0]["floor_set_by"]);
  EXPECT_EQ(lib["verdict"], "STABLE");

  const auto fired = findings_of(j, "binary-conda-depends-too-old");
  ASSERT_EQ(fired.size(), 2u) << j.dump(2);
  std::set<std::string> files;
  for (const auto& f : fired) {
    files.insert(f["location"]["file"]);
    EXPECT_EQ(f["location"]["member"], "info/index.json");
    EXPECT_EQ(f["message"], "'pytorch >=2.10,<3' allows torch 2.10, but the conda package's libraries need PyTorch >= 2.12");
  }
  EXPECT_EQ(files, (std::set<std::string>{too_old, too_old_bz2}));  // not ok, not stable
}

TEST(AuditConda, RuleIsExplained) {
  auto r = run_torchabi({"explain", "binary-conda-depends-too-old"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("info/index.json"), std::string::npos);
}

TEST(AuditConda, BadArchiveIsOneLineNamingItAndExit2) {
  const std::string dir = make_temp_dir();
  const std::string bad = write_file(dir, "broken-1.0-0.conda", "PK\x03\x04 this is not a zip");
  const std::string junk = write_file(dir, "junk-1.0-0.tar.bz2", "BZh9 not bzip2 at all");
  auto r = run_torchabi({"audit", bad, junk, stable_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 2) << r.err;
  EXPECT_NE(r.err.find(bad + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(junk + ": corrupt bzip2 tar"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(stable_lib()), std::string::npos);  // the others are still audited
}
