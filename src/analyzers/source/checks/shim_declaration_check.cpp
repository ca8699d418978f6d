// source-shim-declaration-mismatch: a hand-written `extern "C"` declaration
// of a stable C shim function whose signature differs from the catalog's
// prototype. The linker resolves the symbol by name only, so a wrong
// parameter list or return type is silent memory corruption at run time.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
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

// The canonical spelling of the catalog's prototypes, as clang spells them in
// the TU's language and on its target: the prototypes are parsed once per TU
// in a small synthetic buffer that declares the fixed-width integer types
// from clang's own predefined macros (__INT32_TYPE__, ...: what <stdint.h>
// gives on that target) and the catalog's type rows (AOTITorchError =
// int32_t, AtenTensorHandle = AtenTensorOpaque *, ...) ahead of them. No
// header is read, so the result does not depend on whether the TU included
// the shim header, on USE_CUDA, or on the language (C, C++, CUDA's host side).
class ReferenceTypes {
public:
  struct Canonical {
    std::string result;
    std::vector<std::string> params;
  };

  // `wanted`: the catalog functions the TU declares by hand.
  ReferenceTypes(const ParsedTu& tu, const inputs::ApiCatalog& catalog, const std::vector<const inputs::CFunction*>& wanted) {
    const bool c = tu.args().language == "c";
    std::string src;
    for (const char* t : {"INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64", "INTPTR", "UINTPTR"}) {
      std::string lower(t);
      for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      src += "typedef __" + std::string(t) + "_TYPE__ " + lower + "_t;\n";
    }
    src += "typedef __SIZE_TYPE__ size_t;\ntypedef __PTRDIFF_TYPE__ ptrdiff_t;\n";
    if (c) src += "typedef _Bool bool;\n";
    std::set<std::string> declared;
    std::vector<std::pair<std::string, const inputs::CFunction*>> functions;
    for (const inputs::CFunction* fn : wanted) {
      auto proto = parse_prototype(fn->prototype, fn->name);
      if (!proto) continue;
      declare_types(fn->prototype, catalog, declared, src, 0);
      const std::string ref = "torchabi_reference_" + std::to_string(functions.size());
      std::string params;
      for (const auto& p : proto->params) params += (params.empty() ? "" : ", ") + p;
      src += proto->result + " " + ref + "(" + (params.empty() && c ? "void" : params) + ");\n";
      functions.emplace_back(ref, fn);
    }
    const std::string name = std::string("torchabi-shim-reference.") + (c ? "c" : "cpp");
    CXUnsavedFile unsaved{name.c_str(), src.c_str(), static_cast<unsigned long>(src.size())};
    std::vector<std::string> args = {"-x", c ? "c" : "c++", "-w", "-fno-spell-checking"};
    const auto& in = tu.args().args;
    for (size_t i = 0; i < in.size(); ++i) {
      // What decides the target's type sizes: its triple, the data model.
      const std::string& a = in[i];
      if ((a == "-target" || a == "-triple" || a == "-arch") && i + 1 < in.size()) {
        args.push_back(a);
        args.push_back(in[++i]);
      } else if (a.starts_with("--target=") || a == "-m32" || a == "-m64" || a == "-mx32" || a == "-m16") {
        args.push_back(a);
      }
    }
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit ref_tu = nullptr;
    if (clang_parseTranslationUnit2(index, name.c_str(), argv.data(), static_cast<int>(argv.size()), &unsaved, 1,
                                    CXTranslationUnit_SkipFunctionBodies, &ref_tu) == CXError_Success &&
        ref_tu) {
      // A line clang could not read would give a wrong canonical type (an
      // unknown name reads as int): its prototype is left out.
      std::set<unsigned> bad_lines;
      for (unsigned i = 0, n = clang_getNumDiagnostics(ref_tu); i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(ref_tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
          unsigned line = 0;
          clang_getSpellingLocation(clang_getDiagnosticLocation(d), nullptr, &line, nullptr, nullptr);
          bad_lines.insert(line);
        }
        clang_disposeDiagnostic(d);
      }
      std::unordered_map<std::string, const inputs::CFunction*> by_ref(functions.begin(), functions.end());
      struct Walk {
        std::unordered_map<std::string, const inputs::CFunction*>* by_ref;
        std::set<unsigned>* bad_lines;
        std::unordered_map<std::string, Canonical>* out;
        bool any_error;
      } walk{&by_ref, &bad_lines, &by_name_, !bad_lines.empty()};
      clang_visitChildren(
          clang_getTranslationUnitCursor(ref_tu),
          [](CXCursor cur, CXCursor, CXClientData data) {
            auto& w = *static_cast<Walk*>(data);
            if (cur.kind != CXCursor_FunctionDecl) return CXChildVisit_Continue;
            auto it = w.by_ref->find(spelling(cur));
            if (it == w.by_ref->end()) return CXChildVisit_Continue;
            unsigned line = 0;
            clang_getSpellingLocation(clang_getCursorLocation(cur), nullptr, &line, nullptr, nullptr);
            // Typedefs it relies on are on earlier lines: any error there spoils it too.
            if (w.any_error && (w.bad_lines->count(line) || *w.bad_lines->begin() < line)) return CXChildVisit_Continue;
            Canonical can;
            can.result = canonical_spelling(clang_getCursorResultType(cur));
            for (int i = 0, n = clang_Cursor_getNumArguments(cur); i < n; ++i)
              can.params.push_back(canonical_spelling(clang_getCursorType(clang_Cursor_getArgument(cur, i))));
            w.out->emplace(it->second->name, std::move(can));
            return CXChildVisit_Continue;
          },
          &walk);
      clang_disposeTranslationUnit(ref_tu);
    }
    clang_disposeIndex(index);
  }

