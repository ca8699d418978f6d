// Declarations in the branches of PyTorch's stable headers that a TU's
// configuration skips (shim.h's `#ifdef USE_CUDA`, Half.h's aarch64-only
// helpers): matched as declarations of the name in the enclosing namespace,
// never as words in comments, strings or other declarations. Used by
// build-api-hidden-by-configuration to blame the configuration, and by the
// token-level source-unstable-api to leave alone a name a stable header
// declares (it is not unstable, only not compiled here).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/source/inactive_branches.h"
#include "analyzers/source/tu_check.h"

namespace torchabi::source::checks {

// `text` with comments and string and character literals blanked (same
// offsets, newlines kept): what declarations can be looked for in.
std::string code_only(std::string_view text);

// Where `name` is declared in [begin, end) of `code` (code_only text): a whole
// identifier after a type and followed by '(', '=', ';' or '{', or after
// struct/class/using/enum/namespace; npos if not. A member access, another
// scope's name, a call and a conversion function (`operator __half()`) are uses.
size_t declaration_of(std::string_view code, size_t begin, size_t end, std::string_view name);

// The namespaces enclosing offset `at` of `code` (code_only text), "a::b".
std::string namespace_at(std::string_view code, size_t at);

// Whether `scope` ("" or "c10::detail") can name something PyTorch's headers
// declare: its first namespace is torch, c10, at, caffe2 or aoti.
bool pytorch_scope(const std::string& scope);

struct HiddenDeclaration {
  std::string header;  // include-relative torch name
  uint32_t line = 0;
  ConditionalBranch branch;
};

// Per TU: the stable headers it read and their code_only text, cached.
class SkippedDeclarations {
public:
  // The first declaration of `name`, written with `scope` (relative to an
  // enclosing namespace or not), in a branch of a stable header the TU read
  // that its configuration skips. Branches that test TORCH_FEATURE_VERSION
  // count only with `version_guards`.
  std::optional<HiddenDeclaration> find(CheckContext& ctx, const std::string& scope, const std::string& name,
                                        bool version_guards);
  // The stable headers this TU read (declarations of the stable ABI live there).
  const std::vector<std::string>& stable_files(CheckContext& ctx);

private:
  const std::string& code_of(CheckContext& ctx, const std::string& file);
  std::optional<std::vector<std::string>> stable_files_;
  std::map<std::string, std::string> code_;  // file -> code_only text
};

}  // namespace torchabi::source::checks
