#include "inputs/project/cmake_lists.h"

#include "inputs/project/environment/build_environment.h"  // kStandInCudaVersion

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "common/input_error.h"
#include "common/regex.h"
#include "inputs/project/glob_files.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// ---- the CMake language: commands with arguments ----

struct Arg {
  std::string text;
  bool quoted = false;  // quoted and bracket arguments are not split on ';'
};

struct Command {
  std::string name;  // lower case: command names are case-insensitive
  std::vector<Arg> args;
  int line = 0;
};

std::vector<Command> parse(const std::string& t, const std::string& path) {
  std::vector<Command> out;
  size_t at = 0;
  int line = 1;
  auto fail = [&](const std::string& why) {
    throw InputError(path, "line " + std::to_string(line) + ": " + why);
  };
  // [[...]], [=[...]=]: returns the content, or nullopt when `at` is not one.
  auto bracket = [&](size_t& p) -> std::optional<std::string> {
    if (t[p] != '[') return std::nullopt;
    size_t q = p + 1;
    while (q < t.size() && t[q] == '=') ++q;
    if (q >= t.size() || t[q] != '[') return std::nullopt;
    const std::string close = "]" + std::string(q - p - 1, '=') + "]";
    const size_t end = t.find(close, q + 1);
    if (end == std::string::npos) fail("a bracket argument is never closed");
    std::string body = t.substr(q + 1, end - q - 1);
    if (!body.empty() && body[0] == '\n') body.erase(0, 1);
    line += static_cast<int>(std::count(t.begin() + long(p), t.begin() + long(end), '\n'));
    p = end + close.size();
    return body;
  };
  auto skip_space_and_comments = [&](bool newlines) {
    while (at < t.size()) {
      const char c = t[at];
      if (c == '\n') {
        if (!newlines) return;
        ++line;
        ++at;
      } else if (std::isspace(static_cast<unsigned char>(c))) {  // \v and \f too, as the argument loop stops there
        ++at;
      } else if (c == '#') {
        size_t p = at + 1;
        if (p < t.size() && bracket(p)) {
          at = p;
          continue;
        }
        while (at < t.size() && t[at] != '\n') ++at;
      } else {
        return;
      }
    }
  };
  while (true) {
    skip_space_and_comments(true);
    if (at >= t.size()) break;
    if (!(std::isalpha(static_cast<unsigned char>(t[at])) || t[at] == '_')) fail("expected a command name");
    Command cmd;
    cmd.line = line;
    while (at < t.size() && (std::isalnum(static_cast<unsigned char>(t[at])) || t[at] == '_'))
      cmd.name += char(std::tolower(static_cast<unsigned char>(t[at++])));
    skip_space_and_comments(false);
    if (at >= t.size() || t[at] != '(') fail("expected '(' after " + cmd.name);
    ++at;
    int depth = 0;
    while (true) {
      skip_space_and_comments(true);
      if (at >= t.size()) fail("the arguments of " + cmd.name + " are never closed");
      const char c = t[at];
      if (c == ')') {
        ++at;
        if (depth-- == 0) break;
        cmd.args.push_back({")", false});
        continue;
      }
      if (c == '(') {  // nested parentheses are literal arguments (if() groups)
        ++depth;
        ++at;
        cmd.args.push_back({"(", false});
        continue;
      }
      if (c == '"') {
        std::string s;
        ++at;
        while (true) {
          if (at >= t.size()) fail("a quoted argument is never closed");
          if (t[at] == '"') break;
          if (t[at] == '\\' && at + 1 < t.size()) {
            const char n = t[at + 1];
            if (n == '\n') ++line;
            else s += n == 'n' ? '\n' : n == 't' ? '\t' : n == ';' ? std::string("\\;")[0] : n;
            if (n == ';') s += ';';
            at += 2;
            continue;
          }
          if (t[at] == '\n') ++line;
          s += t[at++];
        }
        ++at;
        cmd.args.push_back({s, true});
        continue;
      }
      if (auto b = bracket(at)) {
        cmd.args.push_back({*b, true});
        continue;
      }
      std::string s;
      while (at < t.size() && !std::isspace(static_cast<unsigned char>(t[at])) && t[at] != '(' && t[at] != ')' &&
             t[at] != '#') {
        if (t[at] == '"') {  // a quoted part inside an unquoted argument: -DX="y"
          s += t[at++];
          while (at < t.size() && t[at] != '"') s += t[at++];
          if (at < t.size()) s += t[at++];
          continue;
        }
        if (t[at] == '\\' && at + 1 < t.size()) {
          s += t[at + 1];
          at += 2;
          continue;
        }
        s += t[at++];
      }
      if (s.empty()) fail("unexpected character in the arguments of " + cmd.name);  // never loop in place
      cmd.args.push_back({s, false});
    }
    out.push_back(std::move(cmd));
  }
  return out;
}

// ---- evaluation ----

// A build of the project sees $<BUILD_INTERFACE:x> (and BUILD_LOCAL_INTERFACE)
// as x and $<INSTALL_INTERFACE:x> as nothing: the one generator expression
// every exported library writes needs no generate step to evaluate.
std::string evaluate_interface_genexes(std::string v) {
  for (size_t at = v.find("$<"); at != std::string::npos; at = v.find("$<", at)) {
    size_t depth = 0, end = at;
    for (; end < v.size(); ++end) {
      if (v.compare(end, 2, "$<") == 0) ++depth, ++end;
      else if (v[end] == '>' && --depth == 0) break;
    }
    if (end >= v.size()) break;  // unbalanced: left for the note
    const std::string body = v.substr(at + 2, end - at - 2);
    std::string replacement;
    bool known = true;
    if (body.starts_with("BUILD_INTERFACE:")) replacement = body.substr(16);
    else if (body.starts_with("BUILD_LOCAL_INTERFACE:")) replacement = body.substr(22);
    else if (!body.starts_with("INSTALL_INTERFACE:")) known = false;
    if (!known) {
      at = end + 1;
      continue;
    }
    v.replace(at, end - at + 1, replacement);
  }
  return v;
}

