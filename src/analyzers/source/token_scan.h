// A token-level scan of source text for uses of PyTorch's unstable API, with
// the same rules data as the AST checks (rules/api/: the namespaces of the
// catalog, the header patterns, the macro entries of replacements.yaml).
//
// For text the AST does not cover: branches the preprocessor skipped (code of
// another build configuration), and templates or declarations clang could not
// resolve (dependent types, a missing third-party header). It lexes by itself
// (comments, string and raw string literals, line continuations, directives)
// instead of asking libclang, so it works on any byte range, skipped or not.
//
// It finds:
//   includes      #include <ATen/...> / "c10/..." of unstable torch headers
//   names         qualified names in an unstable namespace (at::Tensor,
//                 ::c10::irange, torch::Tensor; not torch::stable::...), and
//                 `using namespace at;`
//   macros        names with a macro entry in replacements.yaml (TORCH_CHECK,
//                 AT_DISPATCH_*...), or that the TU knows as torch macros
//   members       x.m / x->m / this->x.m where x was declared with an
//                 unstable torch type (`const at::Tensor& x`, in the scanned
//                 text or, through `variable_type`, in the AST)
//   unqualified   names the AST resolved elsewhere in the file to unstable
//                 API when written unqualified (`Tensor` after `using namespace at`)
// A #define's name is not a use; its body is scanned.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace torchabi::source {

struct LintEnv;

struct LexToken {
  enum class Kind { Identifier, Number, Literal, Punct, Directive };
  Kind kind = Kind::Punct;
  uint32_t begin = 0, end = 0;  // byte offsets in the scanned text
};

// Tokens of text[begin, end). Comments are dropped; a directive is one token
// covering its logical line (backslash continuations included); `::` and `->`
// are single tokens.
std::vector<LexToken> lex_source(std::string_view text, uint32_t begin, uint32_t end);

enum class TokenUseKind { Include, Name, Namespace, Macro, Member, Unqualified };

struct TokenUse {
  TokenUseKind kind = TokenUseKind::Name;
  std::string symbol;    // header name, qualified name, macro, `at::Tensor::new_empty`
  std::string written;   // the text as written (`W.new_empty`, `<c10/hip/HIPStream.h>`)
  uint32_t begin = 0, end = 0;  // byte range of what is reported
};

struct TokenScanRules {
  const LintEnv* env = nullptr;  // required
  bool includes = true, names = true, macros = true, members = true, unqualified = true;
  // Torch macros known beyond replacements.yaml (defined in an unstable header of the TU).
  std::function<bool(std::string_view)> is_torch_macro;
  // The qualified type of a variable in scope at `offset` (declared with an
  // unstable torch type), or "" when unknown.
  std::function<std::string(std::string_view name, uint32_t offset)> variable_type;
  // Unqualified spellings the AST resolved to unstable API, and to what
  // (a function counts only where it is called: followed by `(` or `<`).
  struct Resolved {
    std::string qualified;
    bool function = false;
  };
  const std::unordered_map<std::string, Resolved>* unqualified_names = nullptr;
  // Written qualified spellings the AST resolved (torch::Tensor -> at::Tensor).
  const std::unordered_map<std::string, std::string>* resolved_spellings = nullptr;
  // Names that are known to be stable or the project's (skipped even when their namespace is unstable).
  std::function<bool(std::string_view qualified)> known_not_unstable;
  // Whether the project uses torch types (PYBIND11_MODULE only counts then).
  bool torch_types = true;
};

// Uses in text[begin, end), in order.
std::vector<TokenUse> scan_token_uses(std::string_view text, uint32_t begin, uint32_t end, const TokenScanRules& rules);

// 1-based line and byte column of offsets in a text.
class LineIndex {
public:
  explicit LineIndex(std::string_view text);
  std::pair<uint32_t, uint32_t> at(uint32_t offset) const;

private:
  std::vector<uint32_t> starts_;
};

}  // namespace torchabi::source
