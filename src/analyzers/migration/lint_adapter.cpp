#include "analyzers/migration/lint_adapter.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "analyzers/migration/call_rewrite_check.h"
#include "analyzers/migration/directive_scanner.h"
#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/include_graph.h"
#include "analyzers/migration/legacy_type_check.h"
#include "analyzers/migration/options_factory_check.h"
#include "analyzers/migration/pybind_port_check.h"
#include "analyzers/migration/registration_scan.h"
#include "analyzers/migration/stable_ops_check.h"
#include "common/input_error.h"
#include "findings/note_prefixes.h"

namespace torchabi::migration {

namespace {

constexpr const char* kApi = "source-unstable-api";
constexpr const char* kMacro = "source-unstable-macro";
constexpr const char* kInclude = "source-unstable-include";

// rules/api/migration_gaps.yaml's entry for ATen operators called by name.
constexpr const char* kAtenByName = "aten-op-by-name";

constexpr const char* kNoEntry =
    "No direct stable replacement is recorded: write it with the torch::stable ops, or call the ATen operator "
    "through torch_call_dispatcher (2.10).";

// Macro definition ranges per file, read once.
class MacroRanges {
public:
  // Inside a #define that --fix leaves to the user (macro_definitions_editable).
  bool inside(const findings::FixIt& f) {
    if (macro_definitions_editable(normal_path(f.file))) return false;
    return within_definition(f);
  }
  bool within_definition(const findings::FixIt& f) {
    for (const auto& r : file(f.file).ranges)
      if (r.overlaps(f.begin_offset, f.end_offset)) return true;
    return false;
  }

  // Where a fix-it starts, as a finding location.
  findings::Location location_of(const findings::FixIt& f) {
    const std::string& text = file(f.file).text;
    findings::Location l;
    l.file = f.file;
    const size_t end = std::min<size_t>(f.begin_offset, text.size());
    l.line = 1 + uint32_t(std::count(text.begin(), text.begin() + long(end), '\n'));
    const size_t nl = text.rfind('\n', end == 0 ? 0 : end - 1);
    l.column = uint32_t(end - (nl == std::string::npos || end == 0 ? 0 : nl + 1)) + 1;
    return l;
  }

  // Whether an operator schema of `file` (a string literal in a library
  // block) takes a Scalar: `Scalar alpha`, `Scalar? max`.
  bool schema_takes_scalar(const std::string& file_name) {
    const std::string& text = file(file_name).text;
    for (const auto& b : scan_code_blocks(text)) {
      if (!b.is_library()) continue;
      size_t at = 0;
      for (uint32_t line = 1; line < b.begin_line && at != std::string::npos; ++line) at = text.find('\n', at) + 1;
      for (uint32_t line = b.begin_line; line <= b.end_line && at < text.size(); ++line) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view l(text.data() + at, end - at);
        for (size_t p = l.find("Scalar"); p != std::string_view::npos; p = l.find("Scalar", p + 1)) {
          const bool starts = p > 0 && (l[p - 1] == '(' || l[p - 1] == ' ' || l[p - 1] == ',');
          size_t q = p + 6;
          if (q < l.size() && l[q] == '?') ++q;
          if (starts && q < l.size() && l[q] == ' ' && l.substr(0, p).find('"') != std::string_view::npos) return true;
        }
        at = end + 1;
      }
    }
    return false;
  }

  // Whether `name` is written as a whole identifier anywhere in `file`.
  bool writes(const std::string& file_name, std::string_view name) {
    const std::string& text = file(file_name).text;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t p = name.empty() ? std::string::npos : text.find(name); p != std::string::npos; p = text.find(name, p + 1))
      if ((p == 0 || !ident(text[p - 1])) && (p + name.size() >= text.size() || !ident(text[p + name.size()])))
        return true;
    return false;
  }

private:
  struct File {
    std::string text;
    std::vector<ByteRange> ranges;
  };
  const File& file(const std::string& name) {
    const std::string path = normal_path(name);
    auto it = cache_.find(path);
    if (it == cache_.end()) {
      File f;
      try {
        f.text = read_source_file(path);
        f.ranges = scan_directives(f.text).macro_definitions;
      } catch (const InputError&) {
      }
      it = cache_.emplace(path, std::move(f)).first;
    }
    return it->second;
  }
  std::map<std::string, File> cache_;
};

