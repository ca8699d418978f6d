#include "inputs/project/python_literals.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "common/input_error.h"
#include "common/regex.h"
#include "inputs/project/glob_files.h"

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

// ---- tokens ----

enum class Tok { Name, Number, String, Op, Newline, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // Name/Number/Op as written; String decoded
  bool fstring = false;
  int line = 0;
};

class Tokenizer {
public:
  Tokenizer(const std::string& text, const std::string& path, int first_line = 1)
      : t_(text), path_(path), line_(first_line) {}

  std::vector<Token> all() {
    std::vector<Token> out;
    int depth = 0;
    while (true) {
      skip_space(depth);
      if (at_ >= t_.size()) break;
      const char c = t_[at_];
      if (c == '\n') {
        ++at_;
        if (depth == 0 && !out.empty() && out.back().kind != Tok::Newline) out.push_back({Tok::Newline, "", false, line_});
        ++line_;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t b = at_;
        while (at_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[at_])) || t_[at_] == '_')) ++at_;
        std::string word = t_.substr(b, at_ - b);
        if (at_ < t_.size() && (t_[at_] == '"' || t_[at_] == '\'') && is_string_prefix(word)) {
          out.push_back(string_token(word));
          continue;
        }
        out.push_back({Tok::Name, word, false, line_});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t b = at_;
        while (at_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[at_])) || t_[at_] == '_' || t_[at_] == '.'))
          ++at_;
        out.push_back({Tok::Number, t_.substr(b, at_ - b), false, line_});
        continue;
      }
      if (c == '"' || c == '\'') {
        out.push_back(string_token(""));
        continue;
      }
      static const char* kOps[] = {"**=", "//=", ">>=", "<<=", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
                                   "+=",  "-=",  "*=",  "/=",  "|=", "&=", ":="};
      std::string op(1, c);
      for (const char* o : kOps)
        if (t_.compare(at_, std::strlen(o), o) == 0) {
          op = o;
          break;
        }
      at_ += op.size();
      if (op == "(" || op == "[" || op == "{") ++depth;
      if (op == ")" || op == "]" || op == "}") {
        if (--depth < 0) fail("unbalanced '" + op + "'");
      }
      out.push_back({Tok::Op, op, false, line_});
    }
    if (depth > 0) fail("a bracket is never closed");
    out.push_back({Tok::Newline, "", false, line_});
    out.push_back({Tok::End, "", false, line_});
    return out;
  }

private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(path_, "line " + std::to_string(line_) + ": " + why + " (torchabi reads setup.py without running it)");
  }

  static bool is_string_prefix(const std::string& w) {
    std::string l;
    for (char ch : w) l += char(std::tolower(static_cast<unsigned char>(ch)));
    return l == "r" || l == "b" || l == "u" || l == "f" || l == "rb" || l == "br" || l == "fr" || l == "rf";
  }

  void skip_space(int depth) {
    while (at_ < t_.size()) {
      const char c = t_[at_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++at_;
      } else if (c == '#') {
        while (at_ < t_.size() && t_[at_] != '\n') ++at_;
      } else if (c == '\\' && at_ + 1 < t_.size() && t_[at_ + 1] == '\n') {
        at_ += 2;
        ++line_;
      } else if (c == '\n' && depth > 0) {
        ++at_;
        ++line_;
      } else {
        break;
      }
    }
  }

  Token string_token(const std::string& prefix) {
    std::string lower;
    for (char ch : prefix) lower += char(std::tolower(static_cast<unsigned char>(ch)));
    const bool raw = lower.find('r') != std::string::npos;
    const bool fstr = lower.find('f') != std::string::npos;
    const int start_line = line_;
    const char q = t_[at_];
    const bool triple = t_.compare(at_, 3, std::string(3, q)) == 0;
    at_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (at_ >= t_.size()) fail("a string starting on line " + std::to_string(start_line) + " is never closed");
      const char c = t_[at_];
      if (triple ? t_.compare(at_, 3, std::string(3, q)) == 0 : c == q) {
        at_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n') {
        if (!triple) fail("a string is never closed");
        ++line_;
      }
      if (c == '\\' && at_ + 1 < t_.size()) {
        const char n = t_[at_ + 1];
        at_ += 2;
        if (n == '\n') {
          ++line_;
          if (raw) out += "\\\n";
          continue;
        }
        if (raw) {
          out += '\\';
          out += n;
          continue;
        }
        switch (n) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case '\\': out += '\\'; break;
          case '\'': out += '\''; break;
          case '"': out += '"'; break;
          default: out += '\\'; out += n;
        }
        continue;
      }
      out += c;
      ++at_;
    }
    return {Tok::String, out, fstr, start_line};
  }

  const std::string& t_;
  std::string path_;
  size_t at_ = 0;
  int line_;
};

