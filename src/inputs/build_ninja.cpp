#include "inputs/build_ninja.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {
// Named, so that no other file of this unity batch can collide with it.
namespace ninja_manifest {

// A build directory's manifest is kilobytes (BuildExtension) to megabytes
// (CMake); anything larger is not a build torchabi should be reading.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;
constexpr std::uintmax_t kMaxTotalBytes = 256u << 20;  // every included file together
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxFiles = 4096;  // a file included twice per level would otherwise be read 2^16 times
// `a = $b$b` doubles per line: bound every evaluated value, and rule
// variables that refer to each other (ninja reports a cycle).
constexpr size_t kMaxValueBytes = 16u << 20;
constexpr int kMaxLookupDepth = 64;

// A value as written: literal text and $variable references, evaluated later.
struct EvalString {
  struct Piece {
    bool variable;
    std::string text;
  };
  std::vector<Piece> pieces;
  void add(bool variable, std::string_view text) {
    if (!variable && !pieces.empty() && !pieces.back().variable) pieces.back().text += text;
    else pieces.push_back({variable, std::string(text)});
  }
};

struct Rule {
  std::map<std::string, EvalString> bindings;
};

// A file's variables and rules. `include` shares its includer's scope,
// `subninja` opens a child; a build block's own bindings are a child too.
struct Scope {
  const Scope* parent = nullptr;
  std::map<std::string, std::string> vars;
  std::map<std::string, Rule> rules;

  const std::string* var(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent)
      if (auto it = s->vars.find(name); it != s->vars.end()) return &it->second;
    return nullptr;
  }
  const Rule* rule(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent)
      if (auto it = s->rules.find(name); it != s->rules.end()) return &it->second;
    return nullptr;
  }
};

struct Edge {
  const Rule* rule = nullptr;
  const Scope* scope = nullptr;    // its bindings over its file's scope (the file's scope when it has none)
  std::vector<std::string> outs;  // explicit outputs, evaluated
  std::vector<std::string> ins;   // explicit inputs, evaluated
  std::string file;               // where it is written, for errors
  int line = 0;
};

template <class Lookup>
std::string evaluate(const EvalString& s, const std::string& file, Lookup&& lookup) {
  std::string out;
  for (const auto& p : s.pieces) {
    out += p.variable ? lookup(p.text) : p.text;
    if (out.size() > kMaxValueBytes) throw InputError(file, "a variable expands to more than 16 MiB");
  }
  return out;
}

bool ident_char(char c, bool braced) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         (braced && c == '.');
}

