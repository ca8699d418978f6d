// What lint predicts a stable TU's object file will import, against what g++
// really put there: CMake compiles fixtures/real_stable with the real 2.14.1
// headers at each file's lowest target and at the headers' own release (the
// build a missing TORCH_TARGET_VERSION gets); each object's undefined shim
// symbols (nm) must equal the TU's `build imports` fact, linted with the same
// command line (and, for the release build, without the target at all).
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Names = std::set<std::string>;

// The C shim functions an object leaves undefined: what libtorch must export.
Names undefined_shims(const std::string& object) {
  Names out;
  const std::string cmd = "nm -u --format=just-symbols '" + object + "' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 512> buf{};
  while (fgets(buf.data(), buf.size(), p)) {
    std::string s(buf.data());
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (s.starts_with("aoti_torch_") || s.starts_with("torch_")) out.insert(s);
  }
  pclose(p);
  return out;
}

struct Unit {
  std::string file;
  std::string object;  // absolute
  json entry;          // the compile database entry
};

// The fixture's TUs of one CMake variant (fixture_real_stable_<variant>), from
// the build's compile_commands.json.
std::vector<Unit> variant_units(const std::string& variant) {
  std::vector<Unit> out;
  std::ifstream in(build_dir() + "/compile_commands.json");
  if (!in) return out;
  const json db = json::parse(in);
  const std::string marker = "fixture_real_stable_" + variant + ".dir/";
  for (const auto& e : db) {
    const std::string command = e.value("command", "");
    const size_t o = command.find(" -o ");
    if (o == std::string::npos || command.find(marker) == std::string::npos) continue;
    std::string obj = command.substr(o + 4);
    obj = obj.substr(0, obj.find(' '));
    out.push_back({e["file"].get<std::string>(), (fs::path(e["directory"].get<std::string>()) / obj).string(), e});
  }
  return out;
}

// The unit compiled again by the test at -O0 into `dir` (the compiler emits
// every inline function the code odr-uses, with no branch folded), without
// -DTORCH_TARGET_VERSION when `drop_target`. Returns its entry for lint.
json compile_again(const Unit& u, const std::string& dir, bool drop_target, std::string& object) {
  json e = u.entry;
  std::string c = e["command"];
  if (drop_target) {
    const size_t p = c.find(" -DTORCH_TARGET_VERSION=");
    if (p != std::string::npos) c.erase(p, c.find(' ', p + 1) - p);
  }
  for (size_t p = c.find(" -O2"); p != std::string::npos; p = c.find(" -O2")) c.replace(p, 4, " -O0");
  object = dir + "/" + fs::path(u.file).filename().string() + ".o";
  const size_t o = c.find(" -o ");
  c = c.substr(0, o + 4) + object + c.substr(c.find(' ', o + 4) == std::string::npos ? c.size() : c.find(' ', o + 4));
  e["command"] = c;
  const std::string run = "cd '" + e["directory"].get<std::string>() + "' && " + c + " 2>&1";
  EXPECT_EQ(std::system(run.c_str()), 0) << run;
  return e;
}

// Lints the entries and returns each TU's predicted imports.
std::map<std::string, Names> predicted(const json& entries) {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/compile_commands.json") << entries.dump(2);
  auto r = run_torchabi({"lint", "-p", dir, "--format", "json", "--no-cache", "-j", "2"});
  std::map<std::string, Names> out;
  EXPECT_NE(r.exit_code, 2) << r.err;
  const json j = r.json();
  for (const auto& s : j["subjects"]) {
    const std::string facts = s["facts"].value("build imports", "");
    Names names;
    if (const size_t colon = facts.find(": "); colon != std::string::npos) {
      std::stringstream ss(facts.substr(colon + 2));
      for (std::string n; std::getline(ss, n, ',');) {
        while (!n.empty() && n.front() == ' ') n.erase(0, 1);
        names.insert(n);
      }
    }
    out[fs::path(s["path"].get<std::string>()).filename().string()] = names;
  }
  return out;
}

std::string diff(const Names& want, const Names& got) {
  std::string s;
  for (const auto& n : want)
    if (!got.count(n)) s += " missed:" + n;
  for (const auto& n : got)
    if (!want.count(n)) s += " extra:" + n;
  return s;
}

// Exact at -O0: the prediction is what the compiler emits before optimising.
void expect_exact_at_O0(const std::string& variant, bool drop_target) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto units = variant_units(variant);
  ASSERT_FALSE(units.empty()) << "fixture_real_stable_" << variant
                              << " is not in the build's compile database (configure after scripts/fetch-torch.sh)";
  const std::string dir = make_temp_dir();
  json entries = json::array();
  std::map<std::string, std::string> objects;
  for (const auto& u : units) {
    std::string object;
    entries.push_back(compile_again(u, dir, drop_target, object));
    objects[fs::path(u.file).filename().string()] = object;
  }
  const auto predictions = predicted(entries);
  for (const auto& [name, object] : objects) {
    auto it = predictions.find(name);
    ASSERT_NE(it, predictions.end()) << name << " has no subject in the lint report";
    const Names real = undefined_shims(object);
    EXPECT_FALSE(real.empty()) << name << ": the object imports no shim at all";
    EXPECT_EQ(it->second, real) << name << (drop_target ? " (no target)" : "") << ":" << diff(real, it->second);
  }
}

// The stable C functions of 2.9 or earlier, from the shipped catalog.
Names baseline_shims() {
  Names out;
  std::ifstream in(source_dir() + "/rules/api/stable_c_functions.tsv");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (line.compare(tab + 1, 5, "<=2.9") == 0) out.insert(line.substr(0, tab));
  }
  return out;
}

TEST(BuildImports, ExactAtO0AtEachFilesLowestTarget) { expect_exact_at_O0("lowest", false); }

TEST(BuildImports, ExactAtO0WithoutATarget) { expect_exact_at_O0("release", true); }

// The objects CMake built at -O2: the optimiser may drop calls in branches it
// folds (a switch on a constant), never add one, and what it drops must not
// change the release the library needs.
TEST(BuildImports, AnUpperBoundOfTheOptimisedObjectsThatSetsTheSameFloor) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto units = variant_units("release");
  ASSERT_FALSE(units.empty());
  json entries = json::array();
  for (const auto& u : units) entries.push_back(u.entry);
  const auto predictions = predicted(entries);
  const Names baseline = baseline_shims();
  ASSERT_GT(baseline.size(), 100u);
  size_t dropped = 0;
  for (const auto& u : units) {
    const std::string name = fs::path(u.file).filename().string();
    ASSERT_TRUE(fs::exists(u.object)) << u.object << " was not built";
    const Names real = undefined_shims(u.object);
    const Names& p = predictions.at(name);
    for (const auto& n : real) EXPECT_TRUE(p.count(n)) << name << ": missed " << n;
    for (const auto& n : p)
      if (!real.count(n)) {
        ++dropped;
        EXPECT_TRUE(baseline.count(n)) << name << ": predicts " << n << ", newer than 2.9, which -O2 did not keep";
      }
  }
  EXPECT_GT(dropped, 0u) << "no call was folded away: the -O2 objects are not optimised";
}

}  // namespace
}  // namespace torchabi::e2e