// ---- evaluation ----

Value make_str(std::string s, int line) {
  Value v;
  v.kind = Value::Kind::Str;
  v.s = std::move(s);
  v.line = line;
  return v;
}
Value make_int(long long i, int line) {
  Value v;
  v.kind = Value::Kind::Int;
  v.i = i;
  v.line = line;
  return v;
}
Value make_list(std::vector<Value> items, int line) {
  Value v;
  v.kind = Value::Kind::List;
  v.items = std::move(items);
  v.line = line;
  return v;
}

using Bindings = std::map<std::string, Value>;

class Parser {
public:
  Parser(const std::vector<Token>& toks, size_t begin, size_t end, const Bindings& env, const std::string& path,
         const std::string& dir)
      : toks_(toks), at_(begin), end_(end), env_(env), path_(path), dir_(dir) {}

  Value expression() {
    // Nesting deeper than any real setup.py: stop before the stack does.
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(++x) {}
      ~Depth() { --d; }
    } depth(depth_);
    if (depth_ > kMaxDepth) {
      const int l = line();
      skip_to_delimiter();
      return Value::unresolved("an expression nested too deeply", l);
    }
    Value v = or_expr();
    if (is_name("if")) {  // a conditional expression depends on run-time state
      skip_to_delimiter();
      return Value::unresolved("a conditional expression", v.line);
    }
    return v;
  }

  size_t position() const { return at_; }
  bool at_end() const { return at_ >= end_ || toks_[at_].kind == Tok::Newline || toks_[at_].kind == Tok::End; }
  bool is_op(const char* op) const { return !at_end() && toks_[at_].kind == Tok::Op && toks_[at_].text == op; }
  bool is_name(const char* n) const { return !at_end() && toks_[at_].kind == Tok::Name && toks_[at_].text == n; }
  const Token& peek(size_t ahead = 0) const {
    static const Token end{Tok::End, "", false, 0};
    return at_ + ahead < end_ ? toks_[at_ + ahead] : end;
  }
  void advance() { ++at_; }

  // Skips to the next ',' or closing bracket at this level (after an
  // expression the reader does not follow).
  void skip_to_delimiter() {
    int depth = 0;
    while (!at_end()) {
      const Token& t = toks_[at_];
      if (t.kind == Tok::Op) {
        if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
        if (t.text == ")" || t.text == "]" || t.text == "}") {
          if (depth == 0) return;
          --depth;
        }
        if (t.text == "," && depth == 0) return;
      }
      ++at_;
    }
  }

  // Arguments of a call, after its '(' (consumed up to and with the ')').
  void call_arguments(std::vector<Value>& args, std::vector<std::pair<std::string, Value>>& kwargs) {
    while (!at_end() && !is_op(")")) {
      if (is_op("*") || is_op("**")) {
        const int line = peek().line;
        advance();
        skip_to_delimiter();
        args.push_back(Value::unresolved("arguments unpacked with * or **", line));
      } else if (peek().kind == Tok::Name && peek(1).kind == Tok::Op && peek(1).text == "=") {
        std::string key = peek().text;
        at_ += 2;
        kwargs.emplace_back(key, expression());
      } else {
        args.push_back(expression());
      }
      if (is_op(",")) advance();
      else if (!is_op(")")) skip_to_delimiter();
      if (is_op(",")) advance();
    }
    if (is_op(")")) advance();
  }

