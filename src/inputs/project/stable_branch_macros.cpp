#include "inputs/project/stable_branch_macros.h"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "common/regex.h"
#include "common/text.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace stable_branch_detail {

constexpr size_t kMaxScannedSources = 2000;

// Switches that are not the project's own: the build system's, the
// compiler's, torch's and the platform's. Findings already say what these do.
bool foreign(const std::string& m) {
  static const std::set<std::string> kKnown = {"USE_CUDA", "USE_ROCM", "USE_XPU", "USE_MPS", "TORCH_TARGET_VERSION",
                                               "TORCH_STABLE_ONLY", "NDEBUG", "TORCH_EXTENSION_NAME",
                                               "TORCH_API_INCLUDE_EXTENSION_H", "Py_LIMITED_API"};
  return m.empty() || m[0] == '_' || kKnown.count(m) || m.starts_with("CUDA") || m.starts_with("WIN");
}

bool stable_include(const std::string& path) {
  return path.starts_with("torch/csrc/stable/") || path.starts_with("torch/headeronly/") ||
         path == "torch/csrc/inductor/aoti_torch/c/shim.h" ||
         path.starts_with("torch/csrc/inductor/aoti_torch/generated/c_shim_");
}

struct Branch {
  std::string macro;  // what the branch tests, "" for anything else
  bool defined = true;  // taken when `macro` is defined (false: when it is not)
};

struct Scan {
  std::set<std::string> guarded_by;  // macros whose definition the stable includes need
  std::set<std::string> defined;     // #define NAME anywhere
  std::vector<std::string> quoted;   // #include "..." (for the headers beside)
};

Scan scan(const std::string& text) {
  static const Regex kDirective(R"re(^\s*#\s*(\w+)\s*(.*)$)re");
  static const Regex kIfMacro(R"re(^!?\s*(defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))\s*(//.*|/\*.*)?$)re");
  static const Regex kInclude(R"re(^([<"])([^>"]+)[>"])re");
  Scan out;
  std::vector<Branch> stack;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find('#') == std::string::npos) continue;
    const auto m = kDirective.match(line);
    if (!m) continue;
    const std::string d = (*m)[1], rest = (*m)[2];
    auto tested = [&](const std::string& expr) {
      const auto e = kIfMacro.match(expr);
      if (!e) return Branch{};
      const std::string name = e->matched(2) ? (*e)[2] : e->matched(3) ? (*e)[3] : (*e)[4];
      return Branch{name, expr[0] != '!'};
    };
    if (d == "ifdef" || d == "ifndef") {
      std::istringstream w(rest);
      std::string name;
      w >> name;
      stack.push_back({name, d == "ifdef"});
    } else if (d == "if") {
      stack.push_back(tested(rest));
    } else if (d == "elif" && !stack.empty()) {
      stack.back() = tested(rest);
    } else if (d == "else" && !stack.empty()) {
      stack.back().defined = !stack.back().defined;
    } else if (d == "endif" && !stack.empty()) {
      stack.pop_back();
    } else if (d == "define") {
      std::istringstream w(rest);
      std::string name;
      w >> name;
      out.defined.insert(name.substr(0, name.find('(')));
    } else if (d == "include") {
      const auto inc = kInclude.search(rest);
      if (!inc) continue;
      if ((*inc)[1] == "\"") out.quoted.push_back((*inc)[2]);
      if (!stable_include((*inc)[2])) continue;
      for (const Branch& br : stack)
        if (br.defined && !foreign(br.macro)) out.guarded_by.insert(br.macro);
    }
  }
  return out;
}

bool defines(const BuildConfiguration& c, const std::string& macro) {
  for (size_t i = 0; i < c.arguments.size(); ++i) {
    std::string a = c.arguments[i];
    if ((a == "-D" || a == "/D") && i + 1 < c.arguments.size()) a = "-D" + c.arguments[i + 1];
    if (a.starts_with("/D")) a = "-D" + a.substr(2);
    if (a == "-D" + macro || a.starts_with("-D" + macro + "=")) return true;
  }
  return false;
}

}  // namespace stable_branch_detail

void note_stable_code_behind_undefined_macros(ProjectBuild& b, const std::string& platform) {
  using namespace stable_branch_detail;
  // source -> the configurations that compile it
  std::map<std::string, std::vector<const BuildConfiguration*>> compiled_by;
  for (const auto& c : b.configurations)
    if (c.platform == platform)
      for (const auto& s : c.sources) compiled_by[s].push_back(&c);
  size_t read = 0;
  std::set<std::pair<std::string, std::string>> said;
  for (const auto& [source, configs] : compiled_by) {
    if (++read > kMaxScannedSources) break;
    const Scan own = scan(text::read_file_or_empty(source));
    // The stable includes may sit in a header of the project beside it.
    std::map<std::string, std::string> where;  // macro -> file whose includes it guards
    std::set<std::string> defined = own.defined;
    for (const auto& m : own.guarded_by) where.emplace(m, source);
    for (const auto& q : own.quoted) {
      const fs::path header = fs::path(source).parent_path() / q;
      std::error_code ec;
      if (!fs::is_regular_file(header, ec)) continue;
      const Scan h = scan(text::read_file_or_empty(header));
      defined.insert(h.defined.begin(), h.defined.end());
      for (const auto& m : h.guarded_by) where.emplace(m, header.lexically_normal().string());
    }
    for (const auto& [macro, file] : where) {
      if (defined.count(macro)) continue;
      if (std::any_of(configs.begin(), configs.end(), [&](const auto* c) { return defines(*c, macro); })) continue;
      if (!said.insert({file, macro}).second) continue;
      b.notes.push_back({file, 0,
                         "its stable-ABI includes are under `" + macro + "`, which the build does not define: the code "
                         "without it is what the build compiles, and what was analysed",
                         "project-stable-code-switched-off",
                         "If the release build defines " + macro + " (a CI step, a build option), check it that way: "
                         "`torchabi check -D " + macro + " DIR`; else define it in the build, so that the stable "
                         "code ships"});
    }
  }
}

}  // namespace torchabi::inputs
