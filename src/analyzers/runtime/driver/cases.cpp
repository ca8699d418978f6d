#include "analyzers/runtime/driver/cases.h"

#include <fstream>
#include <set>
#include <sstream>

#include "common/input_error.h"

namespace torchabi::runtime_driver {
namespace {

int line_of(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

std::string at(const std::string& path, const YAML::Node& n) {
  int line = line_of(n);
  return line ? path + ":" + std::to_string(line) : path;
}

std::string scalar(const YAML::Node& n, const std::string& key, const std::string& path) {
  const YAML::Node v = n[key];
  if (!v || !v.IsScalar() || v.Scalar().empty())
    throw InputError(at(path, n), "each case needs '" + key + "' (a non-empty string)");
  return v.Scalar();
}

}  // namespace

CaseFile load_case_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot read the case file");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw InputError(path + (e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) : ""),
                     "not valid YAML: " + e.msg);
  }
  YAML::Node list = root.IsMap() ? root["cases"] : root;
  if (!list || !list.IsSequence())
    throw InputError(path, "expected a 'cases:' list (see `torchabi run --help`)");
  CaseFile file{path, {}};
  std::set<std::string> names;
  for (const YAML::Node& n : list) {
    if (!n.IsMap()) throw InputError(at(path, n), "each case must be a map with 'name', 'op', 'inputs', 'expect'");
    for (const auto& kv : n) {
      std::string key = kv.first.as<std::string>();
      if (key != "name" && key != "op" && key != "inputs" && key != "expect")
        throw InputError(at(path, kv.first), "unknown case key '" + key + "' (expected name, op, inputs, expect)");
    }
    Case c;
    c.line = line_of(n);
    c.name = scalar(n, "name", path);
    c.op = scalar(n, "op", path);
    if (c.op.find("::") == std::string::npos)
      throw InputError(at(path, n["op"]), "op '" + c.op + "' must be qualified with its namespace (ns::name)");
    if (!names.insert(c.name).second) throw InputError(at(path, n), "two cases are named '" + c.name + "'");
    // (A missing key yields an invalid node, which must not be assigned.)
    if (n["inputs"]) c.inputs = n["inputs"];
    if (!c.inputs.IsSequence() && !c.inputs.IsMap() && !c.inputs.IsNull())
      throw InputError(at(path, c.inputs), "'inputs' must be a list (schema order) or a map (by argument name)");
    if (YAML::Node e = n["expect"]) {
      if (!e.IsMap()) throw InputError(at(path, e), "'expect' must be a map with 'outputs' or 'error'");
      for (const auto& kv : e) {
        std::string key = kv.first.as<std::string>();
        if (key != "outputs" && key != "error")
          throw InputError(at(path, kv.first), "unknown expect key '" + key + "' (expected outputs or error)");
      }
      if (e["outputs"] && e["error"])
        throw InputError(at(path, e), "a case expects either outputs or an error, not both");
      if (YAML::Node o = e["outputs"]) {
        if (!o.IsSequence()) throw InputError(at(path, o), "'outputs' must be a list, one entry per return");
        c.expect_outputs = o;
        c.expects_outputs = true;
      }
      if (YAML::Node err = e["error"]) {
        if (!err.IsScalar()) throw InputError(at(path, err), "'error' must be a string (a part of the message)");
        c.expect_error = err.Scalar() == "true" ? "" : err.Scalar();
      }
    }
    file.cases.push_back(std::move(c));
  }
  if (file.cases.empty()) throw InputError(path, "the case file has no cases");
  return file;
}

std::string where(const CaseFile& file, const Case& c) {
  return file.path + (c.line ? ":" + std::to_string(c.line) : "") + ": case '" + c.name + "'";
}

}  // namespace torchabi::runtime_driver
