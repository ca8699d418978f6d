// What the token-level scans (token_scan.h) need from the AST of the
// project's code, gathered in one walk:
//
//   templates   extents of function and class templates (and out-of-line
//               members of class templates): clang resolves uses through
//               dependent types only in instantiations, which lint does not see
//   invalid     extents of declarations clang marked invalid (a type from a
//               missing header such as cutlass/cutlass.h): their uses may be
//               unresolved, but the rest of the file is not affected
//   variables   parameters, variables and fields declared with an unstable
//               torch type, with the range where they are in scope, so that
//               `x.new_empty(...)` in a template or an inactive branch is
//               known as at::Tensor::new_empty
//   resolved    where the AST resolved a name, to any declaration (a
//               project's own `namespace at { ... }` is not PyTorch's)
//   declared    extents of the declarations at namespace level: what is
//               outside them (but not a directive or a comment) is code clang
//               dropped, e.g. a template whose signature names a type of a
//               missing header
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzers/source/front_end.h"
#include "analyzers/source/lint_env.h"

namespace torchabi::source {

using OffsetRanges = std::vector<std::pair<uint32_t, uint32_t>>;

struct TypedVariable {
  std::string name;
  std::string type;  // qualified: at::Tensor
  uint32_t scope_begin = 0, scope_end = 0;
};

struct AstRegions {
  std::unordered_map<std::string, OffsetRanges> templates, invalid, declared;
  std::unordered_map<std::string, std::vector<TypedVariable>> variables;  // by file
  std::unordered_map<std::string, std::vector<uint32_t>> resolved;        // by file, sorted name offsets

  // The type of `name` in scope at `offset` of `file`, or "".
  std::string variable_type(const std::string& file, std::string_view name, uint32_t offset) const;
  // Whether the AST resolved a name starting in [begin, end) of `file`.
  bool resolved_in(const std::string& file, uint32_t begin, uint32_t end) const;
  // The parts of [0, size) of `file` outside every namespace-level declaration.
  OffsetRanges undeclared(const std::string& file, uint32_t size) const;
};

AstRegions collect_ast_regions(const ParsedTu& tu, const LintEnv& env);

// The outermost of possibly nested ranges, sorted.
OffsetRanges outermost(OffsetRanges ranges);

// clang's skipped ranges (inactive preprocessor branches) of a file, as offsets.
OffsetRanges skipped_ranges(const ParsedTu& tu, const std::string& file);

}  // namespace torchabi::source
