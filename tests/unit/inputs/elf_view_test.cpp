// ElfView: reads the dynamic tables of good images, and turns every kind of
// bad image into one InputError naming the input, never a crash.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "common/input_error.h"
#include "elf_image_builder.h"
#include "inputs/elf_view.h"

using torchabi::InputError;
using torchabi::inputs::ElfView;
using torchabi::test_support::build_elf;
using torchabi::test_support::ElfImage;
using torchabi::test_support::ElfImageSpec;

namespace {

ElfImageSpec sample_spec() {
  ElfImageSpec spec;
  spec.needed = {"libtorch_cpu.so", "libc.so.6"};
  spec.soname = "libsample.so";
  spec.symbols = {
      {"aoti_torch_get_sizes"},
      {"_ZN3c106detail14torchCheckFailEPKcS2_jS2_"},
      {"_ZN3c107counterEv", true, STB_WEAK},
      {"my_kernel", true},
      {"hidden_old", true, STB_GLOBAL, STT_FUNC, STV_DEFAULT, uint16_t(0x8000 | 2)},
  };
  return spec;
}

// Runs the view and returns the error line, or "" when it parsed.
std::string error_of(const std::vector<std::byte>& bytes, const std::string& name = "lib.so") {
  try {
    ElfView v(bytes, name);
    for (size_t i = 0; i < v.symbol_count(); ++i) (void)v.symbol(i);
    return "";
  } catch (const InputError& e) {
    return e.line();
  }
}

std::vector<std::byte> text(const std::string& s) {
  std::vector<std::byte> b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  return b;
}

std::vector<std::byte> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> b(chars.size());
  if (!chars.empty()) std::memcpy(b.data(), chars.data(), chars.size());
  return b;
}

}  // namespace

TEST(ElfView, ReadsSymbolsNeededAndSoname) {
  ElfImage img = build_elf(sample_spec());
  ElfView v(img.bytes, "lib.so");
  EXPECT_STREQ(v.machine_name(), "x86-64");
  ASSERT_EQ(v.symbol_count(), 6u);  // the null symbol + 5
  EXPECT_EQ(v.symbol(0).name, "");
  auto imp = v.symbol(1);
  EXPECT_EQ(imp.name, "aoti_torch_get_sizes");
  EXPECT_FALSE(imp.defined);
  auto weak = v.symbol(3);
  EXPECT_EQ(weak.name, "_ZN3c107counterEv");
  EXPECT_TRUE(weak.defined);
  EXPECT_EQ(weak.bind, STB_WEAK);
  EXPECT_FALSE(weak.hidden_version);
  EXPECT_TRUE(v.symbol(5).hidden_version);
  ASSERT_EQ(v.needed().size(), 2u);
  EXPECT_EQ(v.needed()[0], "libtorch_cpu.so");
  EXPECT_EQ(v.needed()[1], "libc.so.6");
  EXPECT_EQ(v.soname(), "libsample.so");
}

TEST(ElfView, NameIsSkippedWhenNotAsked) {
  ElfImage img = build_elf(sample_spec());
  ElfView v(img.bytes, "lib.so");
  EXPECT_EQ(v.symbol(1, /*with_name=*/false).name, "");
  EXPECT_FALSE(v.symbol(1, false).defined);
}

TEST(ElfView, AcceptsAArch64AndExecutables) {
  ElfImageSpec spec = sample_spec();
  spec.machine = EM_AARCH64;
  spec.type = ET_EXEC;
  ElfImage img = build_elf(spec);
  ElfView v(img.bytes, "lib.so");
  EXPECT_STREQ(v.machine_name(), "AArch64");
}

TEST(ElfView, WorksWithoutVersionTable) {
  ElfImageSpec spec = sample_spec();
  spec.with_versym = false;
  ElfImage img = build_elf(spec);
  ElfView v(img.bytes, "lib.so");
  EXPECT_FALSE(v.symbol(5).hidden_version);
}

