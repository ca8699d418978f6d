#include "analyzers/schema/registrations/registration_extractor.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzers/schema/compile_readiness/kernel_flow.h"
#include "analyzers/schema/registrations/cpp_string_literal.h"
#include "analyzers/schema/registrations/cpp_type_name.h"
#include "analyzers/schema/registrations/kernel_writes.h"
#include "analyzers/schema/registrations/registration_index.h"
#include "analyzers/source/boxable_types.h"
#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/version_expr.h"

namespace torchabi::schema {

namespace {

using source::ParsedTu;
using source::children;
using source::take;

// The functions the registration macros define, by name prefix (longest
// first): PyTorch names them <MACRO>_init_<ns>[_<key>][_<uid>].
struct BlockPrefix {
  const char* prefix;
  BlockKind kind;
  bool stable;
};
constexpr BlockPrefix kPrefixes[] = {
    {"STABLE_TORCH_LIBRARY_IMPL_init_", BlockKind::Impl, true},
    {"STABLE_TORCH_LIBRARY_FRAGMENT_init_", BlockKind::Fragment, true},
    {"STABLE_TORCH_LIBRARY_init_", BlockKind::Def, true},
    {"TORCH_LIBRARY_IMPL_init_", BlockKind::Impl, false},
    {"TORCH_LIBRARY_FRAGMENT_init_", BlockKind::Fragment, false},
    {"TORCH_LIBRARY_init_", BlockKind::Def, false},
};

void walk(CXCursor c, const std::function<bool(CXCursor)>& fn) {
  for (CXCursor child : children(c))
    if (fn(child)) walk(child, fn);
}

// Skips the implicit wrappers libclang shows around expressions.
CXCursor unwrap(CXCursor c) {
  while (true) {
    CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr &&
        k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXFunctionalCastExpr)
      return c;
    auto kids = children(c);
    // A cast's first children may be type references; the operand is last.
    CXCursor next = clang_getNullCursor();
    for (CXCursor k2 : kids) {
      CXCursorKind kk = clang_getCursorKind(k2);
      if (kk != CXCursor_TypeRef && kk != CXCursor_NamespaceRef && kk != CXCursor_TemplateRef) next = k2;
    }
    if (clang_Cursor_isNull(next)) return c;
    c = next;
  }
}

bool is_kind(CXCursor c, CXCursorKind k) { return clang_getCursorKind(c) == k; }

class Extractor {
public:
  explicit Extractor(const ParsedTu& tu) : tu_(tu) {}

  TuRegistrations run() {
    out_.tu = tu_.main_file();
    out_.target_version = target_version();
    if (auto conversions = source::read_boxable_types(tu_.raw()); conversions.found) out_.boxable = std::move(conversions);
    std::vector<CXCursor> functions;
    std::map<std::string, CXCursor> init_vars;
    struct Collector : source::CursorVisitor {
      std::vector<CXCursor>* functions;
      std::map<std::string, CXCursor>* vars;
      bool visit(CXCursor c, CXCursor) override {
        CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) {
          if (clang_isCursorDefinition(c)) functions->push_back(c);
          return false;
        }
        if (k == CXCursor_VarDecl) {
          std::string name = source::spelling(c);
          if (name.find("_static_init_") != std::string::npos) (*vars)[name] = c;
          return false;
        }
        return k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl;
      }
    } collector;
    collector.functions = &functions;
    collector.vars = &init_vars;
    tu_.visit_project_cursors(collector);

    for (CXCursor f : functions) {
      std::string name = source::spelling(f);
      bool block = false;
      for (const BlockPrefix& p : kPrefixes) {
        if (name.rfind(p.prefix, 0) != 0) continue;
        add_block(f, name, p, init_vars);
        block = true;
        break;
      }
      if (!block && is_boxed_signature(f)) add_boxed_kernel(f);
    }
    return std::move(out_);
  }

private:
  // ---- locations and text -------------------------------------------------

