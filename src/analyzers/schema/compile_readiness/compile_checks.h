// The compile-readiness checks (check_compile_readiness in check_context.h
// runs them all), one family per file:
//   fake_coverage_checks    compile-missing-fake, compile-fake-unknown-op
//   python_signature_checks compile-fake-signature-mismatch,
//                           compile-autograd-signature-mismatch
//   kernel_effect_checks    compile-undeclared-mutation,
//                           compile-mutation-never-written,
//                           compile-undeclared-alias
#pragma once

#include <string>

#include "analyzers/schema/compile_readiness/op_catalog.h"

namespace torchabi::schema {

void check_fake_coverage(RegistrationContext& ctx, const OpCatalog& catalog);
void check_python_signatures(RegistrationContext& ctx, const OpCatalog& catalog);
void check_kernel_effects(RegistrationContext& ctx);

// "def _(x, y, alpha=1.0)": a Python function taking the schema's arguments as
// the dispatcher passes them (keyword-only ones after `*`).
std::string fake_stub(const FunctionSchema& s);
// A schema default as Python spells it ("None", "True", "1.0", "[1, 1]", "'mean'").
std::string python_default(const DefaultValue& d);

}  // namespace torchabi::schema
