#include "findings/config.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "findings/rule_registry.h"

namespace torchabi::findings {

namespace fs = std::filesystem;

namespace {

// Both file formats are reduced to this small tree so one reader checks them.
struct Value {
  enum Kind { None, Str, List, Map } kind = None;
  std::string str;
  std::vector<Value> list;
  std::map<std::string, Value> map;
};

Value from_yaml(const YAML::Node& n) {
  Value v;
  if (n.IsScalar()) { v.kind = Value::Str; v.str = n.as<std::string>(); }
  else if (n.IsSequence()) { v.kind = Value::List; for (const auto& e : n) v.list.push_back(from_yaml(e)); }
  else if (n.IsMap()) { v.kind = Value::Map; for (const auto& kv : n) v.map[kv.first.as<std::string>()] = from_yaml(kv.second); }
  return v;
}

Value from_toml(const toml::node& n) {
  Value v;
  if (auto* t = n.as_table()) {
    v.kind = Value::Map;
    for (const auto& [k, e] : *t) v.map[std::string(k.str())] = from_toml(e);
  } else if (auto* a = n.as_array()) {
    v.kind = Value::List;
    for (const auto& e : *a) v.list.push_back(from_toml(e));
  } else if (auto* s = n.as_string()) { v.kind = Value::Str; v.str = s->get(); }
  else if (auto* i = n.as_integer()) { v.kind = Value::Str; v.str = std::to_string(i->get()); }
  else if (auto* f = n.as_floating_point()) { v.kind = Value::Str; std::ostringstream os; os << f->get(); v.str = os.str(); }
  else if (auto* b = n.as_boolean()) { v.kind = Value::Str; v.str = b->get() ? "true" : "false"; }
  return v;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot read config file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string want_str(const Value& v, const std::string& file, const std::string& key) {
  if (v.kind != Value::Str) throw InputError(file, "'" + key + "' must be a string");
  return v.str;
}

bool want_bool(const Value& v, const std::string& file, const std::string& key) {
  const std::string s = want_str(v, file, key);
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  throw InputError(file, "'" + key + "' must be true or false, not '" + s + "'");
}

Severity want_severity(const Value& v, const std::string& file, const std::string& key) {
  auto s = parse_severity(want_str(v, file, key));
  if (!s) throw InputError(file, "'" + key + "' must be error, warning or note, not '" + v.str + "'");
  return *s;
}

Config from_tree(const Value& root, const std::string& file) {
  Config c;
  c.source = file;
  if (root.kind == Value::None) return c;
  if (root.kind != Value::Map) throw InputError(file, "expected a table of settings");
  for (const auto& [key, v] : root.map) {
    if (key == "fail-on") c.fail_on = want_severity(v, file, key);
    else if (key == "target-version") c.target_version = want_str(v, file, key);
    else if (key == "run-build") c.run_build = want_bool(v, file, key);
    else if (key == "allow-partial") c.allow_partial = want_bool(v, file, key);
    else if (key == "baseline") {
      fs::path p(want_str(v, file, key));
      c.baseline = p.is_absolute() ? p.string() : (fs::path(file).parent_path() / p).string();
    } else if (key == "severity") {
      if (v.kind != Value::Map) throw InputError(file, "'severity' must map rule ids to error/warning/note");
      for (const auto& [rule, s] : v.map) c.severity[rule] = want_severity(s, file, "severity." + rule);
    } else if (key == "ignore") {
      if (v.kind != Value::List) throw InputError(file, "'ignore' must be a list of rule ids");
      for (const auto& e : v.list) c.ignore.push_back(want_str(e, file, "ignore"));
    } else if (key == "suppress") {
      if (v.kind != Value::List) throw InputError(file, "'suppress' must be a list of entries");
      for (const auto& e : v.list) {
        if (e.kind != Value::Map) throw InputError(file, "each 'suppress' entry must be a table");
        Suppression s;
        s.origin = file;
        for (const auto& [k, f] : e.map) {
          std::string val = want_str(f, file, "suppress." + k);
          if (k == "rule") s.rule = val;
          else if (k == "symbol") s.symbol = val;
          else if (k == "library") s.library = val;
          else if (k == "path") s.path = val;
          else if (k == "reason") s.reason = val;
          else throw InputError(file, "unknown key 'suppress." + k + "' (rule, symbol, library, path, reason)");
        }
        if (s.reason.find_first_not_of(" \t") == std::string::npos)
          throw InputError(file, "suppression of '" + (s.rule.empty() ? std::string("*") : s.rule) +
                                     "' has no reason; every suppression must say why");
        if (s.rule.empty() && s.symbol.empty() && s.library.empty() && s.path.empty())
          throw InputError(file, "a suppression must name a rule, symbol, library or path");
        c.suppress.push_back(std::move(s));
      }
    } else {
      throw InputError(file, "unknown setting '" + key + "'");
    }
  }
  // A typo in a rule id would silently do nothing; say so instead.
  const auto& reg = RuleRegistry::current();
  for (const auto& [rule, _] : c.severity)
    if (!reg.find(rule)) throw InputError(file, "unknown rule '" + rule + "' in 'severity'");
  return c;
}

}  // namespace

Config Config::load_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "config file not found");
  const std::string text = read_all(path);
  if (path.ends_with(".toml")) {
    try {
      toml::table t = toml::parse(text, path);
      const toml::node* tool = t["tool"]["torchabi"].node();
      if (tool) return from_tree(from_toml(*tool), path);
      Config empty;
      empty.source = path;
      return empty;
    } catch (const toml::parse_error& e) {
      throw InputError(path, std::string("malformed TOML at line ") + std::to_string(e.source().begin.line) +
                                 ": " + std::string(e.description()));
    }
  }
  try {
    return from_tree(from_yaml(YAML::Load(text)), path);
  } catch (const YAML::Exception& e) {
    throw InputError(path, std::string("malformed YAML: ") + e.msg + " at line " + std::to_string(e.mark.line + 1));
  }
}

Config Config::discover(const std::vector<std::string>& inputs) {
  for (const auto& input : inputs) {
    std::error_code ec;
    fs::path dir = fs::absolute(input, ec);
    if (ec) continue;
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    for (; !dir.empty(); dir = dir.parent_path()) {
      fs::path yaml = dir / ".torchabi.yaml";
      if (fs::is_regular_file(yaml, ec)) return load_file(yaml.string());
      fs::path py = dir / "pyproject.toml";
      if (fs::is_regular_file(py, ec) && read_all(py.string()).find("[tool.torchabi") != std::string::npos)
        return load_file(py.string());
      if (dir == dir.root_path()) break;
    }
  }
  return Config{};
}

}  // namespace torchabi::findings
