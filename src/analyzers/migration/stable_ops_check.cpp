#include "analyzers/migration/stable_ops_check.h"

#include <cctype>
#include <set>

#include "analyzers/migration/aten_fallback.h"
#include "analyzers/migration/lint_adapter.h"
#include "analyzers/migration/stable_ops/stable_ops.h"
#include "analyzers/source/tu_check.h"
#include "findings/replacement_builder.h"

namespace torchabi::migration {

namespace {

using source::Range;
using source::Reference;

bool written_within(const Range& arg, const Range& call) {
  return arg.valid() && arg.file == call.file && arg.end > arg.begin && arg.begin >= call.begin && arg.end <= call.end;
}

// `int`, `const double`, `float &`: what a number operand's type spells.
bool is_number_type(std::string t) {
  for (const char* drop : {"const ", "volatile ", "&"})
    for (size_t p; (p = t.find(drop)) != std::string::npos;) t.erase(p, std::string(drop).size());
  while (!t.empty() && t.back() == ' ') t.pop_back();
  static const std::set<std::string> numbers = {"int", "long", "long long", "unsigned int", "unsigned long", "short",
                                                "float", "double", "int64_t", "int32_t", "bool", "size_t"};
  // A number passed where the operator takes a Scalar shows up converted: `c10::Scalar`.
  const bool scalar = (t.ends_with("::Scalar") || t == "Scalar");
  return numbers.count(t) > 0 || scalar;
}

class StableOpsCheck final : public source::TuCheck {
public:
  StableOpsCheck(std::shared_ptr<const stable_ops::Generator> g, std::shared_ptr<const AtenFallback> a)
      : gen_(std::move(g)), aten_(std::move(a)) {}

