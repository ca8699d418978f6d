#include "inputs/project/environment/project_interpreter.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "common/text.h"
#include "inputs/project/timed_child.h"
#include "inputs/project/toml_file.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// python3 or python3.N: the names an interpreter of Python 3 is started by.
bool is_python3_name(const std::string& name) {
  if (name == "python3") return true;
  if (!name.starts_with("python3.") || name.size() == 8) return false;
  return std::all_of(name.begin() + 8, name.end(), [](unsigned char ch) { return std::isdigit(ch); });
}

// The major.minor a .python-version line names ("3.12", "3.12.1",
// "cpython-3.12", "pypy3.10"); "" for names without one ("system", a
// virtualenv's name).
std::string pinned_minor(const std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[i])) || (i && std::isdigit(static_cast<unsigned char>(line[i - 1]))))
      continue;
    size_t j = i;
    while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
    if (j + 1 >= line.size() || line[j] != '.' || !std::isdigit(static_cast<unsigned char>(line[j + 1]))) continue;
    size_t k = j + 1;
    while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k]))) ++k;
    return line.substr(i, k - i);
  }
  return "";
}

void read_pin(PythonDemand& d, const std::string& dir) {
  std::error_code ec;
  for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !p.empty(); p = p.parent_path()) {
    const fs::path file = p / ".python-version";
    if (fs::is_regular_file(file, ec)) {
      std::istringstream in(text::read_file_or_empty(file));
      std::string line;
      while (std::getline(in, line)) {
        const std::string t(text::trim(line));
        if (t.empty() || t.starts_with("#")) continue;
        const std::string minor = pinned_minor(t);
        if (minor.empty()) return;  // "system", an environment's name: no version to hold it to
        auto spec = parse_version_specifier("==" + minor + ".*");
        if (!spec.specifier) return;
        d.pin = std::move(spec.specifier);
        d.pin_file = file.string();
        d.pin_text = t;
        return;
      }
      return;
    }
    if (p == p.root_path()) break;
  }
}

void read_requires_python(PythonDemand& d, const std::string& dir) {
  const fs::path file = fs::path(dir) / "pyproject.toml";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return;
  try {
    toml::table t = read_toml_file(file.string(), "pyproject.toml");
    const toml::node* node = t["project"]["requires-python"].node();
    if (!node) return;
    const auto* s = node->as_string();
    if (!s) {
      d.unreadable.push_back(file.string() + ": [project] requires-python is not a string");
      return;
    }
    if (text::trim(s->get()).empty()) return;
    auto spec = parse_version_specifier(s->get());
    if (!spec.specifier) {
      d.unreadable.push_back(file.string() + ": requires-python '" + s->get() + "' cannot be read (" + spec.error + ")");
      return;
    }
    d.requires_python = std::move(spec.specifier);
    d.requires_file = file.string();
    d.requires_line = line_of(*node);
  } catch (const std::exception&) {
    // Unreadable TOML: the build description's reader reports it with its name.
  }
}

std::string described(const FoundInterpreter& i) {
  return i.command + " (" + (i.version ? i.version->str() : std::string("no version")) + ", " + i.origin + ")";
}

// Directories of `root` that hold an interpreter: root/versions/*/bin and the like.
void add_children_bins(std::vector<std::pair<fs::path, std::string>>& out, const fs::path& parent,
                       const std::string& origin) {
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (auto it = fs::directory_iterator(parent, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->is_directory(ec)) dirs.push_back(it->path() / "bin");
  std::sort(dirs.begin(), dirs.end());
  for (auto& d : dirs) out.emplace_back(std::move(d), origin);
}

}  // namespace

bool PythonDemand::allows(const Pep440Version& v) const {
  return (!requires_python || requires_python->allows(v)) && (!pin || pin->allows(v));
}

std::string PythonDemand::describe() const {
  std::string out;
  if (requires_python)
    out = "requires-python '" + requires_python->text + "' (" + fs::path(requires_file).filename().string() +
          (requires_line ? ":" + std::to_string(requires_line) : std::string()) + ")";
  if (pin) out += (out.empty() ? "" : " and ") + std::string(".python-version '") + pin_text + "'";
  return out;
}

PythonDemand read_python_demand(const std::string& dir) {
  PythonDemand d;
  read_requires_python(d, dir);
  read_pin(d, dir);
  return d;
}

InterpreterSearch InterpreterSearch::from_environment() {
  InterpreterSearch s;
  const std::string path = getenv_or_empty("PATH");  // held: split's views point into it
  for (std::string_view dir : text::split(path, ':'))
    if (!dir.empty()) s.path_dirs.emplace_back(dir);
  const std::string home = getenv_or_empty("HOME");
  if (const std::string r = getenv_or_empty("PYENV_ROOT"); !r.empty()) s.pyenv_roots.push_back(r);
  if (!home.empty()) s.pyenv_roots.push_back(home + "/.pyenv");
  if (const std::string r = getenv_or_empty("UV_PYTHON_INSTALL_DIR"); !r.empty()) s.uv_roots.push_back(r);
  if (const std::string r = getenv_or_empty("XDG_DATA_HOME"); !r.empty()) s.uv_roots.push_back(r + "/uv/python");
  if (!home.empty()) s.uv_roots.push_back(home + "/.local/share/uv/python");
  if (const std::string r = getenv_or_empty("CONDA_PREFIX"); !r.empty()) s.conda_roots.push_back(r);
  if (const std::string exe = getenv_or_empty("CONDA_EXE"); !exe.empty())  // <root>/bin/conda
    s.conda_roots.push_back(fs::path(exe).parent_path().parent_path().string());
  if (!home.empty())
    for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"})
      s.conda_roots.push_back(home + "/" + name);
  s.conda_roots.push_back("/opt/conda");
  return s;
}