TEST(ElfView, RejectsNonElf) {
  EXPECT_EQ(error_of(text("hello, world\n")), "lib.so: not an ELF file");
  EXPECT_EQ(error_of({}), "lib.so: not an ELF file (empty)");
  EXPECT_EQ(error_of(text("/* GNU ld script */\nGROUP ( /lib/libc.so.6 )\n")),
            "lib.so: not an ELF file (a GNU ld linker script)");
}

TEST(ElfView, Rejects32Bit) {
  ElfImage img = build_elf(sample_spec());
  img.bytes[EI_CLASS] = std::byte{ELFCLASS32};
  EXPECT_EQ(error_of(img.bytes), "lib.so: 32-bit ELF (ELFCLASS32); PyTorch extensions are 64-bit");
}

TEST(ElfView, RejectsForeignArchitectureNamingIt) {
  ElfImageSpec spec = sample_spec();
  spec.machine = EM_PPC64;
  EXPECT_EQ(error_of(build_elf(spec).bytes),
            "lib.so: foreign architecture PowerPC64 (e_machine 21); torchabi audits x86-64 and AArch64 libraries");
  spec.machine = 0x1234;
  EXPECT_NE(error_of(build_elf(spec).bytes).find("foreign architecture unknown (e_machine 4660)"), std::string::npos);
}

TEST(ElfView, RejectsObjectFilesAndCoreDumps) {
  ElfImageSpec spec = sample_spec();
  spec.type = ET_REL;
  EXPECT_EQ(error_of(build_elf(spec).bytes), "lib.so: a relocatable object file (.o), not a shared library");
  spec.type = ET_CORE;
  EXPECT_EQ(error_of(build_elf(spec).bytes), "lib.so: a core dump, not a shared library");
}

TEST(ElfView, TruncatedFileSaysWhereItEnds) {
  ElfImage img = build_elf(sample_spec());
  std::vector<std::byte> cut(img.bytes.begin(), img.bytes.begin() + 200);
  const std::string err = error_of(cut);
  EXPECT_EQ(err.rfind("lib.so: truncated ELF: section headers end at byte ", 0), 0u) << err;
  EXPECT_NE(err.find("but the file has 200 bytes"), std::string::npos) << err;
  std::vector<std::byte> tiny(img.bytes.begin(), img.bytes.begin() + 10);
  EXPECT_EQ(error_of(tiny), "lib.so: truncated ELF: the file ends inside the ELF identification");
  std::vector<std::byte> header(img.bytes.begin(), img.bytes.begin() + 40);
  EXPECT_EQ(error_of(header), "lib.so: truncated ELF: 40 bytes, shorter than the 64-byte ELF header");
}

TEST(ElfView, SectionPastTheEndIsTruncation) {
  ElfImage img = build_elf(sample_spec());
  img.shdr(ElfImage::kDynsym).sh_size = 1 << 20;
  EXPECT_NE(error_of(img.bytes).find("truncated ELF: .dynsym ends at byte"), std::string::npos);
}

TEST(ElfView, SectionEndPast64BitsIsTruncationNotAWrappedNumber) {
  ElfImage img = build_elf(sample_spec());
  img.shdr(ElfImage::kDynsym).sh_size = ~uint64_t(0) - 8;
  EXPECT_NE(error_of(img.bytes).find("truncated ELF: .dynsym ends beyond any 64-bit offset but the file has"),
            std::string::npos)
      << error_of(img.bytes);
}

TEST(ElfView, EveryPrefixIsAnErrorOrAView) {
  // Cutting a valid image anywhere must never crash or read out of bounds
  // (run under ASan in the fuzz build); every cut before the section headers fails.
  ElfImage img = build_elf(sample_spec());
  for (size_t n = 0; n < img.bytes.size(); ++n) {
    std::vector<std::byte> cut(img.bytes.begin(), img.bytes.begin() + long(n));
    EXPECT_FALSE(error_of(cut).empty()) << "prefix of " << n << " bytes parsed";
  }
  EXPECT_EQ(error_of(img.bytes), "");
}