// As ninja's GetShellEscapedString: what $in and $out put in a command.
std::string shell_escaped(const std::string& path) {
  auto safe = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_+-./").find(c) != std::string_view::npos;
  };
  if (!path.empty() && std::all_of(path.begin(), path.end(), safe)) return path;
  std::string out = "'";
  for (char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Paths as ninja stores them (CanonicalizePath): "./a/../b.cpp" is "b.cpp".
std::string canonical(const std::string& p) {
  if (p.empty()) return p;
  std::string s = fs::path(p).lexically_normal().generic_string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s.empty() ? "." : s;
}

// One file being read: ninja's lexer, by hand. Syntax errors name the file and line.
struct Cursor {
  std::string_view text;
  std::string file;
  size_t pos = 0;
  int line = 1;

  bool eof() const { return pos >= text.size(); }
  char peek(size_t ahead = 0) const { return pos + ahead < text.size() ? text[pos + ahead] : '\0'; }
  bool at_newline() const { return peek() == '\n' || (peek() == '\r' && peek(1) == '\n'); }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file, "line " + std::to_string(line) + ": " + what);
  }
  void newline() {
    pos += peek() == '\r' ? 2 : 1;
    ++line;
  }
  // Spaces between tokens, and `$` line continuations.
  void skip_spaces() {
    while (!eof()) {
      if (peek() == ' ' || peek() == '\t') {
        ++pos;
      } else if (peek() == '$' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
        ++pos;
        newline();
      } else {
        break;
      }
    }
  }
  void end_of_statement() {
    skip_spaces();
    if (eof()) return;
    if (!at_newline()) fail(std::string("expected a newline, got '") + peek() + "'");
    newline();
  }
  std::string ident() {
    size_t start = pos;
    while (!eof() && ident_char(peek(), true)) ++pos;
    return std::string(text.substr(start, pos - start));
  }
  // A value (to the end of the line) or a path (to a space, ':' or '|').
  EvalString eval_string(bool path) {
    EvalString out;
    while (!eof() && !at_newline()) {
      const char c = peek();
      if (path && (c == ' ' || c == ':' || c == '|')) break;
      if (c != '$') {
        size_t start = pos;
        while (!eof() && !at_newline() && peek() != '$' &&
               !(path && (peek() == ' ' || peek() == ':' || peek() == '|')))
          ++pos;
        out.add(false, text.substr(start, pos - start));
        continue;
      }
      const char n = peek(1);
      if (n == '$' || n == ' ' || n == ':') {
        out.add(false, std::string_view(&text[pos + 1], 1));
        pos += 2;
      } else if (n == '\n' || (n == '\r' && peek(2) == '\n')) {
        ++pos;
        newline();
        while (peek() == ' ') ++pos;
      } else if (n == '{') {
        size_t end = pos + 2;
        while (end < text.size() && ident_char(text[end], true)) ++end;
        if (end == pos + 2 || end >= text.size() || text[end] != '}') fail("bad ${variable}");
        out.add(true, text.substr(pos + 2, end - pos - 2));
        pos = end + 1;
      } else if (ident_char(n, false)) {
        size_t end = pos + 1;
        while (end < text.size() && ident_char(text[end], false)) ++end;
        out.add(true, text.substr(pos + 1, end - pos - 1));
        pos = end;
      } else {
        fail("bad $-escape (a literal $ is written $$)");
      }
    }
    return out;
  }
  // The next indented `name = value` of a rule, build or pool block; false
  // (and nothing consumed) at the block's end. Comment lines do not end it.
  bool block_binding(std::string& name, EvalString& value) {
    while (!eof()) {
      const size_t start = pos;
      while (peek() == ' ' || peek() == '\t') ++pos;
      if (peek() == '#') {
        while (!eof() && !at_newline()) ++pos;
        if (!eof()) newline();
        continue;
      }
      if (pos == start || eof() || at_newline()) {
        pos = start;
        return false;
      }
      name = ident();
      if (name.empty()) fail("expected a variable name");
      skip_spaces();
      if (peek() != '=') fail("expected '=' after " + name);
      ++pos;
      skip_spaces();
      value = eval_string(false);
      if (!eof()) newline();
      return true;
    }
    return false;
  }
};

// Variables as a top-level or build-block value sees them.
auto file_lookup(const Scope& scope) {
  return [&scope](const std::string& name) {
    const std::string* v = scope.var(name);
    return v ? *v : std::string();  // unknown: empty, as in ninja
  };
}

class Reader {
public:
  explicit Reader(std::string top_dir) : top_dir_(std::move(top_dir)) {}

