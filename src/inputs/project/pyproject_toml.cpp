#include "inputs/project/pyproject_toml.h"

#include <filesystem>

#include "common/input_error.h"
#include "inputs/project/toml_file.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

struct PyProjectReader {
  std::string path;
  std::string dir;
  PyProject& out;

  void note(int line, const std::string& message) { out.notes.push_back({path, line, message}); }

  std::string absolute(const std::string& p) const {
    return fs::path(p).is_absolute() ? p : (fs::path(dir) / p).lexically_normal().string();
  }

  std::vector<std::string> strings(const toml::node* n, const std::string& what) {
    std::vector<std::string> items;
    if (!n) return items;
    if (auto s = n->value<std::string>()) return {*s};
    const toml::array* a = n->as_array();
    if (!a) {
      note(line_of(*n), what + " is not a list of strings: ignored");
      return items;
    }
    for (const auto& e : *a) {
      if (auto s = e.value<std::string>()) items.push_back(*s);
      else note(line_of(e), "an entry of " + what + " is not a string: ignored");
    }
    return items;
  }

  // scikit-build-core's cmake.define: a string, a boolean (ON/OFF), a list
  // (joined with ';'), or {env = "VAR", default = ...}, which depends on the
  // environment of the build and is reported instead of guessed.
  void read_define(const std::string& name, const toml::node& v) {
    if (auto s = v.value<std::string>()) out.cmake_defines.push_back(name + "=" + *s);
    else if (auto b = v.value<bool>()) out.cmake_defines.push_back(name + "=" + (*b ? "ON" : "OFF"));
    else if (const toml::array* a = v.as_array()) {
      std::string joined;
      for (const auto& e : *a) joined += (joined.empty() ? "" : ";") + e.value_or(std::string());
      out.cmake_defines.push_back(name + "=" + joined);
    } else if (const toml::table* t = v.as_table()) {
      const std::string env = (*t)["env"].value_or(std::string());
      if (auto d = (*t)["default"].value<std::string>()) out.cmake_defines.push_back(name + "=" + *d);
      else if (auto d = (*t)["default"].value<bool>()) out.cmake_defines.push_back(name + "=" + (*d ? "ON" : "OFF"));
      note(line_of(v), "cache variable " + name + " comes from the environment variable " + env +
                           " when the wheel is built: pass -D " + name + "=VALUE for the value your build uses");
    } else {
      note(line_of(v), "cache variable " + name + " has a value torchabi cannot read: pass -D " + name + "=VALUE");
    }
  }

  void read_scikit_build(const toml::table& skb) {
    out.scikit_build = true;
    // Keys may be dotted ("cmake.define") or nested tables; toml++ gives both as tables.
    const auto cmake = skb["cmake"];
    if (auto dir = cmake["source-dir"].value<std::string>()) out.cmake_source_dir = absolute(*dir);
    if (const toml::table* defines = cmake["define"].as_table())
      for (const auto& [k, v] : *defines) read_define(std::string(k.str()), v);
    for (const auto& arg : strings(cmake["args"].node(), "[tool.scikit-build] cmake.args"))
      if (arg.starts_with("-D")) out.cmake_defines.push_back(arg.substr(2));
  }

  void read_ext_module(const toml::table& m) {
    ExtensionSpec e;
    e.line = line_of(m);
    e.name = m["name"].value_or(std::string());
    for (const auto& s : strings(m.get("sources"), "sources of ext-module " + e.name)) e.sources.push_back(absolute(s));
    for (const auto& i : strings(m.get("include-dirs"), "include-dirs of ext-module " + e.name))
      e.include_dirs.push_back(absolute(i));
    if (const toml::array* macros = m["define-macros"].as_array())
      for (const auto& pair : *macros) {
        const toml::array* nv = pair.as_array();
        auto name = nv && !nv->empty() ? (*nv)[0].value<std::string>() : std::nullopt;
        if (!name) {
          note(line_of(pair), "an entry of define-macros of ext-module " + e.name + " is not [NAME, VALUE]: ignored");
          continue;
        }
        e.define_macros.emplace_back(*name, nv->size() > 1 ? (*nv)[1].value<std::string>() : std::nullopt);
      }
    e.cxx_args = strings(m.get("extra-compile-args"), "extra-compile-args of ext-module " + e.name);
    e.py_limited_api = m["py-limited-api"].value_or(false);
    for (const auto& s : e.sources) e.cuda |= s.ends_with(".cu");
    out.extensions.push_back(std::move(e));
  }
};

}  // namespace

PyProject read_pyproject(const std::string& path) {
  const toml::table t = read_toml_file(path, "pyproject.toml");
  PyProject out;
  PyProjectReader r{path, fs::path(path).parent_path().string(), out};
  out.cmake_source_dir = r.dir;
  out.project_name = t["project"]["name"].value_or(std::string());
  out.project_version = t["project"]["version"].value_or(std::string());
  const std::string backend = t["build-system"]["build-backend"].value_or(std::string());
  if (const toml::table* skb = t["tool"]["scikit-build"].as_table()) r.read_scikit_build(*skb);
  else if (backend.starts_with("scikit_build_core")) out.scikit_build = true;
  const std::string build_ext = t["tool"]["setuptools"]["cmdclass"]["build_ext"].value_or(std::string());
  out.build_extension = build_ext.find("BuildExtension") != std::string::npos;
  if (const toml::array* mods = t["tool"]["setuptools"]["ext-modules"].as_array())
    for (const auto& m : *mods) {
      if (const toml::table* mt = m.as_table()) r.read_ext_module(*mt);
      else r.note(line_of(m), "an ext-modules entry is not a table: ignored");
    }
  return out;
}

}  // namespace torchabi::inputs