// A torch macro used in a project macro is reported at each expansion of the
// project macro, with the fix-it in the project macro's #define: the work is
// that one edit, so the use counts once, at the definition.
findings::Location use_location(const findings::Finding& f, MacroRanges& macros) {
  if (f.rule != kMacro || !f.fix || !macros.within_definition(*f.fix)) return f.location;
  findings::Location l = macros.location_of(*f.fix);
  if (normal_path(l.file) == normal_path(f.location.file) && l.line == f.location.line) return f.location;
  l.symbol = f.location.symbol;
  return l;
}

// What a torch macro expands to is not an API of its own: the
// c10::detail::torchCheckFail that a TORCH_CHECK written inside another
// macro's argument shows up with is that TORCH_CHECK use, and goes with its
// replacement, whatever helpers a release's expansion calls (2.14's
// TORCH_CHECK_EQ: c10::MessageLogger). So is the expansion of a torch macro
// the rules do not know: the user wrote the macro, and porting it is the work.
// Such a use is reported at the macro's name, where a name of its own cannot
// be written.
//
// A project macro written inside another macro's arguments
// (DISPATCH_WTYPE(...) in the lambda of DISPATCH_ITYPE(...)) brings what the
// torch macros of its #define expand to (AT_ERROR: torchCheckFail, c10::str)
// to its own name; the torch macro is counted at the #define. There, at
// `expansion_at`, only names the file never writes fold: `using t = at::Half`
// in the #define is a use of its own.
using Places = std::set<std::tuple<std::string, uint32_t, uint32_t, std::string>>;
void fold_into_macros(std::vector<ApiUse>& uses, const Places& known_macro_at, const Places& expansion_at,
                      MacroRanges& macros) {
  if (known_macro_at.empty() && expansion_at.empty()) return;
  auto at = [](const Places& places, const ApiUse& u, const std::string& file) {
    auto it = places.lower_bound(std::make_tuple(file, u.location.line, u.location.column, std::string()));
    for (; it != places.end() && std::get<0>(*it) == file && std::get<1>(*it) == u.location.line &&
           std::get<2>(*it) == u.location.column;
         ++it)
      if (std::get<3>(*it) != u.api) return true;
    return false;
  };
  std::erase_if(uses, [&](const ApiUse& u) {
    if (u.is_include) return false;
    const std::string file = normal_path(u.location.file);
    if (at(known_macro_at, u, file)) return true;
    if (!at(expansion_at, u, file)) return false;
    std::string_view name = u.api;
    if (const size_t p = name.rfind("::"); p != std::string_view::npos) name.remove_prefix(p + 2);
    if (name.starts_with("operator")) return false;  // `a == b` in the #define is written there
    return !macros.writes(u.location.file, name);
  });
}

}  // namespace

bool is_migration_rule(const std::string& rule) { return rule == kApi || rule == kMacro || rule == kInclude; }

std::string tensor_member_name(const std::string& api, const source::Replacements& replacements) {
  static constexpr std::string_view kSpelled = "torch::Tensor::";
  if (!api.starts_with(kSpelled)) return api;
  const std::string member = api.substr(kSpelled.size());
  for (const char* cls : {"at::Tensor::", "at::TensorBase::"})
    if (replacements.find(cls + member)) return cls + member;
  return "at::Tensor::" + member;
}