  void run(source::CheckContext& ctx) override {
    for (const auto& [ref, cls] : ctx.classified_references())
      if (cls == source::ApiClass::Unstable) check(ctx, *ref);
  }

private:
  void check(source::CheckContext& ctx, const Reference& r) {
    if (r.via != source::Via::Spelled || !r.call_range.valid() || r.call_range.file != r.range.file) return;
    const std::string_view text = ctx.tu.file_text(r.call_range.file);
    if (r.call_range.end > text.size()) return;
    // What the call is looked up as: `a - b` as at::sub, torch::Tensor::mm as at::Tensor::mm.
    const std::string member = tensor_member_name(r.qualified, ctx.env.replacements);
    const std::string named = aten_->named_function(member);
    const std::string& lookup = named.empty() ? member : named;
    // A call torch::stable has a C++ function for is lint's rewrite. Not an
    // operator (`a - b` cannot be rewritten into torch::stable::subtract by
    // renaming), nor a call whose replacement is a per-device C shim
    // (aoti_torch_cpu_mul_Tensor): that is no typed spelling, and not portable across devices.
    // A torch::stable function that lint names but cannot rewrite to (zeros_like's
    // is empty_like then zero_: "fix: no") leaves the call to the dispatcher.
    if (auto m = ctx.env.replacements.find(lookup); named.empty() && m && m->replacement &&
                                                    m->replacement->starts_with("torch::") &&
                                                    m->entry->fix != source::ReplacementFix::No)
      return;

    const std::vector<std::string> candidates = aten_->op_candidates(member);
    if (candidates.empty()) return;

    // The written operands: the receiver of a member call, then each written
    // argument; the defaulted tail stays unwritten (the helper has the defaults).
    std::vector<Range> operands;
    if (r.receiver_range.valid()) {
      if (!written_within(r.receiver_range, r.call_range)) return;
      const std::string_view between = text.substr(r.receiver_range.end, r.range.begin - r.receiver_range.end);
      if (between.find("->") != std::string_view::npos) return;  // `p->op()` would need `*p`
      operands.push_back(r.receiver_range);
    }
    size_t written = 0;
    while (written < r.argument_ranges.size() && written_within(r.argument_ranges[written], r.call_range)) ++written;
    for (size_t i = written; i < r.argument_ranges.size(); ++i)
      if (written_within(r.argument_ranges[i], r.call_range)) return;  // not a defaulted tail
    for (size_t i = 0; i < written; ++i) operands.push_back(r.argument_ranges[i]);
    // TensorOptions stands for several schema arguments (dtype, layout,
    // device): a call that writes one has no one-for-one boxing.
    for (size_t i = 0; i < written && i < r.argument_types.size(); ++i)
      if (r.argument_types[i].find("TensorOptions") != std::string::npos) return;
    // A name that is not an operator must be the call's callee, not an argument.
    if (named.empty() && !r.receiver_range.valid() && !operands.empty() && r.range.begin > operands.front().begin) return;

    // An operator with a number on one side (`1 - s`, `z < 0`) needs its
    // helper's number overloads too; so does a call that writes a number
    // where the overload takes a Tensor (`x.add(1)` is add.Scalar's, and
    // add.Tensor's helper cannot take the 1).
    bool number_operator = false;
    if (!named.empty())
      for (size_t i = 0; i < written && i < r.argument_types.size(); ++i)
        number_operator = number_operator || is_number_type(r.argument_types[i]);
    const size_t first_argument = r.receiver_range.valid() ? 1 : 0;
    auto number_at_tensor = [&](const std::string& key) {
      if (!named.empty()) return number_operator;
      for (size_t i = 0; i < written && i < r.argument_types.size(); ++i)
        if (is_number_type(r.argument_types[i]) && gen_->tensor_argument(key, i + first_argument)) return true;
      return false;
    };
    std::optional<stable_ops::Helper> helper;
    for (const auto& c : candidates) {
      helper = gen_->helper(number_at_tensor(c) ? c + std::string(stable_ops::kScalarSuffix) : c);
      if (helper && operands.size() >= helper->min_written && operands.size() <= helper->max_written) break;
      helper.reset();
    }
    if (!helper) return;
    const std::string fn = std::string(stable_ops::kNamespace) + "::" + helper->name;
    findings::ReplacementBuilder call(text);
    call.text(fn).text("(");
    if (named.empty()) {
      // A call's written arguments are copied as one span, so comments such
      // as `/*dim=*/` stay; the receiver of a member call goes first.
      const size_t first = r.receiver_range.valid() ? 1 : 0;
      if (first) call.copy(operands[0].begin, operands[0].end);
      if (operands.size() > first) {
        if (first) call.text(", ");
        call.copy(operands[first].begin, operands.back().end);
      }
    } else {
      for (size_t i = 0; i < operands.size(); ++i) {
        if (i) call.text(", ");
        call.copy(operands[i].begin, operands[i].end);
      }
    }
    call.text(")");
    if (!call.ok()) return;
    findings::Finding f;
    f.rule = "source-unstable-api";
    f.location = source::location_of(r.qualified_range.valid() ? r.qualified_range : r.range);
    f.location.symbol = r.qualified;
    f.message = std::string(kStableOpsCall) + helper->key + " " + r.qualified;
    f.help = "Call " + fn + " from the project's " + std::string(stable_ops::kHeaderName) + ", which --fix writes: " +
             (helper->why.empty() ? "aten::" + helper->key + " called by name through the dispatcher, its arguments boxed in schema order."
                                  : helper->why);
    const std::string written_text(text.substr(r.call_range.begin, r.call_range.end - r.call_range.begin));
    f.fix = call.fix(r.call_range.file, r.call_range.begin, r.call_range.end, false,
                     "rewrite `" + written_text + "` as `" + call.str() + "`");
    f.fix->needs = helper->since;
    ctx.report(std::move(f));
  }

  std::shared_ptr<const stable_ops::Generator> gen_;
  std::shared_ptr<const AtenFallback> aten_;
};

}  // namespace

std::optional<std::string> stable_ops_key(std::string_view message) {
  if (!message.starts_with(kStableOpsCall)) return std::nullopt;
  message.remove_prefix(kStableOpsCall.size());
  return std::string(message.substr(0, message.find(' ')));
}

void register_stable_ops_check(std::shared_ptr<const stable_ops::Generator> generator,
                               std::shared_ptr<const AtenFallback> aten) {
  source::register_tu_check("migrate-stable-ops", [generator, aten] {
    return std::make_unique<StableOpsCheck>(generator, aten);
  });
}

}  // namespace torchabi::migration
