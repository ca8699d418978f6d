#include "analyzers/migration/call_rewrite_check.h"

#include <cctype>
#include <optional>

#include "analyzers/source/tu_check.h"
#include "findings/replacement_builder.h"

namespace torchabi::migration {

namespace {

using source::Range;
using source::Reference;

bool written_in(const Range& arg, const Range& call) {
  return arg.valid() && arg.file == call.file && arg.end > arg.begin && arg.begin >= call.begin && arg.end <= call.end;
}

std::string slice(std::string_view text, const Range& r) { return std::string(text.substr(r.begin, r.end - r.begin)); }

// A (qualified) C++ name; with `overload`, also an operator name such as "ns::op.out".
bool is_name(std::string_view s, bool overload = false) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ':' && !(overload && c == '.')) return false;
  return true;
}

findings::Finding finding_at(const Reference& r, std::string message) {
  findings::Finding f;
  f.rule = "source-unstable-api";
  f.location = source::location_of(r.qualified_range.valid() ? r.qualified_range : r.range);
  f.location.symbol = r.qualified;
  f.message = std::move(message);
  return f;
}

class CallRewriteCheck final : public source::TuCheck {
public:
  explicit CallRewriteCheck(MigrationRewrites rules) : rules_(std::move(rules)) {}

  void run(source::CheckContext& ctx) override {
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const Reference& r = *ref;
      if (r.via != source::Via::Spelled || !r.range.valid()) continue;
      const std::string_view text = ctx.tu.file_text(r.range.file);
      if (r.range.end > text.size()) continue;
      if (const auto* t = rules_.templated_for(r.qualified)) templated(ctx, r, text, *t);
      else if (const auto* d = rules_.def_with_kernel_for(r.qualified)) def_with_kernel(ctx, r, text, *d);
      else if (const auto* dc = rules_.dropped_for(r.qualified)) dropped(ctx, r, text, *dc);
      else if (cls == source::ApiClass::Unstable) defaulted_arguments(ctx, r, text);
    }
  }

