#include "analyzers/binary/torch_findings.h"

#include <algorithm>
#include <set>

#include "analyzers/binary/library_report.h"
#include "common/text.h"

namespace torchabi::binary {

namespace {

constexpr size_t kSymbolNotes = 40;

using text::join;

const char* group_label(const std::string& g) {
  if (g == "stable-shim") return "stable shim";
  if (g == "unknown-shim") return "shim unknown to torchabi";
  if (g == "stable-c++") return "stable C++";
  if (g == "unstable-c++") return "unstable C++";
  return "other";
}

std::string explain(const findings::MissingSymbol& m) {
  std::string s = std::string("[") + group_label(m.group) + "] " + m.demangled;
  if (!m.version.empty()) s += " (version " + m.version + ")";
  if (m.reason == "other-library") s += ": defined in " + join(m.candidates) + ", which it does not link";
  else if (m.reason == "other-version") s += ": the install defines " + join(m.candidates);
  else if (m.reason == "other-signature") s += ": the install has it with other parameters: " + join(m.candidates, "; ");
  else s += ": not in this install";
  return s;
}

// "3 imports (2 unstable C++, 1 stable shim)"
std::string count_by_group(const std::vector<findings::MissingSymbol>& missing) {
  std::vector<std::pair<std::string, size_t>> counts;
  for (const auto& m : missing) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == m.group; });
    if (it == counts.end()) counts.push_back({m.group, 1});
    else ++it->second;
  }
  std::string parts;
  for (const auto& [g, n] : counts) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + group_label(g);
  return std::to_string(missing.size()) + (missing.size() == 1 ? " import" : " imports") + " (" + parts + ")";
}

bool any_group(const findings::TorchLoad& load, std::initializer_list<const char*> groups) {
  for (const auto& m : load.missing_symbols)
    for (const char* g : groups)
      if (m.group == g) return true;
  return false;
}

findings::Finding at(const findings::Location& where, const char* rule) {
  findings::Finding f;
  f.rule = rule;
  f.location = where;
  return f;
}

void missing_library_finding(const findings::TorchLoad& load, const findings::Location& where,
                             findings::Report& report) {
  findings::Finding f = at(where, "binary-missing-library-on-torch");
  std::vector<std::string> names;
  for (const auto& m : load.missing_libraries) names.push_back(m.needed);
  f.message = "needs " + join(names) + ", which " + torch_label(load) +
              " does not provide under " + (names.size() == 1 ? "that name" : "those names") +
              ": it does not load there";
  for (const auto& m : load.missing_libraries)
    f.notes.push_back(m.needed + (m.available.empty() ? ": not in this install"
                                                      : ": this install names it " + join(m.available)));
  f.help = "it was linked against a PyTorch whose libraries are named differently (Debian's versioned sonames such "
           "as libtorch_cpu.so.2.14, pip's unversioned libtorch_cpu.so, or another release): build it against this "
           "PyTorch, or install the one it was built for";
  report.add(std::move(f));
}

void missing_symbol_finding(const findings::TorchLoad& load, const findings::Location& where,
                            const VersionFloor& floor, findings::Report& report) {
  findings::Finding f = at(where, "binary-missing-symbol-on-torch");
  std::vector<std::string> what;
  if (!load.missing_symbols.empty()) what.push_back(count_by_group(load.missing_symbols) + " not defined there");
  if (!load.missing_versions.empty())
    what.push_back(std::to_string(load.missing_versions.size()) + " required symbol version(s) not defined there");
  f.message = "does not load on " + torch_label(load) + ": " + join(what, "; ");
  if (!load.missing_libraries.empty()) {
    std::vector<std::string> needed;
    for (const auto& m : load.missing_libraries) needed.push_back(m.needed);
    f.message += ", even with " + join(needed) + " renamed to this install's names";
  }
  for (const auto& v : load.missing_versions)
    f.notes.push_back("requires version " + v.version + " of " + v.library + ", which defines " +
                      (v.defined.empty() ? std::string("no versions") : join(v.defined)));
  size_t shown = 0;
  for (const auto& m : load.missing_symbols) {
    if (shown++ == kSymbolNotes) {
      f.notes.push_back("... and " + std::to_string(load.missing_symbols.size() - kSymbolNotes) + " more");
      break;
    }
    f.notes.push_back(explain(m));
  }
  if (load.assumed_global)
    f.notes.push_back("it links no PyTorch library: resolved against every library of the install, as when torch "
                      "is loaded with RTLD_GLOBAL");
  std::vector<std::string> help;
  if (any_group(load, {"unstable-c++", "other"}) || !load.missing_versions.empty())
    help.push_back("build it against this PyTorch (unstable C++ symbols resolve only against the release a library "
                   "was built with), or port it to the stable ABI (`torchabi migrate`) so one build loads on every "
                   "release from its floor");
  if (any_group(load, {"stable-shim", "unknown-shim", "stable-c++"})) {
    std::string h = "require a PyTorch that provides the stable functions it uses";
    if (floor.version && !floor.baseline) h += " (the rules' floor is PyTorch >= " + floor.version->str() + ")";
    help.push_back(h + ", or stop using them");
  }
  f.help = join(help, "; ");
  report.add(std::move(f));
}

