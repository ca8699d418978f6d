#include "inputs/project/python_literals.h"

#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "common/json_io.h"
#include "common/temp_dirs.h"
#include "common/text.h"
#include "inputs/project/read_python_build_py.h"
#include "inputs/project/timed_child.h"

namespace torchabi::inputs::py {

namespace fs = std::filesystem;

Value Value::unresolved(std::string why, int line) {
  Value v;
  v.why = std::move(why);
  v.line = line;
  return v;
}

const Value* Value::first_unresolved() const {
  if (kind == Kind::Unresolved) return this;
  for (const auto& i : items)
    if (auto* u = i.first_unresolved()) return u;
  for (const auto& [k, v] : entries) {
    if (auto* u = k.first_unresolved()) return u;
    if (auto* u = v.first_unresolved()) return u;
  }
  return nullptr;
}

bool Value::resolved() const { return first_unresolved() == nullptr; }

const Value* Call::kwarg(const std::string& name) const {
  for (const auto& [k, v] : kwargs)
    if (k == name) return &v;
  return nullptr;
}

namespace {

// The reader is given this long; a file it cannot read in that time is an
// input error (nothing of the project runs, so only a pathological file is slow).
constexpr int kReadTimeoutSeconds = 60;
constexpr const char* kDefaultPython = "python3";

// One value of read_python_build.py's output (its docstring has the format).
Value value_from(const nlohmann::json& j) {
  Value v;
  v.line = j.value("l", 0);
  const std::string k = j.value("k", "u");
  if (k == "s") {
    v.kind = Value::Kind::Str;
    v.s = j.at("s").get<std::string>();
  } else if (k == "i") {
    v.kind = Value::Kind::Int;
    v.i = j.at("i").get<long long>();
  } else if (k == "b") {
    v.kind = Value::Kind::Bool;
    v.b = j.at("b").get<bool>();
  } else if (k == "n") {
    v.kind = Value::Kind::None;
  } else if (k == "L") {
    v.kind = Value::Kind::List;
    for (const auto& i : j.at("items")) v.items.push_back(value_from(i));
  } else if (k == "D") {
    v.kind = Value::Kind::Dict;
    for (const auto& e : j.at("entries")) v.entries.push_back({value_from(e.at(0)), value_from(e.at(1))});
  } else {
    v.why = j.value("why", "a value computed at run time");
  }
  return v;
}

Module module_from(const nlohmann::json& j) {
  Module m;
  for (const auto& c : j.at("calls")) {
    Call call;
    call.callee = c.at("callee").get<std::string>();
    call.line = c.value("line", 0);
    call.note = c.value("note", "");
    for (const auto& a : c.at("args")) call.args.push_back(value_from(a));
    for (const auto& kw : c.at("kwargs")) call.kwargs.emplace_back(kw.at(0).get<std::string>(), value_from(kw.at(1)));
    m.calls.push_back(std::move(call));
  }
  if (j.contains("given"))
    for (const auto& g : j.at("given")) m.given.push_back(g.get<std::string>());
  return m;
}

// The scratch directory of one reading, removed when it ends.
struct Scratch {
  std::string dir = temp_dirs::make("pyread");
  ~Scratch() {
    if (!dir.empty()) temp_dirs::remove(dir);
  }
};

}  // namespace

Module read_module(const std::string& text, const std::string& path, const std::string& dir,
                   const std::set<std::string>& callees, const std::string& wanted_python) {
  std::string python = wanted_python;
  std::string fallback;  // why the default interpreter parsed it instead
  Scratch scratch;
  if (scratch.dir.empty()) throw InputError(path, "cannot create a temporary directory to read it in");
  const fs::path script = fs::path(scratch.dir) / "read_python_build.py";
  const fs::path source = fs::path(scratch.dir) / "source.py";
  const fs::path out = fs::path(scratch.dir) / "out.json";
  {
    std::ofstream s(script, std::ios::binary);
    s << generated::kReadPythonBuildPy;
    std::ofstream t(source, std::ios::binary);
    t << text;
    if (!s || !t) throw InputError(path, "cannot write to " + scratch.dir + " to read it");
  }
  // -I: no user site, no PYTHON* variables, no script directory on sys.path
  // beyond ours; -S: no site module; -B: no .pyc files. The script only
  // parses, so no sandbox is needed; the time limit still holds.
  std::vector<std::string> argv = {python, "-I", "-S", "-B", script.string(), source.string(), out.string(), path, dir};
  argv.insert(argv.end(), callees.begin(), callees.end());
  ChildResult r = run_timed(argv, scratch.dir, kReadTimeoutSeconds);
  // The project's interpreter is missing: any CPython parses, the default one
  // does (its syntax may be older: an error would say which Python it is).
  if (!r.started && python != kDefaultPython) {
    fallback = python + " could not be started (" + text::last_line(r.output) + "): " + kDefaultPython + " parsed it";
    python = argv[0] = kDefaultPython;
    r = run_timed(argv, scratch.dir, kReadTimeoutSeconds);
  }
  if (!r.started)
    throw InputError(path, "cannot be read: " + python + " could not be started (" + text::last_line(r.output) + ")");
  const std::string how = " (torchabi reads it with " + python + "'s parser, without running it)";
  if (r.timed_out)
    throw InputError(path, "reading it took longer than " + std::to_string(kReadTimeoutSeconds) + " s" + how);
  std::ifstream in(out, std::ios::binary);
  const nlohmann::json j = in ? json_io::parse_or_discarded(std::string(std::istreambuf_iterator<char>(in), {}))
                              : nlohmann::json(nlohmann::json::value_t::discarded);
  if (r.exit_code != 0 || j.is_discarded() || !j.is_object())
    throw InputError(path, python + " could not read it (exit " + std::to_string(r.exit_code) + ": " +
                               text::last_line(r.output) + ")" + how);
  if (j.contains("error")) {
    const auto& e = j.at("error");
    const int line = e.value("line", 0);
    throw InputError(path, (line ? "line " + std::to_string(line) + ": " : std::string()) + e.value("message", ""));
  }
  try {
    Module m = module_from(j);
    if (!fallback.empty()) m.given.insert(m.given.begin(), fallback);
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, "the reading of " + python + " gave an unexpected answer (" + e.what() + ")" + how);
  }
}

}  // namespace torchabi::inputs::py