private:
  // `m.impl_abstract_pystub("pkg.ops");` on a line of its own: the line goes.
  static void dropped(source::CheckContext& ctx, const Reference& r, std::string_view text, const DroppedCall& d) {
    if (!r.call_range.valid() || r.call_range.file != r.range.file || r.call_range.end > text.size()) return;
    size_t end = r.call_range.end;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
    if (end >= text.size() || text[end] != ';') return;  // part of a larger expression
    ++end;
    size_t begin = r.call_range.begin;
    while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
    size_t after = end;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    const bool own_line = (begin == 0 || text[begin - 1] == '\n') && (after >= text.size() || text[after] == '\n');
    if (own_line) end = after < text.size() ? after + 1 : after;
    else begin = r.call_range.begin;
    Range edit = r.call_range;
    edit.begin = static_cast<uint32_t>(begin);
    edit.end = static_cast<uint32_t>(end);
    auto f = finding_at(r, std::string(kDroppedCall) + r.qualified);
    f.help = "Remove the call. " + d.note;
    f.fix = source::make_fix(edit, "", d.safe, "remove `" + slice(text, r.call_range) + ";`");
    f.fix->needs = TorchVersion::parse_dotted("2.9");
    ctx.report(std::move(f));
  }

  // `x.data_ptr<T>()` -> `x.mutable_data_ptr<T>()`: only the member name changes.
  static void templated(source::CheckContext& ctx, const Reference& r, std::string_view text,
                        const TemplatedMethodRename& t) {
    size_t p = r.range.end;
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    const bool with_arguments = p < text.size() && text[p] == '<';
    if (!with_arguments && !t.plain) return;  // the plain call keeps its name
    const std::string written = slice(text, r.range);
    const std::string args = with_arguments ? "<...>" : "";
    // (A message of its own: lint's finding for the same name, without the fix-it, says "method X".)
    auto f = finding_at(r, with_arguments ? "uses unstable PyTorch API: method template " + r.qualified
                                          : "uses unstable PyTorch API: method " + r.qualified + ", named " + t.rename +
                                                " on the stable tensor");
    f.help = "Call " + t.rename + args + "() on a torch::stable::Tensor" +
             (t.since ? " (PyTorch " + t.since->str() + "+)" : "") + ". " + t.note;
    f.fix = source::make_fix(r.range, t.rename, t.safe, "rename `" + written + args + "` to `" + t.rename + args + "`");
    f.fix->needs = t.since;
    if (auto older = older_form(r, text, p, t, f.fix->safety == findings::FixSafety::Safe)) {
      f.fallback_fix = std::move(older);
      f.fallback_fix->needs = t.older_since;
    }
    ctx.report(std::move(f));
  }

  // `x.data_ptr<float>()` -> `static_cast<float*>(x.data_ptr())`, built from
  // the text: only a call with no arguments whose template arguments end
  // where `(` starts. `open` is the position of `<`.
  static std::optional<findings::FixIt> older_form(const Reference& r, std::string_view text, size_t open,
                                                   const TemplatedMethodRename& t, bool safe) {
    if (t.older_form.empty() || !r.call_range.valid() || r.call_range.file != r.range.file ||
        r.call_range.end > text.size() || r.call_range.begin > r.range.begin)
      return std::nullopt;
    size_t depth = 0, close = open;
    for (; close < r.call_range.end; ++close) {
      if (text[close] == '<' || text[close] == '(') ++depth;
      else if ((text[close] == '>' || text[close] == ')') && --depth == 0) break;
    }
    if (close >= r.call_range.end || text[close] != '>') return std::nullopt;
    std::string rest;
    for (size_t i = close + 1; i < r.call_range.end; ++i)
      if (!std::isspace(static_cast<unsigned char>(text[i]))) rest += text[i];
    if (rest != "()") return std::nullopt;
    // The callee (`x.contiguous().data_ptr`) is a copy: rewrites inside it compose.
    findings::ReplacementBuilder out(text);
    const std::string& form = t.older_form;
    for (size_t i = 0; i < form.size();) {
      if (form.compare(i, 2, "$T") == 0) {
        out.copy(static_cast<uint32_t>(open + 1), static_cast<uint32_t>(close));
        i += 2;
      } else if (form.compare(i, 7, "$CALLEE") == 0) {
        out.copy(r.call_range.begin, r.range.end);
        i += 7;
      } else {
        out.text(std::string_view(&form[i], 1));
        ++i;
      }
    }
    if (!out.ok()) return std::nullopt;
    return out.fix(r.call_range.file, r.call_range.begin, r.call_range.end, safe,
                   "rewrite `" + slice(text, r.call_range) + "` as `" + out.str() + "`");
  }

  // `m.def("op(...) -> ...", &kernel)` -> `m.def("op(...) -> ...").impl("op", TORCH_BOX(&kernel))`.
  static void def_with_kernel(source::CheckContext& ctx, const Reference& r, std::string_view text,
                              const DefWithKernel& d) {
    if (r.argument_ranges.size() < 2 || !r.call_range.valid() || r.call_range.end > text.size()) return;
    // def(schema) has defaulted parameters (tags, ...): only a written second
    // argument is a kernel.
    const Range& schema = r.argument_ranges[0];
    const Range& kernel = r.argument_ranges[1];
    if (!written_in(kernel, r.call_range)) return;
    auto f = finding_at(r, std::string(kDefNeedsHuman) + r.qualified);
    f.help = d.manual_note;
    // Releases add defaulted parameters after the kernel (2.x: the tags):
    // only written arguments count.
    bool only_two_written = true;
    for (size_t i = 2; i < r.argument_ranges.size(); ++i)
      if (written_in(r.argument_ranges[i], r.call_range)) only_two_written = false;
    if (only_two_written && written_in(schema, r.call_range) && text[r.call_range.end - 1] == ')') {
      const std::string s = slice(text, schema);
      std::string k = slice(text, kernel);
      const bool plain_literal = s.size() >= 2 && s.front() == '"' && s.back() == '"' &&
                                 s.find_first_of("\"\\", 1) == s.size() - 1;
      const std::string op = plain_literal ? s.substr(1, s.find('(') == std::string::npos ? 0 : s.find('(') - 1) : "";
      if (!k.empty() && k.front() == '&') k.erase(0, 1);
      while (!k.empty() && std::isspace(static_cast<unsigned char>(k.front()))) k.erase(0, 1);
      if (is_name(op, true) && is_name(k) && k.rfind(d.wrap, 0) != 0) {
        const std::string replacement = ")." + d.impl + "(\"" + op + "\", " + d.wrap + "(&" + k + "))";
        Range tail = r.call_range;
        tail.begin = schema.end;
        f.message = "defines an operator and registers its unboxed kernel through unstable PyTorch API: method " +
                    r.qualified;
        f.help = "Define the schema and register " + d.wrap + "(&" + k + ") with ." + d.impl + "(\"" + op +
                 "\", ...) in the STABLE_TORCH_LIBRARY block. " + d.note;
        f.fix = source::make_fix(tail, replacement, d.safe,
                                 "split the definition: " + d.impl + "(\"" + op + "\", " + d.wrap + "(&" + k + "))");
      }
    }
    ctx.report(std::move(f));
  }

  // `x.contiguous()` -> `torch::stable::contiguous(x)`: arguments the user did
  // not write (defaulted) are not written out; the stable function has the
  // same defaults. Lint handles calls whose every argument is written.
  static void defaulted_arguments(source::CheckContext& ctx, const Reference& r, std::string_view text) {
    if (!r.call_range.valid() || !r.receiver_range.valid() || r.call_range.end > text.size()) return;
    const auto m = ctx.env.replacements.find(r.qualified);
    if (!m || !m->replacement || m->entry->style != source::ReplacementStyle::MethodToFunction ||
        m->entry->fix == source::ReplacementFix::No)
      return;
    if (!written_in(r.receiver_range, r.call_range)) return;
    size_t written = 0;
    while (written < r.argument_ranges.size() && written_in(r.argument_ranges[written], r.call_range)) ++written;
    if (written == r.argument_ranges.size()) return;  // lint's own fix-it covers it
    for (size_t i = written; i < r.argument_ranges.size(); ++i)
      if (written_in(r.argument_ranges[i], r.call_range)) return;  // not a defaulted tail
    // `p->op()` would need `*p`; left to lint's finding without a fix.
    const std::string_view between = text.substr(r.receiver_range.end, r.range.begin - r.receiver_range.end);
    if (between.find("->") != std::string_view::npos) return;
    findings::ReplacementBuilder built(text);
    built.text(*m->replacement).text("(").copy(r.receiver_range.begin, r.receiver_range.end);
    for (size_t i = 0; i < written; ++i) built.text(", ").copy(r.argument_ranges[i].begin, r.argument_ranges[i].end);
    built.text(")");
    if (!built.ok()) return;
    const std::string& call = built.str();
    // (Lint keeps one finding per place and message: this one's message differs
    // from lint's own so that both reach the adapter, which keeps the fix-it.)
    auto f = finding_at(r, "calls unstable PyTorch API with defaulted arguments: method " + r.qualified);
    f.help = "Call " + call + (m->entry->header.empty() ? "" : " from " + m->entry->header) +
             (m->entry->since ? " (PyTorch " + m->entry->since->str() + "+)" : "") +
             "; the arguments left to their defaults stay unwritten.";
    f.fix = built.fix(r.call_range.file, r.call_range.begin, r.call_range.end,
                      m->entry->fix == source::ReplacementFix::Safe,
                      "rewrite `" + slice(text, r.call_range) + "` as `" + call + "`");
    ctx.report(std::move(f));
  }

  MigrationRewrites rules_;
};

}  // namespace

void register_call_rewrite_check(const MigrationRewrites& rewrites) {
  source::register_tu_check("migrate-call-rewrites", [rules = rewrites] {
    return std::make_unique<CallRewriteCheck>(rules);
  });
}

}  // namespace torchabi::migration