void disagreement_finding(const findings::TorchLoad& load, const findings::Location& where,
                          const VersionFloor& floor, findings::Report& report) {
  findings::Finding f = at(where, "binary-rules-disagree-with-torch");
  const std::string rule_floor = floor.version ? "PyTorch >= " + floor.version->str() : "its stable imports";
  if (*load.rules_predict_loads) {
    f.message = "torchabi's rules say it loads on " + rule_floor + ", so on " + torch_label(load) +
                ", but it does not load there";
    for (const auto& m : load.missing_symbols)
      if (m.group == "stable-shim") f.notes.push_back("the rules list " + m.symbol + " as available, the install does not define it");
  } else {
    f.message = "torchabi's rules say it needs " + rule_floor + ", but it loads on " + torch_label(load);
  }
  for (const auto& by : floor.set_by) f.notes.push_back("rules floor set by " + by);
  f.help = "the measured answer is what users get: torchabi's release data (rules/api/stable_c_functions.tsv) is out "
           "of date for this PyTorch; regenerate it (scripts/build-rules.py), or import rules from this PyTorch's "
           "headers (`torchabi rules import --torch-include DIR -o RULES`) and pass --rules-dir RULES";
  report.add(std::move(f));
}

}  // namespace

std::optional<bool> rules_prediction(const std::string& verdict, const VersionFloor& floor, bool unknown_shims,
                                     bool needs_build_options, std::optional<TorchVersion> release) {
  if (verdict != kVerdictStable || !release || !floor.version) return std::nullopt;
  // aoti_torch_cuda_* and friends exist only in builds with that option: the
  // release alone does not say whether they load, so the rules do not guess.
  if (needs_build_options) return std::nullopt;
  // Compare releases, not builds: 2.14.1 is on or above a 2.14 floor.
  const TorchVersion r{release->major, release->minor, 0};
  const TorchVersion fl{floor.version->major, floor.version->minor, 0};
  if (r < fl) return floor.baseline ? std::nullopt : std::optional<bool>(false);
  if (unknown_shims) return std::nullopt;
  return true;
}

std::string torch_label(const findings::TorchLoad& load) {
  return (load.version.empty() ? std::string("torch (version unknown)") : "torch " + load.version) + " (" +
         load.torch + ")";
}

void add_torch_findings(const findings::TorchLoad& load, const findings::Location& where, const VersionFloor& floor,
                        findings::Report& report) {
  if (!load.missing_libraries.empty()) missing_library_finding(load, where, report);
  if (!load.missing_symbols.empty() || !load.missing_versions.empty())
    missing_symbol_finding(load, where, floor, report);
  if (load.rules_predict_loads && *load.rules_predict_loads != load.loads)
    disagreement_finding(load, where, floor, report);
}

std::string measured_loads_on(const std::vector<findings::TorchLoad>& loads) {
  std::vector<std::string> yes, no;
  for (const auto& l : loads) (l.loads ? yes : no).push_back(torch_label(l));
  std::string s;
  if (!yes.empty()) s = "loads on " + join(yes);
  if (!no.empty()) s += (s.empty() ? "" : "; ") + std::string("does not load on ") + join(no);
  return s;
}

findings::TorchLoad combine_loads(const std::vector<const findings::TorchLoad*>& parts) {
  findings::TorchLoad out;
  out.loads = true;
  std::set<std::string> libs, symbols, against;
  for (const auto* p : parts) {
    out.torch = p->torch;
    out.version = p->version;
    out.loads = out.loads && p->loads;
    out.assumed_global = out.assumed_global || p->assumed_global;
    for (const auto& m : p->missing_libraries)
      if (libs.insert(m.needed).second) out.missing_libraries.push_back(m);
    for (const auto& m : p->missing_versions) out.missing_versions.push_back(m);
    for (const auto& m : p->missing_symbols)
      if (symbols.insert(m.symbol).second) out.missing_symbols.push_back(m);
    against.insert(p->resolved_against.begin(), p->resolved_against.end());
  }
  out.resolved_against.assign(against.begin(), against.end());
  return out;
}

}  // namespace torchabi::binary
