// Which CMake configures a project (inputs/project/environment/newer_cmake.h):
// the machine's unless the project asks for more, then the one
// scripts/fetch-cmake.sh unpacked when it is new enough; TORCHABI_CMAKE
// always. Stand-in programs print the versions.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "inputs/project/environment/newer_cmake.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

struct FakeCMakes {
  fs::path dir = fs::temp_directory_path() / ("torchabi-newer-cmake-" + std::to_string(::getpid()));
  std::string machine, fetched;
  std::string old_cache;
  bool had_cache = false;
  FakeCMakes(const std::string& machine_version, const std::string& fetched_version) {
    machine = program(dir / "bin/cmake", machine_version);
    fetched = program(dir / "cache/torchabi/tools/cmake/usr/bin/cmake", fetched_version);
    if (const char* c = std::getenv("XDG_CACHE_HOME")) had_cache = true, old_cache = c;
    ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
    ::unsetenv("TORCHABI_CMAKE");
  }
  ~FakeCMakes() {
    if (had_cache) ::setenv("XDG_CACHE_HOME", old_cache.c_str(), 1);
    else ::unsetenv("XDG_CACHE_HOME");
    ::unsetenv("TORCHABI_CMAKE");
    fs::remove_all(dir);
  }
  static std::string program(const fs::path& path, const std::string& version) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "#!/bin/sh\necho 'cmake version " << version << "'\n";
    fs::permissions(path, fs::perms::owner_all);
    return path.string();
  }
};

TEST(NewerCMake, TheMachinesWhenItIsNewEnough) {
  FakeCMakes f("3.25.1", "3.31.6");
  const CMakeTool t = cmake_for(f.machine, "3.18");
  EXPECT_EQ(t.path, f.machine);
  EXPECT_EQ(t.version, "3.25.1");
  EXPECT_TRUE(t.chosen.empty());
  EXPECT_EQ(cmake_for(f.machine, "").path, f.machine);  // no floor at all
}

TEST(NewerCMake, TheFetchedOneWhenTheProjectAsksForMore) {
  FakeCMakes f("3.25.1", "3.31.6");
  const CMakeTool t = cmake_for(f.machine, "3.26");
  EXPECT_EQ(t.path, f.fetched);
  EXPECT_EQ(t.version, "3.31.6");
  EXPECT_NE(t.chosen.find("asks for CMake 3.26"), std::string::npos) << t.chosen;
  EXPECT_EQ(t.prefix, fs::canonical(f.dir / "cache/torchabi/tools/cmake/usr").string());
}

TEST(NewerCMake, NotAFetchedOneThatIsStillTooOld) {
  FakeCMakes f("3.25.1", "3.26.0");
  const CMakeTool t = cmake_for(f.machine, "3.28");
  EXPECT_EQ(t.path, f.machine);  // the floor is lowered instead (cmake_version_floor.h)
}

TEST(NewerCMake, TorchabiCMakeIsTheUsersChoiceWhateverItsVersion) {
  FakeCMakes f("3.25.1", "3.31.6");
  const std::string chosen = FakeCMakes::program(f.dir / "mine/bin/cmake", "3.20.0");
  ::setenv("TORCHABI_CMAKE", chosen.c_str(), 1);
  const CMakeTool t = cmake_for(f.machine, "3.26");
  EXPECT_EQ(t.path, chosen);
  EXPECT_EQ(t.version, "3.20.0");
  EXPECT_EQ(t.chosen, "TORCHABI_CMAKE");
}

}  // namespace
}  // namespace torchabi::inputs
