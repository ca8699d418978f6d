// Expanding the audit's PATH arguments: files, directory walks, failures.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

#include "analyzers/binary/audit_inputs.h"

using namespace torchabi::binary;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("torchabi-audit-inputs-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string touch(const std::string& rel, const std::string& content = "x") {
    fs::path p = path / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << content;
    return p.string();
  }
  static inline int counter = 0;
};

}  // namespace

TEST(AuditInputs, WalksForLibrariesAndWheelsSorted) {
  TempDir d;
  d.touch("site-packages/b/_C.cpython-311-x86_64-linux-gnu.so");
  d.touch("site-packages/a/libx.so.1");
  d.touch("site-packages/a/readme.txt");
  d.touch("site-packages/a/module.py");
  d.touch("dist/ext-1.0-py3-none-any.whl");
  auto in = expand_inputs({d.path.string()});
  EXPECT_TRUE(in.failures.empty());
  ASSERT_EQ(in.artifacts.size(), 3u);
  EXPECT_EQ(in.artifacts[0].path, (d.path / "dist/ext-1.0-py3-none-any.whl").string());
  EXPECT_EQ(in.artifacts[0].kind, ArtifactKind::Wheel);
  EXPECT_EQ(in.artifacts[1].path, (d.path / "site-packages/a/libx.so.1").string());
  EXPECT_EQ(in.artifacts[2].kind, ArtifactKind::Library);
}

TEST(AuditInputs, SymlinkedFileIsAuditedOnce) {
  TempDir d;
  d.touch("lib/libx.so.1");
  fs::create_symlink("libx.so.1", d.path / "lib/libx.so");
  fs::create_directory_symlink(d.path / "lib", d.path / "loop");  // not followed
  auto in = expand_inputs({d.path.string()});
  EXPECT_EQ(in.artifacts.size(), 1u);
}

TEST(AuditInputs, MissingPathAndEmptyDirectoryAreFailures) {
  TempDir d;
  fs::create_directories(d.path / "empty");
  d.touch("notes/readme.txt");
  const std::string missing = (d.path / "nope.so").string();
  auto in = expand_inputs({missing, (d.path / "empty").string(), (d.path / "notes").string()});
  EXPECT_TRUE(in.artifacts.empty());
  ASSERT_EQ(in.failures.size(), 3u);
  EXPECT_EQ(in.failures[0].line(), missing + ": no such file or directory");
  EXPECT_EQ(in.failures[1].line(),
            (d.path / "empty").string() + ": no shared libraries (*.so, *.dylib, *.pyd, *.dll), wheels (*.whl) or conda packages (*.conda, *.tar.bz2) found in this directory");
}

TEST(AuditInputs, FilesAreTakenWhateverTheirName) {
  TempDir d;
  auto lib = d.touch("artifact.bin");
  auto zip = d.touch("renamed.zip", std::string("PK\x03\x04", 4) + "rest");
  auto in = expand_inputs({lib, zip});
  ASSERT_EQ(in.artifacts.size(), 2u);
  EXPECT_EQ(in.artifacts[0].kind, ArtifactKind::Library);
  EXPECT_EQ(in.artifacts[1].kind, ArtifactKind::Wheel);
}