  void read(const std::string& path, Scope& scope, int depth, const std::string& includer) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) throw InputError(includer.empty() ? path : includer, "cannot read " + path);
    if (size > kMaxFileBytes) throw InputError(path, "larger than 64 MiB; not read as a ninja build file");
    total_ += size;
    if (total_ > kMaxTotalBytes) throw InputError(path, "the included ninja files together exceed 256 MiB");
    if (++files_ > kMaxFiles) throw InputError(path, "more than 4096 ninja files included");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    Cursor c{text, path};
    while (!c.eof()) {
      const size_t start = c.pos;
      while (c.peek() == ' ' || c.peek() == '\t') ++c.pos;
      if (c.eof()) break;
      if (c.peek() == '#') {
        while (!c.eof() && !c.at_newline()) ++c.pos;
        if (!c.eof()) c.newline();
        continue;
      }
      if (c.at_newline()) {
        c.newline();
        continue;
      }
      if (c.pos != start) c.fail("unexpected indent");
      const std::string word = c.ident();
      if (word.empty()) c.fail(std::string("unexpected '") + c.peek() + "'");
      if (word == "rule") {
        read_rule(c, scope);
      } else if (word == "build") {
        read_build(c, scope);
      } else if (word == "pool") {
        c.skip_spaces();
        c.ident();
        c.end_of_statement();
        std::string name;
        EvalString value;
        while (c.block_binding(name, value)) {}
      } else if (word == "default") {
        c.skip_spaces();
        while (!c.eof() && !c.at_newline()) {
          if (c.eval_string(true).pieces.empty()) c.fail("expected a path");
          c.skip_spaces();
        }
        c.end_of_statement();
      } else if (word == "include" || word == "subninja") {
        c.skip_spaces();
        const EvalString p = c.eval_string(true);
        if (p.pieces.empty()) c.fail("expected a path after " + word);
        const int line = c.line;
        c.end_of_statement();
        // Relative to where ninja runs (the top manifest's directory), not to this file.
        const std::string target = absolute_path(evaluate(p, path, file_lookup(scope)), top_dir_);
        if (depth + 1 > kMaxIncludeDepth)
          throw InputError(path, "line " + std::to_string(line) + ": includes nested deeper than 16 files");
        const std::string here = path + ":" + std::to_string(line);
        if (word == "include") {
          read(target, scope, depth + 1, here);
        } else {
          scopes_.push_back(Scope{&scope, {}, {}});
          read(target, scopes_.back(), depth + 1, here);
        }
      } else {
        c.skip_spaces();
        if (c.peek() != '=') c.fail("unknown statement '" + word + "'");
        ++c.pos;
        c.skip_spaces();
        const EvalString value = c.eval_string(false);
        // Evaluated now: later statements see the value, not the text.
        std::string v = evaluate(value, path, file_lookup(scope));
        scope.vars[word] = std::move(v);
        if (!c.eof()) c.newline();
      }
    }
  }

  CompileDb commands(const std::string& manifest) const;

private:
  void read_rule(Cursor& c, Scope& scope) {
    c.skip_spaces();
    const std::string name = c.ident();
    if (name.empty()) c.fail("expected a rule name");
    c.end_of_statement();
    if (scope.rules.count(name) || name == "phony") c.fail("duplicate rule '" + name + "'");
    Rule r;
    std::string key;
    EvalString value;
    while (c.block_binding(key, value)) r.bindings[key] = value;  // evaluated per edge, late
    scope.rules[name] = std::move(r);
  }

  void read_build(Cursor& c, Scope& scope) {
    const int line = c.line;
    std::vector<EvalString> outs, ins;
    auto paths = [&c](std::vector<EvalString>* into) {
      c.skip_spaces();
      while (!c.eof() && !c.at_newline()) {
        EvalString p = c.eval_string(true);
        if (p.pieces.empty()) break;
        if (into) into->push_back(std::move(p));
        c.skip_spaces();
      }
    };
    paths(&outs);
    if (c.peek() == '|') {  // implicit outputs
      ++c.pos;
      paths(nullptr);
    }
    if (outs.empty()) c.fail("expected an output path");
    if (c.peek() != ':') c.fail("expected ':' after the outputs");
    ++c.pos;
    c.skip_spaces();
    const std::string rule_name = c.ident();
    if (rule_name.empty()) c.fail("expected a rule name");
    paths(&ins);
    // Implicit (|), order-only (||) and validation (|@) inputs: not in $in.
    while (c.peek() == '|') {
      c.pos += (c.peek(1) == '|' || c.peek(1) == '@') ? 2 : 1;
      paths(nullptr);
    }
    c.end_of_statement();
    const Scope* env = &scope;
    std::string key;
    EvalString value;
    bool own = false;
    while (c.block_binding(key, value)) {
      if (!own) {
        scopes_.push_back(Scope{&scope, {}, {}});
        own = true;
      }
      // Evaluated in the file's scope, not in the block's own.
      scopes_.back().vars[key] = evaluate(value, c.file, file_lookup(scope));
    }
    if (own) env = &scopes_.back();
    if (rule_name == "phony") return;
    Edge e;
    e.rule = scope.rule(rule_name);
    if (!e.rule) throw InputError(c.file, "line " + std::to_string(line) + ": unknown build rule '" + rule_name + "'");
    e.scope = env;
    e.file = c.file;
    e.line = line;
    for (const auto& o : outs) e.outs.push_back(canonical(evaluate(o, c.file, file_lookup(*env))));
    for (const auto& i : ins) e.ins.push_back(canonical(evaluate(i, c.file, file_lookup(*env))));
    edges_.push_back(std::move(e));
  }

  std::string top_dir_;
  std::deque<Scope> scopes_;  // a deque: scopes point at their parents
  std::vector<Edge> edges_;
  std::uintmax_t total_ = 0;
  int files_ = 0;
};

