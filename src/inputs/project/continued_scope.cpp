#include "inputs/project/continued_scope.h"

#include <cctype>

namespace torchabi::inputs {

namespace {

std::string lowered(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Whether a target-scoped entry (an imported target, a NOTFOUND value) is a
// name of package `package`: "WebP::webp", "WEBP_LIBRARY-NOTFOUND".
bool names_package(const ContinuedPast& e, const std::string& package) {
  const std::string what = lowered(e.what.substr(e.what.rfind('/') + 1));
  const std::string p = lowered(package);
  return what.starts_with(p + "::") || what.starts_with(p + "_");
}

bool target_scoped(const ContinuedPast& e) { return e.kind == "target" || e.kind == "notfound"; }

}  // namespace

std::vector<const ContinuedPast*> continued_affecting(const std::vector<ContinuedPast>& continued,
                                                      const std::string& target) {
  std::vector<const ContinuedPast*> out;
  for (const auto& e : continued) {
    if (target_scoped(e)) {
      if (e.where == target) out.push_back(&e);
      continue;
    }
    if (e.kind != "find_package") {  // message(FATAL_ERROR): what follows it is unknown everywhere
      out.push_back(&e);
      continue;
    }
    bool used = false, used_here = false;
    for (const auto& t : continued)
      if (target_scoped(t) && names_package(t, e.what)) used = true, used_here |= t.where == target;
    if (!used || used_here) out.push_back(&e);
  }
  return out;
}

}  // namespace torchabi::inputs
