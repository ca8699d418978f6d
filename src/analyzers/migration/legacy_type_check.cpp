#include "analyzers/migration/legacy_type_check.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <map>
#include <set>

#include "analyzers/source/tu_check.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

namespace {

using source::Range;
using source::Reference;

constexpr const char* kTypeRulesFile = "api/stable_ops.yaml";

bool holds(const Range& outer, const Range& inner) {
  return outer.valid() && inner.valid() && outer.file == inner.file && inner.begin >= outer.begin && inner.end <= outer.end;
}

bool is_type_call(const Reference& r) {
  return (r.qualified == "at::Tensor::type" || r.qualified == "at::TensorBase::type") && r.call_range.valid() &&
         holds(r.call_range, r.receiver_range) && r.receiver_range.end > r.receiver_range.begin;
}

class LegacyTypeCheck final : public source::TuCheck {
public:
  explicit LegacyTypeCheck(LegacyTypeRules rules) : rules_(std::move(rules)) {}

  void run(source::CheckContext& ctx) override {
    // `x.type()` calls by their call range, so a property call on one finds it.
    std::map<std::pair<std::string, uint32_t>, const Reference*> type_calls;
    for (const auto& [ref, cls] : ctx.classified_references())
      if (ref->via == source::Via::Spelled && is_type_call(*ref))
        type_calls[{ref->call_range.file, ref->call_range.begin}] = ref;
    std::set<const Reference*> done;
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const Reference& r = *ref;
      if (r.via != source::Via::Spelled || !r.qualified.starts_with("at::DeprecatedTypeProperties::")) continue;
      auto prop = rules_.properties.find(r.name);
      auto t = type_calls.find({r.receiver_range.file, r.receiver_range.begin});
      if (prop == rules_.properties.end() || t == type_calls.end() || !r.call_range.valid()) continue;
      const Reference& type = *t->second;
      if (type.call_range.end != r.receiver_range.end) continue;
      const std::string_view text = ctx.tu.file_text(r.call_range.file);
      if (r.call_range.end > text.size()) continue;
      const std::string recv(text.substr(type.receiver_range.begin, type.receiver_range.end - type.receiver_range.begin));
      const std::string call = recv + "." + prop->second + "()";
      for (const Reference* at : {&type, &r}) report(ctx, *at, r.call_range, text, call);
      done.insert(&type);
    }
    in_own_macros(ctx);
    for (const auto& [key, type] : type_calls) {
      if (done.count(type) || rules_.dispatch_argument.empty()) continue;
      bool in_dispatch = false;
      for (const auto& u : ctx.tu.macro_uses())
        if (u.name.starts_with("AT_DISPATCH_") && holds(u.invocation_range, type->call_range)) in_dispatch = true;
      if (!in_dispatch) continue;
      const std::string_view text = ctx.tu.file_text(type->call_range.file);
      if (type->call_range.end > text.size()) continue;
      const std::string recv(text.substr(type->receiver_range.begin, type->receiver_range.end - type->receiver_range.begin));
      report(ctx, *type, type->call_range, text, recv + "." + rules_.dispatch_argument + "()");
    }
  }

private:
  // `x.type().is_cuda()` in the #define of a macro of this file (CHECK_CUDA),
  // seen through its expansions: the receiver is the macro's parameter, so the
  // edit keeps it and rewrites from the `.` before `type` to the property
  // call's end (`.type().is_cuda()` -> `.is_cuda()`), once for every expansion.
  void in_own_macros(source::CheckContext& ctx) {
    std::map<std::pair<std::string, uint32_t>, const Reference*> type_calls;  // by the call's end
    for (const auto& [ref, cls] : ctx.classified_references())
      if (ref->via == source::Via::MacroBody && ref->spelled.valid() && ref->spelled_call_end &&
          (ref->qualified == "at::Tensor::type" || ref->qualified == "at::TensorBase::type"))
        type_calls[{ref->spelled.file, ref->spelled_call_end}] = ref;
    std::set<std::pair<std::string, uint32_t>> reported;
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const Reference& r = *ref;
      if (r.via != source::Via::MacroBody || !r.spelled.valid() || !r.spelled_call_end ||
          !r.qualified.starts_with("at::DeprecatedTypeProperties::"))
        continue;
      auto prop = rules_.properties.find(r.name);
      if (prop == rules_.properties.end()) continue;
      const std::string_view text = ctx.tu.file_text(r.spelled.file);
      if (r.spelled_call_end > text.size()) continue;
      // What lies between the type call's end and the property's name: only `.`.
      const Reference* type = nullptr;
      for (uint32_t p = r.spelled.begin; p > 0 && !type;) {
        const char ch = text[--p];
        if (ch == '.' || ch == ' ' || ch == '\t') continue;
        if (ch != ')') break;
        auto t = type_calls.find({r.spelled.file, p + 1});
        if (t != type_calls.end()) type = t->second;
        break;
      }
      if (!type || !reported.emplace(r.spelled.file, r.spelled.begin).second) continue;
      uint32_t dot = type->spelled.begin;
      while (dot > 0 && (text[dot - 1] == ' ' || text[dot - 1] == '\t')) --dot;
      if (dot == 0 || text[dot - 1] != '.') continue;
      Range edit = type->spelled;
      edit.begin = dot - 1;
      edit.end = r.spelled_call_end;
      const std::string call = "." + prop->second + "()";
      for (const Reference* at : {type, &r}) {
        Reference shown = *at;
        shown.via = source::Via::Spelled;
        shown.range = shown.qualified_range = at->spelled;
        report(ctx, shown, edit, text, call);
      }
    }
  }

  static void report(source::CheckContext& ctx, const Reference& at, const Range& edit, std::string_view text,
                     const std::string& replacement) {
    findings::Finding f;
    f.rule = "source-unstable-api";
    f.location = source::location_of(at.qualified_range.valid() ? at.qualified_range : at.range);
    f.location.symbol = at.qualified;
    f.message = std::string(kLegacyTypeCall) + at.qualified;
    const std::string written(text.substr(edit.begin, edit.end - edit.begin));
    f.help = "Call " + replacement + " on the stable tensor: DeprecatedTypeProperties (x.type()) is not part of the "
             "stable ABI.";
    f.fix = source::make_fix(edit, replacement, true, "rewrite `" + written + "` as `" + replacement + "`");
    f.fix->needs = TorchVersion::parse_dotted("2.9");
    ctx.report(std::move(f));
  }

  LegacyTypeRules rules_;
};

}  // namespace

LegacyTypeRules LegacyTypeRules::load(const inputs::RulesSource& rules) {
  const std::string where = "rules/" + std::string(kTypeRulesFile);
  LegacyTypeRules out;
  try {
    const YAML::Node root = YAML::Load(rules.require(kTypeRulesFile));
    const YAML::Node props = root["type_properties"];
    if (!props || !props.IsMap()) throw InputError(where, "expected a 'type_properties' map");
    for (const auto& p : props) out.properties[p.first.as<std::string>()] = p.second.as<std::string>();
    out.dispatch_argument = root["dispatch_type_argument"].as<std::string>("");
  } catch (const YAML::Exception& e) {
    throw InputError(where, std::string("not valid YAML: ") + e.what());
  }
  return out;
}

void register_legacy_type_check(LegacyTypeRules rules) {
  source::register_tu_check("migrate-legacy-type", [rules = std::move(rules)] {
    return std::make_unique<LegacyTypeCheck>(rules);
  });
}

}  // namespace torchabi::migration
