#include "analyzers/schema/registrations/python_registrations.h"

#include "analyzers/schema/registrations/python_library_objects.h"

#include <filesystem>
#include <fstream>
#include <cctype>
#include <optional>
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

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_word(std::string_view s, size_t i) {
  while (i < s.size() && word_char(s[i])) ++i;
  return i;
}

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// What may follow `ns::` in a quoted operator name.
enum class OpName {
  Name,                // ns::name, then the closing quote
  NameWithOverload,    // ns::name.overload..., then the closing quote
  SchemaHead,          // ns::name or ns::name.overload at the start of a schema string
};

// The operator name quoted as the first argument of a call to one of `keys`
// (written `key(`) in `line`, from the leftmost call that has one. Hand-written
// rather than std::regex: compiling the patterns alone cost more than scanning a
// whole project.
std::optional<std::string> quoted_op_after(std::string_view line, std::initializer_list<std::string_view> keys,
                                           OpName shape) {
  std::optional<std::string> best;
  size_t best_at = std::string_view::npos;
  for (std::string_view key : keys) {
    for (size_t at = line.find(key); at != std::string_view::npos && at < best_at; at = line.find(key, at + 1)) {
      size_t i = at + key.size();
      if (i >= line.size() || line[i] != '(') continue;
      i = skip_space(line, i + 1);
      if (i >= line.size() || (line[i] != '"' && line[i] != '\'')) continue;
      const size_t name_start = ++i;
      size_t ns_end = skip_word(line, i);
      if (ns_end == i || line.substr(ns_end, 2) != "::") continue;
      size_t op_start = ns_end + 2, end = skip_word(line, op_start);
      if (end == op_start) continue;
      if (shape == OpName::NameWithOverload) {
        while (end < line.size() && (word_char(line[end]) || line[end] == '.')) ++end;
      } else if (shape == OpName::SchemaHead && end + 1 < line.size() && line[end] == '.' &&
                 word_char(line[end + 1])) {
        end = skip_word(line, end + 1);
      }
      if (shape != OpName::SchemaHead && (end >= line.size() || (line[end] != '"' && line[end] != '\''))) continue;
      best = std::string(line.substr(name_start, end - name_start));
      best_at = at;
      break;
    }
  }
  return best;
}

// `class Name` / `def name(` / `async def name(` at the start of a line.
bool is_class_line(std::string_view line) {
  size_t i = skip_space(line, 0);
  if (line.substr(i, 5) != "class") return false;
  size_t j = skip_space(line, i + 5);
  return j > i + 5 && j < line.size() && word_char(line[j]);
}

std::optional<std::string> def_name(std::string_view line) {
  size_t i = skip_space(line, 0);
  if (line.substr(i, 5) == "async") {
    size_t j = skip_space(line, i + 5);
    if (j == i + 5) return std::nullopt;
    i = j;
  }
  if (line.substr(i, 3) != "def") return std::nullopt;
  size_t j = skip_space(line, i + 3);
  if (j == i + 3) return std::nullopt;
  size_t end = skip_word(line, j);
  if (end == j) return std::nullopt;
  size_t k = skip_space(line, end);
  if (k >= line.size() || line[k] != '(') return std::nullopt;
  return std::string(line.substr(j, end - j));
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
  if (!may_register(text)) return;
  scan_library_objects(text, into);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);

  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (!may_register(line)) continue;
    if (auto op = quoted_op_after(line, {"register_fake", "impl_abstract", "register_abstract"}, OpName::NameWithOverload))
      into.fake_ops.insert(*op);
    if (auto op = quoted_op_after(line, {"library.define"}, OpName::SchemaHead)) into.defined_ops.insert(*op);
    if (auto op = quoted_op_after(line, {"custom_op"}, OpName::Name)) {
      into.defined_ops.insert(*op);
      into.implemented_ops.insert(*op);
    }
    if (auto op = quoted_op_after(line, {"library.impl", "register_kernel"}, OpName::NameWithOverload))
      into.implemented_ops.insert(*op);
    auto fake_class = quoted_op_after(line, {"register_fake_class"}, OpName::Name);
    if (!fake_class) continue;

    PythonFakeClass cls;
    cls.qualified = *fake_class;
    cls.where.file = path;
    cls.where.line = static_cast<uint32_t>(i + 1);
    cls.where.column = static_cast<uint32_t>(indent_of(line) + 1);
    // The decorated class: the next `class` line, then its body by indentation.
    size_t j = i + 1;
    while (j < lines.size() && !is_class_line(lines[j])) ++j;
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
      if (auto name = def_name(body)) {
        cls.methods.insert(*name);
        if (*name == "__obj_unflatten__" && classmethod_pending) cls.unflatten_classmethod = true;
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
