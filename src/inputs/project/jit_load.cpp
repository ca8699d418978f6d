#include "inputs/project/jit_load.h"

#include "common/temp_dirs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <unistd.h>

#include "common/input_error.h"
#include "common/text.h"
#include "inputs/cuda_installation.h"
#include "inputs/project/python_literals.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

// A named namespace: the project library is built as a unity build, where
// anonymous-namespace helpers of different files share one scope.
namespace jit_load_detail {

using py::Value;

constexpr const char* kModule = "torch.utils.cpp_extension";

// ---- imports ----

// Local name -> what it is bound to, dotted ("torch.utils.cpp_extension.load",
// "torch.utils.cpp_extension", "torch").
using Imports = std::map<std::string, std::string>;

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
}

// One import statement (continuations joined, comment removed).
void read_import(const std::string& stmt, Imports& imports) {
  std::string s = trim(stmt);
  std::replace(s.begin(), s.end(), '(', ' ');
  std::replace(s.begin(), s.end(), ')', ' ');
  std::replace(s.begin(), s.end(), '\t', ' ');
  auto words = [](const std::string& part) {
    std::vector<std::string> w;
    std::istringstream in(part);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
  };
  if (s.starts_with("import ")) {
    for (const auto& part : split(s.substr(7), ',')) {
      auto w = words(part);
      if (w.empty() || !is_identifier(w[0])) continue;
      if (w.size() == 3 && w[1] == "as") imports[w[2]] = w[0];
      else imports[w[0].substr(0, w[0].find('.'))] = w[0].substr(0, w[0].find('.'));
    }
    return;
  }
  if (!s.starts_with("from ")) return;
  auto head = words(s.substr(5));
  if (head.size() < 3 || head[1] != "import" || head[0].starts_with(".")) return;
  const std::string module = head[0];
  const size_t at = s.find(" import ");
  for (const auto& part : split(s.substr(at + 8), ',')) {
    auto w = words(part);
    if (w.empty()) continue;
    if (w[0] == "*") {
      if (module == kModule)
        for (const char* f : {"load", "load_inline"}) imports[f] = module + "." + f;
      continue;
    }
    if (!is_identifier(w[0])) continue;
    imports[w.size() == 3 && w[1] == "as" ? w[2] : w[0]] = module + "." + w[0];
  }
}

// Every import statement of `text`, at any indentation (an import inside a
// function or a try block binds the same names where the call is).
Imports read_imports(const std::string& text) {
  Imports imports;
  std::istringstream in(text);
  std::string line;
  std::string stmt;
  int depth = 0;
  bool in_string = false;  // inside a triple-quoted string
  auto flush = [&] {
    for (const auto& part : split(stmt, ';')) read_import(part, imports);
    stmt.clear();
  };
  while (std::getline(in, line)) {
    if (!stmt.empty()) {  // a continuation of an import
      std::string l = line.substr(0, line.find('#'));
      for (char c : l) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      const bool more = depth > 0 || (!trim(l).empty() && trim(l).back() == '\\');
      stmt += " " + (trim(l).ends_with("\\") ? trim(l).substr(0, trim(l).size() - 1) : l);
      if (!more) flush();
      continue;
    }
    // Triple-quoted strings (docstrings with examples) are not code.
    size_t count = 0;
    for (size_t p = line.find("\"\"\""); p != std::string::npos; p = line.find("\"\"\"", p + 3)) ++count;
    for (size_t p = line.find("'''"); p != std::string::npos; p = line.find("'''", p + 3)) ++count;
    const bool was_in_string = in_string;
    if (count % 2 == 1) in_string = !in_string;
    if (was_in_string || count > 0) continue;
    std::string l = trim(line.substr(0, line.find('#')));
    // `try: import x` on one line.
    for (const char* prefix : {"try:", "else:"})
      if (l.starts_with(prefix)) l = trim(l.substr(std::string(prefix).size()));
    if (!l.starts_with("import ") && !l.starts_with("from ")) continue;
    depth = 0;
    for (char c : l) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    const bool more = depth > 0 || l.back() == '\\';
    stmt = l.back() == '\\' ? l.substr(0, l.size() - 1) : l;
    if (!more) flush();
  }
  if (!stmt.empty()) flush();
  return imports;
}