std::vector<ApiUse> uses_from_lint(const findings::Report& report, const source::Replacements& replacements,
                                   const BlockerCatalog& blockers, const MigrationRewrites& rewrites,
                                   const AtenFallback* aten) {
  // One finding per place and API, preferring one that carries a fix-it.
  // Notes are not uses (an unstable macro defined but never expanded), but
  // for the uses lint makes notes because an unstable include broke the
  // parse: a file half-way through its port includes both, and every use
  // of it still has to be ported (a second plan must count what the first did).
  MacroRanges macros;
  std::map<std::tuple<std::string, uint32_t, uint32_t, std::string>, std::pair<const findings::Finding*, findings::Location>>
      chosen;
  for (const auto& f : report.findings) {
    const bool demoted = f.message.find(findings::kRestsOnBrokenParse) != std::string::npos;
    if (!is_migration_rule(f.rule) || f.location.symbol.empty() || (f.severity == findings::Severity::Note && !demoted))
      continue;
    const findings::Location where = use_location(f, macros);
    auto key = std::make_tuple(normal_path(where.file), where.line, where.column, where.symbol);
    auto [it, fresh] = chosen.emplace(key, std::make_pair(&f, where));
    // Prefer a fix-it, then migrate's own verdict that a call needs a human.
    if (!fresh && !it->second.first->fix && (f.fix || f.message.starts_with(kDefNeedsHuman))) it->second.first = &f;
  }
  std::vector<ApiUse> uses;
  Places known_macro_at;  // (place, macro)
  Places expansion_at;    // where a torch macro of a project #define was expanded, (place, macro)
  for (const auto& [_, chosen_use] : chosen) {
    const findings::Finding& f = *chosen_use.first;
    ApiUse u;
    u.api = f.location.symbol;
    u.location = chosen_use.second;
    u.is_include = f.rule == kInclude;
    // Includes are rewritten by the header pass of --fix (header_rewrite.h),
    // which knows what the rewritten file needs; lint's one-for-one swap is not used.
    if (!u.is_include) {
      u.fix = f.fix;
      u.fallback_fix = f.fallback_fix;
    }
    const std::string_view kind = f.rule == kMacro ? "macro" : u.is_include ? "header" : "";
    // `a - b` is looked up as the function it calls (at::sub).
    const std::string member = kind.empty() ? tensor_member_name(u.api, replacements) : u.api;
    const std::string named = aten && kind.empty() ? aten->named_function(member) : std::string();
    const std::string& lookup = named.empty() ? member : named;
    const auto match = replacements.find(lookup, kind);
    const Blocker* blocker = u.is_include ? nullptr : blockers.match(lookup);
    const BoxedRegistration* box = u.fix ? rewrites.boxed_for(u.api) : nullptr;
    const TemplatedMethodRename* renamed = u.fix ? rewrites.templated_for(u.api) : nullptr;
    const DefWithKernel* split = rewrites.def_with_kernel_for(u.api);
    const bool needs_human = !u.fix && f.message.starts_with(kDefNeedsHuman);
    if (!u.fix && !needs_human) split = nullptr;
    const bool same_method = match && match->entry->style == source::ReplacementStyle::SameMethod;
    if (const FollowRule* rule = u.fix || u.is_include || needs_human ? nullptr : rewrites.follow_for(u.api, same_method)) {
      u.follows = rule->after;
      if (!rule->note.empty()) u.note = rule->note;
    }
    // `auto s = torch::sigmoid(z)`: a variable whose deduced type is the legacy
    // tensor needs no edit; it becomes a torch::stable::Tensor with the calls
    // of its file (the tensor type's rewrite goes in only when they all do).
    if (!u.fix && u.follows.empty() && (u.api == "at::Tensor" || u.api == "torch::Tensor") &&
        f.message.find("has the deduced type") != std::string::npos) {
      u.follows = {"at::Tensor", "torch::Tensor"};
      u.note = "The variable's type is deduced: it becomes torch::stable::Tensor once the calls of its file are rewritten.";
    }
    if (auto key = u.fix ? stable_ops_key(f.message) : std::nullopt) {
      // An ATen call rewritten to the project's stable_ops.h helper: a change
      // of what is called (the dispatcher, or a composition), so it is reviewed.
      u.stable_op = *key;
      u.replacement = u.fix->replacement.substr(0, u.fix->replacement.find('('));
      u.header = "\"stable_ops.h\"";
      u.since = u.fix->needs;
      u.note = f.help;
      u.disposition = Disposition::FixableUnsafe;
    } else if (u.fix && f.message.starts_with(kLegacyTypeCall)) {
      // `x.type().is_cuda()` -> `x.is_cuda()`: the stable tensor's own method.
      // "x.is_cuda()" -> "torch::stable::Tensor::is_cuda"
      const std::string& call = u.fix->replacement;
      const size_t dot = call.rfind('.'), paren = call.rfind('(');
      u.replacement = dot == std::string::npos || paren < dot ? call
                                                              : "torch::stable::Tensor::" + call.substr(dot + 1, paren - dot - 1);
      u.header = "torch/csrc/stable/tensor.h";
      u.since = u.fix->needs;
      u.note = f.help;
      u.disposition = Disposition::Fixable;
    } else if (u.fix && f.message.starts_with(kOptionsFactory)) {
      // `torch::empty(sizes, x.options())` -> `torch::stable::new_empty(x, sizes)`.
      const std::string& call = u.fix->replacement;
      u.replacement = call.substr(0, call.find('('));
      u.header = "torch/csrc/stable/ops.h";
      u.since = u.fix->needs;
      u.note = f.help;
      u.disposition = u.fix->safety == findings::FixSafety::Safe ? Disposition::Fixable : Disposition::FixableUnsafe;
    } else if (u.fix && f.message.starts_with(kDroppedCall)) {
      // A registration call a stable library does without: the statement goes.
      u.replacement = "(removed)";
      u.note = f.help;
      u.since = u.fix->needs;
      u.disposition = u.fix->safety == findings::FixSafety::Safe ? Disposition::Fixable : Disposition::FixableUnsafe;
    } else if (u.fix && f.message.starts_with(kPybindImportOnly)) {
      // An empty pybind11 module: its PyInit written with Python's C API.
      u.replacement = "PyModule_Create";
      u.header = "<Python.h>";
      u.since = u.fix->needs;
      u.note = f.help;
      u.disposition = Disposition::FixableUnsafe;
    } else if (u.fix && f.message.starts_with(kPybindPort)) {
      // A pybind11 module of functions on tensors, registered as stable operators.
      u.replacement = "STABLE_TORCH_LIBRARY";
      // Kept for when the port has to wait (settle_dependent_fixes): then it is that blocker again.
      if (blocker) u.blocker = blocker->id;
      u.header = "torch/csrc/stable/library.h";
      u.since = u.fix->needs;
      u.note = f.help;
      u.disposition = Disposition::FixableUnsafe;
    } else if (box) {
      u.replacement = box->wrap;
      u.header = box->header;
      u.since = box->since;
      u.note = box->note;
      u.disposition = box->safe ? Disposition::Fixable : Disposition::FixableUnsafe;
    } else if (renamed) {
      u.replacement = renamed->replacement;
      u.header = renamed->header;
      u.since = renamed->since;
      u.note = renamed->note;
      u.disposition = renamed->safe ? Disposition::Fixable : Disposition::FixableUnsafe;
    } else if (split) {
      u.replacement = split->wrap;
      u.header = split->header;
      u.since = split->since;
      u.note = needs_human ? split->manual_note : split->note;
      u.disposition = needs_human ? Disposition::Manual
                      : split->safe ? Disposition::Fixable
                                    : Disposition::FixableUnsafe;
    } else if (match && match->replacement) {
      // x.size(0) on a tensor that becomes stable: no edit of its own. (A
      // templated data_ptr<T>() is not: the rewrite rules above took it.)
      u.unchanged = same_method;
      u.replacement = *match->replacement;
      u.header = match->entry->header;
      u.since = match->entry->since;
      u.note = match->entry->note;
      if (!u.fix) u.disposition = Disposition::Manual;
      else if (macros.inside(*u.fix)) {
        u.disposition = Disposition::Manual;
        u.note = "Inside a macro definition: rewrite it by hand. " + u.note;
      } else {
        u.disposition = u.fix->safety == findings::FixSafety::Safe ? Disposition::Fixable : Disposition::FixableUnsafe;
      }
    } else if (blocker) {
      u.disposition = Disposition::Blocked;
      u.blocker = blocker->id;
      u.note = blocker->workaround;
    } else if (match && !u.is_include) {
      u.disposition = Disposition::Blocked;
      u.note = match->entry->note;
    } else if (auto call = aten && kind.empty() ? aten->dispatcher_call(member) : std::nullopt;
               call && blockers.find(kAtenByName)) {
      u.disposition = Disposition::Blocked;
      u.blocker = kAtenByName;
      u.note = AtenFallback::workaround(*call);
    } else if (const BoxedRegistration* boxed = u.is_include ? nullptr : rewrites.boxed_for(u.api)) {
      // A registration overload a release added (2.x's templated impl) that
      // carries no fix-it still has the boxed registration as its replacement.
      u.replacement = boxed->wrap;
      u.header = boxed->header;
      u.since = boxed->since;
      u.note = boxed->note;
      u.disposition = Disposition::Manual;
    } else {
      u.disposition = Disposition::Manual;
      u.note = match ? match->entry->note : u.is_include ? f.help : kNoEntry;
    }
    if ((box || renamed || (split && !needs_human)) && macros.inside(*u.fix)) {
      u.disposition = Disposition::Manual;
      u.note = "Inside a macro definition: rewrite it by hand. " + u.note;
    }
    // A written operator found through the function it calls has that
    // function's replacement: lint's help (no replacement for the operator) does not apply.
    if (u.note.empty())
      u.note = !named.empty() && !u.replacement.empty()
                   ? "Call " + u.replacement + (u.header.empty() ? "" : " (" + u.header + ")") + " as the operator calls " +
                         named + "."
                   : f.help;
    if (!named.empty() && !u.replacement.empty()) u.note = "Calls " + named + ". " + u.note;
    if (f.rule == kMacro) {
      known_macro_at.emplace(normal_path(u.location.file), u.location.line, u.location.column, u.api);
      if (u.location.line != f.location.line || u.location.column != f.location.column)
        expansion_at.emplace(normal_path(f.location.file), f.location.line, f.location.column, u.api);
    }
    uses.push_back(std::move(u));
  }
  fold_into_macros(uses, known_macro_at, expansion_at, macros);

  // Uses a rewritten macro produced at its own place follow that macro.
  std::map<std::tuple<std::string, uint32_t, uint32_t>, std::string> macro_fix_at;
  for (const auto& u : uses)
    if (u.fix && !u.is_include && !u.replacement.empty())
      macro_fix_at.emplace(std::make_tuple(normal_path(u.location.file), u.location.line, u.location.column), u.api);
  for (auto& u : uses) {
    if (u.fix || u.is_include || !u.follows.empty()) continue;
    auto it = macro_fix_at.find(std::make_tuple(normal_path(u.location.file), u.location.line, u.location.column));
    if (it != macro_fix_at.end() && it->second != u.api) {
      u.follows = {it->second};
      u.note = "Produced by " + it->second + " here; it goes when that is rewritten.";
    }
  }
  // A Scalar in an operator schema of the file: no StableIValue carries one,
  // so neither the schema nor its kernel's parameter can just become a double
  // by a rewrite of the C++ type; the file's Scalar uses stay the blocker.
  if (const Blocker* scalar = blockers.find("scalar"))
    for (auto& u : uses)
      if ((u.api == "c10::Scalar" || u.api == "at::Scalar") && u.fix && macros.schema_takes_scalar(u.location.file)) {
        u.fix.reset();
        u.fallback_fix.reset();
        u.replacement.clear();
        u.disposition = Disposition::Blocked;
        u.blocker = scalar->id;
        u.note = scalar->workaround;
      }
  settle_dependent_fixes(uses, rewrites);
  return uses;
}

