#include "analyzers/migration/header_rewrite.h"

#include <algorithm>

#include "analyzers/migration/directive_scanner.h"

namespace torchabi::migration {

using findings::FixIt;
using findings::FixSafety;

namespace {

// "<optional>" -> "optional", "\"stable_ops.h\"" -> "stable_ops.h"; "torch/csrc/stable/tensor.h" stays.
std::string bare(const std::string& header) {
  if (header.size() >= 2 && ((header.front() == '<' && header.back() == '>') || (header.front() == '"' && header.back() == '"')))
    return header.substr(1, header.size() - 2);
  return header;
}

// A header of the project itself (the stable_ops.h --fix writes next to the file): included with quotes.
bool quoted(const std::string& header) { return header.size() >= 2 && header.front() == '"' && header.back() == '"'; }

// Whether a directive includes `header` ("torch/extension.h" also matches a
// directive spelled "some/prefix/torch/extension.h"; the converse too: lint
// names <torch/all.h> after the first include root holding it,
// "torch/csrc/api/include/torch/all.h", while the file writes it relative to
// torch/csrc/api/include). The caller also requires the same line.
bool names(const IncludeDirective& d, const std::string& header) {
  if (d.target == header) return true;
  auto ends_with_path = [](const std::string& longer, const std::string& shorter) {
    const size_t n = shorter.size();
    return longer.size() > n && longer.compare(longer.size() - n, n, shorter) == 0 && longer[longer.size() - n - 1] == '/';
  };
  return ends_with_path(d.target, header) || ends_with_path(header, d.target);
}

}  // namespace

std::vector<FixIt> header_fixes(const HeaderRewriteInput& in) {
  const DirectiveScan scan = scan_directives(in.text);

  std::vector<std::string> needed, local;
  for (const auto& h : in.needed) {
    const std::string name = bare(h);
    auto& into = quoted(h) ? local : needed;
    if (name.empty() || std::find(into.begin(), into.end(), name) != into.end()) continue;
    const bool present = std::any_of(scan.includes.begin(), scan.includes.end(),
                                     [&](const IncludeDirective& d) { return d.target == name; });
    if (!present) into.push_back(name);
  }
  std::sort(needed.begin(), needed.end());
  std::sort(local.begin(), local.end());
  std::string block;
  for (const auto& h : needed) block += "#include <" + h + ">\n";
  for (const auto& h : local) block += "#include \"" + h + "\"\n";
  needed.insert(needed.end(), local.begin(), local.end());

  // Only the directives that name the legacy header themselves: an include of
  // a third-party header that pulls torch in is the user's call, not ours.
  std::vector<const IncludeDirective*> legacy;
  for (const auto& d : scan.includes)
    for (const auto& l : in.legacy)
      if (d.line_number == l.line && names(d, l.header)) {
        legacy.push_back(&d);
        break;
      }

  std::vector<FixIt> out;
  auto fix = [&](uint32_t b, uint32_t e, std::string text, FixSafety safety, std::string what) {
    out.push_back({in.file, b, e, std::move(text), safety, std::move(what), {}, {}});
  };

  if (!legacy.empty() && !in.legacy_still_needed) {
    const FixSafety safety = needed.empty() ? FixSafety::Unsafe : FixSafety::Safe;
    for (size_t i = 0; i < legacy.size(); ++i) {
      const auto& d = *legacy[i];
      std::string replacement = i == 0 ? block : std::string();
      if (i == 0 && !replacement.empty() && (d.line.end == d.line.begin || in.text[d.line.end - 1] != '\n'))
        replacement.pop_back();  // the legacy include was the last line and had no newline
      fix(d.line.begin, d.line.end, std::move(replacement), safety,
          i == 0 && !needed.empty() ? "replace <" + d.target + "> with the stable headers the code uses"
                                    : "remove <" + d.target + ">: nothing uses it any more");
    }
    return out;
  }
  if (needed.empty()) return out;

  uint32_t at = 0;
  if (!legacy.empty()) {
    at = legacy.front()->line.begin;
  } else if (!scan.includes.empty()) {
    const auto first = std::min_element(scan.includes.begin(), scan.includes.end(),
                                        [](const IncludeDirective& a, const IncludeDirective& b) {
                                          return a.conditional_depth < b.conditional_depth;
                                        });
    at = first->line.begin;
  } else {
    at = scan.after_pragma_once;
    if (at > 0 && in.text[at - 1] != '\n') block = "\n" + block;
  }
  fix(at, at, block, FixSafety::Safe, "include the stable headers the rewritten code uses");
  return out;
}

}  // namespace torchabi::migration
