// Where a build script's copy is made (script_copy.h): widened to the
// repository around it only when the script reaches up out of its directory.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "inputs/project/script_copy.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

class Repo {
public:
  Repo() : top_(fs::temp_directory_path() / ("script_copy_test." + std::to_string(::getpid()))) {
    fs::remove_all(top_);
    fs::create_directories(top_ / ".git");
    fs::create_directories(top_ / "python");
    fs::create_directories(top_ / "csrc");
    std::ofstream(top_ / "csrc" / "a.cpp") << "int a;\n";
  }
  ~Repo() { fs::remove_all(top_); }
  fs::path script(const std::string& text) const {
    std::ofstream(top_ / "python" / "setup.py") << text;
    return top_ / "python" / "setup.py";
  }
  const fs::path& top() const { return top_; }

private:
  fs::path top_;
};

TEST(ScriptCopy, ScriptsThatReachUpGetTheRepositoryAroundThem) {
  Repo repo;
  for (const char* text : {"glob.glob('../csrc/*.cpp')\n", "os.path.join(HERE, '..', 'csrc')\n",
                           "Path(__file__).resolve().parent.parent / 'csrc'\n", "Path(__file__).parents[1]\n",
                           "os.path.dirname(os.path.dirname(os.path.abspath(__file__)))\n",
                           "os.path.join(HERE, os.pardir)\n"}) {
    const ScriptCopyPlan plan = plan_script_copy(repo.top() / "python", {repo.script(text)});
    EXPECT_EQ(plan.top, repo.top()) << text;
    EXPECT_EQ(plan.note, "") << text;
  }
}

TEST(ScriptCopy, ScriptsThatStayInTheirDirectoryAreCopiedAlone) {
  Repo repo;
  for (const char* text : {"glob.glob('csrc/*.cpp')\n", "Path(__file__).parent / 'csrc'\n",
                           "os.path.dirname(os.path.abspath(__file__))\n", "x = '...'\n", "version = '1.0..2'\n"}) {
    const ScriptCopyPlan plan = plan_script_copy(repo.top() / "python", {repo.script(text)});
    EXPECT_EQ(plan.top, repo.top() / "python") << text;
  }
}

TEST(ScriptCopy, OutsideARepositoryTheDirectoryAboveAndNeverAroundARepositorysTop) {
  const fs::path top = fs::temp_directory_path() / ("script_copy_test_plain." + std::to_string(::getpid()));
  fs::create_directories(top / "python");
  std::ofstream(top / "python" / "setup.py") << "glob.glob('../csrc/*.cpp')\n";
  EXPECT_EQ(plan_script_copy(top / "python", {top / "python" / "setup.py"}).top, top);
  fs::create_directories(top / "python" / ".git");
  EXPECT_EQ(plan_script_copy(top / "python", {top / "python" / "setup.py"}).top, top / "python");
  fs::remove_all(top);
}

TEST(ScriptCopy, TheCopyPutsTheProjectWhereItIsInItsRepository) {
  Repo repo;
  const ScriptCopyPlan plan = plan_script_copy(repo.top() / "python", {repo.script("sources = ['../csrc/a.cpp']\n")});
  const fs::path under = repo.top().string() + ".copy";
  const fs::path copy = make_script_copy(plan, under);
  EXPECT_EQ(copy, under / repo.top().filename() / "python");
  EXPECT_TRUE(fs::is_regular_file(copy / "setup.py"));
  EXPECT_TRUE(fs::is_regular_file(copy / ".." / "csrc" / "a.cpp"));
  EXPECT_FALSE(fs::exists(under / repo.top().filename() / ".git"));  // version control is left out
  fs::remove_all(under);
}

}  // namespace
}  // namespace torchabi::inputs
