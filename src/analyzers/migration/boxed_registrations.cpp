#include "analyzers/migration/boxed_registrations.h"

#include <yaml-cpp/yaml.h>

#include "analyzers/source/tu_check.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

namespace {

constexpr const char* kFile = "api/migration_rewrites.yaml";

class BoxedRegistrationCheck final : public source::TuCheck {
public:
  explicit BoxedRegistrationCheck(std::vector<BoxedRegistration> rules) : rules_(std::move(rules)) {}

  void run(source::CheckContext& ctx) override {
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const source::Reference& r = *ref;
      if (r.via != source::Via::Spelled || r.argument_ranges.size() != 2) continue;
      const BoxedRegistration* rule = find_boxed_registration(rules_, r.qualified);
      if (!rule) continue;
      const source::Range& arg = r.argument_ranges[1];
      if (!arg.valid() || arg.file != r.range.file || arg.end <= arg.begin) continue;
      const std::string_view text = ctx.tu.file_text(arg.file);
      if (arg.end > text.size()) continue;
      const std::string kernel(text.substr(arg.begin, arg.end - arg.begin));
      if (kernel.rfind(rule->wrap, 0) == 0) continue;  // already boxed
      if (kernel.find_first_of("[{") != std::string::npos) continue;  // a lambda: not mechanical
      const std::string boxed = rule->wrap + "(" + kernel + ")";
      findings::Finding f;
      f.rule = "source-unstable-api";
      f.location = source::location_of(r.qualified_range.valid() ? r.qualified_range : r.range);
      f.location.symbol = r.qualified;
      f.message = "registers an unboxed kernel through unstable PyTorch API: method " + r.qualified;
      f.help = "Register " + boxed + " in a STABLE_TORCH_LIBRARY_IMPL block. " + rule->note;
      f.fix = source::make_fix(arg, boxed, rule->safe, "box the kernel: " + boxed);
      ctx.report(std::move(f));
    }
  }

private:
  std::vector<BoxedRegistration> rules_;
};

}  // namespace

std::vector<BoxedRegistration> parse_boxed_registrations(std::string_view yaml, const std::string& where) {
  std::vector<BoxedRegistration> out;
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    const YAML::Node list = root["boxed_registrations"];
    if (!list || !list.IsSequence()) throw InputError(where, "expected a 'boxed_registrations' list");
    for (const auto& n : list) {
      BoxedRegistration b;
      b.method = n["method"].as<std::string>("");
      b.wrap = n["wrap"].as<std::string>("");
      b.header = n["header"].as<std::string>("");
      b.note = n["note"].as<std::string>("");
      const std::string fix = n["fix"].as<std::string>("");
      if (b.method.empty() || b.wrap.empty() || (fix != "safe" && fix != "unsafe"))
        throw InputError(where, "entry '" + b.method + "' needs method, wrap and fix: safe|unsafe");
      b.safe = fix == "safe";
      if (n["since"]) {
        auto v = TorchVersion::parse_dotted(n["since"].as<std::string>());
        if (!v) throw InputError(where, "entry '" + b.method + "': since is not a release");
        b.since = *v;
      }
      out.push_back(std::move(b));
    }
  } catch (const YAML::Exception& e) {
    throw InputError(where, std::string("malformed YAML: ") + e.what());
  }
  return out;
}

std::vector<BoxedRegistration> load_boxed_registrations(const inputs::RulesSource& src) {
  return parse_boxed_registrations(src.require(kFile), src.describe() + "/" + kFile);
}

const BoxedRegistration* find_boxed_registration(const std::vector<BoxedRegistration>& rules, std::string_view method) {
  for (const auto& r : rules)
    if (r.method == method) return &r;
  return nullptr;
}

void register_boxed_registration_check(std::vector<BoxedRegistration> rules) {
  source::register_tu_check("migrate-boxed-registrations", [rules = std::move(rules)] {
    return std::make_unique<BoxedRegistrationCheck>(rules);
  });
}

}  // namespace torchabi::migration
