#include "analyzers/build/linted_configurations.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace torchabi::build {

namespace fs = std::filesystem;

namespace {

std::string fact(const findings::Subject& s, const std::string& key) {
  for (const auto& [k, v] : s.facts)
    if (k == key) return v;
  return {};
}

// "2.9 (0x02...) from -D..." or "PyTorch 2.13 (...)": the first X.Y in it.
std::optional<TorchVersion> first_release(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) || (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))))
      continue;
    size_t end = i;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
    if (auto v = TorchVersion::parse_dotted(text.substr(i, end - i))) return v;
    i = end;
  }
  return std::nullopt;
}

}  // namespace

std::string shown_path(const std::string& absolute) {
  std::error_code ec;
  std::string cwd = fs::current_path(ec).string();
  if (!cwd.ends_with('/')) cwd += '/';
  return absolute.starts_with(cwd) ? absolute.substr(cwd.size()) : absolute;
}

ProjectView view_of(const inputs::ProjectBuild& project, const std::string& platform, const findings::Report& lint) {
  ProjectView v;
  v.project = &project;
  v.platform = platform;
  std::map<std::string, size_t> by_label;
  for (const auto& c : project.configurations) {
    if (c.platform != platform) {
      v.elsewhere.push_back(&c);
      continue;
    }
    if (!c.stable_expected) continue;
    by_label[c.label()] = v.linted.size();
    v.linted.push_back({&c, {}, {}, {}, {}, {}, {}, {}});
  }
  for (const auto& s : lint.subjects) {
    if (s.kind != "translation-unit") continue;
    auto it = by_label.find(fact(s, "configuration"));
    if (it == by_label.end()) continue;
    const std::string floor = fact(s, "build floor");
    if (floor.empty()) continue;  // not a stable TU
    LintedConfiguration& lc = v.linted[it->second];
    lc.stable_files.push_back(s.path);
    if (auto f = first_release(floor); f && (!lc.floor || *f > *lc.floor)) lc.floor = f;
    if (s.floor && (!lc.code_floor || *s.floor > *lc.code_floor)) {
      lc.code_floor = s.floor;
      lc.code_floor_set_by.clear();
    }
    if (s.floor && lc.code_floor && *s.floor == *lc.code_floor && !s.floor_is_baseline)
      for (const auto& api : s.floor_set_by)
        if (std::find(lc.code_floor_set_by.begin(), lc.code_floor_set_by.end(), api) == lc.code_floor_set_by.end())
          lc.code_floor_set_by.push_back(api);
    const std::string target = fact(s, "TORCH_TARGET_VERSION");
    if (auto t = first_release(target); t) {
      if (!lc.target || *t > *lc.target) lc.target = t;
    } else if (target.find("(invalid)") != std::string::npos) {
      lc.invalid_target.push_back(s.path);
    } else {
      lc.untargeted.push_back(s.path);
    }
  }
  return v;
}

std::optional<std::string> define_value(const inputs::BuildConfiguration& c, const std::string& name) {
  std::optional<std::string> value;
  for (size_t i = 1; i < c.arguments.size(); ++i) {
    std::string a = c.arguments[i];
    bool undef = false;
    if ((a == "-D" || a == "-U") && i + 1 < c.arguments.size()) {
      undef = a == "-U";
      a = c.arguments[++i];
    } else if (a.starts_with("-D") || a.starts_with("-U")) {
      undef = a[1] == 'U';
      a = a.substr(2);
    } else {
      continue;
    }
    const size_t eq = a.find('=');
    if (a.substr(0, eq) != name) continue;
    if (undef) value.reset();
    else value = eq == std::string::npos ? "1" : a.substr(eq + 1);
  }
  return value;
}

findings::Finding at_declaration(const std::string& rule, const inputs::BuildConfiguration& c) {
  findings::Finding f;
  f.rule = rule;
  f.location.file = shown_path(c.file);
  f.location.line = static_cast<uint32_t>(c.line > 0 ? c.line : 0);
  f.notes.push_back(c.label() + ": " + c.method);
  return f;
}

std::string where_flags_go(const inputs::BuildConfiguration& c) {
  const std::string file = fs::path(c.file).filename().string();
  if (file == "build.toml") return "[torch] stable-abi (kernel-builder sets TORCH_TARGET_VERSION from it)";
  if (file == "CMakeLists.txt" || file.ends_with(".cmake"))
    return "target_compile_definitions of " + c.unit.substr(c.unit.find(' ') + 1) +
           (c.compiler == "nvcc" ? " (for CUDA too: not inside $<COMPILE_LANGUAGE:CXX>)" : "");
  return c.compiler == "nvcc" ? "extra_compile_args[\"nvcc\"]" : "extra_compile_args[\"cxx\"]";
}

}  // namespace torchabi::build