std::vector<std::string> split_list(const std::string& v) {
  std::vector<std::string> out;
  if (v.empty()) return out;
  std::string cur;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '\\' && i + 1 < v.size() && v[i + 1] == ';') {
      cur += ';';
      ++i;
    } else if (v[i] == ';') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += v[i];
    }
  }
  out.push_back(cur);
  return out;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ";" : "") + items[i];
  return out;
}

std::string upper(std::string s) {
  for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool is_false_constant(const std::string& v) {
  const std::string u = upper(v);
  return u.empty() || u == "0" || u == "OFF" || u == "NO" || u == "FALSE" || u == "N" || u == "IGNORE" ||
         u == "NOTFOUND" || u.ends_with("-NOTFOUND");
}

bool is_true_constant(const std::string& v) {
  const std::string u = upper(v);
  if (u == "1" || u == "ON" || u == "YES" || u == "TRUE" || u == "Y") return true;
  return !u.empty() && std::all_of(u.begin(), u.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         u != "0";
}

bool is_source(const std::string& path) {
  static const std::set<std::string> kExt = {".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".C"};
  return kExt.count(fs::path(path).extension().string()) > 0;
}

struct Scope {
  std::map<std::string, std::string> vars;
  std::vector<std::string> include_dirs, definitions, options;  // directory properties
};

struct Callable {
  bool is_function = false;
  std::vector<std::string> params;
  std::vector<Command> body;
  std::string file;
};

class Interpreter {
public:
  Interpreter(const std::map<std::string, std::string>& cache, CMakeProject& out) : cache_(cache), out_(out) {}

  void run_file(const std::string& path, Scope& scope) {
    if (std::find(files_.begin(), files_.end(), path) != files_.end()) {
      note(0, "add_subdirectory() reaches " + path + " again: it was read once");
      return;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "cannot read it");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::vector<Command> cmds = parse(ss.str(), path);
    const std::string dir = fs::path(path).parent_path().string();
    scope.vars["CMAKE_CURRENT_SOURCE_DIR"] = dir;
    scope.vars["CMAKE_CURRENT_LIST_DIR"] = dir;
    scope.vars["CMAKE_CURRENT_LIST_FILE"] = path;
    files_.push_back(path);
    run(cmds, 0, cmds.size(), scope);
    files_.pop_back();
  }

  // include(FILE|MODULE [OPTIONAL] ...): the file's commands in this scope,
  // so that functions it defines (a project's define_extension(... SOURCES
  // ...) helpers in cmake/*.cmake) are known. CMake's own modules are not
  // read: what they define is configure-time machinery.
  void include_file(const std::vector<std::string>& v, int line, Scope& scope) {
    std::error_code ec;
    std::string path;
    if (v[0].find('/') != std::string::npos || v[0].ends_with(".cmake")) {
      path = absolute(v[0], scope);
    } else {
      for (const auto& dir : split_list(scope.vars["CMAKE_MODULE_PATH"])) {
        const fs::path candidate = fs::path(absolute(dir, scope)) / (v[0] + ".cmake");
        if (fs::is_regular_file(candidate, ec)) {
          path = candidate.string();
          break;
        }
      }
      if (path.empty()) return;  // one of CMake's modules
    }
    if (!fs::is_regular_file(path, ec)) {
      if (std::find(v.begin(), v.end(), "OPTIONAL") == v.end()) note(line, "include(" + v[0] + "): no such file");
      return;
    }
    if (std::find(files_.begin(), files_.end(), path) != files_.end()) return;  // includes itself
    std::ifstream in(path, std::ios::binary);
    if (!in) return;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::vector<Command> cmds = parse(ss.str(), path);
    const std::string saved_dir = scope.vars["CMAKE_CURRENT_LIST_DIR"], saved_file = scope.vars["CMAKE_CURRENT_LIST_FILE"];
    scope.vars["CMAKE_CURRENT_LIST_DIR"] = fs::path(path).parent_path().string();
    scope.vars["CMAKE_CURRENT_LIST_FILE"] = path;
    files_.push_back(path);
    run(cmds, 0, cmds.size(), scope);
    files_.pop_back();
    scope.vars["CMAKE_CURRENT_LIST_DIR"] = saved_dir;
    scope.vars["CMAKE_CURRENT_LIST_FILE"] = saved_file;
  }

  // cmake_parse_arguments(PREFIX OPTIONS ONE MULTI ARGS...) and
  // (PARSE_ARGV N PREFIX OPTIONS ONE MULTI): how a project's helper functions
  // take their SOURCES/INCLUDE_DIRECTORIES keywords.
  void parse_arguments(const std::vector<std::string>& v, Scope& scope) {
    std::vector<std::string> args;
    size_t k = 0;
    if (!v.empty() && v[0] == "PARSE_ARGV") {
      if (v.size() < 6) return;
      size_t from = 0;
      try {
        from = std::stoul(v[1]);
      } catch (...) {
        return;
      }
      const auto argv = split_list(scope.vars["ARGV"]);
      if (from < argv.size()) args.assign(argv.begin() + long(from), argv.end());
      k = 2;
    } else {
      if (v.size() < 4) return;
      args.assign(v.begin() + 4, v.end());
    }
    const std::string prefix = v[k] + "_";
    const auto options = split_list(v[k + 1]), one = split_list(v[k + 2]), multi = split_list(v[k + 3]);
    auto in = [](const std::vector<std::string>& list, const std::string& x) {
      return std::find(list.begin(), list.end(), x) != list.end();
    };
    for (const auto& o : options) scope.vars[prefix + o] = "FALSE";
    for (const auto& o : one) scope.vars.erase(prefix + o);
    for (const auto& o : multi) scope.vars.erase(prefix + o);
    std::string current;  // the keyword collecting values
    std::vector<std::string> collected, unparsed;
    auto flush = [&] {
      if (!current.empty() && !collected.empty()) scope.vars[prefix + current] = join_list(collected);
      collected.clear();
    };
    for (const auto& a : args) {
      if (in(options, a)) {
        flush();
        current.clear();
        scope.vars[prefix + a] = "TRUE";
      } else if (in(one, a) || in(multi, a)) {
        flush();
        current = a;
      } else if (!current.empty()) {
        collected.push_back(a);
        if (in(one, current)) {
          flush();
          current.clear();
        }
      } else {
        unparsed.push_back(a);
      }
    }
    flush();
    if (!unparsed.empty()) scope.vars[prefix + "UNPARSED_ARGUMENTS"] = join_list(unparsed);
  }

  void finish() {
    // Usage requirements of the project's own libraries reach their users.
    for (auto& t : out_.targets)
      for (const auto& dep : links_[t.name]) {
        auto it = interface_.find(dep);
        if (it == interface_.end()) continue;
        for (const auto& d : it->second.include_dirs) t.include_dirs.push_back(d);
        for (const auto& d : it->second.definitions) t.definitions.push_back(d);
        for (const auto& d : it->second.options) t.options.push_back(d);
        if (linked_torch_.count(dep)) t.links_torch = true;
      }
  }

private:
  const std::string& file() const { return files_.back(); }

  // A helper function called once per source list reaches the same line many
  // times; one note per line and text says all there is.
  void note(int line, const std::string& what) {
    if (noted_.insert(file() + ":" + std::to_string(line) + ":" + what).second) out_.notes.push_back({file(), line, what});
  }

  std::string expand(const std::string& s, const Scope& scope, int line) {
    std::string out = s;
    // Innermost ${...} first, so that ${A_${B}} works.
    for (int guard = 0; guard < 100; ++guard) {
      size_t open = std::string::npos;
      size_t close = std::string::npos;
      for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '$' && i + 1 < out.size() &&
            (out[i + 1] == '{' || out.compare(i, 5, "$ENV{") == 0 || out.compare(i, 7, "$CACHE{") == 0))
          open = i;
        if (out[i] == '}' && open != std::string::npos) {
          close = i;
          break;
        }
      }
      if (open == std::string::npos || close == std::string::npos) break;
      const size_t brace = out.find('{', open);
      const std::string kind = out.substr(open + 1, brace - open - 1);
      const std::string name = out.substr(brace + 1, close - brace - 1);
      std::string value;
      if (kind == "ENV") {
        note(line, "$ENV{" + name + "} is read when CMake runs: it was taken as empty");
      } else if (auto it = scope.vars.find(name); it != scope.vars.end()) {
        value = it->second;
      } else if (auto c = cache_.find(name); c != cache_.end()) {
        value = c->second;
      }
      out = out.substr(0, open) + value + out.substr(close + 1);
      if (out.size() > kMaxValue) {  // set(X ${X}${X}) in a loop doubles without end
        note(line, "a value grows past 1 MB: it was taken as empty");
        return "";
      }
    }
    return out;
  }

  // Arguments after expansion; unquoted ones split into list items.
  std::vector<std::string> values(const Command& c, const Scope& scope, size_t from = 0) {
    std::vector<std::string> out;
    for (size_t i = from; i < c.args.size(); ++i) {
      const std::string v = evaluate_interface_genexes(expand(c.args[i].text, scope, c.line));
      if (c.args[i].quoted) {
        out.push_back(v);
      } else {
        for (auto& item : split_list(v))
          if (!item.empty()) out.push_back(item);
      }
    }
    return out;
  }

  std::string absolute(const std::string& p, const Scope& scope) const {
    if (p.starts_with(kTorchIncludes)) return p;  // find_package(Torch)'s, filled in later
    const fs::path path(p);
    return path.is_absolute() ? path.lexically_normal().string()
                              : (fs::path(scope.vars.at("CMAKE_CURRENT_SOURCE_DIR")) / path).lexically_normal().string();
  }

  // Items that need the configure or generate step are dropped with a note.
  bool static_item(const std::string& v, int line, const std::string& where) {
    if (v.find("$<") == std::string::npos) return true;
    note(line, "a generator expression in " + where + " (" + v + ") is evaluated when CMake generates the build: it was left out");
    return false;
  }

  // The CUDA compiler of a build machine, as the configure's stand-in nvcc
  // reports it (CMakeLists.txt that branch on its version read as there).
  void cuda_compiler(Scope& scope) {
    const std::string version = std::string(kStandInCudaVersion) + ".0";
    for (const auto& [name, value] : {std::pair<std::string, std::string>{"CMAKE_CUDA_COMPILER_VERSION", version},
                                      {"CMAKE_CUDA_COMPILER_ID", "NVIDIA"}})
      if (!scope.vars.count(name) && !cache_.count(name)) scope.vars[name] = value;
  }

  // ---- if() ----
  // A name if() tests that nothing read has set: CMake takes it as false (or
  // as its own text), and so does the reader, but remembers it.
  void unknown_if_unset(const std::string& name, const Scope& scope) {
    static const std::set<std::string> kPlatform = {"WIN32", "APPLE", "MSVC", "MINGW", "CYGWIN", "MSYS", "ANDROID",
                                                    "IOS", "BORLAND", "WATCOM", "XCODE", "CMAKE_CROSSCOMPILING"};
    const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                            std::all_of(name.begin(), name.end(), [](char ch) {
                              return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                            });
    if (!identifier || scope.vars.count(name) || cache_.count(name) || kPlatform.count(name)) return;
    if (std::find(out_.unknown_conditions.begin(), out_.unknown_conditions.end(), name) == out_.unknown_conditions.end())
      out_.unknown_conditions.push_back(name);
  }

  bool truth(const std::string& a, bool quoted, const Scope& scope) {
    if (is_true_constant(a)) return true;
    if (is_false_constant(a)) return false;
    if (quoted) return false;
    auto it = scope.vars.find(a);
    if (it != scope.vars.end()) return !is_false_constant(it->second);
    auto c = cache_.find(a);
    if (c == cache_.end()) unknown_if_unset(a, scope);
    return c != cache_.end() && !is_false_constant(c->second);
  }

  std::string deref(const Arg& a, const Scope& scope) {
    if (a.quoted) return a.text;
    auto it = scope.vars.find(a.text);
    return it != scope.vars.end() ? it->second : a.text;
  }

  bool condition(std::vector<Arg> args, const Scope& scope, int line) {
    for (auto& a : args) a.text = expand(a.text, scope, line);
    size_t at = 0;
    std::function<bool()> or_expr, and_expr, unary;
    auto primary = [&]() -> bool {
      if (at >= args.size()) return false;
      if (args[at].text == "(" && !args[at].quoted) {
        ++at;
        bool v = or_expr();
        if (at < args.size() && args[at].text == ")") ++at;
        return v;
      }
      const Arg& a = args[at++];
      if (!a.quoted && (a.text == "DEFINED") && at < args.size()) {
        const std::string n = args[at++].text;
        return scope.vars.count(n) || cache_.count(n);
      }
      if (!a.quoted && (a.text == "EXISTS" || a.text == "IS_DIRECTORY") && at < args.size()) {
        std::error_code ec;
        return a.text == "EXISTS" ? fs::exists(args[at++].text, ec) : fs::is_directory(args[at++].text, ec);
      }
      if (!a.quoted && (a.text == "TARGET" || a.text == "COMMAND" || a.text == "POLICY") && at < args.size()) {
        const std::string n = args[at++].text;
        if (a.text == "TARGET") return std::any_of(out_.targets.begin(), out_.targets.end(),
                                                   [&](const CMakeTarget& t) { return t.name == n; });
        return a.text == "POLICY";
      }
      if (at < args.size() && !args[at].quoted) {
        const std::string op = args[at].text;
        static const std::set<std::string> kBinary = {
            "STREQUAL", "EQUAL", "LESS", "GREATER", "LESS_EQUAL", "GREATER_EQUAL", "MATCHES", "IN_LIST",
            "VERSION_LESS", "VERSION_GREATER", "VERSION_EQUAL", "VERSION_LESS_EQUAL", "VERSION_GREATER_EQUAL",
            "STRLESS", "STRGREATER"};
        if (kBinary.count(op) && at + 1 < args.size()) {
          const Arg& b = args[at + 1];
          at += 2;
          if (!a.quoted) unknown_if_unset(a.text, scope);  // VLLM_GPU_LANG STREQUAL "CUDA"
          const std::string l = deref(a, scope), r = deref(b, scope);
          if (op == "STREQUAL") return l == r;
          if (op == "STRLESS") return l < r;
          if (op == "STRGREATER") return l > r;
          if (op == "MATCHES") {
            try {
              return Regex(b.text).contains(l);
            } catch (const RegexError&) {
              note(line, "if(... MATCHES " + b.text + ") could not be evaluated");
              return false;
            }
          }
          if (op == "IN_LIST") {
            auto it = scope.vars.find(b.text);
            auto items = split_list(it != scope.vars.end() ? it->second : "");
            return std::find(items.begin(), items.end(), l) != items.end();
          }
          if (op.starts_with("VERSION_")) {
            auto parts = [](const std::string& v) {
              std::vector<long> p;
              std::stringstream ss(v);
              for (std::string x; std::getline(ss, x, '.');) p.push_back(std::atol(x.c_str()));
              while (p.size() < 4) p.push_back(0);
              return p;
            };
            const auto pl = parts(l), pr = parts(r);
            if (op == "VERSION_LESS") return pl < pr;
            if (op == "VERSION_GREATER") return pl > pr;
            if (op == "VERSION_EQUAL") return pl == pr;
            if (op == "VERSION_LESS_EQUAL") return pl <= pr;
            return pl >= pr;
          }
          const long li = std::atol(l.c_str()), ri = std::atol(r.c_str());
          if (op == "EQUAL") return li == ri;
          if (op == "LESS") return li < ri;
          if (op == "GREATER") return li > ri;
          if (op == "LESS_EQUAL") return li <= ri;
          return li >= ri;
        }
      }
      return truth(a.text, a.quoted, scope);
    };
    unary = [&]() -> bool {
      if (at < args.size() && !args[at].quoted && args[at].text == "NOT") {
        ++at;
        return !unary();
      }
      return primary();
    };
    and_expr = [&]() -> bool {
      bool v = unary();
      while (at < args.size() && !args[at].quoted && args[at].text == "AND") {
        ++at;
        const bool r = unary();
        v = v && r;
      }
      return v;
    };
    or_expr = [&]() -> bool {
      bool v = and_expr();
      while (at < args.size() && !args[at].quoted && args[at].text == "OR") {
        ++at;
        const bool r = and_expr();
        v = v || r;
      }
      return v;
    };
    return or_expr();
  }

  // Index of the command closing the block opened at `open` (endif/endforeach/...).
  size_t block_end(const std::vector<Command>& cmds, size_t open, size_t end, const std::string& opener,
                   const std::string& closer) {
    int depth = 0;
    for (size_t i = open; i < end; ++i) {
      if (cmds[i].name == opener) ++depth;
      if (cmds[i].name == closer && --depth == 0) return i;
    }
    throw InputError(file(), "line " + std::to_string(cmds[open].line) + ": " + opener + "() has no " + closer + "()");
  }

  CMakeTarget* target(const std::string& name) {
    for (auto& t : out_.targets)
      if (t.name == name) return &t;
    return nullptr;
  }

  Scope& interface_of(const std::string& name) { return interface_[name]; }

  void run(const std::vector<Command>& cmds, size_t begin, size_t end, Scope& scope) {
    // Blocks nested deeper than any real CMakeLists.txt: stop before the stack does.
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(++x) {}
      ~Depth() { --d; }
    } depth(run_depth_);
    if (run_depth_ > 300) {
      if (begin < end) note(cmds[begin].line, "blocks nested too deeply to follow: the rest of this block was not read");
      return;
    }
    for (size_t i = begin; i < end; ++i) {
      const Command& c = cmds[i];
      const std::string& n = c.name;
      // Loops and calls can multiply: a bound on the work, far above any real project's.
      if (++steps_ > kMaxSteps) {
        if (!out_of_steps_) note(c.line, "the loops and calls here run too long to follow: the rest was not read");
        out_of_steps_ = true;
        return;
      }
      if (n == "if") {
        // Branches: if, elseif..., else; the first true one runs.
        const size_t close = block_end(cmds, i, end, "if", "endif");
        std::vector<size_t> marks = {i};
        int depth = 0;
        for (size_t k = i + 1; k < close; ++k) {
          if (cmds[k].name == "if") ++depth;
          if (cmds[k].name == "endif") --depth;
          if (depth == 0 && (cmds[k].name == "elseif" || cmds[k].name == "else")) marks.push_back(k);
        }
        marks.push_back(close);
        for (size_t m = 0; m + 1 < marks.size(); ++m) {
          const Command& head = cmds[marks[m]];
          if (head.name == "else" || condition(head.args, scope, head.line)) {
            run(cmds, marks[m] + 1, marks[m + 1], scope);
            break;
          }
        }
        i = close;
        continue;
      }
      if (n == "foreach") {
        const size_t close = block_end(cmds, i, end, "foreach", "endforeach");
        std::vector<std::string> v = values(c, scope);
        if (v.empty()) {
          i = close;
          continue;
        }
        const std::string var = v[0];
        std::vector<std::string> items;
        if (v.size() > 1 && v[1] == "RANGE") {
          const long lo = v.size() > 3 ? std::atol(v[2].c_str()) : 0;
          const long hi = std::atol(v.back().c_str());
          for (long k = lo; k <= hi && k - lo < 10000; ++k) items.push_back(std::to_string(k));
        } else {
          bool lists = false;
          for (size_t k = 1; k < v.size(); ++k) {
            if (v[k] == "IN") continue;
            if (v[k] == "LISTS") {
              lists = true;
              continue;
            }
            if (v[k] == "ITEMS") {
              lists = false;
              continue;
            }
            if (lists) {
              auto it = scope.vars.find(v[k]);
              for (auto& x : split_list(it != scope.vars.end() ? it->second : "")) items.push_back(x);
            } else {
              items.push_back(v[k]);
            }
          }
        }
        for (const auto& item : items) {
          scope.vars[var] = item;
          run(cmds, i + 1, close, scope);
        }
        i = close;
        continue;
      }
      if (n == "function" || n == "macro") {
        const size_t close = block_end(cmds, i, end, n, "end" + n);
        std::vector<std::string> v = values(c, scope);
        if (!v.empty()) {
          Callable f;
          f.is_function = n == "function";
          f.params.assign(v.begin() + 1, v.end());
          f.body.assign(cmds.begin() + long(i) + 1, cmds.begin() + long(close));
          f.file = file();
          std::string key = v[0];
          for (auto& ch : key) ch = char(std::tolower(static_cast<unsigned char>(ch)));
          callables_[key] = std::move(f);
        }
        i = close;
        continue;
      }
      if (n == "while") {
        note(c.line, "a while() loop depends on values computed when CMake runs: its body was not read");
        i = block_end(cmds, i, end, "while", "endwhile");
        continue;
      }
      if (auto it = callables_.find(n); it != callables_.end()) {
        call(it->second, c, scope);
        continue;
      }
      command(c, scope);
    }
  }

  void call(const Callable& f, const Command& c, Scope& scope) {
    std::vector<std::string> v = values(c, scope);
    Scope local = scope;
    Scope& s = f.is_function ? local : scope;
    for (size_t k = 0; k < f.params.size(); ++k) s.vars[f.params[k]] = k < v.size() ? v[k] : "";
    s.vars["ARGN"] = v.size() > f.params.size() ? join_list({v.begin() + long(f.params.size()), v.end()}) : "";
    s.vars["ARGV"] = join_list(v);
    s.vars["ARGC"] = std::to_string(v.size());
    for (size_t k = 0; k < v.size() && k < 32; ++k) s.vars["ARGV" + std::to_string(k)] = v[k];
    if (++call_depth_ > 50) {
      --call_depth_;
      note(c.line, c.name + "() calls itself too deeply to follow");
      return;
    }
    run(f.body, 0, f.body.size(), s);
    --call_depth_;
    if (f.is_function) {  // directory properties are not scoped by functions
      scope.include_dirs = local.include_dirs;
      scope.definitions = local.definitions;
      scope.options = local.options;
    }
  }

  // list(FILTER <list> INCLUDE|EXCLUDE REGEX <regex>): a GLOB's sources
  // narrowed (`EXCLUDE REGEX "legacy/"`). CMake's regular expressions are
  // a subset of ECMAScript's for what projects write; false: not followed.
  static bool list_filter(const std::vector<std::string>& v, std::vector<std::string>& items) {
    if (v.size() != 5 || (v[2] != "INCLUDE" && v[2] != "EXCLUDE") || v[3] != "REGEX") return false;
    try {
      const Regex re(v[4]);
      const bool include = v[2] == "INCLUDE";
      std::vector<std::string> kept;
      for (const auto& x : items)
        if (re.contains(x) == include) kept.push_back(x);
      items = std::move(kept);
      return true;
    } catch (const RegexError&) {
      return false;
    }
  }

  // string(REGEX REPLACE)'s rule: every match of `re` in `x` replaced by
  // `with`, where \\N is the match's group N.
  static std::string regex_replace_all(const Regex& re, const std::string& x, const std::string& with) {
    std::string out;
    size_t at = 0;
    for (const auto& m : re.search_all(x)) {
      out += x.substr(at, m.position() - at);
      for (size_t k = 0; k < with.size(); ++k) {
        if (with[k] == '\\' && k + 1 < with.size() && std::isdigit(static_cast<unsigned char>(with[k + 1]))) {
          const size_t group = static_cast<size_t>(with[++k] - '0');
          if (group < m.size()) out += m[group];
        } else {
          out += with[k];
        }
      }
      at = m.position() + m[0].size();
    }
    return out + x.substr(at);
  }

  // list(TRANSFORM <list> PREPEND|APPEND <s> | TOLOWER | TOUPPER | STRIP |
  // REPLACE <regex> <with>), on every item (no AT/FOR/REGEX selector).
  static bool list_transform(const std::vector<std::string>& v, std::vector<std::string>& items) {
    if (v.size() < 3) return false;
    const std::string& action = v[2];
    const size_t operands = action == "PREPEND" || action == "APPEND" ? 1 : action == "REPLACE" ? 2 : 0;
    if (v.size() != 3 + operands) return false;  // a selector or an OUTPUT_VARIABLE: not followed
    try {
      const std::optional<Regex> re = action == "REPLACE" ? std::optional<Regex>(Regex(v[3])) : std::nullopt;
      for (auto& x : items) {
        if (action == "PREPEND") x = v[3] + x;
        else if (action == "APPEND") x += v[3];
        else if (action == "TOLOWER") std::transform(x.begin(), x.end(), x.begin(), [](unsigned char ch) { return std::tolower(ch); });
        else if (action == "TOUPPER") std::transform(x.begin(), x.end(), x.begin(), [](unsigned char ch) { return std::toupper(ch); });
        else if (action == "STRIP") x = std::string(text::trim(x));
        else if (action == "REPLACE") x = regex_replace_all(*re, x, v[4]);
        else return false;
      }
      return true;
    } catch (const RegexError&) {
      return false;
    }
  }

  void command(const Command& c, Scope& scope) {
    const std::string& n = c.name;
    std::vector<std::string> v = values(c, scope);
    if (n == "set" && !v.empty()) {
      std::vector<std::string> items(v.begin() + 1, v.end());
      auto cache = std::find(items.begin(), items.end(), "CACHE");
      const bool is_cache = cache != items.end();
      if (is_cache) items.erase(cache, items.end());
      if (!items.empty() && items.back() == "PARENT_SCOPE") items.pop_back();
      if (is_cache && cache_.count(v[0])) return;  // -D given: it wins, as in a configure
      if (is_cache && scope.vars.count(v[0])) return;
      scope.vars[v[0]] = join_list(items);
    } else if (n == "unset" && !v.empty()) {
      scope.vars.erase(v[0]);
    } else if (n == "option" && !v.empty()) {
      if (!scope.vars.count(v[0]) && !cache_.count(v[0])) scope.vars[v[0]] = v.size() > 2 ? v[2] : "OFF";
    } else if (n == "list" && v.size() >= 2) {
      auto items = split_list(scope.vars[v[1]]);
      if (v[0] == "APPEND") items.insert(items.end(), v.begin() + 2, v.end());
      else if (v[0] == "PREPEND") items.insert(items.begin(), v.begin() + 2, v.end());
      else if (v[0] == "REMOVE_ITEM")
        for (size_t k = 2; k < v.size(); ++k) items.erase(std::remove(items.begin(), items.end(), v[k]), items.end());
      else if (v[0] == "FILTER" || v[0] == "TRANSFORM" || v[0] == "SORT" || v[0] == "REMOVE_DUPLICATES") {
        if (v[0] == "SORT") std::sort(items.begin(), items.end());
        else if (v[0] == "REMOVE_DUPLICATES") {
          std::vector<std::string> seen;
          for (auto& x : items)
            if (std::find(seen.begin(), seen.end(), x) == seen.end()) seen.push_back(x);
          items = seen;
        } else if (!(v[0] == "FILTER" ? list_filter(v, items) : list_transform(v, items))) {
          note(c.line, "list(" + v[0] + ") is not followed: " + v[1] + " keeps its earlier items");
        }
      } else {
        return;  // list(LENGTH/GET/FIND ...) do not change the list
      }
      scope.vars[v[1]] = join_list(items);
    } else if (n == "file" && v.size() >= 2 && (v[0] == "GLOB" || v[0] == "GLOB_RECURSE")) {
      scope.vars[v[1]] = join_list(glob(v, scope, c.line));
    } else if (n == "project" && !v.empty()) {
      const std::string& dir = scope.vars["CMAKE_CURRENT_SOURCE_DIR"];
      scope.vars["PROJECT_NAME"] = v[0];
      scope.vars["PROJECT_SOURCE_DIR"] = dir;
      scope.vars[v[0] + "_SOURCE_DIR"] = dir;
      if (!scope.vars.count("CMAKE_PROJECT_NAME")) scope.vars["CMAKE_PROJECT_NAME"] = v[0];
      if (std::find(v.begin(), v.end(), "CUDA") != v.end()) cuda_compiler(scope);
    } else if (n == "enable_language" && std::find(v.begin(), v.end(), "CUDA") != v.end()) {
      cuda_compiler(scope);
    } else if (n == "find_package" && !v.empty()) {
      // A real configure fails without a required package; reading, take it as found.
      scope.vars[v[0] + "_FOUND"] = "TRUE";
      if (v[0] == "Torch") {
        scope.vars["TORCH_FOUND"] = "TRUE";
        scope.vars["TORCH_LIBRARIES"] = "torch";
        scope.vars["TORCH_INCLUDE_DIRS"] = kTorchIncludes;
        // A CUDA build machine's TorchConfig.cmake finds CUDA too (vLLM's
        // builds branch on CUDA_FOUND / CUDA_VERSION): the release the
        // setup.py runs and the CMake configure are shown.
        if (!scope.vars.count("CUDA_FOUND") && !cache_.count("CUDA_FOUND")) {
          scope.vars["CUDA_FOUND"] = "TRUE";
          scope.vars["CUDA_VERSION"] = kStandInCudaVersion;
          scope.vars["CUDA_VERSION_STRING"] = kStandInCudaVersion;
        }
      }
    } else if (n == "add_subdirectory" && !v.empty()) {
      const std::string sub = absolute(v[0], scope);
      Scope child = scope;
      child.vars["CMAKE_CURRENT_BINARY_DIR"] = sub;
      std::error_code ec;
      if (!fs::is_regular_file(fs::path(sub) / "CMakeLists.txt", ec)) {
        note(c.line, "add_subdirectory(" + v[0] + "): no CMakeLists.txt there");
        return;
      }
      run_file((fs::path(sub) / "CMakeLists.txt").string(), child);
    } else if (n == "include" && !v.empty()) {
      include_file(v, c.line, scope);
    } else if (n == "cmake_parse_arguments") {
      parse_arguments(v, scope);
    } else if (n == "include_directories") {
      for (auto& x : v)
        if (x != "SYSTEM" && x != "BEFORE" && x != "AFTER" && static_item(x, c.line, "include_directories"))
          scope.include_dirs.push_back(absolute(x, scope));
    } else if (n == "add_compile_definitions") {
      for (auto& x : v)
        if (static_item(x, c.line, "add_compile_definitions")) scope.definitions.push_back(x);
    } else if (n == "add_definitions") {
      for (auto& x : v) {
        if (!static_item(x, c.line, "add_definitions")) continue;
        if (x.starts_with("-D") || x.starts_with("/D")) scope.definitions.push_back(x.substr(2));
        else scope.options.push_back(x);
      }
    } else if (n == "add_compile_options") {
      for (auto& x : v)
        if (static_item(x, c.line, "add_compile_options")) scope.options.push_back(x);
    } else if (n == "add_library" || n == "add_executable" || n == "python_add_library" || n == "python3_add_library" ||
               n == "pybind11_add_module" || n == "cuda_add_library" || n == "nanobind_add_module") {
      add_target(c, v, scope);
    } else if (n == "target_sources" && !v.empty()) {
      if (CMakeTarget* t = target(v[0]))
        for (size_t k = 1; k < v.size(); ++k)
          if (is_source(v[k]) && static_item(v[k], c.line, "target_sources")) t->sources.push_back(absolute(v[k], scope));
    } else if ((n == "target_include_directories" || n == "target_compile_definitions" ||
                n == "target_compile_options") &&
               !v.empty()) {
      scoped_property(n, c, v, scope);
    } else if (n == "target_compile_features" && !v.empty()) {
      if (CMakeTarget* t = target(v[0]))
        for (auto& x : v) {
          auto newer = [](const std::string& a, const std::string& b) { return std::atoi(a.c_str()) < std::atoi(b.c_str()); };
          if (x.starts_with("cxx_std_")) t->cxx_standard = std::max(t->cxx_standard, x.substr(8), newer);
          if (x.starts_with("cuda_std_")) t->cuda_standard = std::max(t->cuda_standard, x.substr(9), newer);
        }
    } else if (n == "set_target_properties" || (n == "set_property" && !v.empty() && v[0] == "TARGET")) {
      set_properties(n, v);
    } else if (n == "target_link_libraries" && !v.empty()) {
      for (size_t k = 1; k < v.size(); ++k) {
        const std::string& x = v[k];
        if (x == "PRIVATE" || x == "PUBLIC" || x == "INTERFACE") continue;
        if (x == "torch" || x == "Torch::Torch" || x.starts_with("torch_") || x == "c10") {
          if (CMakeTarget* t = target(v[0])) t->links_torch = true;
          linked_torch_.insert(v[0]);
        }
        links_[v[0]].push_back(x);
      }
    } else if (n == "execute_process") {
      note(c.line, "execute_process() runs when CMake configures: the variables it sets were taken as empty");
    }
  }

  std::vector<std::string> glob(const std::vector<std::string>& v, const Scope& scope, int line) {
    const bool recurse = v[0] == "GLOB_RECURSE";
    std::vector<std::string> out;
    for (size_t k = 2; k < v.size(); ++k) {
      if (v[k] == "CONFIGURE_DEPENDS" || v[k] == "LIST_DIRECTORIES" || v[k] == "true" || v[k] == "false") continue;
      if (v[k] == "RELATIVE") {
        note(line, "file(GLOB ... RELATIVE) is read as absolute paths");
        ++k;
        continue;
      }
      // GLOB_RECURSE matches the file name in every directory below: '**' before it.
      const fs::path pattern(absolute(v[k], scope));
      const std::string spelled = recurse ? (pattern.parent_path() / "**" / pattern.filename()).string() : pattern.string();
      auto found = glob_files(scope.vars.at("CMAKE_SOURCE_DIR"), spelled);
      // A pattern rooted elsewhere names files no checkout shares (and could walk the disk).
      if (!found) {
        note(line, "file(" + v[0] + " " + v[k] + ") looks outside the source tree: it was taken as empty");
        continue;
      }
      out.insert(out.end(), found->begin(), found->end());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  void add_target(const Command& c, const std::vector<std::string>& v, Scope& scope) {
    if (v.empty()) return;
    static const std::set<std::string> kKeywords = {"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE",
                                                    "EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE", "WITH_SOABI",
                                                    "NO_EXTRAS", "THIN_LTO", "OPT_SIZE", "NB_STATIC", "STABLE_ABI",
                                                    "NB_DOMAIN", "USE_SABI", "LTO", "NOMINSIZE", "FREE_THREADED"};
    if (std::find(v.begin(), v.end(), "IMPORTED") != v.end() || std::find(v.begin(), v.end(), "ALIAS") != v.end())
      return;
    CMakeTarget t;
    t.name = v[0];
    // add_library's default follows BUILD_SHARED_LIBS; the Python module helpers build modules.
    t.type = c.name == "add_executable" ? "EXECUTABLE"
             : c.name == "add_library" || c.name == "cuda_add_library"
                 ? (scope.vars.count("BUILD_SHARED_LIBS") && !is_false_constant(scope.vars["BUILD_SHARED_LIBS"]) ? "SHARED"
                                                                                                                  : "STATIC")
                 : "MODULE";
    for (const char* kind : {"SHARED", "MODULE", "STATIC", "OBJECT"})
      if (std::find(v.begin() + 1, v.end(), kind) != v.end()) t.type = kind;
    t.file = file();
    t.line = c.line;
    t.directory = scope.vars["CMAKE_CURRENT_SOURCE_DIR"];
    t.include_dirs = scope.include_dirs;
    t.definitions = scope.definitions;
    t.options = scope.options;
    t.cxx_standard = scope.vars.count("CMAKE_CXX_STANDARD") ? scope.vars["CMAKE_CXX_STANDARD"] : "";
    t.cuda_standard = scope.vars.count("CMAKE_CUDA_STANDARD") ? scope.vars["CMAKE_CUDA_STANDARD"] : "";
    t.cxx_extensions = !scope.vars.count("CMAKE_CXX_EXTENSIONS") || !is_false_constant(scope.vars["CMAKE_CXX_EXTENSIONS"]);
    for (size_t k = 1; k < v.size(); ++k) {
      if (kKeywords.count(v[k])) continue;
      // A quoted "${SRCS}" is one argument holding a list: CMake expands it.
      for (const auto& item : split_list(v[k])) {
        if (!static_item(item, c.line, c.name)) continue;
        if (is_source(item)) t.sources.push_back(absolute(item, scope));
      }
    }
    if (std::find(v.begin(), v.end(), "INTERFACE") != v.end() && c.name == "add_library") {
      interface_of(t.name);  // a header-only library: its usage requirements only
      interface_only_.insert(t.name);
      return;
    }
    out_.targets.push_back(std::move(t));
  }

  void scoped_property(const std::string& n, const Command& c, const std::vector<std::string>& v, Scope& scope) {
    CMakeTarget* t = target(v[0]);
    const bool known = t || interface_only_.count(v[0]);
    if (!known) return;
    std::string visibility = "PRIVATE";
    bool system = false;
    for (size_t k = 1; k < v.size(); ++k) {
      const std::string& x = v[k];
      if (x == "PRIVATE" || x == "PUBLIC" || x == "INTERFACE") {
        visibility = x;
        continue;
      }
      if (x == "SYSTEM") system = true;
      if (x == "SYSTEM" || x == "BEFORE" || x == "AFTER") continue;
      if (!static_item(x, c.line, n)) continue;
      std::string value = x;
      if (n == "target_include_directories") value = absolute(x, scope);
      if (n == "target_compile_definitions" && value.starts_with("-D")) value = value.substr(2);
      auto apply = [&](std::vector<std::string>& incs, std::vector<std::string>& defs, std::vector<std::string>& opts) {
        if (n == "target_include_directories" && system && t && &incs == &t->include_dirs)
          t->system_include_dirs.push_back(value);
        else if (n == "target_include_directories") incs.push_back(value);
        else if (n == "target_compile_definitions") defs.push_back(value);
        else opts.push_back(value);
      };
      if (t && visibility != "INTERFACE") apply(t->include_dirs, t->definitions, t->options);
      if (visibility != "PRIVATE") {
        Scope& i = interface_of(v[0]);
        apply(i.include_dirs, i.definitions, i.options);
      }
    }
  }

  void set_properties(const std::string& n, const std::vector<std::string>& v) {
    std::vector<std::string> names;
    size_t k = n == "set_property" ? 1 : 0;
    for (; k < v.size() && v[k] != "PROPERTIES" && v[k] != "PROPERTY"; ++k) names.push_back(v[k]);
    if (k >= v.size()) return;
    // PROPERTIES name value name value ... | PROPERTY name value...
    std::vector<std::pair<std::string, std::string>> props;
    if (v[k] == "PROPERTY") {
      if (k + 2 < v.size()) props.emplace_back(v[k + 1], v[k + 2]);
    } else {
      for (k = k + 1; k + 1 < v.size(); k += 2) props.emplace_back(v[k], v[k + 1]);
    }
    for (const auto& name : names)
      if (CMakeTarget* t = target(name))
        for (const auto& [prop, value] : props) {
          if (prop == "CXX_STANDARD") t->cxx_standard = value;
          if (prop == "CUDA_STANDARD") t->cuda_standard = value;
          if (prop == "CXX_EXTENSIONS") t->cxx_extensions = !is_false_constant(value);
        }
  }

  const std::map<std::string, std::string>& cache_;
  CMakeProject& out_;
  std::vector<std::string> files_;
  std::map<std::string, Callable> callables_;
  std::map<std::string, Scope> interface_;
  std::set<std::string> interface_only_;
  std::map<std::string, std::vector<std::string>> links_;
  std::set<std::string> linked_torch_;
  std::set<std::string> noted_;  // "file:line:text" of every note given
  int call_depth_ = 0;
  int run_depth_ = 0;
  static constexpr size_t kMaxSteps = 200000;
  static constexpr size_t kMaxValue = size_t(1) << 20;
  size_t steps_ = 0;
  bool out_of_steps_ = false;
};

}  // namespace

CMakeProject read_cmake_lists(const std::string& path, const std::map<std::string, std::string>& cache) {
  CMakeProject out;
  Interpreter interp(cache, out);
  Scope top;
  const std::string dir = fs::absolute(path).parent_path().lexically_normal().string();
  top.vars["CMAKE_SOURCE_DIR"] = dir;
  top.vars["PROJECT_SOURCE_DIR"] = dir;
  top.vars["CMAKE_CURRENT_BINARY_DIR"] = dir + "/build";
  top.vars["CMAKE_BINARY_DIR"] = dir + "/build";
  top.vars["UNIX"] = "1";
  top.vars["CMAKE_SYSTEM_NAME"] = "Linux";
  for (const auto& [k, val] : cache) top.vars[k] = val;
  interp.run_file(fs::absolute(path).lexically_normal().string(), top);
  interp.finish();
  return out;
}

}  // namespace torchabi::inputs
