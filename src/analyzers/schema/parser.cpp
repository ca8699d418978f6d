#include "analyzers/schema/parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <tuple>
#include <vector>

#include "analyzers/schema/default_rules.h"
#include "analyzers/schema/lexer.h"
#include "common/text.h"

namespace torchabi::schema {

namespace {

constexpr int kMaxTypeDepth = 32;

// Internal: parse failures unwind to the entry point as this.
struct Failure {
  std::string message;
  uint32_t offset;
};

// Closest type name by edit distance, for "did you mean" hints.
std::string suggest_type(std::string_view wrong) {
  static const std::pair<std::string_view, std::string_view> kCppSpellings[] = {
      {"double", "float"}, {"int64_t", "int"}, {"bool_t", "bool"},
      {"string", "str"},   {"Tensor&", "Tensor"},
  };
  for (auto [cpp, schema] : kCppSpellings)
    if (wrong == cpp) return std::string(schema);
  auto distance = [](std::string_view a, std::string_view b) { return text::edit_distance(a, b, /*ignore_case=*/true); };
  std::string best;
  size_t best_d = 3;  // suggest only close misspellings
  for (int i = 0; i < static_cast<int>(BaseType::TypeVariable); ++i) {
    std::string_view cand = spelling(static_cast<BaseType>(i));
    size_t d = distance(wrong, cand);
    if (d < best_d && d < wrong.size()) {
      best_d = d;
      best = std::string(cand);
    }
  }
  return best;
}

class Parser {
public:
  Parser(std::string_view text, const ParseOptions& options, SchemaSpans* spans)
      : options_(options), spans_(spans), tokens_(tokenize(text)) {}

