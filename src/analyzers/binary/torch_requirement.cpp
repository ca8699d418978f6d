#include "analyzers/binary/torch_requirement.h"

#include <cctype>
#include <charconv>

namespace torchabi::binary {

std::optional<TorchVersion> parse_release(std::string_view v) {
  if (auto bang = v.find('!'); bang != std::string_view::npos) {
    if (v.substr(0, bang) != "0") return std::nullopt;  // a non-zero epoch sorts after every plain version
    v.remove_prefix(bang + 1);
  }
  if (v.starts_with("v") || v.starts_with("V")) v.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  int n = 0;
  while (!v.empty() && std::isdigit(static_cast<unsigned char>(v.front()))) {
    int value = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (ec != std::errc() || value > 255) return std::nullopt;
    if (n < 3) parts[n] = value;
    ++n;
    v.remove_prefix(size_t(p - v.data()));
    if (!v.starts_with(".")) break;
    if (v.size() > 1 && std::isdigit(static_cast<unsigned char>(v[1]))) v.remove_prefix(1);
    else break;
  }
  if (n == 0) return std::nullopt;
  if (v.empty() || v == ".*" || v.front() == '+') return TorchVersion{parts[0], parts[1], parts[2]};
  // Otherwise a PEP 440 pre/post/dev tag must follow: "rc1", ".post2", "-dev3".
  if (v.front() == '.' || v.front() == '-' || v.front() == '_') v.remove_prefix(1);
  size_t word = 0;
  while (word < v.size() && std::isalpha(static_cast<unsigned char>(v[word]))) ++word;
  static constexpr std::string_view tags[] = {"a", "b", "c", "rc", "alpha", "beta", "pre", "preview", "post", "rev", "r", "dev"};
  for (auto t : tags)
    if (v.substr(0, word) == t) return TorchVersion{parts[0], parts[1], parts[2]};
  return std::nullopt;
}

bool TorchAllowance::allows_older_than(TorchVersion floor) const {
  switch (kind) {
    case Kind::NotDeclared:
    case Kind::NoLowerBound: return true;
    case Kind::Unknown: return false;
    case Kind::LowerBound:
      if (inclusive) return bound < floor;
      // ">2.11" still allows 2.11.1.
      return TorchVersion{bound.major, bound.minor, bound.patch + 1} < floor;
  }
  return false;
}

std::string TorchAllowance::describe() const {
  return kind == Kind::NotDeclared ? undeclared : origin + ": " + requirement;
}

namespace {

// The allowance of one requirement on torch.
TorchAllowance allowance_of(const inputs::Requirement& r) {
  TorchAllowance a;
  a.requirement = r.text;
  if (!r.url.empty()) {
    a.kind = TorchAllowance::Kind::Unknown;
    return a;
  }
  a.kind = TorchAllowance::Kind::NoLowerBound;
  for (const auto& spec : r.specifiers) {
    if (spec.op == "<" || spec.op == "<=" || spec.op == "!=") continue;
    auto v = parse_release(spec.version);
    if (!v) {
      a.kind = TorchAllowance::Kind::Unknown;
      return a;
    }
    const bool inclusive = spec.op != ">";
    // Several lower bounds (">=2.10,>=2.11") all apply: the highest decides.
    if (a.kind != TorchAllowance::Kind::LowerBound || *v > a.bound || (*v == a.bound && !inclusive)) {
      a.kind = TorchAllowance::Kind::LowerBound;
      a.bound = *v;
      a.inclusive = inclusive;
    }
  }
  return a;
}

// Orders allowances from most to least permissive.
int permissiveness(const TorchAllowance& a) {
  switch (a.kind) {
    case TorchAllowance::Kind::NotDeclared:
    case TorchAllowance::Kind::NoLowerBound: return 3;
    case TorchAllowance::Kind::LowerBound: return 2;
    case TorchAllowance::Kind::Unknown: return 1;
  }
  return 0;
}

}  // namespace

TorchAllowance torch_allowance(const inputs::WheelMetadata& md) {
  TorchAllowance best;
  bool found = false;
  for (const auto& r : md.requires_dist) {
    if (r.normalized != "torch" || r.needs_extra()) continue;
    TorchAllowance a = allowance_of(r);
    if (!found || permissiveness(a) > permissiveness(best) ||
        (a.kind == TorchAllowance::Kind::LowerBound && best.kind == TorchAllowance::Kind::LowerBound &&
         a.bound < best.bound)) {
      best = a;
      found = true;
    }
  }
  if (!found) {
    // An unreadable Requires-Dist naming torch is not evidence of "no requirement".
    for (const auto& text : md.unparsed_requires)
      if (inputs::normalize_project_name(text.substr(0, text.find_first_of(" <>=!~;([@"))) == "torch") {
        best.kind = TorchAllowance::Kind::Unknown;
        best.requirement = text;
      }
  }
  return best;
}

}  // namespace torchabi::binary