  // Null when the prototype could not be read.
  const Canonical* find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &it->second;
  }

  static std::string canonical_spelling(CXType t) {
    return normalize_type(take(clang_getTypeSpelling(clang_getCanonicalType(t))));
  }

private:
  // Declares, dependencies first, the catalog types `text` names.
  static void declare_types(const std::string& text, const inputs::ApiCatalog& catalog, std::set<std::string>& declared,
                            std::string& src, int depth) {
    if (depth > 8) return;
    std::string word;
    auto flush = [&] {
      if (word.empty() || declared.count(word)) {
        word.clear();
        return;
      }
      const inputs::CFunction* t = catalog.find_c(word);
      const std::string name = word;
      word.clear();
      if (!t || !t->is_type) return;
      declared.insert(name);
      if (t->prototype == "struct " + name) {
        src += "typedef struct " + name + " " + name + ";\n";
        return;
      }
      const std::string prefix = "using " + name + " =";
      if (!t->prototype.starts_with(prefix)) return;
      const std::string rhs = t->prototype.substr(prefix.size());
      declare_types(rhs, catalog, declared, src, depth + 1);
      src += "typedef __typeof__(" + rhs + ") " + name + ";\n";
    };
    for (char ch : text) {
      if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') word += ch;
      else flush();
    }
    flush();
  }

  std::unordered_map<std::string, Canonical> by_name_;
};

// The declarations with C linkage: in an `extern "C"` block in C++ (and
// CUDA), every file-scope one in C.
class Collector final : public CursorVisitor {
public:
  explicit Collector(bool c_language) : c_language_(c_language) {}
  std::vector<CXCursor> decls;
  bool visit(CXCursor c, CXCursor parent) override {
    if (c.kind == CXCursor_FunctionDecl &&
        (parent.kind == CXCursor_LinkageSpec || (c_language_ && parent.kind == CXCursor_TranslationUnit)))
      decls.push_back(c);
    return c.kind == CXCursor_LinkageSpec || c.kind == CXCursor_Namespace;
  }

private:
  bool c_language_;
};

class ShimDeclarationCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    Collector col(ctx.tu.args().language == "c");
    ctx.tu.visit_project_cursors(col);
    std::vector<std::pair<CXCursor, const inputs::CFunction*>> declared;
    std::vector<const inputs::CFunction*> wanted;
    for (CXCursor c : col.decls) {
      const inputs::CFunction* fn = ctx.env.catalog->find_c(spelling(c));
      if (!fn || fn->is_type || fn->prototype == "-" || !parse_prototype(fn->prototype, fn->name)) continue;
      declared.emplace_back(c, fn);
      if (std::find(wanted.begin(), wanted.end(), fn) == wanted.end()) wanted.push_back(fn);
    }
    if (declared.empty()) return;
    const ReferenceTypes reference(ctx.tu, *ctx.env.catalog, wanted);
    for (const auto& [c, fn] : declared) {
      const std::string& name = fn->name;
      auto proto = parse_prototype(fn->prototype, name);
      // Without its canonical types the prototype cannot be compared: no finding
      // rather than a guess from spellings.
      const ReferenceTypes::Canonical* ref = reference.find(name);
      if (!ref) continue;
      Prototype mine;
      mine.result = take(clang_getTypeSpelling(clang_getCursorResultType(c)));
      std::vector<std::string> mine_canonical;
      int n = clang_Cursor_getNumArguments(c);
      for (int i = 0; i < n; ++i) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(c, i));
        mine.params.push_back(take(clang_getTypeSpelling(t)));
        mine_canonical.push_back(ReferenceTypes::canonical_spelling(t));
      }
      const std::string mine_result_canonical = ReferenceTypes::canonical_spelling(clang_getCursorResultType(c));
      auto both = [](const std::string& written, const std::string& canon) {
        return canon == normalize_type(written) ? written : written + " (" + canon + ")";
      };

      std::string difference;
      if (mine.params.size() != proto->params.size()) {
        auto count = [](size_t n) { return std::to_string(n) + (n == 1 ? " parameter" : " parameters"); };
        difference = "it takes " + count(mine.params.size()) + ", the stable ABI's takes " + count(proto->params.size());
      } else if (mine_result_canonical != ref->result) {
        difference = "it returns " + both(mine.result, mine_result_canonical) + ", the stable ABI's returns " +
                     both(normalize_type(proto->result), ref->result);
      } else {
        for (size_t i = 0; i < mine.params.size() && difference.empty(); ++i)
          if (mine_canonical[i] != ref->params[i])
            difference = "parameter " + std::to_string(i + 1) + " is " + both(mine.params[i], mine_canonical[i]) +
                         ", the stable ABI's is " + both(normalize_type(proto->params[i]), ref->params[i]);
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