  findings::Location location(CXCursor c) const {
    return location(clang_getCursorLocation(c));
  }
  findings::Location location(CXSourceLocation loc) const {
    CXFile file = nullptr;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(loc, &file, &line, &column, nullptr);
    findings::Location l;
    if (file) l.file = tu_.path_of(file);
    l.line = line;
    l.column = column;
    return l;
  }
  std::string text_of(CXCursor c) const {
    source::Range r = tu_.range_of(clang_getCursorExtent(c));
    std::string_view file = tu_.file_text(r.file);
    if (r.end <= r.begin || r.end > file.size()) return {};
    return std::string(file.substr(r.begin, r.end - r.begin));
  }
  const std::vector<uint32_t>& line_starts(const std::string& file) {
    auto it = lines_.find(file);
    if (it != lines_.end()) return it->second;
    std::vector<uint32_t> starts = {0};
    std::string_view text = tu_.file_text(file);
    for (uint32_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
    return lines_.emplace(file, std::move(starts)).first->second;
  }
  std::pair<uint32_t, uint32_t> line_col(const std::string& file, uint32_t offset) {
    const auto& starts = line_starts(file);
    auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    size_t line = static_cast<size_t>(it - starts.begin());
    return {static_cast<uint32_t>(line), offset - starts[line - 1] + 1};
  }

  // ---- the TU's TORCH_TARGET_VERSION ----------------------------------------

  std::string target_version() const {
    std::optional<std::string> text;
    for (const auto& m : tu_.args().macros) {
      if (m.name != "TORCH_TARGET_VERSION") continue;
      if (m.undef) text.reset();
      else text = m.value.value_or("1");
    }
    for (const auto& d : tu_.macro_definitions())
      if (d.name == "TORCH_TARGET_VERSION") text = d.body;
    if (!text) return {};
    auto raw = source::evaluate_version_expr(*text);
    if (!raw) return {};
    return TorchVersion::decode(*raw).str();
  }

  // ---- string literals --------------------------------------------------------

  // The value of a StringLiteral cursor: its spelling is the literal as
  // the compiler saw it (after macro expansion), quotes and escapes included.
  static std::string string_value(CXCursor lit) {
    auto decoded = decode_cpp_string_literal(source::spelling(lit));
    return decoded ? decoded->value : std::string();
  }

  // The first string literal inside `c` (an argument, possibly wrapped).
  static CXCursor first_string_literal(CXCursor c) {
    CXCursor lit = clang_getNullCursor();
    if (is_kind(c, CXCursor_StringLiteral)) return c;
    walk(c, [&](CXCursor k) {
      if (!clang_Cursor_isNull(lit)) return false;
      if (is_kind(k, CXCursor_StringLiteral)) {
        lit = k;
        return false;
      }
      return true;
    });
    return lit;
  }

  // Whether an expression computes its value with a call (a function, a
  // method, an operator) rather than wrapping a literal in constructors or
  // conversions (std::string("..."), TORCH_SELECTIVE_SCHEMA("...")).
  static bool computed(CXCursor c) {
    bool calls = false;
    auto consider = [&](CXCursor k) {
      if (!is_kind(k, CXCursor_CallExpr)) return;
      CXCursorKind ref = clang_getCursorKind(clang_getCursorReferenced(k));
      if (ref == CXCursor_FunctionDecl || ref == CXCursor_CXXMethod || ref == CXCursor_FunctionTemplate) calls = true;
    };
    consider(c);
    walk(c, [&](CXCursor k) {
      consider(k);
      return !calls && !is_kind(k, CXCursor_LambdaExpr);
    });
    return calls;
  }

  std::optional<LiteralText> literal(CXCursor c) {
    if (computed(c)) return std::nullopt;
    CXCursor lit = first_string_literal(c);
    // A schema kept in a constant (constexpr const char* kSchema = "...",
    // const char kSchema[] = "..."): its initializer. Anything computed is
    // left alone.
    if (CXCursor e = unwrap(c); clang_Cursor_isNull(lit) && is_kind(e, CXCursor_DeclRefExpr)) {
      CXCursor var = clang_getCursorReferenced(e);
      std::string type = take(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(var))));
      if (is_kind(var, CXCursor_VarDecl) && type.starts_with("const char")) lit = first_string_literal(var);
    }
    if (clang_Cursor_isNull(lit)) return std::nullopt;
    LiteralText out;
    out.text = string_value(lit);
    source::Range r = tu_.range_of(clang_getCursorExtent(lit));
    out.start = location(lit);
    std::string_view file = tu_.file_text(r.file);
    if (r.end > r.begin && r.end <= file.size()) {
      auto decoded = decode_cpp_string_literal(file.substr(r.begin, r.end - r.begin));
      if (decoded && (out.text.empty() || decoded->value == out.text)) {
        out.text = decoded->value;
        for (uint32_t off : decoded->source_offsets) out.positions.push_back(line_col(r.file, r.begin + off));
        if (!out.positions.empty()) std::tie(out.start.line, out.start.column) = out.positions.front();
      }
    }
    return out;
  }

  // ---- types ------------------------------------------------------------------

  CppType cpp_type(CXType t) const {
    CppType out;
    out.spelled = take(clang_getTypeSpelling(t));
    CXType inner = t;
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
      out.lvalue_ref = t.kind == CXType_LValueReference;
      out.rvalue_ref = t.kind == CXType_RValueReference;
      inner = clang_getPointeeType(t);
    }
    out.is_const = clang_isConstQualifiedType(inner) != 0;
    out.normalized = normalize_cpp_type(take(clang_getTypeSpelling(clang_getCanonicalType(inner))));
    return out;
  }

  CppSignature signature_of(CXCursor fn) const {
    CppSignature s;
    CXType t = clang_getCursorType(fn);
    s.result = cpp_type(clang_getResultType(t));
    int n = clang_getNumArgTypes(t);
    for (int i = 0; i < n; ++i) {
      s.params.push_back(cpp_type(clang_getArgType(t, static_cast<unsigned>(i))));
      CXCursor p = clang_Cursor_getArgument(fn, static_cast<unsigned>(i));
      s.param_names.push_back(clang_Cursor_isNull(p) ? "" : source::spelling(p));
    }
    return s;
  }

  bool is_boxed_signature(CXCursor fn) const {
    CXType t = clang_getCursorType(fn);
    if (clang_getNumArgTypes(t) != 3) return false;
    CppType stack = cpp_type(clang_getArgType(t, 0));
    bool named = stack.spelled.find("StableIValue") != std::string::npos;
    return (named || stack.normalized == "uint64_t*") &&
           cpp_type(clang_getArgType(t, 1)).normalized == "uint64_t" &&
           cpp_type(clang_getArgType(t, 2)).normalized == "uint64_t" &&
           cpp_type(clang_getResultType(t)).normalized == "void";
  }

  // ---- blocks -----------------------------------------------------------------

  void add_block(CXCursor fn, const std::string& name, const BlockPrefix& p,
                 const std::map<std::string, CXCursor>& init_vars) {
    LibraryBlock b;
    b.kind = p.kind;
    b.stable = p.stable;
    b.where = location(fn);
    b.macro = macro_at(b.where);
    std::string suffix = name.substr(std::string(p.prefix).size());
    // The static initializer carries the namespace (#ns) and, for stable
    // IMPL blocks, the key (#k) as string literals; legacy IMPL blocks name
    // the key as c10::DispatchKey::k.
    std::vector<std::string> strings, keys;
    std::string var_name = name;
    var_name.replace(var_name.find("_init_"), 6, "_static_init_");
    if (auto it = init_vars.find(var_name); it != init_vars.end()) {
      walk(it->second, [&](CXCursor c) {
        if (is_kind(c, CXCursor_StringLiteral)) {
          strings.push_back(string_value(c));
        } else if (is_kind(c, CXCursor_DeclRefExpr)) {
          CXCursor ref = clang_getCursorReferenced(c);
          if (is_kind(ref, CXCursor_EnumConstantDecl) &&
              source::spelling(clang_getCursorSemanticParent(ref)) == "DispatchKey")
            keys.push_back(source::spelling(ref));
        }
        return true;
      });
    }
    // The first literal is #ns: what the library registers. The function
    // name may still hold the unexpanded macro (STABLE_TORCH_LIBRARY pastes
    // ns as written, STABLE_TORCH_LIBRARY(RS_LIB_NAME, m) stringizes its value).
    if (!strings.empty() && is_identifier(strings[0])) b.ns = strings[0];
    if (b.ns.empty()) {
      // No usable initializer: DEF blocks are <prefix><ns>; the others end in _<uid>.
      b.ns = suffix;
      if (p.kind == BlockKind::Fragment) b.ns = strip_uid(suffix);
    }
    if (p.kind == BlockKind::Impl) {
      if (p.stable && strings.size() >= 2 && strings[1].find('/') == std::string::npos) b.dispatch_key = strings[1];
      else if (!p.stable && !keys.empty()) b.dispatch_key = keys.back();
      if (b.dispatch_key.empty() && suffix.rfind(b.ns + "_", 0) == 0)
        b.dispatch_key = strip_uid(suffix.substr(b.ns.size() + 1));
    }
    size_t index = out_.blocks.size();
    out_.blocks.push_back(std::move(b));
    visit_block_body(fn, index);
  }

  static bool is_identifier(const std::string& s) {
    return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
           std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  }

  static std::string strip_uid(std::string s) {
    size_t at = s.find_last_of('_');
    if (at != std::string::npos && at + 1 < s.size() &&
        std::all_of(s.begin() + long(at) + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      s.erase(at);
    return s;
  }

  std::string macro_at(const findings::Location& where) const {
    for (const auto& m : tu_.macro_uses())
      if (m.range.file == where.file && m.range.line == where.line && m.range.column == where.column) return m.name;
    return {};
  }

  // ---- calls in a block -------------------------------------------------------

  // The class a called method belongs to, unqualified ("Library", "class_").
  static std::string method_class(CXCursor call) {
    CXCursor method = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(method)) return {};
    return source::spelling(clang_getCursorSemanticParent(method));
  }

  // Whether a call hands the library (StableLibrary& / Library&) to a function.
  static bool passes_library(CXCursor call) {
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; ++i) {
      std::string type = take(clang_getTypeSpelling(
          clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, static_cast<unsigned>(i))))));
      if (type.ends_with("StableLibrary") || type.ends_with("torch::Library")) return true;
    }
    return false;
  }

  // A function of the project the block hands its library to registers for
  // the block: its body is read as part of it. One that cannot be read makes
  // the block opaque.
  void follow_helper(CXCursor call, size_t block, int depth) {
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor body = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(body) || depth >= 4) {
      out_.blocks[block].opaque = true;
      return;
    }
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(body), &file, nullptr, nullptr, nullptr);
    if (!file || !tu_.is_project_file(tu_.path_of(file))) return;  // PyTorch's own plumbing
    const std::string usr = take(clang_getCursorUSR(body));
    if (!following_.insert(usr).second) return;  // recursion
    visit_block_body(body, block, depth + 1);
    following_.erase(usr);
  }

  void visit_block_body(CXCursor fn, size_t block, int depth = 0) {
    std::map<std::string, size_t> classes;  // class_ call location -> index in out_.classes
    walk(fn, [&](CXCursor c) {
      if (!is_kind(c, CXCursor_CallExpr)) return true;
      std::string method = source::spelling(c);
      std::string owner = method_class(c);
      bool library = owner == "Library" || owner == "StableLibrary";
      if (!library && owner != "class_" && passes_library(c)) {
        follow_helper(c, block, depth);
        return true;
      }
      if (library && (method == "def" || method == "impl")) {
        record_call(c, method, block);
        return true;  // a chained call's receiver holds the next call
      }
      if (library && method == "class_") {
        ensure_class(c, block, classes);
        return false;
      }
      if (owner == "class_" && (method == "def" || method == "def_pickle")) {
        record_class_method(c, block, classes);
        return true;
      }
      return true;
    });
  }

  void record_call(CXCursor call, const std::string& method, size_t block) {
    int n = clang_Cursor_getNumArguments(call);
    if (n < 1) return;
    auto first = literal(clang_Cursor_getArgument(call, 0));
    if (!first) {  // a schema or name built at run time: nothing to check, and not all is known
      out_.blocks[block].opaque = true;
      return;
    }
    if (method == "def") {
      OpDef d;
      d.block = block;
      d.schema = std::move(*first);
      d.where = location(call);
      // m.def(schema, fn) registers a kernel; a default argument (the legacy
      // def's `tags = {}`, which libclang counts too) has no text in the call.
      if (n >= 2 && !text_of(clang_Cursor_getArgument(call, 1)).empty())
        d.kernel = kernel(clang_Cursor_getArgument(call, 1));
      out_.defs.push_back(std::move(d));
    } else {
      if (n < 2) return;
      OpImpl i;
      i.block = block;
      i.name = std::move(*first);
      i.kernel = kernel(clang_Cursor_getArgument(call, 1));
      i.where = location(call);
      out_.impls.push_back(std::move(i));
    }
  }

  KernelRef kernel(CXCursor arg) {
    KernelRef k;
    k.where = location(arg);
    k.written = text_of(arg);
    CXCursor fn = clang_getNullCursor(), any_fn = clang_getNullCursor(), lambda = clang_getNullCursor();
    bool boxer = k.written.find("TORCH_BOX") != std::string::npos;
    auto consider = [&](CXCursor c) {
      if (is_kind(c, CXCursor_LambdaExpr) && clang_Cursor_isNull(lambda)) lambda = c;
      if (!is_kind(c, CXCursor_DeclRefExpr)) return;
      CXCursor ref = clang_getCursorReferenced(c);
      CXCursorKind rk = clang_getCursorKind(ref);
      if (rk != CXCursor_FunctionDecl && rk != CXCursor_CXXMethod) return;
      if (source::spelling(ref) == "boxed_fn") {
        boxer = true;
        return;
      }
      if (clang_Cursor_isNull(any_fn)) any_fn = ref;
      CXFile file = nullptr;
      clang_getExpansionLocation(clang_getCursorLocation(ref), &file, nullptr, nullptr, nullptr);
      if (clang_Cursor_isNull(fn) && file && tu_.is_project_file(tu_.path_of(file))) fn = ref;
    };
    consider(arg);
    walk(arg, [&](CXCursor c) {
      consider(c);
      return !is_kind(c, CXCursor_LambdaExpr);
    });
    if (clang_Cursor_isNull(fn)) fn = any_fn;
    if (!clang_Cursor_isNull(fn)) {
      k.function = source::qualified_name(fn);
      k.signature = signature_of(fn);
      k.signature->param_writes = parameter_writes(tu_, fn);
      k.signature->flow = kernel_flow(tu_, fn);
      k.declared = location(fn);
      if (boxer) k.form = KernelRef::Form::TorchBox;
      else k.form = is_boxed_signature(fn) ? KernelRef::Form::Boxed : KernelRef::Form::Unboxed;
    } else if (!clang_Cursor_isNull(lambda)) {
      k.form = KernelRef::Form::Lambda;
      CppSignature s;
      s.result_known = false;
      for (CXCursor c : children(lambda))
        if (is_kind(c, CXCursor_ParmDecl)) {
          s.params.push_back(cpp_type(clang_getCursorType(c)));
          s.param_names.push_back(source::spelling(c));
        }
      s.param_writes = parameter_writes(tu_, lambda);
      s.flow = kernel_flow(tu_, lambda);
      k.signature = std::move(s);
      k.declared = location(lambda);
    }
    return k;
  }

  // ---- TorchBind -------------------------------------------------------------

  // The entry of the class an m.class_<T>("Name") call registers; npos when
  // its name is not a literal.
  size_t ensure_class(CXCursor class_call, size_t block, std::map<std::string, size_t>& classes) {
    findings::Location at = location(class_call);
    std::string key = location_key(at);
    if (auto it = classes.find(key); it != classes.end()) return it->second;
    auto name = clang_Cursor_getNumArguments(class_call) > 0 ? literal(clang_Cursor_getArgument(class_call, 0))
                                                             : std::nullopt;
    if (!name) return std::string::npos;
    TorchBindClass cls;
    cls.name = name->text;
    cls.ns = out_.blocks[block].ns;
    cls.where = at;
    std::string type = take(clang_getTypeSpelling(clang_getCursorType(class_call)));
    size_t open = type.find('<'), close = type.rfind('>');
    if (open != std::string::npos && close != std::string::npos && close > open)
      cls.cpp_type = type.substr(open + 1, close - open - 1);
    classes.emplace(key, out_.classes.size());
    out_.classes.push_back(std::move(cls));
    return out_.classes.size() - 1;
  }

  void record_class_method(CXCursor call, size_t block, std::map<std::string, size_t>& classes) {
    // The receiver chain of .def(...) leads to the m.class_<T>("Name") call.
    CXCursor class_call = clang_getNullCursor();
    walk(call, [&](CXCursor c) {
      if (!clang_Cursor_isNull(class_call)) return false;
      if (is_kind(c, CXCursor_CallExpr) && source::spelling(c) == "class_") {
        class_call = c;
        return false;
      }
      return true;
    });
    if (clang_Cursor_isNull(class_call)) return;
    size_t index = ensure_class(class_call, block, classes);
    if (index == std::string::npos || source::spelling(call) == "def_pickle") return;
    if (clang_Cursor_getNumArguments(call) < 1) return;
    auto method = literal(clang_Cursor_getArgument(call, 0));
    if (method) out_.classes[index].methods.push_back(method->text);
  }

  // ---- hand-written boxed kernels ---------------------------------------------

  static bool refers_to(CXCursor expr, CXCursor decl) {
    CXCursor e = unwrap(expr);
    return is_kind(e, CXCursor_DeclRefExpr) && clang_equalCursors(clang_getCursorReferenced(e), decl);
  }

  // stack[i]: the index, or -1 when it is not a constant; nullopt when `c`
  // is not a subscript of `stack`.
  std::optional<int64_t> stack_index(CXCursor c, CXCursor stack) const {
    CXCursor e = unwrap(c);
    if (!is_kind(e, CXCursor_ArraySubscriptExpr)) return std::nullopt;
    auto kids = children(e);
    if (kids.size() != 2 || !refers_to(kids[0], stack)) return std::nullopt;
    int64_t index = -1;
    CXEvalResult ev = clang_Cursor_Evaluate(kids[1]);
    if (ev && clang_EvalResult_getKind(ev) == CXEval_Int) index = clang_EvalResult_getAsLongLong(ev);
    if (ev) clang_EvalResult_dispose(ev);
    return index;
  }

  void add_boxed_kernel(CXCursor fn) {
    CXCursor stack = clang_Cursor_getArgument(fn, 0);
    if (clang_Cursor_isNull(stack)) return;
    BoxedKernelBody k;
    k.function = source::qualified_name(fn);
    k.where = location(fn);
    size_t uses = 0, understood = 0;
    walk(fn, [&](CXCursor c) {
      if (is_kind(c, CXCursor_DeclRefExpr) && clang_equalCursors(clang_getCursorReferenced(c), stack)) ++uses;
      if (is_kind(c, CXCursor_CallExpr) && source::spelling(c) == "to" && clang_Cursor_getNumArguments(c) == 1) {
        if (auto i = stack_index(clang_Cursor_getArgument(c, 0), stack)) {
          k.reads.push_back({*i, cpp_type(clang_getCursorType(c)), location(c)});
          ++understood;
          if (*i < 0) k.opaque = true;
        }
      }
      if (is_kind(c, CXCursor_BinaryOperator) && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
        auto kids = children(c);
        if (kids.size() == 2) {
          if (auto i = stack_index(kids[0], stack)) {
            StackAccess w{*i, {}, location(c)};
            CXCursor rhs = unwrap(kids[1]);
            if (is_kind(rhs, CXCursor_CallExpr) && source::spelling(rhs) == "from") {
              CXType ft = clang_getCursorType(clang_getCursorReferenced(rhs));
              if (clang_getNumArgTypes(ft) == 1) w.type = cpp_type(clang_getArgType(ft, 0));
            }
            k.writes.push_back(std::move(w));
            ++understood;
            if (*i < 0) k.opaque = true;
          }
        }
      }
      return true;
    });
    if (uses > understood) k.opaque = true;
    out_.boxed_kernels.push_back(std::move(k));
  }

  const ParsedTu& tu_;
  TuRegistrations out_;
  std::set<std::string> following_;  // helpers being read (USRs), against recursion
  std::unordered_map<std::string, std::vector<uint32_t>> lines_;
};

}  // namespace

TuRegistrations extract_registrations(const source::ParsedTu& tu) { return Extractor(tu).run(); }

}  // namespace torchabi::schema
