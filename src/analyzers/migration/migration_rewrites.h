// What --fix knows beyond lint's fix-its, read from
// rules/api/migration_rewrites.yaml:
//
// - boxed registrations: `m.impl("op", &kernel)` becomes
//   `m.impl("op", TORCH_BOX(&kernel))`, so that together with lint's
//   TORCH_LIBRARY_IMPL -> STABLE_TORCH_LIBRARY_IMPL rewrite the block
//   registers boxed kernels. Lint reports the call but has no fix for it: the
//   rewrite wraps an argument rather than renaming a name.
// - call rewrites (call_rewrite_check.h): member templates renamed on the
//   stable class (`x.data_ptr<T>()` -> `x.mutable_data_ptr<T>()`), legacy
//   `m.def(schema, &kernel)` split into `m.def(schema).impl(name,
//   TORCH_BOX(&kernel))`, and method-to-function calls whose defaulted
//   arguments lint cannot slice (`x.contiguous()`).
// - follow rules: uses that need no edit of their own because another rewrite
//   in the same file makes them stable (`x.dim()` once x is a
//   torch::stable::Tensor; `m.def(...)` once the block is STABLE_TORCH_LIBRARY).
// - dropped calls: registration calls a stable library does without
//   (`m.impl_abstract_pystub(...)`), removed with their statement.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

struct BoxedRegistration {
  std::string method;  // "torch::Library::impl"
  std::string wrap;    // "TORCH_BOX"
  std::string header;
  std::optional<TorchVersion> since;
  bool safe = false;
  std::string note;
};

// A member template whose stable class spells it differently; only calls
// written with explicit template arguments are rewritten (the plain call has
// the same name on the stable class).
struct TemplatedMethodRename {
  std::vector<std::string> methods;  // legacy qualified names
  std::string rename;                // the new member name
  std::string replacement;           // shown in the plan
  std::string header;
  std::optional<TorchVersion> since;
  bool safe = false;
  std::string note;
  // The same call for an older release, written from the call's text: $CALLEE
  // is everything up to the member's name (`x.data_ptr`, `p->data_ptr`), $T
  // the template arguments: "static_cast<$T*>($CALLEE())".
  std::string older_form;
  std::optional<TorchVersion> older_since;
  // renamed_methods: every call is renamed, with or without template arguments.
  bool plain = false;
};

// `m.def("op(...) -> ...", &kernel)`: the schema plus a catch-all kernel.
// Rewritten as `m.def("op(...) -> ...").impl("op", WRAP(&kernel))`: the
// stable library's impl() without a dispatch key registers the same catch-all
// kernel the legacy overload did.
struct DefWithKernel {
  std::string method;  // "torch::Library::def"
  std::string impl;    // "impl"
  std::string wrap;    // "TORCH_BOX"
  std::string header;
  std::optional<TorchVersion> since;
  bool safe = false;
  std::string note;
  std::string manual_note;  // shown when the call is not mechanical (a lambda, a computed schema)
};

// A registration call the stable library has no counterpart for and that a
// stable extension does without (`m.impl_abstract_pystub("pkg.ops")`: where
// the fake kernels live; the Python package imports that module itself): the
// statement is removed.
struct DroppedCall {
  std::vector<std::string> methods;  // legacy qualified names
  bool safe = false;
  std::string note;  // what the user does instead
};

// `factory(sizes, x.options())`: the stable factory of another tensor
// (options_factory_check.h).
struct OptionsFactory {
  std::vector<std::string> factories;  // at::empty, torch::empty
  std::string replacement;             // torch::stable::new_empty
  std::string header;
  std::optional<TorchVersion> since;
  bool safe = false;
  std::string note;
};

struct FollowRule {
  std::vector<std::string> apis;   // names; a trailing "*" matches any suffix
  bool same_method = false;        // also every replacements.yaml entry of style same-method
  std::vector<std::string> after;  // the rewrites (legacy API names) that make them stable
  std::string note;
};

struct MigrationRewrites {
  std::vector<BoxedRegistration> boxed;
  std::vector<FollowRule> follows;
  std::vector<TemplatedMethodRename> templated;
  std::vector<DefWithKernel> def_with_kernel;
  std::vector<DroppedCall> dropped;
  std::vector<OptionsFactory> options_factories;

  static MigrationRewrites load(const inputs::RulesSource& src);
  static MigrationRewrites parse(std::string_view yaml, const std::string& where);

  const BoxedRegistration* boxed_for(std::string_view method) const;
  const TemplatedMethodRename* templated_for(std::string_view method) const;
  const DefWithKernel* def_with_kernel_for(std::string_view method) const;
  const DroppedCall* dropped_for(std::string_view method) const;
  // The rule a use of `api` follows, if any; `same_method` says whether its
  // replacements.yaml entry has style same-method.
  const FollowRule* follow_for(std::string_view api, bool same_method) const;
};

// Adds to every lint run in this process a check that reports each boxed
// registration call (rule source-unstable-api, like lint's own finding for
// it) with the fix-it that wraps its kernel argument.
void register_boxed_registration_check(std::vector<BoxedRegistration> rules);

}  // namespace torchabi::migration
