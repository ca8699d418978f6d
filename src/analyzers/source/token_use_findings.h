// How a use found by the token scan (token_scan.h) is reported: the message
// and the stable replacement, worded as the AST checks word them.
#pragma once

#include <string>

#include "analyzers/source/lint_env.h"
#include "analyzers/source/token_scan.h"
#include "findings/finding.h"

namespace torchabi::source {

// "includes unstable PyTorch header <c10/hip/HIPStream.h>", "uses unstable
// PyTorch API: method at::Tensor::new_empty (written W.new_empty)", ...
std::string describe_token_use(const TokenUse& use);

// What to do instead, from rules/api/replacements.yaml.
std::string help_for_token_use(const LintEnv& env, const TokenUse& use);

// Location, symbol, message and help of a token-level finding (no fix-it:
// without the AST the rewrite cannot be checked).
findings::Finding token_use_finding(const LintEnv& env, const TokenUse& use, const std::string& rule,
                                    const std::string& file, uint32_t line, uint32_t column);

}  // namespace torchabi::source