TEST(ElfView, CorruptTablesAreReported) {
  {
    ElfImage img = build_elf(sample_spec());
    img.sym(2).st_name = 1 << 30;
    EXPECT_EQ(error_of(img.bytes), "lib.so: corrupt ELF: a symbol name points outside its string table");
  }
  {
    ElfImage img = build_elf(sample_spec());
    img.shdr(ElfImage::kDynsym).sh_entsize = 16;
    EXPECT_EQ(error_of(img.bytes), "lib.so: corrupt ELF: .dynsym entry size 16");
  }
  {
    ElfImage img = build_elf(sample_spec());
    img.shdr(ElfImage::kDynsym).sh_link = ElfImage::kDynamic;
    EXPECT_EQ(error_of(img.bytes), "lib.so: corrupt ELF: .dynsym has no string table");
  }
  {
    ElfImage img = build_elf(sample_spec());
    img.shdr(ElfImage::kVersym).sh_size -= 2;
    EXPECT_NE(error_of(img.bytes).find("corrupt ELF: .gnu.version has 5 entries for 6 symbols"), std::string::npos);
  }
  {
    // The string table's last byte is not NUL: the last name runs off the end.
    ElfImage img = build_elf(sample_spec());
    img.shdr(ElfImage::kDynstr).sh_size -= 1;
    EXPECT_NE(error_of(img.bytes).find("is not NUL-terminated"), std::string::npos);
  }
  {
    ElfImage img = build_elf(sample_spec());
    img.ehdr().e_shoff = 0;
    EXPECT_NE(error_of(img.bytes).find("no section headers"), std::string::npos);
  }
  {
    ElfImage img = build_elf(sample_spec());
    img.shdr(ElfImage::kDynsym).sh_type = SHT_PROGBITS;
    EXPECT_EQ(error_of(img.bytes), "lib.so: no dynamic symbol table (.dynsym): not a dynamically linked library");
  }
}

TEST(ElfView, ErrorsNameTheWheelMember) {
  EXPECT_EQ(error_of(text("nope"), "w.whl!pkg/_C.so"), "w.whl!pkg/_C.so: not an ELF file");
}

TEST(ElfView, MisalignedTablesAreRead) {
  // A damaged or hand-made file can put the section headers and tables at odd
  // offsets; the view must read them byte-wise (no misaligned loads, which
  // UBSan reports) and see the same library.
  ElfImage img = build_elf(sample_spec());
  img.ehdr().e_shoff += 1;
  for (int s = ElfImage::kDynstr; s < ElfImage::kCount; ++s) img.shdr(ElfImage::Section(s)).sh_offset += 1;
  std::vector<std::byte> shifted(img.bytes.begin(), img.bytes.begin() + sizeof(Elf64_Ehdr));
  shifted.push_back(std::byte{0});
  shifted.insert(shifted.end(), img.bytes.begin() + sizeof(Elf64_Ehdr), img.bytes.end());

  ElfView v(shifted, "odd.so");
  ASSERT_EQ(v.symbol_count(), 6u);
  EXPECT_EQ(v.symbol(1).name, "aoti_torch_get_sizes");
  EXPECT_TRUE(v.symbol(5).hidden_version);
  EXPECT_EQ(v.soname(), "libsample.so");
  ASSERT_EQ(v.needed().size(), 2u);
  EXPECT_EQ(v.needed()[1], "libc.so.6");
}

TEST(ElfView, FuzzerFoundMisalignedHeadersGiveOneLineError) {
  // The input on which libFuzzer + UBSan found a misaligned Elf64_Shdr load
  // (e_shoff 597); it is also a seed of the elf_view fuzzer.
  const std::string path = std::string(TORCHABI_FUZZ_CORPUS_DIR) + "/elf_view_fuzzer/misaligned_section_headers.so";
  const std::vector<std::byte> bytes = file_bytes(path);
  ASSERT_EQ(bytes.size(), 1024u) << path;
  const std::string line = error_of(bytes, "crash.so");
  EXPECT_EQ(line, "crash.so: no dynamic symbol table (.dynsym): not a dynamically linked library");
  EXPECT_EQ(line.find('\n'), std::string::npos);
}