void settle_dependent_fixes(std::vector<ApiUse>& uses, const MigrationRewrites& rewrites) {
  // A legacy function or tensor method that stays (no stable spelling) stops
  // the tensor type's rewrite in its file: called with a torch::stable::Tensor
  // it would not compile, and the compile check of --fix would refuse the
  // whole file anyway. Conservative: a call that takes no tensor stops it too.
  auto is_call = [](const std::string& api) {
    const size_t p = api.rfind("::");
    return p != std::string::npos && p + 2 < api.size() && std::islower(static_cast<unsigned char>(api[p + 2])) &&
           (api.starts_with("at::") || api.starts_with("c10::") || api.starts_with("torch::"));
  };
  std::set<std::string> tensor_stays;
  for (const auto& u : uses)
    if (!u.fix && u.follows.empty() && !u.is_include &&
        (u.disposition == Disposition::Manual || u.disposition == Disposition::Blocked) && is_call(u.api))
      tensor_stays.insert(normal_path(u.location.file));
  for (auto& u : uses) {
    if (!u.fix || !tensor_stays.count(normal_path(u.location.file))) continue;
    // The tensor type, the stable ops and member renames that only take a
    // stable tensor, and the TORCH_BOX wraps (a kernel taking at::Tensor cannot be boxed).
    // (Also the stable_ops.h helpers, which take stable tensors, and the
    // pybind11 module's port, whose TORCH_BOX needs kernels on stable tensors.)
    if (!u.replacement.starts_with("torch::stable::") && !rewrites.templated_for(u.api) &&
        !rewrites.boxed_for(u.api) && !rewrites.def_with_kernel_for(u.api) && u.stable_op.empty() &&
        u.replacement != "STABLE_TORCH_LIBRARY")
      continue;
    u.fix.reset();
    u.fallback_fix.reset();
    u.disposition = u.blocker.empty() ? Disposition::Manual : Disposition::Blocked;
    u.note = "Waits for the legacy calls in this file that have no stable spelling (they would not compile on a torch::stable::Tensor). " + u.note;
  }

  // A definition that needs a human keeps its library block legacy (the
  // stable library has no def(schema, kernel)), and with it the other
  // definitions of the file: their split only compiles in a stable block.
  std::set<std::string> def_blocks_stay;
  // So does any other registration call that stays (m.class_<T>: TorchBind).
  for (const auto& u : uses)
    if ((u.disposition == Disposition::Manual || u.disposition == Disposition::Blocked) && !u.fix &&
        u.follows.empty() && (u.api.starts_with("torch::Library::") || u.api.starts_with("torch::class_")))
      def_blocks_stay.insert(normal_path(u.location.file));
  if (const FollowRule* block = def_blocks_stay.empty() ? nullptr : rewrites.follow_for("torch::Library::def", false)) {
    for (auto& u : uses) {
      if (!u.fix || !def_blocks_stay.count(normal_path(u.location.file))) continue;
      const bool is_block = std::find(block->after.begin(), block->after.end(), u.api) != block->after.end();
      if (!is_block && !rewrites.def_with_kernel_for(u.api)) continue;
      u.fix.reset();
      u.fallback_fix.reset();
      u.disposition = Disposition::Manual;
      u.note = "Waits for a registration in this file that cannot be rewritten mechanically. " + u.note;
    }
  }

  // A follower counts as the best rewrite it follows in its file.
  std::map<std::pair<std::string, std::string>, Disposition> trigger;  // (file, api) -> best disposition
  for (const auto& u : uses) {
    if (u.disposition != Disposition::Fixable && u.disposition != Disposition::FixableUnsafe) continue;
    auto key = std::make_pair(normal_path(u.location.file), u.api);
    auto [it, fresh] = trigger.emplace(key, u.disposition);
    if (!fresh && u.disposition == Disposition::Fixable) it->second = Disposition::Fixable;
  }
  for (auto& u : uses) {
    if (u.follows.empty() || u.disposition == Disposition::Blocked) continue;
    std::optional<Disposition> best;
    for (const auto& t : u.follows) {
      auto it = trigger.find(std::make_pair(normal_path(u.location.file), t));
      if (it != trigger.end() && (!best || it->second == Disposition::Fixable)) best = it->second;
    }
    if (best) u.disposition = *best;
    else if (u.disposition == Disposition::Fixable || u.disposition == Disposition::FixableUnsafe)
      u.disposition = Disposition::Manual;  // what it followed lost its fix-it
  }

}