  std::variant<OperatorName, FunctionSchema> declaration(bool need_schema, bool allow_schema) {
    OperatorName name = operator_name();
    std::string ns = name.ns.empty() ? options_.implied_namespace : name.ns;
    type_variables_ok_ = options_.type_variables == TypeVariables::Always ||
                         (options_.type_variables == TypeVariables::AtenAndPrimOnly &&
                          (ns == "aten" || ns == "prim"));
    if (!cur().punct('(')) {
      if (need_schema) fail_expected("'(' to start the argument list");
      expect_end();
      return name;
    }
    if (!allow_schema) fail("expected an operator name only, but found an argument list", cur());
    FunctionSchema s;
    s.name = std::move(name);
    arguments(s);
    if (cur().kind != TokenKind::Arrow) fail_expected("'->' after the argument list");
    next();
    returns(s);
    expect_end();
    return s;
  }

private:
  const Token& cur() const { return tokens_[pos_]; }
  const Token& peek() const { return tokens_[std::min(pos_ + 1, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool next_if(char c) {
    if (!cur().punct(c)) return false;
    next();
    return true;
  }

  [[noreturn]] void fail(std::string message, const Token& at) {
    throw Failure{std::move(message), at.offset};
  }
  [[noreturn]] void fail_expected(const std::string& what) {
    fail("expected " + what + " but found " + describe(cur()), cur());
  }
  void expect(char c, const char* context) {
    if (!next_if(c)) fail_expected(std::string("'") + c + "' " + context);
  }
  void expect_end() {
    if (cur().kind != TokenKind::End) fail("unexpected " + describe(cur()) + " after the schema", cur());
  }
  std::string ident(const char* what) {
    if (cur().kind == TokenKind::Keyword)
      fail("'" + std::string(cur().text) + "' is a reserved word and cannot be used as " + what,
           cur());
    if (cur().kind != TokenKind::Ident) fail_expected(what);
    return std::string(next().text);
  }

  OperatorName operator_name() {
    OperatorName n;
    n.name = ident("an operator name");
    if (cur().punct(':')) {
      next();
      expect(':', "(namespaces are separated by '::')");
      n.ns = std::move(n.name);
      n.name = ident("an operator name after '::'");
    }
    if (cur().punct('.')) {
      next();
      const Token& at = cur();
      n.overload = ident("an overload name after '.'");
      if (n.overload == "default" || n.overload.rfind("__", 0) == 0)
        fail("'" + n.overload + "' is not a legal overload name", at);
    }
    return n;
  }

  void arguments(FunctionSchema& s) {
    expect('(', "to start the argument list");
    bool kwarg_only = false;
    if (!cur().punct(')')) {
      do {
        if (s.is_vararg) fail("'...' must be the last element of the argument list", cur());
        if (next_if('*')) {
          kwarg_only = true;
        } else if (cur().kind == TokenKind::Dots) {
          next();
          s.is_vararg = true;
        } else {
          if (spans_) spans_->arguments.push_back(cur().offset);
          s.arguments.push_back(argument(kwarg_only));
        }
      } while (next_if(','));
    }
    expect(')', "to close the argument list");
    if (s.is_vararg)
      for (const Argument& a : s.arguments)
        if (a.default_value)
          fail("schemas with a vararg '...' cannot have default values (argument '" + a.name +
                   "')",
               cur());
  }

  void returns(FunctionSchema& s) {
    if (cur().kind == TokenKind::Dots) {
      next();
      s.is_varret = true;
      return;
    }
    if (!cur().punct('(')) {
      s.returns.push_back(return_value());
      return;
    }
    next();
    if (!cur().punct(')')) {
      do {
        if (s.is_varret) fail("'...' must be the last element of the return list", cur());
        if (cur().kind == TokenKind::Dots) {
          next();
          s.is_varret = true;
        } else {
          s.returns.push_back(return_value());
        }
      } while (next_if(','));
    }
    expect(')', "to close the return list");
  }

  // The `[N]` suffix, its alias and `?`: only legal at argument level.
  void sized_list_suffix(Type& t) {
    if (!cur().punct('[')) return;
    next();
    const Token& num = cur();
    int64_t n = -1;
    if (num.kind == TokenKind::Number) {
      auto [end, ec] = std::from_chars(num.text.data(), num.text.data() + num.text.size(), n);
      if (ec != std::errc() || end != num.text.data() + num.text.size() || n < 0 || n > INT32_MAX)
        n = -1;
    }
    if (n < 0) fail_expected("a list size (a non-negative integer) or ']'");
    next();
    expect(']', "to close the list size");
    t = Type::list_of(std::move(t), n);
    t.alias = alias_annotation();
    if (next_if('?')) t = Type::optional_of(std::move(t));
  }

  Argument argument(bool kwarg_only) {
    Argument a;
    a.kwarg_only = kwarg_only;
    a.type = type(0);
    sized_list_suffix(a.type);
    a.name = ident("an argument name");
    uint32_t default_at = 0;
    if (next_if('=')) {
      default_at = cur().offset;
      a.default_value = default_value(a.type, a.name);
    }
    if (spans_) spans_->defaults.push_back(default_at);
    return a;
  }

  Return return_value() {
    if (spans_) spans_->returns.push_back(cur().offset);
    Return r;
    r.type = type(0);
    sized_list_suffix(r.type);
    if (cur().kind == TokenKind::Ident) r.name = std::string(next().text);
    return r;
  }

  std::vector<Type> type_list(int depth, const char* context) {
    std::vector<Type> out;
    expect('(', context);
    if (!cur().punct(')')) {
      do out.push_back(type(depth + 1));
      while (next_if(','));
    }
    expect(')', context);
    return out;
  }

  Type wrap(TypeKind kind, std::vector<Type> contained) {
    Type t;
    t.kind = kind;
    t.contained = std::move(contained);
    return t;
  }

  Type type(int depth) {
    if (depth > kMaxTypeDepth) fail("type is nested too deeply", cur());
    const Token& at = cur();
    std::string_view word = at.kind == TokenKind::Ident ? at.text : std::string_view();
    Type t;
    if (at.punct('(')) {
      t = wrap(TypeKind::Tuple, type_list(depth, "in a tuple type"));
    } else if (word == "Future" || word == "Await" || word == "RRef") {
      next();
      TypeKind k = word == "Future" ? TypeKind::Future
                   : word == "Await" ? TypeKind::Await
                                     : TypeKind::RRef;
      expect('(', "after the type name");
      t = wrap(k, {type(depth + 1)});
      expect(')', "to close the type");
    } else if (word == "Dict") {
      next();
      expect('(', "after Dict");
      Type key = type(depth + 1);
      expect(',', "between the key and value types of Dict");
      Type value = type(depth + 1);
      expect(')', "to close Dict");
      t = wrap(TypeKind::Dict, {std::move(key), std::move(value)});
      t.alias = alias_annotation();
    } else if (word == "Union") {
      next();
      std::vector<Type> members = type_list(depth, "in Union");
      if (members.empty()) fail("Union needs at least one member type", at);
      t = wrap(TypeKind::Union, std::move(members));
      t.alias = alias_annotation();
    } else if (word == "__torch__") {
      t = custom_class();
    } else {
      t = base_type();
      t.alias = alias_annotation();
    }
    while (true) {
      if (cur().punct('[') && peek().punct(']')) {
        next();
        next();
        t = Type::list_of(std::move(t));
        t.alias = alias_annotation();
      } else if (next_if('?')) {
        t = Type::optional_of(std::move(t));
      } else {
        return t;
      }
    }
  }

  Type custom_class() {
    next();  // __torch__
    const char* form = "(custom classes are written __torch__.torch.classes.ns.Class)";
    for (std::string_view part : {"torch", "classes"}) {
      expect('.', form);
      const Token& at = cur();
      if (ident(form) != part)
        fail("expected '" + std::string(part) + "' in a custom class name " + form, at);
    }
    expect('.', form);
    std::string ns = ident("a custom class namespace");
    expect('.', form);
    std::string cls = ident("a custom class name");
    Type t;
    t.kind = TypeKind::CustomClass;
    t.name = ns + "." + cls;
    return t;
  }

  Type base_type() {
    const Token& at = cur();
    bool none_kw = at.is(TokenKind::Keyword, "None") || at.is(TokenKind::Keyword, "NoneType");
    if (!none_kw && at.kind != TokenKind::Ident) {
      if (at.kind == TokenKind::Keyword)
        fail("'" + std::string(at.text) + "' is a reserved word, not a type", at);
      fail_expected("a type");
    }
    std::string text(next().text);
    if (auto b = base_type_named(text)) return Type::base_type(*b, text);
    bool lower = std::islower(static_cast<unsigned char>(text[0]));
    if (lower && type_variables_ok_) return Type::base_type(BaseType::TypeVariable, text);
    std::string message = "unknown type '" + text + "'";
    if (std::string hint = suggest_type(text); !hint.empty())
      message += " (did you mean '" + hint + "'?)";
    else if (lower)
      message += " (type variables are only allowed in aten:: and prim:: schemas)";
    fail(message, at);
  }

  std::optional<AliasInfo> alias_annotation() {
    AliasInfo a;
    if (next_if('!')) {
      a.is_write = true;
      a.fresh = true;
      return a;
    }
    if (!cur().punct('(')) return std::nullopt;
    next();
    a.before = alias_sets();
    a.is_write = next_if('!');
    if (cur().kind == TokenKind::Arrow) {
      next();
      a.has_arrow = true;
      a.after = alias_sets();
    }
    expect(')', "to close the alias annotation");
    return a;
  }

  std::vector<std::string> alias_sets() {
    std::vector<std::string> sets;
    do {
      if (!sets.empty() && sets.back() == "*" && !cur().punct('*'))
        fail("no alias set may follow the wildcard '*'", cur());
      if (next_if('*'))
        sets.push_back("*");
      else
        sets.push_back(ident("an alias set name or '*'"));
    } while (next_if('|'));
    return sets;
  }

  DefaultValue default_value(const Type& type, const std::string& arg) {
    const Token& at = cur();
    DefaultValue v = default_token();
    if (auto problem = check_default(type, v); problem && problem->rejected_by_pytorch)
      fail("bad default for '" + arg + "': " + problem->message, at);
    return v;
  }

  // One constant or a list of them, without type checking.
  DefaultValue default_token() {
    if (cur().punct('[')) {
      next();
      DefaultValue list;
      list.kind = DefaultValue::Kind::List;
      if (!cur().punct(']')) {
        do {
          if (cur().punct('[')) fail("nested lists are not valid default values", cur());
          list.elements.push_back(default_token());
        } while (next_if(','));
      }
      expect(']', "to close the list default");
      return list;
    }
    DefaultValue v;
    const Token& t = cur();
    switch (t.kind) {
      case TokenKind::Keyword:
        if (t.text == "None") v.kind = DefaultValue::Kind::None;
        else if (t.text == "True") v.kind = DefaultValue::Kind::True;
        else if (t.text == "False") v.kind = DefaultValue::Kind::False;
        else fail_expected("a default value");
        break;
      case TokenKind::String:
        v.kind = DefaultValue::Kind::String;
        break;
      case TokenKind::Ident:
        v.kind = DefaultValue::Kind::Enum;
        break;
      case TokenKind::Number:
        v.kind = number_kind(t.text);
        break;
      default:
        if (!t.punct('-') || peek().kind != TokenKind::Number) fail_expected("a default value");
        next();
        v.kind = number_kind(cur().text);
        v.text = "-" + std::string(next().text);
        return v;
    }
    v.text = std::string(next().text);
    return v;
  }

  const ParseOptions& options_;
  SchemaSpans* spans_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  bool type_variables_ok_ = false;
};

ParseError to_error(std::string_view text, Failure f) {
  ParseError e;
  e.message = std::move(f.message);
  e.offset = std::min<uint32_t>(f.offset, static_cast<uint32_t>(text.size()));
  std::tie(e.line, e.column) = line_and_column(text, e.offset);
  return e;
}

Parsed<std::variant<OperatorName, FunctionSchema>> run(std::string_view text,
                                                       const ParseOptions& options,
                                                       bool need_schema, bool allow_schema,
                                                       SchemaSpans* spans = nullptr) {
  try {
    Parser p(text, options, spans);
    return p.declaration(need_schema, allow_schema);
  } catch (Failure& f) {
    return to_error(text, std::move(f));
  } catch (LexError& e) {
    return to_error(text, Failure{std::move(e.message), e.offset});
  }
}

}  // namespace

std::pair<uint32_t, uint32_t> line_and_column(std::string_view text, uint32_t offset) {
  uint32_t line = 1, column = 1;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

std::string ParseError::display() const {
  std::string where = line > 1 ? "line " + std::to_string(line) + ", column " : "column ";
  return where + std::to_string(column) + ": " + message;
}

Parsed<FunctionSchema> parse_schema(std::string_view text, const ParseOptions& options,
                                    SchemaSpans* spans) {
  if (spans) *spans = {};
  auto r = run(text, options, /*need_schema=*/true, /*allow_schema=*/true, spans);
  if (auto* e = std::get_if<ParseError>(&r)) return *e;
  return std::get<FunctionSchema>(std::get<0>(std::move(r)));
}

Parsed<OperatorName> parse_operator_name(std::string_view text) {
  auto r = run(text, {}, /*need_schema=*/false, /*allow_schema=*/false);
  if (auto* e = std::get_if<ParseError>(&r)) return *e;
  return std::get<OperatorName>(std::get<0>(std::move(r)));
}

Parsed<std::variant<OperatorName, FunctionSchema>> parse_schema_or_name(
    std::string_view text, const ParseOptions& options) {
  return run(text, options, /*need_schema=*/false, /*allow_schema=*/true);
}

}  // namespace torchabi::schema