// What a dotted callee names, through the imports; "" when it is not bound
// by them (a local function, a method, json.load).
std::string qualify(const std::string& callee, const Imports& imports) {
  const size_t dot = callee.find('.');
  const std::string head = callee.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : callee.substr(dot);
  auto it = imports.find(head);
  if (it != imports.end()) return it->second + rest;
  // The fully qualified name works with any import of torch.
  if (head == "torch") return callee;
  return "";
}

// "load" / "load_inline" when `callee` is one of torch's; "" otherwise.
std::string jit_function(const std::string& callee, const Imports& imports) {
  const std::string q = qualify(callee, imports);
  if (q == std::string(kModule) + ".load") return "load";
  if (q == std::string(kModule) + ".load_inline") return "load_inline";
  return "";
}

// The spellings under which this file can call load()/load_inline(), for a
// cheap search before tokenizing; and the last components read_module is
// asked for.
std::set<std::string> call_spellings(const Imports& imports) {
  std::set<std::string> out;
  for (const char* f : {"load", "load_inline"}) out.insert(std::string(kModule) + "." + f);
  for (const auto& [local, target] : imports) {
    for (const char* f : {"load", "load_inline"}) {
      const std::string full = std::string(kModule) + "." + f;
      if (target == full) out.insert(local);
      else if (full.starts_with(target + ".")) out.insert(local + full.substr(target.size()));
    }
  }
  return out;
}

bool calls_any(const std::string& text, const std::set<std::string>& spellings) {
  for (const auto& s : spellings) {
    for (size_t p = text.find(s); p != std::string::npos; p = text.find(s, p + 1)) {
      if (p > 0) {
        const unsigned char before = static_cast<unsigned char>(text[p - 1]);
        if (std::isalnum(before) || before == '_' || before == '.') continue;
      }
      size_t q = p + s.size();
      while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
      if (q < text.size() && text[q] == '(') return true;
    }
  }
  return false;
}

std::optional<std::string> read_text(const std::string& path, size_t limit) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > limit) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- the calls ----

bool is_cuda_file(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".cu" || ext == ".cuh";
}

// Scratch directories of load_inline sources, removed when the process exits
// (the compile commands point into them until the lint is done), or when it
// is interrupted (common/temp_dirs.h).
struct ScratchDirs {
  std::mutex m;
  std::vector<std::string> dirs;
  ~ScratchDirs() { remove(); }
  void remove() {
    std::lock_guard<std::mutex> lock(m);
    for (const auto& d : dirs) temp_dirs::remove(d);
    dirs.clear();
  }
  fs::path make() {
    std::lock_guard<std::mutex> lock(m);
    const std::string d = temp_dirs::make("jit");
    if (d.empty()) throw InputError(fs::temp_directory_path().string(), "cannot create a temporary directory");
    dirs.push_back(d);
    return d;
  }
};

ScratchDirs& scratch_dirs() {
  static ScratchDirs dirs;
  return dirs;
}

struct CallReader {
  std::string file;
  std::string project_dir;
  std::string inline_dir;
  JitLoads& out;
  // Positional arguments from this index on are not known (a * unpack).
  size_t unpacked_at = SIZE_MAX;
  bool kwargs_unpacked = false;

  // The flags of the call being read that `note` marks unresolved (unknown
  // is not absent: findings resting on them become notes).
  ExtensionSpec* current = nullptr;
  enum Compilers { kNone = 0, kCxx = 1, kNvcc = 2, kBoth = 3 };
  int marks = kBoth;

  void mark(const std::string& why) {
    if (!current) return;
    if ((marks & kCxx) && current->unresolved_cxx.empty()) current->unresolved_cxx = why;
    if ((marks & kNvcc) && current->unresolved_nvcc.empty()) current->unresolved_nvcc = why;
  }

