// source-shim-declaration-mismatch: a hand-written `extern "C"` declaration
// of a stable C shim function whose signature differs from the catalog's
// prototype. The linker resolves the symbol by name only, so a wrong
// parameter list or return type is silent memory corruption at run time.
#include <cctype>
#include <optional>
#include <string>
#include <unordered_map>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/cursor_utils.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

namespace {

// "const int64_t * x" -> "const int64_t*": whitespace only where it separates words.
std::string normalize_type(std::string_view t) {
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < t.size() && std::isspace(static_cast<unsigned char>(t[j]))) ++j;
      if (!out.empty() && j < t.size() && (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_') &&
          (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_'))
        out += ' ';
      i = j - 1;
      continue;
    }
    out += c;
  }
  // "int64_t const*" and "const int64_t*" are the same type; clang prints the latter.
  return out;
}

bool is_type_word(const std::string& w) {
  static const char* const kWords[] = {"const", "volatile", "unsigned", "signed", "int", "long", "short",
                                       "char", "double", "float", "bool", "void", "struct", "enum"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

// A catalog parameter "const int64_t * sizes_ptr" without its name.
std::string strip_param_name(std::string p) {
  while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.pop_back();
  size_t e = p.size();
  size_t b = e;
  while (b > 0 && (std::isalnum(static_cast<unsigned char>(p[b - 1])) || p[b - 1] == '_')) --b;
  if (b == e) return p;
  std::string last = p.substr(b);
  std::string before = p.substr(0, b);
  bool has_type_before = before.find_first_not_of(" \t*&") != std::string::npos || before.find('*') != std::string::npos ||
                         before.find(')') != std::string::npos;
  if (has_type_before && !is_type_word(last)) return before;
  return p;
}

struct Prototype {
  std::string result;
  std::vector<std::string> params;
};

std::optional<Prototype> parse_prototype(const std::string& proto, const std::string& name) {
  auto at = proto.find(" " + name + "(");
  if (at == std::string::npos) return std::nullopt;
  Prototype p;
  p.result = proto.substr(0, at);
  size_t open = at + name.size() + 1;
  size_t close = proto.rfind(')');
  if (close == std::string::npos || close <= open) return std::nullopt;
  std::string inner = proto.substr(open + 1, close - open - 1);
  int depth = 0;
  std::string cur;
  for (char c : inner) {
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      p.params.push_back(strip_param_name(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (cur.find_first_not_of(" \t") != std::string::npos) p.params.push_back(strip_param_name(cur));
  if (p.params.size() == 1 && normalize_type(p.params[0]) == "void") p.params.clear();
  return p;
}

class TypedefMap {
public:
  explicit TypedefMap(const ParsedTu& tu) {
    clang_visitChildren(
        clang_getTranslationUnitCursor(tu.raw()),
        [](CXCursor c, CXCursor, CXClientData d) {
          if (c.kind == CXCursor_TypedefDecl || c.kind == CXCursor_TypeAliasDecl) {
            auto* self = static_cast<TypedefMap*>(d);
            self->map_.emplace(spelling(c), take(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(c)))));
          }
          return CXChildVisit_Continue;
        },
        this);
  }
  // Replaces typedef names in `type` by their canonical spelling. A name the
  // TU does not declare (AOTITorchError when the shim header is not included)
  // is first expanded through the catalog's own type rows ("using
  // AOTITorchError = int32_t"), so a declaration written with the underlying
  // type compares equal.
  std::string canonical(const std::string& type, const inputs::ApiCatalog& catalog, int depth = 0) const {
    std::string out, word;
    auto flush = [&] {
      auto it = map_.find(word);
      if (it != map_.end()) out += it->second;
      else if (auto alias = catalog_alias(catalog, word); alias && depth < 4) out += canonical(*alias, catalog, depth + 1);
      else out += word;
      word.clear();
    };
    for (char c : type) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        word += c;
      } else {
        flush();
        out += c;
      }
    }
    flush();
    return normalize_type(out);
  }

private:
  // "AOTITorchError" -> "int32_t" from the row "using AOTITorchError = int32_t".
  static std::optional<std::string> catalog_alias(const inputs::ApiCatalog& catalog, const std::string& name) {
    if (name.empty()) return std::nullopt;
    const inputs::CFunction* t = catalog.find_c(name);
    if (!t || !t->is_type) return std::nullopt;
    const std::string prefix = "using " + name + " =";
    if (!t->prototype.starts_with(prefix)) return std::nullopt;
    return t->prototype.substr(prefix.size());
  }

  std::unordered_map<std::string, std::string> map_;
};

class Collector final : public CursorVisitor {
public:
  std::vector<CXCursor> decls;
  bool visit(CXCursor c, CXCursor parent) override {
    if (c.kind == CXCursor_FunctionDecl && parent.kind == CXCursor_LinkageSpec) decls.push_back(c);
    return c.kind == CXCursor_LinkageSpec || c.kind == CXCursor_Namespace;
  }
};

class ShimDeclarationCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    Collector col;
    ctx.tu.visit_project_cursors(col);
    std::optional<TypedefMap> typedefs;
    for (CXCursor c : col.decls) {
      const std::string name = spelling(c);
      const inputs::CFunction* fn = ctx.env.catalog->find_c(name);
      if (!fn || fn->is_type || fn->prototype == "-") continue;
      auto proto = parse_prototype(fn->prototype, name);
      if (!proto) continue;
      Prototype mine;
      mine.result = take(clang_getTypeSpelling(clang_getCursorResultType(c)));
      std::vector<std::string> mine_canonical;
      int n = clang_Cursor_getNumArguments(c);
      for (int i = 0; i < n; ++i) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(c, i));
        mine.params.push_back(take(clang_getTypeSpelling(t)));
        mine_canonical.push_back(normalize_type(take(clang_getTypeSpelling(clang_getCanonicalType(t)))));
      }
      std::string mine_result_canonical =
          normalize_type(take(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorResultType(c)))));

      std::string difference;
      if (mine.params.size() != proto->params.size()) {
        auto count = [](size_t n) { return std::to_string(n) + (n == 1 ? " parameter" : " parameters"); };
        difference = "it takes " + count(mine.params.size()) + ", the stable ABI's takes " + count(proto->params.size());
      } else {
        if (!typedefs) typedefs.emplace(ctx.tu);
        auto same = [&](const std::string& written, const std::string& canon, const std::string& expected) {
          return normalize_type(written) == normalize_type(expected) || canon == typedefs->canonical(expected, *ctx.env.catalog);
        };
        if (!same(mine.result, mine_result_canonical, proto->result)) {
          difference = "it returns " + mine.result + ", the stable ABI's returns " + normalize_type(proto->result);
        } else {
          for (size_t i = 0; i < mine.params.size() && difference.empty(); ++i)
            if (!same(mine.params[i], mine_canonical[i], proto->params[i]))
              difference = "parameter " + std::to_string(i + 1) + " is " + mine.params[i] + ", the stable ABI's is " +
                           normalize_type(proto->params[i]);
        }
      }
      if (difference.empty()) continue;
      findings::Finding f;
      f.rule = "source-shim-declaration-mismatch";
      CXSourceLocation loc = clang_getCursorLocation(c);
      f.location = location_of(ctx.tu.range_at(loc, static_cast<uint32_t>(name.size())));
      f.location.symbol = name;
      f.message = "hand-written declaration of stable C function " + name + " does not match the stable ABI: " + difference;
      f.notes.push_back("stable ABI prototype (" + fn->since_label() + "): " + fn->prototype);
      std::string written = mine.result + " " + name + "(";
      for (size_t i = 0; i < mine.params.size(); ++i) written += (i ? ", " : "") + mine.params[i];
      f.notes.push_back("declared here as: " + written + ")");
      f.help = "Include <" + (fn->header == "-" ? std::string("torch/csrc/inductor/aoti_torch/c/shim.h") : fn->header) +
               "> instead of declaring shim functions by hand.";
      ctx.report(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_shim_declaration_check() { return std::make_unique<ShimDeclarationCheck>(); }

}  // namespace torchabi::source::checks