void settle_includes(std::vector<ApiUse>& uses, const IncludeGraph& graph) {
  static const std::string kIncludeGoes = "--fix replaces it with the stable headers the rewritten file uses.";
  std::set<std::string> keeps_legacy;  // files with a use --fix leaves behind
  std::set<std::string> unsafe;        // files with a use only --unsafe-fixes rewrites
  for (const auto& u : uses) {
    if (u.is_include) continue;
    if (u.disposition == Disposition::FixableUnsafe) unsafe.insert(normal_path(u.location.file));
    else if (u.disposition != Disposition::Fixable) keeps_legacy.insert(normal_path(u.location.file));
  }
  std::map<std::string, std::set<std::string>> included_by;
  for (const auto& [from, tos] : graph)
    for (const auto& to : tos) included_by[to].insert(from);
  // Whether the file or a project file including it keeps a legacy use
  // (`among` = keeps_legacy), or one that needs --unsafe-fixes (`among` = unsafe).
  auto reached = [&](const std::string& file, const std::set<std::string>& among) {
    std::set<std::string> seen{file};
    std::vector<std::string> stack{file};
    while (!stack.empty()) {
      const std::string cur = stack.back();
      stack.pop_back();
      if (among.count(cur)) return true;
      for (const auto& up : included_by[cur])
        if (seen.insert(up).second) stack.push_back(up);
    }
    return false;
  };
  for (auto& u : uses) {
    if (!u.is_include || u.fix || u.disposition == Disposition::Blocked) continue;
    const std::string file = normal_path(u.location.file);
    if (!reached(file, keeps_legacy)) {
      // It goes with the last rewrite of its file: with --unsafe-fixes when one needs it.
      u.disposition = reached(file, unsafe) ? Disposition::FixableUnsafe : Disposition::Fixable;
      u.note = kIncludeGoes;
    } else {
      u.disposition = Disposition::Manual;
      if (u.note.empty() || u.note == kIncludeGoes) u.note = "Stays until the other legacy uses of this file and its includers are gone.";
    }
  }
}

}  // namespace torchabi::migration