  void note(const Value& v, const std::string& what, const std::string& how) {
    const Value* u = v.first_unresolved();
    const std::string why = what + " is computed when the module runs (" + (u ? u->why : "not a literal") + ")";
    out.notes.push_back({file, u && u->line ? u->line : v.line, why + ": " + how});
    mark(why);
  }

  // The argument `name` (or positional `index`), null when not passed. An
  // argument that may hide in a * or ** unpack is reported once, by the call.
  const Value* arg(const py::Call& c, const std::string& name, size_t index) const {
    if (const Value* v = c.kwarg(name)) return v;
    if (index < c.args.size() && index < unpacked_at) return &c.args[index];
    return nullptr;
  }

  std::string absolute(const std::string& p, int line, const std::string& what) {
    if (fs::path(p).is_absolute()) return fs::path(p).lexically_normal().string();
    // torch takes it relative to the working directory of the process:
    // usually the project's root, sometimes the module's directory.
    std::error_code ec;
    const fs::path from_root = (fs::path(project_dir) / p).lexically_normal();
    if (fs::exists(from_root, ec)) return from_root.string();
    const fs::path from_file = (fs::path(file).parent_path() / p).lexically_normal();
    if (fs::exists(from_file, ec)) return from_file.string();
    const std::string why = what + " '" + p + "' is relative to the working directory when the module runs, and is "
                                             "neither in " + project_dir + " nor next to " +
                            fs::path(file).filename().string();
    out.notes.push_back({file, line, why + ": left out; lint it with a compile database"});
    mark(why);  // an include directory: the flags are not all known
    return "";
  }

  std::vector<std::string> strings(const Value& v, const std::string& what, const std::string& how) {
    std::vector<std::string> items;
    if (v.kind == Value::Kind::None) return items;
    if (v.kind == Value::Kind::Str) return {v.s};
    if (v.kind != Value::Kind::List) {
      note(v, what, how);
      return items;
    }
    for (const auto& item : v.items) {
      if (item.kind == Value::Kind::Str) items.push_back(item.s);
      else note(item, "an entry of " + what, how);
    }
    return items;
  }

  std::optional<bool> boolean(const py::Call& c, const std::string& name, size_t index, const std::string& label,
                              const std::string& assumed) {
    const Value* v = arg(c, name, index);
    if (!v || v->kind == Value::Kind::None) return std::nullopt;
    if (v->kind == Value::Kind::Bool) return v->b;
    note(*v, name + " of " + label, assumed);
    return std::nullopt;
  }

  static std::vector<std::string> stripped(std::vector<std::string> flags) {
    for (auto& f : flags) f = trim(f);  // torch strips every flag
    return flags;
  }

