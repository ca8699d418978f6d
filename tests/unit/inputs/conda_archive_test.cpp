// Conda packages read in memory: both formats, their metadata, which members
// are handed over, and one clear error for every kind of broken package.
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/conda_archive.h"
#include "inputs/conda_index.h"
#include "tar_builder.h"
#include "zip_builder.h"

using namespace torchabi;
using namespace torchabi::test_support;
using inputs::read_conda_package;

namespace {

const std::string kIndex = R"({"name": "my-ext", "version": "1.2", "build": "py311_0", "subdir": "linux-64",
  "depends": ["python >=3.11,<3.12.0a0", "pytorch >=2.10,<3", "conda-forge::libtorch 2.12.*"]})";

std::vector<std::byte> dot_conda(const std::vector<TarMember>& info, const std::vector<TarMember>& pkg) {
  return build_zip({{"metadata.json", R"({"conda_pkg_format_version": 2})"},
                    {"info-my-ext-1.2-py311_0.tar.zst", build_tar(info, true)},
                    {"pkg-my-ext-1.2-py311_0.tar.zst", build_tar(pkg, true)}});
}

struct Read {
  inputs::CondaContents contents;
  std::vector<std::pair<std::string, std::string>> members;
};

Read read(const std::vector<std::byte>& bytes, uint64_t max_member = uint64_t(1) << 30) {
  Read r;
  r.contents = read_conda_package(
      bytes, "p", [](std::string_view m) { return m.ends_with(".so"); },
      [&](const std::string& m, std::vector<std::byte> data) {
        r.members.emplace_back(m, std::string(reinterpret_cast<const char*>(data.data()), data.size()));
      },
      max_member);
  return r;
}

std::string error_of(const std::vector<std::byte>& bytes) {
  try {
    read(bytes, 64);
  } catch (const InputError& e) {
    return e.line();
  }
  return "(no error)";
}

}  // namespace

TEST(CondaArchive, DotCondaHandsOverWantedFilesAndReadsTheIndex) {
  const auto r = read(dot_conda({{"info/index.json", kIndex}, {"info/files", "lib/x.so\n"}},
                                {{"lib/python3.11/site-packages/my_ext/_C.so", "ELF-ish"},
                                 {"lib/python3.11/site-packages/my_ext/__init__.py", "print()"},
                                 {"lib/libx.so", "", "libx.so.1"}}));
  EXPECT_EQ(r.contents.format, inputs::CondaFormat::Conda);
  EXPECT_EQ(r.contents.index_json, kIndex);
  // Only the wanted regular file: the symbolic link is not a library of its own.
  ASSERT_EQ(r.members.size(), 1u);
  EXPECT_EQ(r.members[0].first, "lib/python3.11/site-packages/my_ext/_C.so");
  EXPECT_EQ(r.members[0].second, "ELF-ish");
}

TEST(CondaArchive, TarBz2HoldsInfoAndFilesInOneTar) {
  // The index after the files: read in one pass all the same.
  const auto r = read(to_bytes(build_tar({{"./lib/a.so", "A"}, {"lib/b.so", "B"}, {"info/index.json", kIndex}}, false)));
  EXPECT_EQ(r.contents.format, inputs::CondaFormat::TarBz2);
  EXPECT_EQ(r.contents.index_json, kIndex);
  ASSERT_EQ(r.members.size(), 2u);
  EXPECT_EQ(r.members[0].first, "lib/a.so");  // "./" dropped
  EXPECT_EQ(r.members[1].second, "B");
}

TEST(CondaArchive, BrokenPackagesAreOneErrorNamingThem) {
  EXPECT_EQ(error_of({}), "p: empty file: not a conda package");
  EXPECT_EQ(error_of(to_bytes("hello, not a package")),
            "p: not a conda package (neither a .conda zip nor a bzip2-compressed tar)");
  EXPECT_EQ(error_of(build_zip({{"metadata.json", "{}"}})), "p: no info-*.tar.zst member: not a .conda package");
  EXPECT_EQ(error_of(to_bytes(build_tar({{"lib/a.so", "A"}}, false))), "p: no info/index.json: not a conda package");
  EXPECT_EQ(error_of(to_bytes(build_tar({{"info/index.json", kIndex}, {"../evil.so", "x"}}, false))),
            "p: unsafe member path '../evil.so' (absolute or with '..'); not a valid conda package");
  // A member over the limit is refused before it is decompressed.
  EXPECT_NE(error_of(to_bytes(build_tar({{"info/index.json", kIndex}, {"lib/big.so", std::string(100, 'x')}}, false)))
                .find("p!lib/big.so: member of 100 bytes exceeds the 64-byte limit"),
            std::string::npos);
  // A truncated bzip2 stream and a damaged zstd tar name the package (and the member).
  std::string bz2 = build_tar({{"info/index.json", kIndex}, {"lib/a.so", std::string(5000, 'a')}}, false);
  EXPECT_NE(error_of(to_bytes(bz2.substr(0, bz2.size() / 2))).find("p: corrupt bzip2 tar"), std::string::npos);
  std::string zst = build_tar({{"lib/a.so", "A"}}, true);
  zst[zst.size() / 2] ^= 0x5a;
  zst[zst.size() / 2 + 1] ^= 0x5a;
  auto broken = build_zip({{"info-x.tar.zst", build_tar({{"info/index.json", kIndex}}, true)}, {"pkg-x.tar.zst", zst}});
  EXPECT_NE(error_of(broken).find("p!pkg-x.tar.zst: "), std::string::npos) << error_of(broken);
}

TEST(CondaIndex, ReadsNameVersionAndDepends) {
  const auto index = inputs::parse_conda_index(kIndex, "p!info/index.json");
  EXPECT_EQ(index.name, "my-ext");
  EXPECT_EQ(index.version, "1.2");
  EXPECT_EQ(index.build, "py311_0");
  ASSERT_EQ(index.depends.size(), 3u);
  EXPECT_EQ(index.depends[1].name, "pytorch");
  EXPECT_EQ(index.depends[1].version, ">=2.10,<3");
  EXPECT_EQ(index.depends[2].name, "libtorch");  // the channel is not part of the name
  EXPECT_EQ(index.depends[2].version, "2.12.*");
  EXPECT_THROW(inputs::parse_conda_index("[1]", "p"), InputError);
  EXPECT_THROW(inputs::parse_conda_index("{nope", "p"), InputError);
}

TEST(CondaIndex, MatchSpecsSplitAsCondaReadsThem) {
  auto d = inputs::parse_conda_dependency("pytorch >=2.1,<2.3 cuda*");
  EXPECT_EQ(d.name, "pytorch");
  EXPECT_EQ(d.version, ">=2.1,<2.3");
  EXPECT_EQ(d.build, "cuda*");
  d = inputs::parse_conda_dependency("PyTorch>=2.4");
  EXPECT_EQ(d.name, "pytorch");
  EXPECT_EQ(d.version, ">=2.4");
  d = inputs::parse_conda_dependency("libtorch >= 2.4, < 2.5");
  EXPECT_EQ(d.version, ">=2.4,<2.5");
  EXPECT_EQ(d.build, "");
  d = inputs::parse_conda_dependency("pytorch");
  EXPECT_EQ(d.version, "");
}
