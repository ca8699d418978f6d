#include "analyzers/schema/registrations/python_registrations.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <string_view>
#include <sstream>

namespace torchabi::schema {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxFiles = 20000;
constexpr uintmax_t kMaxFileBytes = 2u << 20;

bool skipped_directory(const std::string& name) {
  return name == ".git" || name == "__pycache__" || name == "site-packages" || name == "node_modules" ||
         name == ".venv" || name == "venv" || name == ".tox" || name.rfind("build", 0) == 0 || name == "dist" ||
         name == ".eggs";
}

size_t indent_of(const std::string& line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// Every pattern below contains one of these: a file or line without any is
// skipped before a regex runs (std::regex is slow, and a project's Python is
// mostly not registrations).
bool may_register(std::string_view text) {
  static constexpr std::string_view kKeys[] = {"register_fake", "impl_abstract", "register_abstract", "define(",
                                               "custom_op(",    ".impl(",        "register_kernel("};
  for (std::string_view k : kKeys)
    if (text.find(k) != std::string_view::npos) return true;
  return false;
}

bool blank_or_comment(const std::string& line) {
  size_t i = indent_of(line);
  return i == line.size() || line[i] == '#';
}

}  // namespace

bool PythonRegistrations::names(const std::set<std::string>& set, const std::string& qualified) {
  if (set.count(qualified)) return true;
  size_t dot = qualified.find('.', qualified.find("::"));
  return dot == std::string::npos && set.count(qualified + ".default");
}

void scan_python_text(const std::string& text, const std::string& path, PythonRegistrations& into) {
  static const std::regex fake_class(R"(register_fake_class\(\s*["'](\w+::\w+)["'])");
  static const std::regex fake_op(R"((?:register_fake|impl_abstract|register_abstract)\(\s*["'](\w+::[\w.]+)["'])");
  static const std::regex define(R"(library\.define\(\s*["'](\w+::\w+(?:\.\w+)?))");
  static const std::regex custom_op(R"(custom_op\(\s*["'](\w+::\w+)["'])");
  static const std::regex impl(R"((?:library\.impl|register_kernel)\(\s*["'](\w+::[\w.]+)["'])");
  static const std::regex class_line(R"(^\s*class\s+\w+)");
  static const std::regex def_line(R"(^\s*(?:async\s+)?def\s+(\w+)\s*\()");

  if (!may_register(text)) return;
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);

  std::smatch m;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (!may_register(line)) continue;
    if (std::regex_search(line, m, fake_op)) into.fake_ops.insert(m[1]);
    if (std::regex_search(line, m, define)) into.defined_ops.insert(m[1]);
    if (std::regex_search(line, m, custom_op)) {
      into.defined_ops.insert(m[1]);
      into.implemented_ops.insert(m[1]);
    }
    if (std::regex_search(line, m, impl)) into.implemented_ops.insert(m[1]);
    if (!std::regex_search(line, m, fake_class)) continue;

    PythonFakeClass cls;
    cls.qualified = m[1];
    cls.where.file = path;
    cls.where.line = static_cast<uint32_t>(i + 1);
    cls.where.column = static_cast<uint32_t>(indent_of(line) + 1);
    // The decorated class: the next `class` line, then its body by indentation.
    size_t j = i + 1;
    while (j < lines.size() && !std::regex_search(lines[j], class_line)) ++j;
    if (j == lines.size()) continue;
    size_t class_indent = indent_of(lines[j]);
    bool classmethod_pending = false;
    for (size_t k = j + 1; k < lines.size(); ++k) {
      const std::string& body = lines[k];
      if (blank_or_comment(body)) continue;
      if (indent_of(body) <= class_indent) break;
      std::string stripped = body.substr(indent_of(body));
      if (stripped.rfind("@classmethod", 0) == 0) {
        classmethod_pending = true;
        continue;
      }
      if (std::regex_search(body, m, def_line)) {
        cls.methods.insert(m[1]);
        if (m[1] == "__obj_unflatten__" && classmethod_pending) cls.unflatten_classmethod = true;
      }
      if (stripped[0] != '@') classmethod_pending = false;
    }
    into.fake_classes[cls.qualified] = std::move(cls);
  }
}

PythonRegistrations scan_python_sources(const std::vector<std::string>& roots) {
  PythonRegistrations out;
  std::set<std::string> seen;
  for (const auto& root : roots) {
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end && out.files < kMaxFiles; it.increment(ec)) {
      const fs::directory_entry& e = *it;
      std::string name = e.path().filename().string();
      if (e.is_directory(ec)) {
        if (skipped_directory(name)) it.disable_recursion_pending();
        continue;
      }
      if (e.path().extension() != ".py" || !e.is_regular_file(ec) || e.file_size(ec) > kMaxFileBytes) continue;
      std::string path = fs::weakly_canonical(e.path(), ec).string();
      if (!seen.insert(path).second) continue;
      std::ifstream in(e.path());
      std::stringstream buf;
      buf << in.rdbuf();
      scan_python_text(buf.str(), path, out);
      ++out.files;
    }
  }
  return out;
}

}  // namespace torchabi::schema