private:
  int line() const { return at_ < end_ ? toks_[at_].line : 0; }

  template <class F>
  Value binary(F next, std::initializer_list<const char*> ops) {
    Value left = next();
    while (true) {
      const char* hit = nullptr;
      for (const char* op : ops)
        if (is_op(op)) hit = op;
      if (!hit) return left;
      advance();
      Value right = next();
      left = apply(hit, left, right);
    }
  }

  Value or_expr() {
    return binary([this] { return xor_expr(); }, {"|"});
  }
  Value xor_expr() {
    return binary([this] { return and_expr(); }, {"^"});
  }
  Value and_expr() {
    return binary([this] { return shift_expr(); }, {"&"});
  }
  Value shift_expr() {
    return binary([this] { return arith(); }, {"<<", ">>"});
  }
  Value arith() {
    return binary([this] { return term(); }, {"+", "-"});
  }
  Value term() {
    return binary([this] { return unary(); }, {"*", "//", "%", "/"});
  }
  Value unary() {
    if (is_op("-") || is_op("+") || is_op("~")) {
      const std::string op = peek().text;
      advance();
      Value v = unary();
      if (v.kind != Value::Kind::Int) return v.kind == Value::Kind::Unresolved ? v : Value::unresolved("unary " + op, v.line);
      v.i = op == "-" ? -v.i : op == "~" ? ~v.i : v.i;
      return v;
    }
    if (is_name("not")) {
      const int l = line();
      advance();
      unary();
      return Value::unresolved("a 'not' expression", l);
    }
    return primary();
  }

  Value apply(const std::string& op, const Value& a, const Value& b) {
    if (a.kind == Value::Kind::Unresolved) return a;
    if (b.kind == Value::Kind::Unresolved) return b;
    using K = Value::Kind;
    if (a.kind == K::Int && b.kind == K::Int) {
      long long r = 0;
      if (op == "|") r = a.i | b.i;
      else if (op == "^") r = a.i ^ b.i;
      else if (op == "&") r = a.i & b.i;
      else if (op == "<<") r = (b.i >= 0 && b.i < 64) ? static_cast<long long>(static_cast<unsigned long long>(a.i) << b.i) : 0;
      else if (op == ">>") r = (b.i >= 0 && b.i < 64) ? a.i >> b.i : 0;
      else if (op == "+") r = a.i + b.i;
      else if (op == "-") r = a.i - b.i;
      else if (op == "*") r = a.i * b.i;
      else if ((op == "//" || op == "%") && b.i != 0) r = op == "//" ? a.i / b.i : a.i % b.i;
      else return Value::unresolved("'" + op + "' on integers", a.line);
      return make_int(r, a.line);
    }
    if (op == "+" && a.kind == K::Str && b.kind == K::Str) return make_str(a.s + b.s, a.line);
    // str / str is a TypeError in Python: a '/' between two strings is a
    // pathlib join (paths are read as strings, see call()).
    if (op == "/" && a.kind == K::Str && b.kind == K::Str) return make_str((fs::path(a.s) / b.s).generic_string(), a.line);
    if (op == "+" && a.kind == K::List && b.kind == K::List) {
      Value r = a;
      r.items.insert(r.items.end(), b.items.begin(), b.items.end());
      return r;
    }
    return Value::unresolved("'" + op + "' on these operands", a.line);
  }

  Value primary() {
    Value v = atom();
    std::string dotted = v.kind == Value::Kind::Unresolved && v.why.starts_with("name ") ? name_of(v) : "";
    while (!at_end()) {
      if (is_op(".")) {
        advance();
        if (peek().kind != Tok::Name) return Value::unresolved("an attribute", line());
        const std::string attr = peek().text;
        advance();
        if (!dotted.empty()) {
          dotted += "." + attr;
          v = Value::unresolved("name " + dotted, v.line);
        } else if (is_op("(")) {
          v = method_or_attribute(v, attr);
        } else {
          v = attribute(v, attr, line());
        }
      } else if (is_op("(")) {
        const int l = line();
        advance();
        std::vector<Value> args;
        std::vector<std::pair<std::string, Value>> kwargs;
        call_arguments(args, kwargs);
        v = call(dotted.empty() ? pending_method_ : dotted, dotted.empty() ? &v : nullptr, args, kwargs, l);
        dotted.clear();
        pending_method_.clear();
      } else if (is_op("[")) {
        const int l = line();
        advance();
        Value index = expression();
        if (is_op("]")) advance();
        else skip_to_delimiter(), (is_op("]") ? advance() : void());
        v = subscript(v, index, l);
        dotted.clear();
      } else {
        break;
      }
    }
    if (!dotted.empty() && env_.count(dotted)) return env_.at(dotted);
    if (!dotted.empty()) return Value::unresolved("'" + dotted + "' is set at run time", v.line);
    return v;
  }

  static std::string name_of(const Value& v) { return v.why.substr(5); }

  Value atom() {
    const Token& t = peek();
    const int l = t.line;
    if (at_end()) return Value::unresolved("an expression is missing", l);
    if (t.kind == Tok::Number) {
      advance();
      try {
        std::string digits;
        for (char c : t.text)
          if (c != '_') digits += c;
        if (digits.find('.') != std::string::npos || digits.find('e') != std::string::npos)
          return Value::unresolved("a floating-point number", l);
        return make_int(std::stoll(digits, nullptr, 0), l);
      } catch (const std::exception&) {
        return Value::unresolved("the number " + t.text, l);
      }
    }
    if (t.kind == Tok::String) {
      Value s = string_value(t);
      advance();
      while (peek().kind == Tok::String && !at_end()) {  // implicit concatenation
        Value next = string_value(peek());
        advance();
        s = apply("+", s, next);
      }
      return s;
    }
    if (t.kind == Tok::Name) {
      advance();
      if (t.text == "True" || t.text == "False") {
        Value v;
        v.kind = Value::Kind::Bool;
        v.b = t.text == "True";
        v.line = l;
        return v;
      }
      if (t.text == "None") {
        Value v;
        v.kind = Value::Kind::None;
        v.line = l;
        return v;
      }
      if (t.text == "__file__") return make_str(path_, l);
      if (t.text == "lambda") {
        skip_to_delimiter();
        return Value::unresolved("a lambda", l);
      }
      // Resolved later: a bound name, or the start of a dotted callee.
      return Value::unresolved("name " + t.text, l);
    }
    if (t.kind == Tok::Op && (t.text == "(" || t.text == "[")) {
      const std::string close = t.text == "(" ? ")" : "]";
      advance();
      std::vector<Value> items;
      bool tuple = t.text == "[";
      while (!at_end() && !is_op(close.c_str())) {
        if (is_op("*")) {
          advance();
          Value spread = finish_name(expression());
          if (spread.kind == Value::Kind::List) items.insert(items.end(), spread.items.begin(), spread.items.end());
          else items.push_back(spread.kind == Value::Kind::Unresolved ? spread : Value::unresolved("unpacking", l));
        } else {
          items.push_back(finish_name(expression()));
        }
        if (is_name("for")) {  // a comprehension: run-time iteration
          skip_to_delimiter();
          if (is_op(close.c_str())) advance();
          return Value::unresolved("a comprehension", l);
        }
        if (is_op(",")) {
          tuple = true;
          advance();
        } else if (!is_op(close.c_str())) {
          skip_to_delimiter();
          if (!is_op(",")) break;
        }
      }
      if (is_op(close.c_str())) advance();
      if (!tuple && items.size() == 1) return items[0];  // parentheses around one expression
      return make_list(std::move(items), l);
    }
    if (t.kind == Tok::Op && t.text == "{") {
      advance();
      Value d;
      d.kind = Value::Kind::Dict;
      d.line = l;
      while (!at_end() && !is_op("}")) {
        if (is_op("**")) {
          advance();
          Value spread = finish_name(expression());
          if (spread.kind == Value::Kind::Dict) d.entries.insert(d.entries.end(), spread.entries.begin(), spread.entries.end());
          else d.entries.push_back({Value::unresolved("dict unpacking", l), spread});
        } else {
          Value k = finish_name(expression());
          if (is_name("for")) {
            skip_to_delimiter();
            if (is_op("}")) advance();
            return Value::unresolved("a comprehension", l);
          }
          if (!is_op(":")) {  // a set
            skip_to_delimiter();
            d.entries.push_back({Value::unresolved("a set", l), Value::unresolved("a set", l)});
          } else {
            advance();
            d.entries.push_back({k, finish_name(expression())});
          }
        }
        if (is_op(",")) advance();
        else if (!is_op("}")) skip_to_delimiter();
      }
      if (is_op("}")) advance();
      return d;
    }
    advance();
    return Value::unresolved("'" + t.text + "'", l);
  }

  // A bare name at the end of an expression: its binding, or unresolved.
  Value finish_name(Value v) {
    if (v.kind == Value::Kind::Unresolved && v.why.starts_with("name ")) {
      const std::string n = name_of(v);
      auto it = env_.find(n);
      if (it != env_.end()) return it->second;
      return Value::unresolved("'" + n + "' is set at run time", v.line);
    }
    return v;
  }

  Value method_or_attribute(const Value& self, const std::string& attr) {
    pending_method_ = attr;
    return self;
  }

  // An attribute read, not called: of a path read as its string, its parts.
  Value attribute(Value v, const std::string& attr, int l) {
    v = finish_name(v);
    if (v.kind == Value::Kind::Unresolved) return v;
    if (v.kind == Value::Kind::Str) {
      const fs::path p(v.s);
      if (attr == "parent") return make_str(p.parent_path().generic_string(), l);
      if (attr == "name") return make_str(p.filename().string(), l);
      if (attr == "stem") return make_str(p.stem().string(), l);
      if (attr == "suffix") return make_str(p.extension().string(), l);
    }
    return Value::unresolved("the attribute ." + attr, l);
  }

  Value subscript(Value v, const Value& index, int l) {
    v = finish_name(v);
    if (v.kind == Value::Kind::Unresolved) return v;
    if (v.kind == Value::Kind::Dict && index.kind == Value::Kind::Str)
      for (const auto& [k, val] : v.entries)
        if (k.kind == Value::Kind::Str && k.s == index.s) return val;
    if (v.kind == Value::Kind::List && index.kind == Value::Kind::Int) {
      long long i = index.i < 0 ? index.i + static_cast<long long>(v.items.size()) : index.i;
      if (i >= 0 && i < static_cast<long long>(v.items.size())) return v.items[size_t(i)];
    }
    return Value::unresolved("a subscript", l);
  }

  std::string resolve_path(const std::string& p) const {
    return fs::path(p).is_absolute() ? p : (fs::path(dir_) / p).lexically_normal().string();
  }

  Value glob(std::string pattern, bool recursive, int l) {
    // Without recursive=True, Python's '**' is a plain '*'.
    if (!recursive)
      for (size_t p = pattern.find("**"); p != std::string::npos; p = pattern.find("**", p)) pattern.erase(p, 1);
    auto found = glob_files(dir_, pattern);
    if (!found) return Value::unresolved("a glob outside the project directory", l);
    // glob.glob answers in the pattern's own terms: relative stays relative.
    const bool absolute = fs::path(pattern).is_absolute();
    std::vector<Value> items;
    for (const auto& f : *found)
      items.push_back(make_str(absolute ? f : fs::path(f).lexically_relative(dir_).generic_string(), l));
    return make_list(std::move(items), l);
  }

  Value call(const std::string& callee, const Value* self, std::vector<Value>& args,
             std::vector<std::pair<std::string, Value>>& kwargs, int l) {
    for (auto& a : args) a = finish_name(a);
    for (auto& [k, v] : kwargs) v = finish_name(v);
    auto all_str = [&] {
      return std::all_of(args.begin(), args.end(), [](const Value& v) { return v.kind == Value::Kind::Str; });
    };
    const std::string last = callee.substr(callee.rfind('.') == std::string::npos ? 0 : callee.rfind('.') + 1);
    if (self) {  // a method on a value
      Value s = finish_name(*self);
      if (s.kind == Value::Kind::Unresolved) return s;
      if (s.kind == Value::Kind::Str && last == "format") return Value::unresolved("str.format", l);
      if (s.kind == Value::Kind::Str && last == "join" && args.size() == 1 && args[0].kind == Value::Kind::List) {
        std::string out;
        for (size_t i = 0; i < args[0].items.size(); ++i) {
          if (args[0].items[i].kind != Value::Kind::Str) return Value::unresolved("join of non-strings", l);
          out += (i ? s.s : "") + args[0].items[i].s;
        }
        return make_str(out, l);
      }
      // A pathlib.Path read as its string.
      if (s.kind == Value::Kind::Str && args.empty() && (last == "resolve" || last == "absolute"))
        return make_str(resolve_path(s.s), l);
      if (s.kind == Value::Kind::Str && args.empty() && last == "as_posix") return s;
      return Value::unresolved("the method ." + last + "()", l);
    }
    // pathlib's paths are read as the strings they stand for: `/` joins them.
    static const std::set<std::string> kPathTypes = {"Path", "pathlib.Path", "PurePath", "pathlib.PurePath",
                                                     "PosixPath", "PurePosixPath", "pathlib.PurePosixPath"};
    if (kPathTypes.count(callee) && all_str() && kwargs.empty()) {
      fs::path p = args.empty() ? fs::path(".") : fs::path();
      for (const auto& a : args) p /= a.s;
      return make_str(p.generic_string(), l);
    }
    if ((callee == "os.path.join" || callee == "path.join") && !args.empty() && all_str()) {
      fs::path p;
      for (const auto& a : args) p /= a.s;
      return make_str(p.string(), l);
    }
    if ((callee == "os.path.dirname" || callee == "path.dirname") && args.size() == 1 && all_str())
      return make_str(fs::path(args[0].s).parent_path().string(), l);
    if ((callee == "os.path.abspath" || callee == "os.path.realpath") && args.size() == 1 && all_str())
      return make_str(resolve_path(args[0].s), l);
    if ((callee == "glob.glob" || callee == "glob") && !args.empty() && args[0].kind == Value::Kind::Str) {
      const Value* rec = nullptr;
      for (const auto& [k, v] : kwargs)
        if (k == "recursive") rec = &v;
      return glob(args[0].s, rec && rec->kind == Value::Kind::Bool && rec->b, l);
    }
    if ((callee == "sorted" || callee == "list" || callee == "tuple") && args.size() == 1 &&
        args[0].kind == Value::Kind::List) {
      Value r = args[0];
      if (callee == "sorted" && r.resolved() &&
          std::all_of(r.items.begin(), r.items.end(), [](const Value& v) { return v.kind == Value::Kind::Str; }))
        std::sort(r.items.begin(), r.items.end(), [](const Value& a, const Value& b) { return a.s < b.s; });
      return r;
    }
    if (callee == "hex" && args.size() == 1 && args[0].kind == Value::Kind::Int) {
      char buf[32];
      std::snprintf(buf, sizeof buf, args[0].i < 0 ? "-0x%llx" : "0x%llx",
                    static_cast<unsigned long long>(args[0].i < 0 ? -args[0].i : args[0].i));
      return make_str(buf, l);
    }
    if (callee == "str" && args.size() == 1) {
      if (args[0].kind == Value::Kind::Str) return args[0];
      if (args[0].kind == Value::Kind::Int) return make_str(std::to_string(args[0].i), l);
    }
    if (callee == "int" && args.size() == 1 && args[0].kind == Value::Kind::Int) return args[0];
    for (const auto& a : args)
      if (a.kind == Value::Kind::Unresolved) return a;
    return Value::unresolved("a call to " + (callee.empty() ? std::string("a computed function") : callee) + "()", l);
  }

  Value string_value(const Token& t) {
    if (!t.fstring) return make_str(t.text, t.line);
    std::string out;
    const std::string& s = t.text;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '{' && i + 1 < s.size() && s[i + 1] == '{') {
        out += '{';
        ++i;
        continue;
      }
      if (s[i] == '}' && i + 1 < s.size() && s[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      if (s[i] != '{') {
        out += s[i];
        continue;
      }
      size_t close = s.find('}', i);
      if (close == std::string::npos) return Value::unresolved("an f-string", t.line);
      std::string inner = s.substr(i + 1, close - i - 1);
      std::string spec;
      if (size_t colon = inner.find(':'); colon != std::string::npos) {
        spec = inner.substr(colon + 1);
        inner = inner.substr(0, colon);
      }
      if (inner.find('!') != std::string::npos) return Value::unresolved("an f-string conversion", t.line);
      Tokenizer tk(inner, path_, t.line);
      std::vector<Token> toks = tk.all();
      Parser p(toks, 0, toks.size(), env_, path_, dir_);
      Value v = p.finish_name(p.expression());
      auto text = format(v, spec);
      if (!text) return v.kind == Value::Kind::Unresolved ? v : Value::unresolved("an f-string field", t.line);
      out += *text;
      i = close;
    }
    return make_str(out, t.line);
  }

  // Python's format() for the specs setup.py files use on integers: [#][0][width][xXdb].
  static std::optional<std::string> format(const Value& v, const std::string& spec) {
    if (v.kind == Value::Kind::Str && spec.empty()) return v.s;
    if (v.kind != Value::Kind::Int) return std::nullopt;
    static const Regex kSpec("(#?)(0?)(\\d*)([xXd]?)");
    const auto found = kSpec.match(spec);
    if (!found) return std::nullopt;
    const RegexMatch& m = *found;
    const std::string type = m[4].empty() ? "d" : m[4];
    std::string digits;
    unsigned long long u = static_cast<unsigned long long>(v.i < 0 ? -v.i : v.i);
    char buf[32];
    std::snprintf(buf, sizeof buf, type == "x" ? "%llx" : type == "X" ? "%llX" : "%llu", u);
    digits = buf;
    std::string prefix = (v.i < 0 ? "-" : "") + std::string(!m[1].empty() && type != "d" ? (type == "X" ? "0X" : "0x") : "");
    const size_t width = m[3].empty() ? 0 : std::stoul(m[3]);
    const bool zero = !m[2].empty();
    std::string body = digits;
    if (width > prefix.size() + body.size()) {
      const size_t pad = width - prefix.size() - body.size();
      body = zero ? std::string(pad, '0') + body : body;
      if (!zero) prefix = std::string(pad, ' ') + prefix;
    }
    return prefix + body;
  }

  const std::vector<Token>& toks_;
  size_t at_, end_;
  const Bindings& env_;
  const std::string& path_;
  const std::string& dir_;
  std::string pending_method_;
  static constexpr int kMaxDepth = 200;
  int depth_ = 0;
};

