#include "analyzers/schema/compile_readiness/compile_checks.h"

namespace torchabi::schema {

std::string python_default(const DefaultValue& d) {
  switch (d.kind) {
    case DefaultValue::Kind::None: return "None";
    case DefaultValue::Kind::True: return "True";
    case DefaultValue::Kind::False: return "False";
    case DefaultValue::Kind::List: {
      std::string out = "[";
      for (size_t i = 0; i < d.elements.size(); ++i) out += (i ? ", " : "") + python_default(d.elements[i]);
      return out + "]";
    }
    default: return d.text;
  }
}

std::string fake_stub(const FunctionSchema& s) {
  std::string out = "def _(";
  bool star = false;
  for (size_t i = 0; i < s.arguments.size(); ++i) {
    const Argument& a = s.arguments[i];
    if (i) out += ", ";
    if (a.kwarg_only && !star) {
      out += "*, ";
      star = true;
    }
    out += a.name;
    if (a.default_value) out += "=" + python_default(*a.default_value);
  }
  return out + ")";
}

void check_compile_readiness(RegistrationContext& ctx) {
  const OpCatalog catalog(ctx);
  check_fake_coverage(ctx, catalog);
  check_python_signatures(ctx, catalog);
  check_kernel_effects(ctx);
}

}  // namespace torchabi::schema
