// Declarations in the skipped branches of the stable headers: see
// skipped_declarations.h.
#include "analyzers/source/checks/skipped_declarations.h"

#include <cctype>

#include "analyzers/source/ast_regions.h"
#include "analyzers/source/token_scan.h"
#include "common/text.h"

namespace torchabi::source::checks {

size_t declaration_of(std::string_view text, size_t begin, size_t end, std::string_view name) {
  for (size_t p = text.find(name, begin); p != std::string_view::npos && p < end; p = text.find(name, p + 1)) {
    if ((p > 0 && text::is_identifier_char(text[p - 1])) || (p + name.size() < text.size() && text::is_identifier_char(text[p + name.size()])))
      continue;
    size_t q = p + name.size();
    while (q < end && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
    size_t w = p;
    while (w > begin && std::isspace(static_cast<unsigned char>(text[w - 1]))) --w;
    size_t ws = w;
    while (ws > begin && text::is_identifier_char(text[ws - 1])) --ws;
    const std::string_view word = text.substr(ws, w - ws);
    if (word == "struct" || word == "class" || word == "using" || word == "enum" || word == "namespace") return p;
    // `sycl::half`, `x.half`, `p->half`: another scope's name or a member,
    // not a declaration of this one.
    const char before = w > begin ? text[w - 1] : '\0';
    if (before == ':' || before == '.' || (before == '>' && w - 1 > begin && text[w - 2] == '-')) continue;
    // `operator __half() const;` declares a conversion of the enclosing class
    // to a type declared elsewhere (CUDA's cuda_fp16.h): a use of the name.
    if (word == "operator") continue;
    // A declaration's name follows its type (`int f(`, `T* f(`, `vector<T> f(`,
    // a macro such as C10_HOST_DEVICE); after `(`, `,`, an operator or
    // `return` it is a use: `x(__float2bfloat16(v))` calls the name.
    const bool after_type = !word.empty() ? !(word == "return" || word == "throw" || word == "new" || word == "delete" ||
                                              word == "case" || word == "else" || word == "do" || word == "sizeof")
                                          : before == '*' || before == '&' || before == '>';
    if (after_type && q < end && (text[q] == '(' || text[q] == '=' || text[q] == ';' || text[q] == '{')) return p;
  }
  return std::string_view::npos;
}

std::string code_only(std::string_view text) {
  std::string out(text);
  enum { Code, Line, Block, Str, Chr } st = Code;
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = text[i], n = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (st) {
      case Code:
        if (c == '/' && n == '/') st = Line;
        else if (c == '/' && n == '*') st = Block;
        else if (c == '"') st = Str;
        else if (c == '\'' && !(i > 0 && text::is_identifier_char(text[i - 1]))) st = Chr;  // not 1'000
        else continue;
        out[i] = ' ';
        break;
      case Line:
        if (c == '\n') st = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && n == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          st = Code;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case Str:
      case Chr:
        if (c == '\\' && n != '\n') {
          out[i] = ' ';
          if (i + 1 < out.size()) out[++i] = ' ';
          break;
        }
        if ((st == Str && c == '"') || (st == Chr && c == '\'') || c == '\n') st = Code;
        if (c != '\n') out[i] = ' ';
        break;
    }
  }
  return out;
}

std::string namespace_at(std::string_view code, size_t at) {
  std::vector<std::string> stack;  // "" for a brace that opens no named namespace
  std::string pending;             // after `namespace NAME`, until its brace
  bool in_namespace_head = false;
  for (size_t i = 0; i < at && i < code.size(); ++i) {
    const char c = code[i];
    if (text::is_identifier_char(c) && (i == 0 || !text::is_identifier_char(code[i - 1]))) {
      size_t e = i;
      while (e < code.size() && text::is_identifier_char(code[e])) ++e;
      const std::string_view word = code.substr(i, e - i);
      if (word == "namespace") {
        in_namespace_head = true;
        pending.clear();
      } else if (in_namespace_head && word != "inline") {
        pending += (pending.empty() ? "" : "::") + std::string(word);
      }
      i = e - 1;
    } else if (c == '{') {
      stack.push_back(in_namespace_head ? (pending.empty() ? std::string("(anonymous)") : pending) : std::string());
      in_namespace_head = false;
    } else if (c == '}') {
      if (!stack.empty()) stack.pop_back();
    } else if (c == ';' || c == '=') {
      in_namespace_head = false;  // a namespace alias or using-directive
    }
  }
  std::string out;
  for (const auto& n : stack)
    if (!n.empty() && n != "(anonymous)") out += (out.empty() ? "" : "::") + n;
  return out;
}

namespace {

// Whether a name written with `scope` can be the one declared in namespace
// `context`: the same, or `scope` written relative to an enclosing one.
bool scope_matches(const std::string& scope, const std::string& context) {
  return scope.empty() || context == scope || context.ends_with("::" + scope);
}

}  // namespace

bool pytorch_scope(const std::string& scope) {
  if (scope.empty()) return true;
  const std::string first = scope.substr(0, scope.find("::"));
  return first == "torch" || first == "c10" || first == "at" || first == "caffe2" || first == "aoti";
}

const std::vector<std::string>& SkippedDeclarations::stable_files(CheckContext& ctx) {
  if (!stable_files_) {
    stable_files_.emplace();
    for (const auto& f : ctx.tu.files_read()) {
      const std::string name = ctx.tu.torch_header_name(f);
      if (!name.empty() && ctx.env.classifier.classify(name) == HeaderKind::Stable) stable_files_->push_back(f);
    }
  }
  return *stable_files_;
}

const std::string& SkippedDeclarations::code_of(CheckContext& ctx, const std::string& file) {
  auto it = code_.find(file);
  if (it == code_.end()) it = code_.emplace(file, code_only(ctx.tu.file_text(file))).first;
  return it->second;
}

std::optional<HiddenDeclaration> SkippedDeclarations::find(CheckContext& ctx, const std::string& scope,
                                                           const std::string& name, bool version_guards) {
  if (!pytorch_scope(scope)) return std::nullopt;
  for (const auto& file : stable_files(ctx)) {
    const std::string_view text = ctx.tu.file_text(file);
    if (text.find(name) == std::string_view::npos) continue;
    const OffsetRanges skipped = skipped_ranges(ctx.tu, file);
    if (skipped.empty()) continue;
    const std::string& code = code_of(ctx, file);
    for (const auto& b : inactive_branches(text, skipped)) {
      if (!version_guards && (b.directive.find("TORCH_FEATURE_VERSION") != std::string::npos ||
                              b.chain_opening.find("TORCH_FEATURE_VERSION") != std::string::npos))
        continue;
      for (size_t from = b.body_begin; from < b.body_end;) {
        const size_t p = declaration_of(code, from, b.body_end, name);
        if (p == std::string_view::npos) break;
        if (scope_matches(scope, namespace_at(code, p)))
          return HiddenDeclaration{ctx.tu.torch_header_name(file), LineIndex(text).at(static_cast<uint32_t>(p)).first, b};
        from = p + name.size();
      }
    }
  }
  return std::nullopt;
}

}  // namespace torchabi::source::checks
