// audit --torch, exactly: the extensions built against stand-in 9.1 and 9.2
// (fixtures/torch_standins) resolved against each install, every difference
// between the two releases reported with its own reason; then what the
// findings and the "loads on" text make of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/load_resolution.h"
#include "analyzers/binary/signature_match.h"
#include "analyzers/binary/symbol_classifier.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/torch_findings.h"
#include "common/input_error.h"
#include "common/mapped_file.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_view.h"
#include "inputs/rules_source.h"
#include "inputs/torch_install.h"
#include "standins.h"

using namespace torchabi;
using namespace torchabi::test;
namespace fs = std::filesystem;

namespace {

binary::SymbolClassifier& classifier() {
  static binary::SymbolClassifier c =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  return c;
}

std::unique_ptr<inputs::TorchInstall> install(const std::string& path) {
  return inputs::TorchInstall::open(path, binary::torch_library_names(inputs::RulesSource::current()));
}

binary::LoadResolution resolve(const std::string& lib, inputs::TorchInstall& torch) {
  MappedFile f(lib);
  inputs::ElfView elf(f.bytes(), lib);
  return binary::resolve_on_torch(elf, torch, classifier());
}

findings::TorchLoad resolve(const std::string& lib, const std::string& torch_path) {
  auto t = install(torch_path);
  auto r = resolve(lib, *t);
  EXPECT_TRUE(r.failures.empty());
  return r.load;
}

// "group reason demangled [version] -> candidates", one line per missing symbol.
std::vector<std::string> summary(const findings::TorchLoad& l) {
  std::vector<std::string> out;
  for (const auto& m : l.missing_symbols) {
    std::string s = m.group + " " + m.reason + " " + m.demangled;
    if (!m.version.empty()) s += " @" + m.version;
    for (const auto& c : m.candidates) s += " -> " + c;
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST(LoadResolution, LoadsOnTheInstallItWasBuiltAgainst) {
  TORCHABI_REQUIRE_STANDINS();
  for (const auto& where : {standin_v1(), standin_wheel()}) {
    auto l = resolve(standin_ext(), where);
    EXPECT_TRUE(l.loads) << where;
    EXPECT_TRUE(l.missing_symbols.empty()) << testing::PrintToString(summary(l));
    EXPECT_TRUE(l.missing_libraries.empty());
    EXPECT_TRUE(l.missing_versions.empty());
    EXPECT_FALSE(l.assumed_global);
    EXPECT_EQ(l.resolved_against, (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
    EXPECT_EQ(l.version, standin_v1_version());
    EXPECT_EQ(l.torch, where);
  }
  EXPECT_TRUE(resolve(standin_ext_v2(), standin_v2()).loads);
}

TEST(LoadResolution, EveryDifferenceHasItsReason) {
  TORCHABI_REQUIRE_STANDINS();
  auto l = resolve(standin_ext(), standin_v2());
  EXPECT_FALSE(l.loads);
  // libtorch_cpu.so and libc10.so are symlinks of the 9.2 install: found by name.
  EXPECT_TRUE(l.missing_libraries.empty());
  ASSERT_EQ(l.missing_versions.size(), 1u);
  EXPECT_EQ(l.missing_versions[0].library, "libc10.so");
  EXPECT_EQ(l.missing_versions[0].version, "STANDIN_1.0");
  EXPECT_EQ(l.missing_versions[0].defined, (std::vector<std::string>{"STANDIN_2.0"}));
  EXPECT_EQ(summary(l), (std::vector<std::string>{
                            "stable-shim absent aoti_torch_get_dim",
                            "unstable-c++ other-library c10::standin::moved() -> libtorch_python.so.9.2",
                            "unstable-c++ absent c10::standin::removed()",
                            "unstable-c++ other-signature c10::standin::resize(int) -> c10::standin::resize(long) in libc10.so.9.2",
                            "other other-version c10_standin_versioned @STANDIN_1.0 -> c10_standin_versioned@@STANDIN_2.0 in libc10.so.9.2",
                        }));
  EXPECT_EQ(l.resolved_against, (std::vector<std::string>{"libc10.so.9.2", "libtorch_cpu.so.9.2"}));
}

TEST(LoadResolution, MissingLibraryNamesAndWhatStandsInForThem) {
  TORCHABI_REQUIRE_STANDINS();
  // Built against 9.2 (libc10.so.9.2), loaded where only libc10.so exists.
  for (const auto& where : {standin_v1(), standin_wheel()}) {
    auto l = resolve(standin_ext_v2(), where);
    EXPECT_FALSE(l.loads);
    ASSERT_EQ(l.missing_libraries.size(), 2u);
    EXPECT_EQ(l.missing_libraries[0].needed, "libtorch_cpu.so.9.2");
    EXPECT_EQ(l.missing_libraries[0].available, (std::vector<std::string>{"libtorch_cpu.so"}));
    EXPECT_EQ(l.missing_libraries[1].needed, "libc10.so.9.2");
    // The imports are still resolved against the same libraries under their names here.
    EXPECT_EQ(summary(l), (std::vector<std::string>{
                              "unstable-c++ other-signature c10::standin::resize(long) -> c10::standin::resize(int) in libc10.so",
                              "other other-version c10_standin_versioned @STANDIN_2.0 -> c10_standin_versioned@@STANDIN_1.0 in libc10.so",
                          }));
    ASSERT_EQ(l.missing_versions.size(), 1u);
    EXPECT_EQ(l.missing_versions[0].version, "STANDIN_2.0");
  }
}

TEST(LoadResolution, LibraryLinkingNoPyTorchIsResolvedAgainstTheWholeInstall) {
  TORCHABI_REQUIRE_STANDINS();
  const std::string stable = std::string(TORCHABI_FIXTURES_DIR) + "/stable_ext/libstable_ext.so";
  if (!fs::exists(stable)) GTEST_SKIP() << stable << " not built";
  // What the fixture imports from the stable C shim, read independently of the resolution.
  MappedFile f(stable);
  inputs::ElfView elf(f.bytes(), stable);
  const binary::LibraryScan scan = binary::scan_library(elf, classifier());
  ASSERT_FALSE(scan.stable_shims.empty());
  auto l = resolve(stable, standin_v1());
  EXPECT_TRUE(l.assumed_global);
  EXPECT_EQ(l.resolved_against, (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
  // 9.1 defines only aoti_torch_get_dim: every other shim import is missing, nothing else is.
  std::vector<std::string> want, got;
  for (const auto& s : scan.stable_shims)
    if (s.symbol != "aoti_torch_get_dim") want.push_back("stable-shim absent " + s.symbol);
  EXPECT_EQ(summary(l), want);
}

TEST(LoadResolution, UnreadableLibraryOfTheInstallIsAnInputFailure) {
  TORCHABI_REQUIRE_STANDINS();
  const fs::path dir = fs::temp_directory_path() / ("torchabi-broken-torch-" + std::to_string(::getpid())) / "torch";
  fs::remove_all(dir.parent_path());
  fs::create_directories(dir / "lib");
  std::ofstream(dir / "version.py") << "__version__ = '9.1.0'\n";
  fs::copy_file(standin_v1() + "/lib/libtorch_cpu.so", dir / "lib/libtorch_cpu.so");
  std::ofstream(dir / "lib/libc10.so") << "not an ELF file";
  auto t = install(dir.string());
  auto r = resolve(standin_ext(), *t);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].line(), (dir / "lib/libc10.so").string() + ": not an ELF file");
  EXPECT_FALSE(r.load.loads);  // what libc10 defines is missing
  fs::remove_all(dir.parent_path());
}

TEST(SignatureMatch, QualifiedNames) {
  EXPECT_EQ(binary::qualified_function_name("_ZN3c104impl3cow23materialize_cow_storageERNS_11StorageImplE"),
            "c10::impl::cow::materialize_cow_storage");
  EXPECT_EQ(binary::qualified_function_name(
                "_ZN5torch7LibraryC1ENS0_4KindENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEN3c108optionalINS8_11DispatchKeyEEEPKcj"),
            "torch::Library::Library");
  EXPECT_EQ(binary::qualified_function_name("_ZNK3c106IValue23reportToTensorTypeErrorEv"),
            "c10::IValue::reportToTensorTypeError");
  EXPECT_EQ(binary::qualified_function_name("_ZTVN3c1011StorageImplE"), "");  // a vtable is no function
  EXPECT_EQ(binary::qualified_function_name("aoti_torch_get_dim"), "");
}

TEST(TorchFindings, RulesPrediction) {
  binary::VersionFloor floor;
  floor.version = TorchVersion{2, 10, 0};
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, TorchVersion{2, 14, 1}), true);
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, TorchVersion{2, 10, 0}), true);
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, TorchVersion{2, 9, 3}), false);
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, true, false, TorchVersion{2, 14, 1}), std::nullopt);  // unknown shims
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, true, false, TorchVersion{2, 9, 0}), false);
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, std::nullopt), std::nullopt);
  EXPECT_EQ(binary::rules_prediction("UNSTABLE", floor, false, false, TorchVersion{2, 14, 1}), std::nullopt);
  floor.baseline = true;  // "<=2.10": nothing known below it
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, TorchVersion{1, 13, 1}), std::nullopt);
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, false, TorchVersion{2, 11, 0}), true);
  // aoti_torch_cuda_* imports: whether they load depends on the build (USE_CUDA), not the release.
  EXPECT_EQ(binary::rules_prediction("STABLE", floor, false, true, TorchVersion{2, 14, 1}), std::nullopt);
}