// The last component of a dotted name.
std::string last_component(const std::string& dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace

Module read_module(const std::string& text, const std::string& path, const std::string& dir,
                   const std::set<std::string>& callees) {
  Tokenizer tk(text, path);
  const std::vector<Token> toks = tk.all();
  Module mod;
  Bindings env;
  size_t begin = 0;
  while (begin < toks.size() && toks[begin].kind != Tok::End) {
    size_t end = begin;
    while (toks[end].kind != Tok::Newline && toks[end].kind != Tok::End) ++end;
    // `A = ...`, `A, B = ...`, `A += ...` (at any indentation: the last
    // binding before a use wins, as it does when the file runs top to bottom).
    size_t eq = begin;
    std::vector<std::string> targets;
    bool augmented = false;
    {
      size_t k = begin;
      // Skip a leading keyword such as `else:` that ends in ':' on the same line.
      while (k < end && toks[k].kind == Tok::Name) {
        targets.push_back(toks[k].text);
        ++k;
        if (k < end && toks[k].kind == Tok::Op && toks[k].text == ",") {
          ++k;
          continue;
        }
        break;
      }
      if (!targets.empty() && k < end && toks[k].kind == Tok::Op && (toks[k].text == "=" || toks[k].text == "+=")) {
        augmented = toks[k].text == "+=";
        eq = k;
      } else {
        targets.clear();
      }
    }
    if (!targets.empty()) {
      Parser p(toks, eq + 1, end, env, path, dir);
      Value first = p.expression();
      Value v = first;
      if (p.is_op(",")) {  // a tuple without parentheses
        std::vector<Value> items{first};
        while (p.is_op(",")) {
          p.advance();
          if (p.at_end()) break;
          items.push_back(p.expression());
        }
        v = make_list(std::move(items), first.line);
      }
      // A bare name on the right is its binding.
      if (v.kind == Value::Kind::Unresolved && v.why.starts_with("name ")) {
        auto it = env.find(v.why.substr(5));
        v = it != env.end() ? it->second : Value::unresolved("'" + v.why.substr(5) + "' is set at run time", v.line);
      }
      if (targets.size() == 1) {
        if (augmented) {
          auto it = env.find(targets[0]);
          Value base = it != env.end() ? it->second : Value::unresolved("'" + targets[0] + "' is set at run time", v.line);
          if (base.kind == Value::Kind::List && v.kind == Value::Kind::List) {
            base.items.insert(base.items.end(), v.items.begin(), v.items.end());
            v = base;
          } else if (base.kind == Value::Kind::Str && v.kind == Value::Kind::Str) {
            v = make_str(base.s + v.s, base.line);
          } else {
            v = Value::unresolved("'" + targets[0] + " +=' on these values", v.line);
          }
        }
        env[targets[0]] = v;
      } else {
        for (size_t i = 0; i < targets.size(); ++i)
          env[targets[i]] = v.kind == Value::Kind::List && v.items.size() == targets.size()
                                ? v.items[i]
                                : Value::unresolved("'" + targets[i] + "' is unpacked at run time", v.line);
      }
    }
    // The calls on this line whose callee we want, wherever they sit.
    for (size_t k = begin; k < end; ++k) {
      if (toks[k].kind != Tok::Name) continue;
      if (k > begin && toks[k - 1].kind == Tok::Op && toks[k - 1].text == ".") continue;  // middle of a dotted name
      std::string dotted = toks[k].text;
      size_t j = k + 1;
      while (j + 1 < end && toks[j].kind == Tok::Op && toks[j].text == "." && toks[j + 1].kind == Tok::Name) {
        dotted += "." + toks[j + 1].text;
        j += 2;
      }
      if (j >= end || toks[j].kind != Tok::Op || toks[j].text != "(") continue;
      if (!callees.count(last_component(dotted))) continue;
      if (k > begin && toks[k - 1].kind == Tok::Name && (toks[k - 1].text == "def" || toks[k - 1].text == "class"))
        continue;
      Parser p(toks, j + 1, end, env, path, dir);
      Call c;
      c.callee = dotted;
      c.line = toks[k].line;
      p.call_arguments(c.args, c.kwargs);
      mod.calls.push_back(std::move(c));
    }
    begin = end + 1;
  }
  return mod;
}

}  // namespace torchabi::inputs::py
