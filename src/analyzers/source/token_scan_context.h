// The TU-specific knowledge the token scan (token_scan.h) uses, built once
// per TU and only when a scan needs it: the AST regions and typed variables
// (ast_regions.h), what the AST resolved elsewhere (unqualified names such as
// `Tensor` after `using namespace at`, spellings such as torch::Tensor ->
// at::Tensor, names that resolved to stable or project declarations).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analyzers/source/ast_regions.h"
#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"
#include "analyzers/source/token_scan.h"

namespace torchabi::source {

class TokenScanContext {
public:
  TokenScanContext(const ParsedTu& tu, const LintEnv& env);

  const AstRegions& regions();
  // Rules for scanning `file` (the returned object refers to this context).
  TokenScanRules rules_for(const std::string& file);

private:
  void build_resolution();

  const ParsedTu& tu_;
  const LintEnv& env_;
  std::optional<AstRegions> regions_;
  bool resolution_built_ = false;
  std::unordered_map<std::string, std::unordered_map<std::string, TokenScanRules::Resolved>> unqualified_;  // by file
  std::unordered_map<std::string, std::string> spellings_;
  std::unordered_set<std::string> not_unstable_;
  bool torch_types_ = false;
};

}  // namespace torchabi::source