TEST(TorchFindings, StableLibraryAgainstBothStandIns) {
  TORCHABI_REQUIRE_STANDINS();
  auto v1 = install(standin_v1());
  auto v2 = install(standin_v2());
  binary::AuditOptions options;
  options.torches = {v1.get(), v2.get()};
  MappedFile f(standin_stable());
  inputs::ElfView elf(f.bytes(), standin_stable());
  const binary::LibraryScan scan = binary::scan_library(elf, classifier());
  findings::Report report;
  findings::Location where;
  where.file = standin_stable();
  const binary::VersionFloor floor = binary::report_library(scan, where, options, report);
  ASSERT_EQ(std::string(binary::verdict_of(scan)), "STABLE");
  const std::string rules_loads_on = report.subjects.back().loads_on;
  binary::audit_on_torches(elf, scan, floor, where, options, classifier(), report, 0);

  const auto& s = report.subjects[0];
  ASSERT_EQ(s.torch.size(), 2u);
  EXPECT_TRUE(s.torch[0].loads);
  EXPECT_EQ(s.torch[0].rules_predict_loads, true);
  EXPECT_FALSE(s.torch[1].loads);
  // The rules date aoti_torch_get_dim to their baseline: 9.2 "must" have it.
  EXPECT_EQ(s.torch[1].rules_predict_loads, true);
  // The measurement replaces the rules' estimate, which is kept after it.
  EXPECT_EQ(s.loads_on, "loads on torch " + standin_v1_version() + " (" + standin_v1() + "); does not load on torch " +
                            standin_v2_version() + " (" + standin_v2() + "); rules: " + rules_loads_on);
  std::vector<std::string> rules;
  for (const auto& f : report.findings) rules.push_back(f.rule);
  EXPECT_EQ(rules, (std::vector<std::string>{"binary-missing-symbol-on-torch", "binary-rules-disagree-with-torch"}));
  const auto& missing = report.findings[0];
  EXPECT_EQ(missing.location.file, standin_stable());
  EXPECT_NE(missing.message.find("torch " + standin_v2_version()), std::string::npos) << missing.message;
  EXPECT_EQ(missing.notes, (std::vector<std::string>{"[stable shim] aoti_torch_get_dim: not in this install"}));
  EXPECT_FALSE(missing.help.empty());
  EXPECT_NE(report.findings[1].notes.front().find("aoti_torch_get_dim"), std::string::npos);
}

TEST(TorchFindings, WheelCombinesItsLibraries) {
  findings::TorchLoad a, b;
  a.torch = b.torch = "T";
  a.version = b.version = "2.14.1";
  a.loads = true;
  b.loads = false;
  b.missing_libraries = {{"libc10.so.1.13", {"libc10.so"}}};
  b.missing_symbols = {{"_Zx", "x()", "", "unstable-c++", "absent", {}}};
  a.resolved_against = {"libc10.so"};
  b.resolved_against = {"libc10.so", "libtorch_cpu.so"};
  auto c = binary::combine_loads({&a, &b});
  EXPECT_FALSE(c.loads);
  EXPECT_EQ(c.missing_libraries.size(), 1u);
  EXPECT_EQ(c.missing_symbols.size(), 1u);
  EXPECT_EQ(c.resolved_against, (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
  EXPECT_TRUE(binary::combine_loads({&a}).loads);
  EXPECT_EQ(binary::measured_loads_on({a, b}), "loads on torch 2.14.1 (T); does not load on torch 2.14.1 (T)");
}