  void read_call(const py::Call& c, const std::string& function) {
    unpacked_at = SIZE_MAX;
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i].kind == Value::Kind::Unresolved && c.args[i].why == "arguments unpacked with * or **") {
        unpacked_at = i;
        break;
      }
    JitLoad l;
    l.file = file;
    l.function = function;
    l.ext.line = c.line;
    current = &l.ext;
    marks = kBoth;
    const bool inl = function == "load_inline";
    // Positions in torch 2.14's signatures.
    const size_t kExtraCflags = inl ? 5 : 2, kExtraCuda = inl ? 6 : 3, kIncludes = inl ? 9 : 6,
                 kWithCuda = inl ? 12 : 9, kStandalone = 12;
    const std::string how_flags = "pass macros with torchabi check -D NAME=VALUE";
    if (const Value* name = arg(c, "name", 0)) {
      if (name->kind == Value::Kind::Str) l.ext.name = name->s;
      else note(*name, "the name of the " + function + "() extension", "TORCH_EXTENSION_NAME is left undefined");
    }
    const std::string label = function + "(" + (l.ext.name.empty() ? std::string() : "'" + l.ext.name + "'") + ")";
    if (unpacked_at != SIZE_MAX) {
      const std::string why = "the arguments " + label + " unpacks with * or ** are known when the module runs";
      out.notes.push_back({file, c.line, why + ": those it passes that way are not read; pass macros with "
                                               "torchabi check -D NAME=VALUE"});
      mark(why);
    }
    marks = kCxx;
    if (const Value* v = arg(c, "extra_cflags", kExtraCflags))
      l.ext.cxx_args = stripped(strings(*v, "extra_cflags of " + label, how_flags));
    marks = kNvcc;
    if (const Value* v = arg(c, "extra_cuda_cflags", kExtraCuda))
      l.ext.nvcc_args = stripped(strings(*v, "extra_cuda_cflags of " + label, how_flags));
    marks = kBoth;
    if (const Value* v = arg(c, "extra_include_paths", kIncludes))
      for (const auto& p : strings(*v, "extra_include_paths of " + label, "lint those files with a compile database"))
        if (std::string a = absolute(trim(p), v->line ? v->line : c.line, "the include path"); !a.empty())
          l.ext.include_dirs.push_back(a);
    if (!inl) {
      l.standalone = boolean(c, "is_standalone", kStandalone, label, "taken as False").value_or(false);
      marks = kNone;  // sources are not flags: each unknown one is its own note
      if (const Value* v = arg(c, "sources", 1)) {
        for (const auto& s : strings(*v, "the sources of " + label, "lint those files with a compile database"))
          if (std::string a = absolute(s, v->line ? v->line : c.line, "the source"); !a.empty())
            l.ext.sources.push_back(a);
      }
    } else {
      marks = kNone;
      const bool written = write_inline(c, l, label);
      marks = kBoth;
      if (!written) {
        current = nullptr;
        return;
      }
    }
    marks = kNone;  // which compiler a source gets: said by its note
    const std::optional<bool> with_cuda =
        boolean(c, "with_cuda", kWithCuda, label, "taken as torch's default (any .cu or .cuh source)");
    current = nullptr;
    marks = kBoth;
    l.with_cuda_given = with_cuda.has_value();
    l.ext.cuda = with_cuda.value_or(std::any_of(l.ext.sources.begin(), l.ext.sources.end(), is_cuda_file));
    out.loads.push_back(std::move(l));
  }

  // load_inline: the strings, written as torch writes them. False when they
  // are not literal (a note says so).
  bool write_inline(const py::Call& c, JitLoad& l, const std::string& label) {
    auto source_lines = [&](const Value* v, const std::string& what) -> std::optional<std::vector<std::string>> {
      if (!v || v->kind == Value::Kind::None) return std::vector<std::string>{};
      if (v->kind == Value::Kind::Str) return std::vector<std::string>{v->s};
      if (v->kind == Value::Kind::List && v->resolved() &&
          std::all_of(v->items.begin(), v->items.end(), [](const Value& i) { return i.kind == Value::Kind::Str; })) {
        std::vector<std::string> out_lines;
        for (const auto& i : v->items) out_lines.push_back(i.s);
        return out_lines;
      }
      note(*v, what + " of " + label, "not linted; lint the code from a file with a compile database");
      return std::nullopt;
    };
    auto cpp = source_lines(arg(c, "cpp_sources", 1), "the C++ sources");
    auto cuda = source_lines(arg(c, "cuda_sources", 2), "the CUDA sources");
    if (!cpp || !cuda) return false;
    const bool implicit =
        !boolean(c, "no_implicit_headers", 18, label, "taken as False (torch's default)").value_or(false);
    const bool error_handling =
        boolean(c, "with_pytorch_error_handling", 15, label, "taken as True (torch's default)").value_or(true);
    // The PYBIND11_MODULE torch generates for `functions`.
    std::vector<std::pair<std::string, std::string>> functions;
    bool bind = false;
    if (const Value* f = arg(c, "functions", 4); f && f->kind != Value::Kind::None) {
      bind = true;
      if (f->kind == Value::Kind::Str) {
        functions.emplace_back(f->s, f->s);
      } else if (f->kind == Value::Kind::List && f->resolved()) {
        for (const auto& i : f->items)
          if (i.kind == Value::Kind::Str) functions.emplace_back(i.s, i.s);
      } else if (f->kind == Value::Kind::Dict && f->resolved()) {
        for (const auto& [k, v] : f->entries)
          if (k.kind == Value::Kind::Str && v.kind == Value::Kind::Str) functions.emplace_back(k.s, v.s);
      } else {
        bind = false;
        note(*f, "functions of " + label, "the generated PYBIND11_MODULE is left out of main.cpp");
      }
    }
    if (inline_dir.empty()) {
      out.notes.push_back({file, c.line, "the sources of " + label + " are strings: not linted here"});
      return false;
    }
    std::vector<std::string> main_lines = *cpp;
    if (implicit) main_lines.insert(main_lines.begin(), "#include <torch/extension.h>");
    if (bind) {
      main_lines.push_back("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {");
      for (const auto& [fn, doc] : functions)
        main_lines.push_back("m.def(\"" + fn + "\", " + (error_handling ? "torch::wrap_pybind_function(" + fn + ")" : fn) +
                             ", \"" + doc + "\");");
      main_lines.push_back("}");
    }
    // torch writes them into the extension's build directory, named after it.
    std::string dirname = l.ext.name.empty() ? "load_inline" : l.ext.name;
    for (auto& ch : dirname)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') ch = '_';
    fs::path dir = fs::path(inline_dir) / dirname;
    std::error_code ec;
    for (int n = 2; fs::exists(dir, ec); ++n) dir = fs::path(inline_dir) / (dirname + "-" + std::to_string(n));
    fs::create_directories(dir, ec);
    auto write = [&](const std::string& name, const std::vector<std::string>& lines) {
      const fs::path p = dir / name;
      std::ofstream o(p, std::ios::binary);
      o << text::join(lines, "\n");
      l.ext.sources.push_back(p.string());
      return static_cast<bool>(o);
    };
    if (ec || !write("main.cpp", main_lines)) {
      out.notes.push_back({file, c.line, "the sources of " + label + " could not be written to " + dir.string()});
      return false;
    }
    if (!cuda->empty()) {
      std::vector<std::string> cu = *cuda;
      if (implicit) cu.insert(cu.begin(), {"#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>"});
      write("cuda.cu", cu);
    }
    l.inline_written = true;
    return true;
  }
};

