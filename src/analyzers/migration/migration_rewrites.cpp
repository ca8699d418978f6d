#include "analyzers/migration/migration_rewrites.h"

#include <yaml-cpp/yaml.h>

#include "analyzers/source/tu_check.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::migration {

namespace {

constexpr const char* kFile = "api/migration_rewrites.yaml";

// The arguments the call writes: releases add defaulted parameters after the
// kernel (2.x: impl(name, f, _RegisterOrVerify rv = REGISTER)), which the
// call does not write and which must not make it another overload.
size_t written_arguments(const source::Reference& r) {
  if (!r.call_range.valid()) return r.argument_ranges.size();
  size_t n = 0;
  for (const auto& a : r.argument_ranges)
    n += a.valid() && a.file == r.call_range.file && a.end > a.begin && a.begin >= r.call_range.begin &&
         a.end <= r.call_range.end;
  return n;
}

class BoxedRegistrationCheck final : public source::TuCheck {
public:
  explicit BoxedRegistrationCheck(std::vector<BoxedRegistration> rules) : rules_(std::move(rules)) {}

  void run(source::CheckContext& ctx) override {
    for (const auto& [ref, cls] : ctx.classified_references()) {
      const source::Reference& r = *ref;
      if (r.via != source::Via::Spelled || written_arguments(r) != 2) continue;
      const BoxedRegistration* rule = nullptr;
      for (const auto& b : rules_)
        if (b.method == r.qualified) rule = &b;
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

namespace {

std::vector<std::string> strings(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const auto& x : n) out.push_back(x.as<std::string>());
  return out;
}

bool name_matches(const std::string& pattern, std::string_view name) {
  if (!pattern.empty() && pattern.back() == '*')
    return name.substr(0, pattern.size() - 1) == std::string_view(pattern).substr(0, pattern.size() - 1);
  return name == pattern;
}

}  // namespace

MigrationRewrites MigrationRewrites::parse(std::string_view yaml, const std::string& where) {
  MigrationRewrites out;
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    const YAML::Node boxed = root["boxed_registrations"];
    if (!boxed || !boxed.IsSequence()) throw InputError(where, "expected a 'boxed_registrations' list");
    for (const auto& n : boxed) {
      BoxedRegistration b;
      b.method = n["method"].as<std::string>("");
      b.wrap = n["wrap"].as<std::string>("");
      b.header = n["header"].as<std::string>("");
      b.note = n["note"].as<std::string>("");
      const std::string fix = n["fix"].as<std::string>("");
      if (b.method.empty() || b.wrap.empty() || (fix != "safe" && fix != "unsafe"))
        throw InputError(where, "boxed registration '" + b.method + "' needs method, wrap and fix: safe|unsafe");
      b.safe = fix == "safe";
      if (n["since"]) {
        auto v = TorchVersion::parse_dotted(n["since"].as<std::string>());
        if (!v) throw InputError(where, "boxed registration '" + b.method + "': since is not a release");
        b.since = *v;
      }
      out.boxed.push_back(std::move(b));
    }
    auto read_since = [&](const YAML::Node& n, const std::string& what) -> std::optional<TorchVersion> {
      if (!n["since"]) return std::nullopt;
      auto v = TorchVersion::parse_dotted(n["since"].as<std::string>());
      if (!v) throw InputError(where, what + ": since is not a release");
      return v;
    };
    auto read_safe = [&](const YAML::Node& n, const std::string& what) {
      const std::string fix = n["fix"].as<std::string>("");
      if (fix != "safe" && fix != "unsafe") throw InputError(where, what + " needs fix: safe|unsafe");
      return fix == "safe";
    };
    // templated_methods and renamed_methods share their fields.
    auto read_rename = [&](const YAML::Node& n, const std::string& kind) {
      TemplatedMethodRename t;
      t.methods = strings(n["methods"]);
      t.rename = n["rename"].as<std::string>("");
      t.replacement = n["replacement"].as<std::string>("");
      t.header = n["header"].as<std::string>("");
      t.note = n["note"].as<std::string>("");
      const std::string what = kind + " '" + t.rename + "'";
      if (t.methods.empty() || t.rename.empty() || t.replacement.empty())
        throw InputError(where, what + " needs methods, rename and replacement");
      t.safe = read_safe(n, what);
      t.since = read_since(n, what);
      return t;
    };
    for (const auto& n : root["templated_methods"]) {
      TemplatedMethodRename t = read_rename(n, "templated method");
      const std::string what = "templated method '" + t.rename + "'";
      if (const YAML::Node o = n["older"]) {
        t.older_form = o["form"].as<std::string>("");
        t.older_since = read_since(o, what + " older");
        if (t.older_form.find("$T") == std::string::npos || t.older_form.find("$CALLEE") == std::string::npos ||
            !t.older_since)
          throw InputError(where, what + ": older needs a form using $T and $CALLEE, and since");
      }
      out.templated.push_back(std::move(t));
    }
    for (const auto& n : root["renamed_methods"]) {
      TemplatedMethodRename t = read_rename(n, "renamed method");
      t.plain = true;
      out.templated.push_back(std::move(t));
    }
    for (const auto& n : root["def_with_kernel"]) {
      DefWithKernel d;
      d.method = n["method"].as<std::string>("");
      d.impl = n["impl"].as<std::string>("");
      d.wrap = n["wrap"].as<std::string>("");
      d.header = n["header"].as<std::string>("");
      d.note = n["note"].as<std::string>("");
      d.manual_note = n["manual_note"].as<std::string>("");
      const std::string what = "def_with_kernel '" + d.method + "'";
      if (d.method.empty() || d.impl.empty() || d.wrap.empty() || d.manual_note.empty())
        throw InputError(where, what + " needs method, impl, wrap and manual_note");
      d.safe = read_safe(n, what);
      d.since = read_since(n, what);
      out.def_with_kernel.push_back(std::move(d));
    }
    for (const auto& n : root["options_factories"]) {
      OptionsFactory o;
      o.factories = strings(n["factories"]);
      o.replacement = n["replacement"].as<std::string>("");
      o.header = n["header"].as<std::string>("");
      o.note = n["note"].as<std::string>("");
      const std::string what = "options factory '" + o.replacement + "'";
      if (o.factories.empty() || o.replacement.empty() || o.header.empty())
        throw InputError(where, what + " needs factories, replacement and header");
      o.safe = read_safe(n, what);
      o.since = read_since(n, what);
      out.options_factories.push_back(std::move(o));
    }
    for (const auto& n : root["dropped_calls"]) {
      DroppedCall d;
      d.methods = strings(n["methods"]);
      d.note = n["note"].as<std::string>("");
      const std::string what = "dropped call '" + (d.methods.empty() ? std::string() : d.methods.front()) + "'";
      if (d.methods.empty() || d.note.empty()) throw InputError(where, what + " needs methods and note");
      d.safe = read_safe(n, what);
      out.dropped.push_back(std::move(d));
    }
    for (const auto& n : root["follow_rewrites"]) {
      FollowRule f;
      f.apis = strings(n["apis"]);
      f.same_method = n["same_method"].as<bool>(false);
      f.after = strings(n["after"]);
      f.note = n["note"].as<std::string>("");
      if ((f.apis.empty() && !f.same_method) || f.after.empty())
        throw InputError(where, "every follow rule needs 'after' and 'apis' (or same_method: true)");
      out.follows.push_back(std::move(f));
    }
  } catch (const YAML::Exception& e) {
    throw InputError(where, std::string("malformed YAML: ") + e.what());
  }
  return out;
}

MigrationRewrites MigrationRewrites::load(const inputs::RulesSource& src) {
  return parse(src.require(kFile), src.describe() + "/" + kFile);
}

const BoxedRegistration* MigrationRewrites::boxed_for(std::string_view method) const {
  for (const auto& r : boxed)
    if (r.method == method) return &r;
  return nullptr;
}

const TemplatedMethodRename* MigrationRewrites::templated_for(std::string_view method) const {
  for (const auto& t : templated)
    for (const auto& m : t.methods)
      if (m == method) return &t;
  return nullptr;
}

const DefWithKernel* MigrationRewrites::def_with_kernel_for(std::string_view method) const {
  for (const auto& d : def_with_kernel)
    if (d.method == method) return &d;
  return nullptr;
}

const DroppedCall* MigrationRewrites::dropped_for(std::string_view method) const {
  for (const auto& d : dropped)
    for (const auto& m : d.methods)
      if (m == method) return &d;
  return nullptr;
}

const FollowRule* MigrationRewrites::follow_for(std::string_view api, bool same_method) const {
  for (const auto& f : follows) {
    if (same_method && f.same_method) return &f;
    for (const auto& a : f.apis)
      if (name_matches(a, api)) return &f;
  }
  return nullptr;
}

void register_boxed_registration_check(std::vector<BoxedRegistration> rules) {
  source::register_tu_check("migrate-boxed-registrations", [rules = std::move(rules)] {
    return std::make_unique<BoxedRegistrationCheck>(rules);
  });
}

}  // namespace torchabi::migration