std::optional<Pep440Version> interpreter_version(const std::string& command, const std::string& cwd) {
  std::error_code ec;
  const ChildResult r = run_timed({command, "--version"}, !cwd.empty() && fs::is_directory(cwd, ec) ? cwd : "/", 20);
  if (!r.started || r.timed_out || r.exit_code != 0) return std::nullopt;
  // "Python 3.12.1" (Python 2 prints it on stderr: the output has both).
  std::optional<Pep440Version> out;
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string t(text::trim(line));
    if (!t.starts_with("Python ")) continue;
    if (auto v = parse_pep440_version(t.substr(7))) out = v;
  }
  return out;
}

std::vector<FoundInterpreter> find_interpreters(const InterpreterSearch& search, const std::string& cwd) {
  std::vector<std::pair<fs::path, std::string>> files;  // executable, origin
  for (const auto& dir : search.path_dirs) {
    // pyenv's shims start the version selected where they run, and fail
    // for the others: its versions are read from its root instead.
    if (fs::path(dir).filename() == "shims") continue;
    std::error_code ec;
    std::vector<fs::path> names;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (is_python3_name(it->path().filename().string())) names.push_back(it->path());
    std::sort(names.begin(), names.end());
    for (auto& n : names) files.emplace_back(std::move(n), "PATH");
  }
  std::vector<std::pair<fs::path, std::string>> bins;
  for (const auto& r : search.pyenv_roots) add_children_bins(bins, fs::path(r) / "versions", "pyenv");
  for (const auto& r : search.uv_roots) add_children_bins(bins, r, "uv");
  for (const auto& r : search.conda_roots) {
    bins.emplace_back(fs::path(r) / "bin", "conda");
    add_children_bins(bins, fs::path(r) / "envs", "conda");
  }
  for (const auto& [bin, origin] : bins)
    for (const char* name : {"python3", "python"})
      if (is_executable_file(bin / name)) {
        files.emplace_back(bin / name, origin);
        break;
      }
  std::vector<FoundInterpreter> out;
  std::set<std::string> seen;  // one per real file: python3 and python3.12 are often one
  for (const auto& [file, origin] : files) {
    if (!is_executable_file(file)) continue;
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(file, ec);
    if (!seen.insert(ec ? file.string() : real.string()).second) continue;
    FoundInterpreter i;
    i.command = file.string();
    i.origin = origin;
    i.version = interpreter_version(i.command, cwd);
    out.push_back(std::move(i));
  }
  return out;
}

bool interpreter_imports(const std::string& command, const std::string& module, const std::string& cwd) {
  std::error_code ec;
  const ChildResult r = run_timed({command, "-c", "import " + module}, !cwd.empty() && fs::is_directory(cwd, ec) ? cwd : "/", 30);
  return r.started && !r.timed_out && r.exit_code == 0;
}

InterpreterChoice choose_interpreter(const PythonDemand& demand, const std::string& user, bool user_given,
                                     const InterpreterSearch& search, const std::string& project_dir,
                                     const std::string& module) {
  InterpreterChoice c;
  c.python = user;
  c.version = interpreter_version(user, project_dir);
  const std::string user_said = user + " (" + (c.version ? c.version->str() : std::string("no version")) +
                                (user_given ? ", --python" : "") + ")";
  if (!demand.any()) {
    c.fact = user_said + ": the project states no requires-python or .python-version";
    return c;
  }
  if (c.version && demand.allows(*c.version)) {
    c.fact = user_said + ": satisfies " + demand.describe();
    return c;
  }
  c.found = find_interpreters(search, project_dir);
  std::vector<const FoundInterpreter*> satisfying;
  for (const auto& i : c.found)
    if (i.version && demand.allows(*i.version)) satisfying.push_back(&i);
  std::stable_sort(satisfying.begin(), satisfying.end(), [](const FoundInterpreter* a, const FoundInterpreter* b) {
    return compare_versions(*a->version, *b->version) > 0;
  });
  const FoundInterpreter* best = satisfying.empty() ? nullptr : satisfying.front();
  bool has_module = module.empty();
  for (const FoundInterpreter* i : satisfying)
    if (!module.empty() && interpreter_imports(i->command, module, project_dir)) {
      best = i;
      has_module = true;
      break;
    }
  if (best) {
    c.python = best->command;
    c.version = best->version;
    c.fact = described(*best) + ": the newest interpreter found that satisfies " + demand.describe() +
             (has_module ? std::string() : " (none of them imports " + module + ")") + "; " + user_said +
             " does not";
    return c;
  }
  c.satisfies = false;
  std::vector<std::string> seen;
  for (const auto& i : c.found)
    if (i.version) seen.push_back(i.version->str() + " (" + i.command + ")");
  if (seen.size() > 6) {
    const size_t more = seen.size() - 5;
    seen.resize(5);
    seen.push_back("and " + std::to_string(more) + " more");
  }
  c.fact = user_said + ", though the project needs " + demand.describe() + ": no interpreter found satisfies it" +
           (seen.empty() ? std::string() : " (found " + text::join(seen, ", ") + ")");
  return c;
}

}  // namespace torchabi::inputs
