#include "analyzers/source/checks/target_setting.h"

#include <cstdio>

#include "analyzers/source/version_expr.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

std::optional<TargetSetting> read_target(CheckContext& ctx) {
  std::optional<TargetSetting> t;
  for (const auto& m : ctx.tu.args().macros) {
    if (m.name != "TORCH_TARGET_VERSION") continue;
    if (m.undef) {
      t.reset();
      continue;
    }
    t.emplace();
    t->written = m.value.value_or("1");
    t->origin = "-DTORCH_TARGET_VERSION=" + t->written;
  }
  for (const auto& d : ctx.tu.macro_definitions()) {
    if (d.name != "TORCH_TARGET_VERSION") continue;
    t.emplace();
    t->written = d.body;
    t->origin = "#define at " + display_path(d.range.file) + ":" + std::to_string(d.range.line);
    t->value_range = d.body_range;
    t->value_range.line = d.range.line;
    break;
  }
  if (!t) return t;
  std::string_view text = ctx.tu.file_text(t->value_range.file);
  std::string exact = t->value_range.valid() && t->value_range.end <= text.size()
                          ? std::string(text.substr(t->value_range.begin, t->value_range.end - t->value_range.begin))
                          : t->written;
  t->raw = evaluate_version_expr(exact);
  if (!t->raw) {
    t->error = "'" + exact + "' is not a version expression torchabi can evaluate";
    return t;
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(*t->raw));
  auto reading = read_target_version(hex, ctx.env.catalog->latest());
  if (!reading.error.empty()) t->error = reading.error;
  else t->version = reading.version;
  return t;
}

}  // namespace torchabi::source::checks
