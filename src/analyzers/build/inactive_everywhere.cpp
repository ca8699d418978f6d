// source-inactive-branch in project mode: lint parses one configuration and
// warns about unstable code in the branches it skips, because another build
// may compile them. Project mode knows every configuration the build ships
// (each extension, compiler and platform): a branch that none of them
// compiles (`#ifndef FLASHATTENTION_DISABLE_DROPOUT` when every
// configuration defines it, `#ifdef USE_ROCM` when none does) is code no
// shipped library contains, so its findings are notes there.
#include "analyzers/build/configuration_checks.h"

#include <cctype>
#include <optional>
#include <set>

namespace torchabi::build {

namespace {

// The macro a branch tests and whether it must be defined for the branch to
// be compiled; nullopt for any condition that is not that simple.
struct Need {
  std::string macro;
  bool defined = true;
};

std::optional<Need> simple_condition(std::string d) {
  auto strip = [](std::string s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '(')) s.erase(s.begin());
    while (!s.empty() && (s.back() == ' ' || s.back() == ')')) s.pop_back();
    return s;
  };
  bool negate = false;
  for (const char* prefix : {"#ifdef ", "#ifndef ", "#if ", "#elif "}) {
    if (!d.starts_with(prefix)) continue;
    negate = std::string(prefix) == "#ifndef ";
    d = d.substr(std::string(prefix).size());
    if (std::string(prefix) == "#if " || std::string(prefix) == "#elif ") {
      d = strip(d);
      if (d.starts_with("!")) {
        negate = true;
        d = strip(d.substr(1));
      }
      if (!d.starts_with("defined")) return std::nullopt;
      d = d.substr(7);
    }
    d = strip(d);
    for (char c : d)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return std::nullopt;
    // Compiler and platform macros (_WIN32, __CUDA_ARCH__) are not the build's to set.
    if (d.empty() || d.front() == '_') return std::nullopt;
    return Need{d, !negate};
  }
  return std::nullopt;
}

// The branch a finding's message names: "in `#ifdef X`, ..." or
// "in `#else` of `#ifdef X` (line N), ...".
std::optional<Need> branch_of(const std::string& message) {
  const size_t a = message.find('`');
  const size_t b = a == std::string::npos ? a : message.find('`', a + 1);
  if (b == std::string::npos) return std::nullopt;
  const std::string taken = message.substr(a + 1, b - a - 1);
  if (taken != "#else") return simple_condition(taken);
  const size_t c = message.find("of `", b);
  const size_t e = c == std::string::npos ? c : message.find('`', c + 4);
  if (e == std::string::npos) return std::nullopt;
  auto opening = simple_condition(message.substr(c + 4, e - c - 4));
  if (opening) opening->defined = !opening->defined;
  return opening;
}

bool defines(const inputs::BuildConfiguration& c, const std::string& macro) {
  for (size_t i = 0; i < c.arguments.size(); ++i) {
    std::string a = c.arguments[i];
    if (a == "-D" && i + 1 < c.arguments.size()) a = "-D" + c.arguments[i + 1];
    if (a == "-D" + macro || a.starts_with("-D" + macro + "=")) return true;
  }
  return false;
}

}  // namespace

void note_branches_no_configuration_compiles(const inputs::ProjectBuild& project, findings::Report& lint) {
  if (project.configurations.empty()) return;
  for (auto& f : lint.findings) {
    if (f.rule != "source-inactive-branch" || (f.severity && *f.severity == findings::Severity::Note)) continue;
    const auto need = branch_of(f.message);
    if (!need) continue;
    bool compiled = false;
    for (const auto& c : project.configurations) compiled |= defines(c, need->macro) == need->defined;
    if (compiled) continue;
    f.severity = findings::Severity::Note;
    f.message += " (no configuration the build ships " + std::string(need->defined ? "defines " : "leaves undefined ") +
                 need->macro + ", so no shipped library compiles this branch)";
  }
}

}  // namespace torchabi::build