// A variable of an edge's command, looked up as ninja's EdgeEnv does: $in and
// $out; then the build block's bindings; then the rule's (evaluated in this
// same environment); then the file's scopes outward.
std::string edge_variable(const Edge& e, const std::string& name, int depth) {
  auto list = [](const std::vector<std::string>& paths, char sep) {
    std::string out;
    for (const auto& p : paths) out += (out.empty() ? "" : std::string(1, sep)) + shell_escaped(p);
    return out;
  };
  if (name == "in") return list(e.ins, ' ');
  if (name == "in_newline") return list(e.ins, '\n');
  if (name == "out") return list(e.outs, ' ');
  if (depth > kMaxLookupDepth)
    throw InputError(e.file, "line " + std::to_string(e.line) + ": cycle in rule variables ($" + name + ")");
  if (auto it = e.scope->vars.find(name); it != e.scope->vars.end()) return it->second;
  if (auto it = e.rule->bindings.find(name); it != e.rule->bindings.end())
    return evaluate(it->second, e.file, [&](const std::string& n) { return edge_variable(e, n, depth + 1); });
  const std::string* v = e.scope->parent ? e.scope->parent->var(name) : nullptr;
  return v ? *v : std::string();
}

bool is_compiled_source(const std::string& path) {
  static const std::set<std::string> kExts = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cu"};
  return kExts.count(fs::path(path).extension().string()) > 0;
}

CompileDb Reader::commands(const std::string& manifest) const {
  CompileDb db;
  db.path = manifest;
  for (const auto& e : edges_) {
    if (e.ins.empty() || !is_compiled_source(e.ins.front())) continue;  // links, custom commands, scans
    std::string command = edge_variable(e, "command", 0);
    // A response file does not exist until ninja writes it: put its content
    // in place, as `ninja -t compdb -x` does.
    const std::string rspfile = edge_variable(e, "rspfile", 0);
    if (const size_t at = rspfile.empty() ? std::string::npos : command.find("@" + rspfile); at != std::string::npos) {
      std::string content = edge_variable(e, "rspfile_content", 0);
      std::replace(content.begin(), content.end(), '\n', ' ');
      command.replace(at, rspfile.size() + 1, content);
    }
    CompileCommand cmd;
    cmd.arguments = split_shell_words(command);
    const bool compiles = std::any_of(cmd.arguments.begin(), cmd.arguments.end(),
                                      [](const std::string& a) { return a == "-c" || a == "/c" || a == "--compile"; });
    if (cmd.arguments.empty() || !compiles) continue;
    cmd.directory = top_dir_;
    cmd.file = absolute_path(e.ins.front(), top_dir_);
    db.commands.push_back(std::move(cmd));
  }
  return db;
}

}  // namespace ninja_manifest
}  // namespace

bool has_build_ninja(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "build.ninja", ec);
}

std::optional<std::string> find_setuptools_ninja(const std::string& project_dir) {
  std::error_code ec;
  std::optional<std::string> best;
  fs::file_time_type best_time;
  // Several temp.* directories (one per Python): the one built last.
  for (auto it = fs::directory_iterator(fs::path(project_dir) / "build", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    if (!it->path().filename().string().starts_with("temp.") || !has_build_ninja(it->path().string())) continue;
    const fs::path f = it->path() / "build.ninja";
    std::error_code tec;
    const auto t = fs::last_write_time(f, tec);
    if (tec) continue;
    if (!best || t > best_time || (t == best_time && f.string() > *best)) {
      best = f.lexically_normal().string();
      best_time = t;
    }
  }
  return best;
}

CompileDb load_build_ninja(const std::string& path_or_dir) {
  std::error_code ec;
  std::string path = path_or_dir;
  if (fs::is_directory(path, ec)) path = (fs::path(path) / "build.ninja").string();
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "ninja build file not found");
  path = fs::absolute(path, ec).lexically_normal().string();
  const std::string dir = fs::path(path).parent_path().string();
  ninja_manifest::Reader reader(dir);
  ninja_manifest::Scope top;
  reader.read(path, top, 0, "");
  return reader.commands(path);
}

}  // namespace torchabi::inputs
