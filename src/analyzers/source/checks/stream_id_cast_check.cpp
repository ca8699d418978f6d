// source-stream-id-as-handle: `reinterpret_cast<cudaStream_t>(s.id())` or
// `(cudaStream_t)s.id()` where `s` is a torch::stable stream.
//
// Stream::id() returns a StreamId: the integer c10 uses to name a stream in
// its pools, not the driver's handle. Cast to a cudaStream_t it happens to
// work while the current stream is the default one (id 0 is the null
// stream), so ports pass their tests and then launch on the wrong stream, or
// on an invalid handle, as soon as the caller sets a stream.
//
// Found in the AST: a cast to a pointer type whose operand is a call of a
// method `id` of a class declared in a stable header.
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/target_setting.h"
#include "analyzers/source/cursor_utils.h"

namespace torchabi::source::checks {

namespace {

// libclang is loaded by name (libclang_loader/): only the functions it lists
// exist, so expression kinds are tested by their range.
bool is_expression(CXCursorKind k) { return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr; }

// The cast's operand without implicit conversions and parentheses.
std::optional<CXCursor> operand_of(CXCursor cast) {
  std::optional<CXCursor> e;
  for (CXCursor c : children(cast))
    if (is_expression(c.kind)) e = c;
  while (e && (e->kind == CXCursor_UnexposedExpr || e->kind == CXCursor_ParenExpr)) {
    auto inner = children(*e);
    if (inner.size() != 1 || !is_expression(inner[0].kind)) break;
    e = inner[0];
  }
  return e;
}

bool is_cast(CXCursorKind k) {
  return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXReinterpretCastExpr || k == CXCursor_CXXFunctionalCastExpr;
}

class Casts final : public CursorVisitor {
public:
  std::vector<CXCursor> found;
  bool visit(CXCursor c, CXCursor) override {
    if (is_cast(c.kind)) found.push_back(c);
    return true;
  }
};

class StreamIdCastCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    Casts casts;
    ctx.tu.visit_project_cursors(casts);
    std::optional<std::optional<TargetSetting>> target;
    for (CXCursor cast : casts.found) {
      const CXType to = clang_getCanonicalType(clang_getCursorType(cast));
      if (to.kind != CXType_Pointer) continue;
      auto call = operand_of(cast);
      if (!call || call->kind != CXCursor_CallExpr) continue;
      CXCursor method = clang_getCursorReferenced(*call);
      if (method.kind != CXCursor_CXXMethod || spelling(method) != "id") continue;
      CXCursor cls = clang_getCursorSemanticParent(method);
      if (!declared_in_stable_header(ctx, cls)) continue;
      if (!target) target = read_target_setting(ctx.tu, ctx.env);
      report(ctx, cast, *call, cls, *target);
    }
  }

private:
  static bool declared_in_stable_header(CheckContext& ctx, CXCursor decl) {
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(decl), &file, nullptr, nullptr, nullptr);
    if (!file) return false;
    const std::string name = ctx.tu.torch_header_name(ctx.tu.path_of(file));
    return !name.empty() && ctx.tu.classifier().classify(name) == HeaderKind::Stable;
  }

  static std::string text_of(CheckContext& ctx, const Range& r) {
    std::string_view t = ctx.tu.file_text(r.file);
    return r.end <= t.size() && r.begin <= r.end ? std::string(t.substr(r.begin, r.end - r.begin)) : std::string();
  }

  static void report(CheckContext& ctx, CXCursor cast, CXCursor call, CXCursor cls,
                     const std::optional<TargetSetting>& target) {
    const Range where = ctx.tu.range_of(clang_getCursorExtent(cast));
    const std::string call_text = text_of(ctx, ctx.tu.range_of(clang_getCursorExtent(call)));
    const std::string type = take(clang_getTypeSpelling(clang_getCursorType(cast)));
    const std::string klass = qualified_name(cls);
    findings::Finding f;
    f.rule = "source-stream-id-as-handle";
    f.location = location_of(where);
    f.location.symbol = klass + "::id";
    f.message = "'" + call_text + "' cast to " + type + ": " + klass + "::id() is the stream's StreamId (an index " +
                "into PyTorch's stream pools), not its native handle; it only looks right while the default stream " +
                "(id 0, the null stream) is current";
    const StableApi* native = ctx.env.stable_apis.find(klass + "::nativeHandle");
    const bool native_ok = native && (!target || (target->version && native->since <= *target->version));
    std::string receiver = call_text.size() > 5 && call_text.ends_with(".id()") ? call_text.substr(0, call_text.size() - 5)
                                                                                : std::string("stream");
    f.help = native_ok ? "Use " + receiver + ".nativeHandle() (PyTorch " + native->since.str() + "+), which returns the " +
                             "driver's stream, cast to " + type + "."
                       : "Ask for the native stream: aoti_torch_get_current_cuda_stream(device_index, (void**)&stream) " +
                             std::string("(torch/csrc/inductor/aoti_torch/c/shim.h, a CUDA build)") +
                             (native ? "; from PyTorch " + native->since.str() + " on, " + receiver + ".nativeHandle()."
                                     : ".");
    if (target && target->version) f.notes.push_back("TORCH_TARGET_VERSION " + target->text() + " from " + target->origin);
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_stream_id_cast_check() { return std::make_unique<StreamIdCastCheck>(); }

}  // namespace torchabi::source::checks