bool skipped_directory(const fs::path& p) {
  const std::string name = p.filename().string();
  static const std::set<std::string> kSkip = {"build",        "dist",      "site-packages", "node_modules",
                                              "__pycache__",  "venv",      "env",           "third_party",
                                              "third-party",  "3rdparty",  "thirdparty",    "external",
                                              "vendor",       "_vendor",   "submodules"};
  if (name.starts_with(".") || kSkip.count(name) || name.ends_with(".egg-info")) return true;
  std::error_code ec;
  // A virtual environment, or a git submodule (its own repository).
  return fs::exists(p / "pyvenv.cfg", ec) || fs::is_regular_file(p / ".git", ec);
}

}  // namespace jit_load_detail

std::vector<std::string> find_jit_load_files(const std::string& dir) {
  using namespace jit_load_detail;
  std::vector<std::string> out;
  std::error_code ec;
  size_t read = 0;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec)) {
      if (skipped_directory(it->path()) || it.depth() > 12) it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() != ".py" || !it->is_regular_file(ec)) continue;
    if (++read > kJitMaxFiles) break;
    auto text = read_text(it->path().string(), kJitMaxFileBytes);
    if (!text || text->find("cpp_extension") == std::string::npos) continue;
    if (calls_any(*text, call_spellings(read_imports(*text)))) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

