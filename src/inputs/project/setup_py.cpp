#include "inputs/project/setup_py.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.h"
#include "inputs/project/python_literals.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

using py::Value;

struct SetupPyReader {
  std::string path;
  std::string dir;
  SetupPy& out;

  // The flags of the extension being read that `note` marks unresolved.
  ExtensionSpec* current = nullptr;
  enum Compilers { kCxx = 1, kNvcc = 2, kBoth = 3 };
  int marks = kBoth;  // which compilers a note while reading flags concerns

  void note(const Value& v, const std::string& what, const std::string& how) {
    const Value* u = v.first_unresolved();
    const std::string why = what + " is computed when setup.py runs (" + (u ? u->why : "not a literal") + ")";
    out.notes.push_back({path, u && u->line ? u->line : v.line, why + ": " + how});
    if (!current) return;
    if ((marks & kCxx) && current->unresolved_cxx.empty()) current->unresolved_cxx = why;
    if ((marks & kNvcc) && current->unresolved_nvcc.empty()) current->unresolved_nvcc = why;
  }

  std::string absolute(const std::string& p) const {
    return fs::path(p).is_absolute() ? p : (fs::path(dir) / p).lexically_normal().string();
  }

  // The strings of a list value; unresolved items become a note each.
  std::vector<std::string> strings(const Value& v, const std::string& what, const std::string& how) {
    std::vector<std::string> out_items;
    if (v.kind == Value::Kind::Str) return {v.s};
    if (v.kind != Value::Kind::List) {
      note(v, what, how);
      return out_items;
    }
    for (const auto& item : v.items) {
      if (item.kind == Value::Kind::Str) out_items.push_back(item.s);
      else note(item, "an entry of " + what, how);
    }
    return out_items;
  }

  void read_call(const py::Call& c) {
    ExtensionSpec e;
    e.cuda = c.callee.ends_with("CUDAExtension");
    e.line = c.line;
    // The class is chosen when setup.py runs: which one was read, and why.
    if (!c.note.empty()) out.notes.push_back({path, c.line, c.note});
    const Value* name = c.kwarg("name");
    if (!name && !c.args.empty()) name = &c.args[0];
    if (name && name->kind == Value::Kind::Str) e.name = name->s;
    else if (name) note(*name, "the extension's name", "TORCH_EXTENSION_NAME is left undefined");
    const Value* sources = c.kwarg("sources");
    if (!sources && c.args.size() > 1) sources = &c.args[1];
    if (sources)
      for (auto& s : strings(*sources, "the sources of " + label(e), "lint those files with a compile database"))
        e.sources.push_back(absolute(s));
    current = &e;
    marks = kBoth;
    if (const Value* inc = c.kwarg("include_dirs"))
      for (auto& s : strings(*inc, "include_dirs of " + label(e), "lint those files with a compile database"))
        e.include_dirs.push_back(absolute(s));
    if (const Value* defs = c.kwarg("define_macros")) read_macros(*defs, e);
    if (const Value* extra = c.kwarg("extra_compile_args")) read_extra_args(*extra, e);
    if (const Value* lim = c.kwarg("py_limited_api")) {
      if (lim->kind == Value::Kind::Bool) e.py_limited_api = lim->b;
      else note(*lim, "py_limited_api of " + label(e), "set it in the config");
    }
    current = nullptr;
    out.extensions.push_back(std::move(e));
  }

  static std::string label(const ExtensionSpec& e) { return e.name.empty() ? "the extension" : e.name; }

  void read_macros(const Value& v, ExtensionSpec& e) {
    const std::string how = "pass it with torchabi check -D NAME=VALUE";
    if (v.kind != Value::Kind::List) return note(v, "define_macros of " + label(e), how);
    for (const auto& m : v.items) {
      if (m.kind == Value::Kind::List && !m.items.empty() && m.items[0].kind == Value::Kind::Str) {
        std::optional<std::string> value;
        if (m.items.size() > 1) {
          const Value& val = m.items[1];
          if (val.kind == Value::Kind::Str) value = val.s;
          else if (val.kind == Value::Kind::Int) value = std::to_string(val.i);
          else if (val.kind != Value::Kind::None) {
            note(val, "the value of macro " + m.items[0].s, how);
            continue;
          }
        }
        e.define_macros.emplace_back(m.items[0].s, value);
      } else {
        note(m, "an entry of define_macros of " + label(e), how);
      }
    }
  }

  void read_extra_args(const Value& v, ExtensionSpec& e) {
    const std::string how = "pass macros with torchabi check -D NAME=VALUE";
    if (v.kind == Value::Kind::List) {
      e.cxx_args = strings(v, "extra_compile_args of " + label(e), how);
      return;
    }
    if (v.kind != Value::Kind::Dict) return note(v, "extra_compile_args of " + label(e), how);
    for (const auto& [k, val] : v.entries) {
      if (k.kind != Value::Kind::Str) {
        note(k, "a key of extra_compile_args of " + label(e), how);
        continue;
      }
      marks = k.s == "cxx" ? kCxx : k.s == "nvcc" ? kNvcc : 0;
      if (k.s == "cxx") e.cxx_args = strings(val, "extra_compile_args['cxx'] of " + label(e), how);
      else if (k.s == "nvcc") e.nvcc_args = strings(val, "extra_compile_args['nvcc'] of " + label(e), how);
      marks = kBoth;
    }
  }
};

}  // namespace

SetupPy read_setup_py(const std::string& path, const std::string& python) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot read it");
  std::stringstream ss;
  ss << in.rdbuf();
  SetupPy out;
  const std::string dir = fs::absolute(path).parent_path().string();
  py::Module mod = py::read_module(ss.str(), path, dir, {"CppExtension", "CUDAExtension"}, python);
  SetupPyReader r{path, dir, out};
  for (const auto& c : mod.calls) r.read_call(c);
  out.given = std::move(mod.given);
  return out;
}

}  // namespace torchabi::inputs
