#include "analyzers/migration/options_factory_check.h"

#include <algorithm>
#include <map>

#include "analyzers/source/tu_check.h"
#include "findings/replacement_builder.h"

namespace torchabi::migration {

namespace {

using source::Range;
using source::Reference;

bool same_range(const Range& a, const Range& b) { return a.valid() && b.valid() && a.file == b.file && a.begin == b.begin && a.end == b.end; }

bool factory_argument_within(const Range& arg, const Range& call) {
  return arg.valid() && arg.file == call.file && arg.end > arg.begin && arg.begin >= call.begin && arg.end <= call.end;
}

bool is_options(const std::string& q) { return q == "at::TensorBase::options" || q == "at::Tensor::options"; }

class OptionsFactoryCheck final : public source::TuCheck {
public:
  explicit OptionsFactoryCheck(std::vector<OptionsFactory> rules) : rules_(std::move(rules)) {}

  void run(source::CheckContext& ctx) override {
    // `x.options()` calls by their call range, `<options>.dtype(d)` by the range of their receiver.
    std::map<std::pair<std::string, uint32_t>, const Reference*> options_calls, dtype_calls;
    for (const auto& [ref, cls] : ctx.classified_references()) {
      if (ref->via != source::Via::Spelled || !ref->call_range.valid()) continue;
      if (is_options(ref->qualified) && ref->receiver_range.valid())
        options_calls[{ref->call_range.file, ref->call_range.begin}] = ref;
      else if (ref->qualified == "c10::TensorOptions::dtype" && ref->receiver_range.valid())
        dtype_calls[{ref->receiver_range.file, ref->receiver_range.begin}] = ref;
    }
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const Reference& r = *ref;
      if (r.via != source::Via::Spelled || !r.call_range.valid() || r.receiver_range.valid()) continue;
      const OptionsFactory* rule = nullptr;
      for (const auto& f : rules_)
        if (std::find(f.factories.begin(), f.factories.end(), r.qualified) != f.factories.end()) rule = &f;
      if (!rule) continue;
      size_t written = 0;
      while (written < r.argument_ranges.size() && factory_argument_within(r.argument_ranges[written], r.call_range)) ++written;
      if (written != 2) continue;
      const Range& sizes = r.argument_ranges[0];
      const Range& options = r.argument_ranges[1];
      auto o = options_calls.find({options.file, options.begin});
      if (o == options_calls.end()) continue;
      const Reference& opts = *o->second;
      const Reference* dtype = nullptr;
      if (!same_range(opts.call_range, options)) {
        // `x.options().dtype(d)`: the whole argument is the dtype call on x.options().
        auto d = dtype_calls.find({opts.call_range.file, opts.call_range.begin});
        if (d == dtype_calls.end() || !same_range(d->second->call_range, options) || d->second->argument_ranges.size() != 1 ||
            !factory_argument_within(d->second->argument_ranges[0], options))
          continue;
        dtype = d->second;
      }
      const std::string_view text = ctx.tu.file_text(r.call_range.file);
      if (r.call_range.end > text.size()) continue;
      auto slice = [&](const Range& x) { return std::string(text.substr(x.begin, x.end - x.begin)); };
      // Copied, not retyped: the rewrites inside the copies (at::kLong) go with them.
      findings::ReplacementBuilder call(text);
      call.text(rule->replacement).text("(").copy(opts.receiver_range.begin, opts.receiver_range.end).text(", ");
      call.copy(sizes.begin, sizes.end);
      if (dtype) call.text(", ").copy(dtype->argument_ranges[0].begin, dtype->argument_ranges[0].end);
      call.text(")");
      if (!call.ok()) continue;
      for (const Reference* at : {&r, &opts, dtype}) {
        if (!at) continue;
        findings::Finding f;
        f.rule = "source-unstable-api";
        f.location = source::location_of(at->qualified_range.valid() ? at->qualified_range : at->range);
        f.location.symbol = at->qualified;
        f.message = std::string(kOptionsFactory) + at->qualified;
        f.help = "Call " + rule->replacement + " (" + rule->header + "): it makes the tensor with " +
                 slice(opts.receiver_range) + "'s dtype, layout and device, as its options() did. " + rule->note;
        f.fix = call.fix(r.call_range.file, r.call_range.begin, r.call_range.end, rule->safe,
                         "rewrite `" + slice(r.call_range) + "` as `" + call.str() + "`");
        f.fix->needs = rule->since;
        ctx.report(std::move(f));
      }
    }
  }

private:
  std::vector<OptionsFactory> rules_;
};

}  // namespace

void register_options_factory_check(std::vector<OptionsFactory> rules) {
  source::register_tu_check("migrate-options-factory", [rules = std::move(rules)] {
    return std::make_unique<OptionsFactoryCheck>(rules);
  });
}

}  // namespace torchabi::migration