JitLoads read_jit_loads(const std::string& py_file, const std::string& project_dir, const std::string& inline_dir,
                        const std::string& python) {
  using namespace jit_load_detail;
  auto text = read_text(py_file, kJitMaxFileBytes);
  if (!text) throw InputError(py_file, "cannot read it (or it is larger than " + std::to_string(kJitMaxFileBytes) + " bytes)");
  const std::string path = fs::absolute(py_file).lexically_normal().string();
  const std::string root = fs::absolute(project_dir).lexically_normal().string();
  const Imports imports = read_imports(*text);
  std::set<std::string> callees;
  for (const auto& s : call_spellings(imports)) callees.insert(s.substr(s.rfind('.') + 1));
  py::Module mod = py::read_module(*text, path, root, callees, python);
  JitLoads out;
  CallReader r{path, root, inline_dir, out};
  for (const auto& c : mod.calls)
    if (const std::string f = jit_function(c.callee, imports); !f.empty()) r.read_call(c, f);
  return out;
}

CompileCommand jit_load_command(const JitLoad& load, const std::string& source, const std::string& dir,
                                const TorchLocation& torch) {
  const bool cu = load.ext.cuda && jit_load_detail::is_cuda_file(source);
  CompileCommand c;
  c.file = source;
  c.directory = dir;
  // _write_ninja_file_to_build_library on Linux: the common flags, then the
  // compiler's own.
  c.arguments.push_back(cu ? "nvcc" : "c++");
  if (!load.standalone) {
    if (!load.ext.name.empty()) c.arguments.push_back("-DTORCH_EXTENSION_NAME=" + load.ext.name);
    c.arguments.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  }
  for (const auto& i : load.ext.include_dirs) c.arguments.push_back("-I" + i);
  // With CUDA sources, include_paths("cuda") adds CUDA_HOME/include for every
  // file, after torch's and before Python's: this machine's installation
  // stands for it (.cu files get it from the CUDA parse itself).
  const bool cuda_include = !cu && load.ext.cuda && !host_cuda_include_dir().empty();
  bool cuda_added = false;
  for (const auto& i : torch.include_dirs) {
    std::error_code ec;
    if (cuda_include && !cuda_added && fs::exists(fs::path(i) / "Python.h", ec)) {
      c.arguments.insert(c.arguments.end(), {"-isystem", host_cuda_include_dir()});
      cuda_added = true;
    }
    c.arguments.insert(c.arguments.end(), {"-isystem", i});
  }
  if (cuda_include && !cuda_added) c.arguments.insert(c.arguments.end(), {"-isystem", host_cuda_include_dir()});
  if (!cu) {
    c.arguments.push_back("-fPIC");
    if (!torch.std_flag.empty()) c.arguments.push_back(torch.std_flag);  // always; a later -std in extra_cflags wins
    c.arguments.insert(c.arguments.end(), load.ext.cxx_args.begin(), load.ext.cxx_args.end());
  } else {
    c.arguments.insert(c.arguments.end(), {"--compiler-options", "-fPIC"});
    c.arguments.insert(c.arguments.end(), load.ext.nvcc_args.begin(), load.ext.nvcc_args.end());
    const bool has_std = std::any_of(load.ext.nvcc_args.begin(), load.ext.nvcc_args.end(),
                                     [](const std::string& a) { return a.starts_with("-std="); });
    if (!has_std && !torch.std_flag.empty()) c.arguments.push_back(torch.std_flag);
  }
  c.arguments.push_back("-c");
  c.arguments.push_back(source);
  return c;
}

namespace {

// The calls of `file` as read, with every one that was recorded on import
// replaced by what was recorded at its line (a helper called by several
// modules: one call read, several recorded). What the reading could not
// resolve stays only while some call of the file was not recorded.
JitLoads with_recorded(JitLoads read, const std::string& file, const std::vector<JitLoad>& recorded) {
  JitLoads out;
  bool all = !read.loads.empty();
  for (auto& l : read.loads) {
    bool found = false;
    for (const auto& r : recorded)
      if (r.file == file && r.ext.line == l.ext.line && r.function == l.function) {
        out.loads.push_back(r);
        found = true;
      }
    if (!found) out.loads.push_back(std::move(l));
    all &= found;
  }
  if (!all) out.notes = std::move(read.notes);
  return out;
}

}  // namespace

