#include "analyzers/runtime/driver/event_findings.h"

namespace torchabi::runtime_driver {
namespace {

using runtime::EventKind;

struct RuleFor {
  const char* rule;
  const char* help;
};

RuleFor rule_for(EventKind k) {
  switch (k) {
    case EventKind::Unimplemented:
      return {"runtime-unimplemented-shim",
              "the reference runtime cannot vouch for this path; test it against a real PyTorch build, or use a "
              "stable API the runtime implements"};
    case EventKind::DoubleRelease:
      return {"runtime-handle-double-free",
              "release each handle exactly once: a torch::stable::Tensor (or to<Tensor>) owns the handle it wraps, so "
              "do not also call aoti_torch_delete_tensor_object on it"};
    case EventKind::UseAfterRelease:
      return {"runtime-handle-use-after-free",
              "keep the owning torch::stable::Tensor alive while its handle is used; take a new reference with "
              "aoti_torch_new_tensor_handle if the handle must outlive it"};
    case EventKind::InvalidHandle:
      return {"runtime-invalid-handle",
              "pass only handles the shim returned; read stack slots with to<T>() of the schema's type, and only "
              "slots below num_args"};
    case EventKind::Registration:
      return {"runtime-bad-registration",
              "register each namespace with one STABLE_TORCH_LIBRARY and add further ops with "
              "STABLE_TORCH_LIBRARY_FRAGMENT; define ops only in def/fragment blocks"};
    case EventKind::MissingReturn:
      return {"runtime-missing-return",
              "write every return of the schema into the stack (stack[i] = from(result_i)) before the kernel returns"};
    case EventKind::ExtraReturn:
      return {"runtime-extra-return",
              "write exactly num_outputs returns, or fix the schema so it declares every value the kernel returns"};
    case EventKind::ReturnType:
      return {"runtime-return-type",
              "convert each return with from() of the C++ type the schema's return type maps to (Tensor -> "
              "torch::stable::Tensor, int -> int64_t, T? -> std::optional<T>, ...)"};
    case EventKind::Leak:
      return {"runtime-handle-leak",
              "wrap every handle in a torch::stable::Tensor (or release it with aoti_torch_delete_tensor_object), and "
              "take ownership of every input with to<T>(stack[i])"};
    case EventKind::InplaceAlias:
      return {"runtime-inplace-alias",
              "an op whose schema returns Tensor(a!) must return the very tensor it mutated (return self), not a new "
              "one; otherwise drop the alias annotation from the return"};
    case EventKind::Unconvertible:
      return {"runtime-unconvertible-type",
              "use a schema type with a StableIValue conversion (float or Tensor instead of Scalar, ...)"};
    default: return {"", ""};
  }
}

}  // namespace

EventFindings findings_from_events(const std::vector<runtime::Event>& events, const std::string& op,
                                   const std::string& context) {
  EventFindings out;
  for (const auto& e : events) {
    std::string times = e.count > 1 ? " (" + std::to_string(e.count) + " times)" : "";
    if (e.kind == EventKind::ShimError) {
      out.shim_errors.push_back(e.detail + times);
      continue;
    }
    if (e.kind == EventKind::Warning) {
      out.warnings.push_back(e.detail);
      continue;
    }
    RuleFor r = rule_for(e.kind);
    ProtoFinding f;
    f.rule = r.rule;
    f.help = r.help;
    f.op = op;
    bool protocol = e.kind == EventKind::MissingReturn || e.kind == EventKind::ExtraReturn ||
                    e.kind == EventKind::ReturnType || e.kind == EventKind::Leak ||
                    e.kind == EventKind::InplaceAlias || e.kind == EventKind::Unconvertible;
    if (protocol) f.message = context + e.function + ": " + e.detail + times;
    else if (e.kind == EventKind::Unimplemented) f.message = context + e.detail + times;
    else f.message = context + e.detail + " (in " + e.function + ")" + times;
    out.findings.push_back(std::move(f));
  }
  return out;
}

}  // namespace torchabi::runtime_driver
