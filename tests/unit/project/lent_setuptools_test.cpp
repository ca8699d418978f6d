// setuptools lent to an interpreter that has none (environment/lent_setuptools.h),
// with fake interpreters: the target "imports setuptools" only when PYTHONPATH
// holds a setuptools directory with a WORKS marker; a donor prints its
// version and site directory as the real query does.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "inputs/project/environment/lent_setuptools.h"
#include "inputs/project/project_copy.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

std::string script(const fs::path& file, const std::string& body) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "#!/bin/sh\n" << body;
  fs::permissions(file, fs::perms::owner_all);
  return file.string();
}

struct Machine {
  ScratchDir dir{"lent"};
  fs::path root() const { return fs::path(dir.path()); }
  // Imports setuptools when a PYTHONPATH entry has setuptools/WORKS.
  std::string bare() {
    return script(root() / "bare/python3",
                  "for d in $(echo \"$PYTHONPATH\" | tr ':' ' '); do [ -f \"$d/setuptools/WORKS\" ] && exit 0; done\n"
                  "exit 1\n");
  }
  std::string with_own() { return script(root() / "own/python3", "exit 0\n"); }
  // A donor whose site directory holds setuptools (working or not).
  std::string donor(const std::string& name, bool works) {
    const fs::path site = root() / name / "site-packages";
    fs::create_directories(site / "setuptools");
    fs::create_directories(site / "_distutils_hack");
    fs::create_directories(site / "setuptools-66.1.1.dist-info");
    fs::create_directories(site / "numpy");  // not lent
    if (works) std::ofstream(site / "setuptools" / "WORKS") << "";
    return script(root() / name / "bin/python3", "echo 66.1.1\necho '" + site.string() + "'\n");
  }
};

TEST(LentSetuptools, TheDonorsPackagesFirstOnThePathWithAFact) {
  Machine m;
  const std::string bare = m.bare();
  const std::string donor = m.donor("donor", true);
  ScratchDir scratch("lent-scratch");
  auto lent = lend_setuptools(bare, {"/nonexistent/python3", donor}, scratch.path());
  ASSERT_TRUE(lent);
  EXPECT_TRUE(fs::is_symlink(fs::path(lent->pythonpath) / "setuptools"));
  EXPECT_TRUE(fs::is_symlink(fs::path(lent->pythonpath) / "_distutils_hack"));
  EXPECT_TRUE(fs::is_symlink(fs::path(lent->pythonpath) / "setuptools-66.1.1.dist-info"));
  EXPECT_FALSE(fs::exists(fs::path(lent->pythonpath) / "numpy"));
  EXPECT_EQ(lent->visible.size(), 3u);
  EXPECT_TRUE(lent->fact.starts_with("setuptools 66.1.1 of " + donor)) << lent->fact;
  EXPECT_TRUE(lent->fact.ends_with(bare + " has none")) << lent->fact;
  Confinement c;
  c.env["PYTHONPATH"] = "/theirs";
  apply_lent_setuptools(*lent, c);
  EXPECT_EQ(c.env["PYTHONPATH"], lent->pythonpath + ":/theirs");
  EXPECT_EQ(c.visible, lent->visible);
}

TEST(LentSetuptools, NothingForAnInterpreterWithItsOwn) {
  Machine m;
  ScratchDir scratch("lent-scratch");
  EXPECT_FALSE(lend_setuptools(m.with_own(), {m.donor("donor", true)}, scratch.path()));
}

// A donor's setuptools that does not import in the target (65's
// pkg_resources on 3.12) is passed over for the next one.
TEST(LentSetuptools, OnlyASetuptoolsThatImportsThere) {
  Machine m;
  const std::string bare = m.bare();
  ScratchDir scratch("lent-scratch");
  EXPECT_FALSE(lend_setuptools(bare, {m.donor("old", false)}, scratch.path()));
  const std::string good = m.donor("good", true);
  auto lent = lend_setuptools(bare, {m.donor("old2", false), good}, scratch.path());
  ASSERT_TRUE(lent);
  EXPECT_TRUE(lent->fact.starts_with("setuptools 66.1.1 of " + good)) << lent->fact;
}

}  // namespace
}  // namespace torchabi::inputs