ProjectBuild read_jit_load_build(const std::string& dir, const std::vector<std::string>& py_files,
                                 const TorchLocation& torch, const std::vector<std::string>& defines,
                                 const std::vector<JitLoad>* recorded, const std::string& python) {
  using namespace jit_load_detail;
  const std::string root = fs::absolute(dir).lexically_normal().string();
  const std::vector<std::string> files = py_files.empty() ? find_jit_load_files(root) : py_files;
  ProjectBuild b;
  b.build_file = files.empty() ? root : fs::absolute(files.front()).lexically_normal().string();
  b.db.path = b.build_file;
  std::vector<std::string> shown_files;
  for (const auto& f : files) shown_files.push_back(fs::path(f).lexically_relative(root).generic_string());
  b.facts.emplace_back("build description", "cpp_extension.load() / load_inline() calls in " +
                                                text::join(shown_files, ", ") +
                                                (recorded && !recorded->empty()
                                                     ? " (their modules imported, and functions that build on first "
                                                       "use called, with load() recorded; other calls read, not run)"
                                                     : " (read, not run)"));
  b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + text::join(torch.include_dirs, " ") : torch.how);
  std::string inline_dir;
  size_t unreadable = 0;
  for (const auto& f : files) {
    if (inline_dir.empty()) inline_dir = scratch_dirs().make().string();
    JitLoads loads;
    try {
      loads = read_jit_loads(f, root, inline_dir, python);
    } catch (const InputError& e) {
      // One module that cannot be parsed does not hide the others'.
      if (++unreadable == files.size()) throw;
      b.notes.push_back({f, 0, std::string(e.what()) + ": its cpp_extension.load() calls are not read"});
      continue;
    }
    const std::string canonical = fs::absolute(f).lexically_normal().string();
    if (recorded) loads = with_recorded(std::move(loads), canonical, *recorded);
    b.notes.insert(b.notes.end(), loads.notes.begin(), loads.notes.end());
    const std::string where = fs::path(f).lexically_relative(root).generic_string();
    for (const auto& l : loads.loads) {
      const std::string label = "extension " + (l.ext.name.empty() ? std::string("(unnamed)") : l.ext.name);
      b.facts.emplace_back(label, l.function + "() at " + where + ":" + std::to_string(l.ext.line) + ", " +
                                      std::to_string(l.ext.sources.size()) + " source" +
                                      (l.ext.sources.size() == 1 ? "" : "s") +
                                      (l.ext.cuda ? ", with CUDA" : "") + (l.standalone ? ", standalone" : ""));
      if (l.inline_written)
        b.facts.emplace_back(label + " sources", "written as torch writes them: " + text::join(l.ext.sources, " "));
      std::set<std::string> shown;
      for (const auto& src : l.ext.sources) {
        if (fs::path(src).extension() == ".sycl") {
          b.facts.emplace_back(label + " " + fs::path(src).filename().string(), "SYCL source: not linted");
          continue;
        }
        CompileCommand c = jit_load_command(l, src, root, torch);
        for (const auto& d : defines) c.arguments.insert(c.arguments.end() - 2, "-D" + d);
        if (shown.insert(c.arguments[0]).second)
          b.facts.emplace_back(label + " " + c.arguments[0] + " flags",
                               text::join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2), " "));
        BuildConfiguration proto;
        proto.unit = label;
        proto.compiler = c.arguments[0] == "nvcc" ? "nvcc" : "cxx";
        proto.platform = "linux";
        proto.method = "cpp_extension." + l.function + (l.recorded ? "() recorded when its module was imported" : "() read");
        proto.file = l.file;
        proto.line = l.ext.line;
        proto.unresolved = proto.compiler == "nvcc" ? l.ext.unresolved_nvcc : l.ext.unresolved_cxx;
        proto.built_by_running_torch = true;
        add_to_configuration(b, proto, c);
      }
    }
  }
  return b;
}

void remove_jit_scratch_dirs() { jit_load_detail::scratch_dirs().remove(); }

}  // namespace torchabi::inputs
