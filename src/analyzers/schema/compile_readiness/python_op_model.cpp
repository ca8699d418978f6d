#include "analyzers/schema/compile_readiness/python_op_model.h"

#include <algorithm>
#include <filesystem>

#include "analyzers/schema/compile_readiness/python_op_scan_py.h"  // generated from python_op_scan.py
#include "common/json_io.h"
#include "inputs/python/run_python.h"

namespace torchabi::schema {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

findings::Location py_location(const json& j, const std::string& file) {
  findings::Location l;
  l.file = j.value("file", file);
  l.line = j.value("line", 0u);
  l.column = j.value("col", 0u);
  return l;
}

std::optional<PyFunction> py_function(const json& j, const std::string& file) {
  if (!j.is_object()) return std::nullopt;
  PyFunction f;
  f.name = j.value("name", "");
  f.where = py_location(j, file);
  f.varargs = j.value("varargs", false);
  f.varkw = j.value("varkw", false);
  for (const auto& p : j.value("params", json::array())) {
    PyParam param;
    param.name = p.value("name", "");
    param.keyword_only = p.value("keyword_only", false);
    if (p.contains("default")) param.default_text = p.at("default").get<std::string>();
    param.annotation = p.value("annotation", "");
    f.params.push_back(std::move(param));
  }
  for (const auto& r : j.value("returns", json::array())) f.returned_tuples.push_back(r.get<int>());
  return f;
}

PyOpRegistration::Kind kind_of(const std::string& k) {
  using K = PyOpRegistration::Kind;
  if (k == "meta") return K::Meta;
  if (k == "autograd") return K::Autograd;
  if (k == "kernel") return K::Kernel;
  if (k == "define") return K::Define;
  if (k == "custom_op") return K::CustomOp;
  return K::Fake;
}

bool package_root(const fs::path& dir) {
  std::error_code ec;
  for (const char* marker : {"setup.py", "pyproject.toml", "setup.cfg"})
    if (fs::exists(dir / marker, ec)) return true;
  return false;
}

}  // namespace

std::vector<std::string> python_package_roots(const std::vector<std::string>& roots) {
  std::vector<std::string> out;
  for (const std::string& root : roots) {
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(fs::absolute(root, ec), ec);
    if (ec) dir = root;
    fs::path chosen = dir;
    // A source directory (csrc/) belongs to the package whose build description is above it;
    // the climb stops at the repository's top.
    for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
      if (package_root(d)) {
        chosen = d;
        break;
      }
      if (fs::exists(d / ".git", ec) || d == d.parent_path()) break;
    }
    const std::string s = chosen.string();
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

const char* PythonOpModel::kind_name(PyOpRegistration::Kind k) {
  using K = PyOpRegistration::Kind;
  switch (k) {
    case K::Fake: return "fake";
    case K::Meta: return "meta";
    case K::Autograd: return "autograd";
    case K::Kernel: return "kernel";
    case K::Define: return "define";
    case K::CustomOp: return "custom_op";
  }
  return "fake";
}

PythonOpModel python_ops_from_json(const std::string& json_text) {
  PythonOpModel m;
  json j = json_io::parse_or_discarded(json_text);
  if (j.is_discarded() || !j.is_object()) {
    m.reason = "the Python scanner's output is not JSON";
    return m;
  }
  m.available = true;
  m.files = j.value("files", size_t{0});
  for (const auto& r : j.value("registrations", json::array())) {
    PyOpRegistration reg;
    const std::string file = r.value("file", "");
    reg.kind = kind_of(r.value("kind", ""));
    reg.api = r.value("api", "");
    reg.op = r.value("op", "");
    reg.op_text = r.value("op_text", "");
    reg.where = py_location(r, file);
    reg.key = r.value("key", "");
    reg.schema = r.value("schema", "");
    if (r.contains("function")) reg.function = py_function(r.at("function"), file);
    if (r.contains("backward")) reg.backward = py_function(r.at("backward"), file);
    if (r.contains("setup_context")) reg.setup_context = py_function(r.at("setup_context"), file);
    m.registrations.push_back(std::move(reg));
  }
  for (const auto& r : j.value("op_refs", json::array())) m.refs.push_back({r.value("op", ""), py_location(r, "")});
  for (const auto& e : j.value("errors", json::array()))
    m.parse_errors.push_back(e.value("file", "") + ":" + std::to_string(e.value("line", 0)) + ": " +
                             e.value("message", ""));
  return m;
}

PythonOpModel read_python_ops(const std::vector<std::string>& roots, const std::string& python) {
  if (roots.empty()) {
    PythonOpModel m;
    m.reason = "no project directory to search";
    return m;
  }
  try {
    // The roots reach the script as sys.argv: a JSON array of strings is a Python literal.
    const std::string code =
        "import sys\nsys.argv = ['-c'] + " + json_io::dump(json(python_package_roots(roots))) + "\n" +
        std::string(generated::kPythonOpScanPy);
    auto lines = inputs::run_python_query(python, code);
    if (!lines || lines->empty()) {
      PythonOpModel m;
      m.reason = python + " could not be run to read the project's Python files";
      return m;
    }
    PythonOpModel m = python_ops_from_json(lines->back());
    m.roots = python_package_roots(roots);
    return m;
  } catch (const std::exception& e) {
    PythonOpModel m;
    m.reason = std::string("the project's Python files could not be read: ") + e.what();
    return m;
  }
}

}  // namespace torchabi::schema
