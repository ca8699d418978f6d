#include "analyzers/schema/registrations/stable_fit.h"

#include "analyzers/schema/printer.h"

namespace torchabi::schema {

std::string forms_text(const std::vector<std::string>& forms) {
  std::string out;
  for (size_t i = 0; i < forms.size() && i < 3; ++i) out += (i ? " or " : "") + forms[i];
  if (forms.size() > 3) out += " (or " + std::to_string(forms.size() - 3) + " more)";
  return out;
}

StableConversions::StableConversions(const KernelTypes& types, const TuRegistrations* tu)
    : types_(types),
      used_(tu && tu->boxable && tu->boxable->found ? *tu->boxable : types.fallback()),
      own_(&used_ != &types.fallback()) {
  if (tu && !tu->target_version.empty()) target_ = TorchVersion::parse_dotted(tu->target_version);
}

std::string StableConversions::headers() const {
  return "the headers in use" + (used_.torch_version ? " (PyTorch " + used_.torch_version->str() + ")" : std::string());
}

template <typename MatchFn, typename FormsFn>
StableFit StableConversions::fit(MatchFn match, FormsFn forms) const {
  const source::BoxableTypes& pytorch = types_.fallback();
  auto too_new = [&](const std::optional<TorchVersion>& since) { return target_ && since && *target_ < *since; };
  auto needs = [&](const TorchVersion& since) {
    return StableFit{StableFit::Kind::Release, "needs PyTorch " + since.str() +
                                                   " (its StableIValue conversion first shipped then), but "
                                                   "TORCH_TARGET_VERSION is " +
                                                   target_->str()};
  };
  StableMatch m = match(used_);
  if (m.ok) return too_new(m.since) ? needs(*m.since) : StableFit{};
  if (own_) {
    // PyTorch's headers convert it; those this TU is built with do not.
    StableMatch newer = match(pytorch);
    if (newer.ok) {
      if (too_new(newer.since)) return needs(*newer.since);
      std::string release = newer.since ? newer.since->str()
                            : pytorch.torch_version ? pytorch.torch_version->str()
                                                    : std::string("a newer release");
      return {StableFit::Kind::Release,
              "has no StableIValue conversion in " + headers() + "; PyTorch " + release + "'s headers have one"};
    }
  }
  TypeForms f = forms(used_);
  if (f.cpp.empty() && own_) f = forms(pytorch);
  if (f.cpp.empty()) return {StableFit::Kind::Skip, {}};
  return {StableFit::Kind::Mismatch, forms_text(f.cpp)};
}

StableFit StableConversions::param(const Type& type, const CppType& cpp) const {
  return fit([&](const source::BoxableTypes& b) { return types_.match(type, Flow::Param, cpp.normalized, cpp.spelled, b); },
             [&](const source::BoxableTypes& b) { return types_.stable(type, Flow::Param, b); });
}

StableFit StableConversions::result(const std::vector<Return>& returns, const CppType& cpp) const {
  return fit([&](const source::BoxableTypes& b) { return types_.match_returns(returns, cpp.normalized, b); },
             [&](const source::BoxableTypes& b) { return types_.stable_returns(returns, b); });
}

StableFit StableConversions::stack(const Type& type, Flow flow, const CppType& cpp) const {
  return fit([&](const source::BoxableTypes& b) { return types_.match(type, flow, cpp.normalized, cpp.spelled, b); },
             [&](const source::BoxableTypes& b) { return types_.stable(type, flow, b); });
}

TypeForms StableConversions::representation(const Type& type, Flow flow) const {
  TypeForms f = types_.stable(type, flow, used_);
  if (f.unsupported.empty() || !own_) return f;
  TypeForms g = types_.stable(type, flow, types_.fallback());
  return g.unsupported.empty() ? g : f;
}

std::string StableConversions::suggestion(const Type& type, Flow flow) const {
  TypeForms f = representation(type, flow);
  return f.cpp.empty() ? to_string(type) : f.cpp.front();
}

}  // namespace torchabi::schema
