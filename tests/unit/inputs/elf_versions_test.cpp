// GNU symbol versions in ElfView (.gnu.version_d, .gnu.version_r) and the
// export table built on them: what each version index names, which exports
// an import binds to (glibc's rules), and damaged tables as one InputError.
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "elf_image_builder.h"
#include "inputs/elf_view.h"
#include "inputs/export_table.h"

using torchabi::InputError;
using torchabi::inputs::ElfView;
using torchabi::inputs::ExportedSymbol;
using torchabi::inputs::ExportTable;
using torchabi::test_support::build_elf;
using torchabi::test_support::ElfImage;
using torchabi::test_support::ElfImageSpec;
using torchabi::test_support::ElfSymbolSpec;

namespace {

// libc10-like: defines V1 (index 2) and V2 (index 3), needs GLIBC_2.2.5 of
// libc.so.6 (index 4) and, weakly, X_1 of libx.so (index 5).
ElfImageSpec versioned_spec() {
  ElfImageSpec spec;
  spec.soname = "libc10.so";
  spec.needed = {"libc.so.6"};
  spec.version_defs = {"V1", "V2"};
  spec.version_needs = {{"libc.so.6", {"GLIBC_2.2.5"}}, {"libx.so", {"X_1"}, true}};
  spec.symbols = {
      {"plain", true},                                               // unversioned (base): index 1
      {"both", true, STB_GLOBAL, STT_FUNC, STV_DEFAULT, uint16_t(0x8000 | 2)},  // both@V1 (hidden)
      {"both", true, STB_GLOBAL, STT_FUNC, STV_DEFAULT, 3},                     // both@@V2
      {"malloc", false, STB_GLOBAL, STT_FUNC, STV_DEFAULT, 4},                  // import malloc@GLIBC_2.2.5
      {"hidden_vis", true, STB_GLOBAL, STT_FUNC, STV_HIDDEN, 1},
      {"local_ver", true, STB_GLOBAL, STT_FUNC, STV_DEFAULT, 0},
      {"weak_def", true, STB_WEAK, STT_OBJECT, STV_DEFAULT, 3},
  };
  return spec;
}

std::string error_of(const std::vector<std::byte>& bytes) {
  try {
    ElfView v(bytes, "lib.so");
    return "";
  } catch (const InputError& e) {
    return e.line();
  }
}

std::vector<std::string> versions_of(const ExportTable& t, std::string_view name) {
  std::vector<std::string> out;
  t.for_each(name, [&](const ExportedSymbol& d) { out.push_back(std::string(d.version) + (d.hidden ? " hidden" : "")); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(ElfVersions, ReadsDefinitionsNeedsAndSymbolVersions) {
  ElfImage img = build_elf(versioned_spec());
  ElfView v(img.bytes, "libc10.so");
  EXPECT_TRUE(v.defines_versions());
  EXPECT_EQ(v.version_definitions(), (std::vector<std::string_view>{"V1", "V2"}));
  ASSERT_EQ(v.version_needs().size(), 2u);
  EXPECT_EQ(v.version_needs()[0].file, "libc.so.6");
  EXPECT_EQ(v.version_needs()[0].name, "GLIBC_2.2.5");
  EXPECT_EQ(v.version_needs()[0].index, 4);
  EXPECT_FALSE(v.version_needs()[0].weak);
  EXPECT_TRUE(v.version_needs()[1].weak);

  EXPECT_EQ(v.symbol(1).version, 1);
  EXPECT_TRUE(v.version(1).name.empty());  // the base version is the library itself
  EXPECT_EQ(v.symbol(2).version, 2);
  EXPECT_TRUE(v.symbol(2).hidden_version);
  EXPECT_EQ(v.version(v.symbol(2).version).name, "V1");
  EXPECT_EQ(v.version(v.symbol(3).version).name, "V2");
  const auto need = v.version(v.symbol(4).version);
  EXPECT_EQ(need.name, "GLIBC_2.2.5");
  EXPECT_EQ(need.file, "libc.so.6");
  // An index no table names reads as unversioned, as the dynamic linker treats it.
  EXPECT_TRUE(v.version(77).name.empty());
}

TEST(ElfVersions, LibraryWithoutVersionTables) {
  ElfImageSpec spec;
  spec.symbols = {{"f", true}};
  ElfImage img = build_elf(spec);
  ElfView v(img.bytes, "lib.so");
  EXPECT_FALSE(v.defines_versions());
  EXPECT_TRUE(v.version_definitions().empty());
  EXPECT_TRUE(v.version_needs().empty());
  ExportTable t = ExportTable::read(v);
  EXPECT_FALSE(t.defines_versions());
  // A versioned import binds to an unversioned export of a library defining no versions.
  bool bound = false;
  t.for_each("f", [&](const ExportedSymbol& d) { bound = t.binds(d, "ANY_1.0"); });
  EXPECT_TRUE(bound);
}

TEST(ExportTable, KeepsWhatTheDynamicLinkerCanBind) {
  ElfImage img = build_elf(versioned_spec());
  ExportTable t;
  {
    ElfView v(img.bytes, "libc10.so");
    t = ExportTable::read(v);
  }
  img.bytes.assign(img.bytes.size(), std::byte{0});  // the table owns its names
  EXPECT_TRUE(t.contains("plain"));
  EXPECT_FALSE(t.contains("malloc"));      // an import
  EXPECT_FALSE(t.contains("hidden_vis"));  // STV_HIDDEN
  EXPECT_FALSE(t.contains("local_ver"));   // version index 0: local
  EXPECT_EQ(versions_of(t, "both"), (std::vector<std::string>{"V1 hidden", "V2"}));
  EXPECT_EQ(versions_of(t, "weak_def"), (std::vector<std::string>{"V2"}));
  EXPECT_TRUE(t.defines_version("V1"));
  EXPECT_FALSE(t.defines_version("V3"));
  EXPECT_EQ(t.size(), 4u);
}

TEST(ExportTable, BindsByGlibcRules) {
  ElfImage img = build_elf(versioned_spec());
  ElfView v(img.bytes, "libc10.so");
  ExportTable t = ExportTable::read(v);
  auto binds = [&](std::string_view name, std::string_view version) {
    bool any = false;
    t.for_each(name, [&](const ExportedSymbol& d) { any = any || t.binds(d, version); });
    return any;
  };
  EXPECT_TRUE(binds("both", "V1"));   // an exact version binds even when hidden
  EXPECT_TRUE(binds("both", "V2"));
  EXPECT_FALSE(binds("both", "V3"));
  EXPECT_TRUE(binds("both", ""));     // unversioned: the default V2
  EXPECT_TRUE(binds("plain", ""));
  // The library defines versions: its base-version export does not satisfy a versioned import.
  EXPECT_FALSE(binds("plain", "V1"));
  // Only the hidden version left: an unversioned import does not take it.
  ElfImageSpec spec;
  spec.version_defs = {"OLD"};
  spec.symbols = {{"old_only", true, STB_GLOBAL, STT_FUNC, STV_DEFAULT, uint16_t(0x8000 | 2)}};
  ElfImage old = build_elf(spec);
  ElfView ov(old.bytes, "old.so");
  ExportTable ot = ExportTable::read(ov);
  bool any = false;
  ot.for_each("old_only", [&](const ExportedSymbol& d) { any = any || ot.binds(d, ""); });
  EXPECT_FALSE(any);
}

TEST(ElfVersions, DamagedTablesAreOneLineErrors) {
  auto with = [](auto damage) {
    ElfImage img = build_elf(versioned_spec());
    damage(img);
    return error_of(img.bytes);
  };
  auto verdef = [](ElfImage& img, size_t i) {
    return reinterpret_cast<Elf64_Verdef*>(img.bytes.data() + img.verdef_offset + i * (sizeof(Elf64_Verdef) + sizeof(Elf64_Verdaux)));
  };
  auto verneed = [](ElfImage& img) { return reinterpret_cast<Elf64_Verneed*>(img.bytes.data() + img.verneed_offset); };
  EXPECT_EQ(with([&](ElfImage& img) { verdef(img, 1)->vd_next = 1u << 30; }),
            "lib.so: corrupt ELF: .gnu.version_d entry 2 lies outside the section");
  EXPECT_EQ(with([&](ElfImage& img) { verdef(img, 0)->vd_aux = 0xfffffff0u; }),
            "lib.so: corrupt ELF: .gnu.version_d entry 0 names a version outside the section");
  EXPECT_EQ(with([&](ElfImage& img) { verdef(img, 0)->vd_version = 7; }),
            "lib.so: corrupt ELF: .gnu.version_d entry 0 has version 7");
  EXPECT_EQ(with([&](ElfImage& img) {
              verneed(img)->vn_cnt = 2;
              reinterpret_cast<Elf64_Vernaux*>(verneed(img) + 1)->vna_next = 1u << 30;
            }),
            "lib.so: corrupt ELF: .gnu.version_r entry 0 names a version outside the section");
  EXPECT_EQ(with([&](ElfImage& img) { verneed(img)->vn_file = 1u << 30; }),
            "lib.so: corrupt ELF: a version requirement's file points outside its string table");
  EXPECT_EQ(with([&](ElfImage& img) { verneed(img)->vn_next = 1u << 30; }),
            "lib.so: corrupt ELF: .gnu.version_r entry 1 lies outside the section");
  EXPECT_NE(with([&](ElfImage& img) { img.shdr(ElfImage::kVerdef).sh_size = 1u << 30; }).find("truncated ELF"),
            std::string::npos);
  // sh_info larger than the entries: the walks stop at the entry whose next is 0.
  EXPECT_EQ(with([&](ElfImage& img) { img.shdr(ElfImage::kVerdef).sh_info = 99; }), "");
  EXPECT_EQ(with([&](ElfImage& img) { img.shdr(ElfImage::kVerneed).sh_info = 1000; }), "");
}

TEST(ElfVersions, EveryPrefixIsAnErrorOrAView) {
  ElfImage img = build_elf(versioned_spec());
  for (size_t n = 0; n < img.bytes.size(); ++n) {
    std::vector<std::byte> cut(img.bytes.begin(), img.bytes.begin() + long(n));
    EXPECT_FALSE(error_of(cut).empty()) << "prefix of " << n << " bytes parsed";
  }
  EXPECT_EQ(error_of(img.bytes), "");
}
