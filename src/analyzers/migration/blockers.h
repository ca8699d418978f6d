// The APIs that block a stable-ABI port today and their workarounds, read
// from rules/api/migration_blockers.yaml (whole subsystems) and
// rules/api/migration_gaps.yaml (single APIs: the workaround people use, the
// release whose headers add the stable API when that is known). Data, so a
// new PyTorch release that lifts one is a rules change, not a code change.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::migration {

struct Blocker {
  std::string id;
  std::string title;
  std::vector<std::string> apis;  // qualified names or macro names
  std::string workaround;
  std::optional<TorchVersion> partial_since;
  std::optional<TorchVersion> added_in;  // a release whose stable headers add it
  std::string source;                    // where the facts of the entry come from
};

class BlockerCatalog {
public:
  // Throws InputError naming the file when it is malformed.
  static BlockerCatalog load(const inputs::RulesSource& src);
  // `key`: the list to read ("blockers", or "gaps", whose entries must name a source).
  static BlockerCatalog from_yaml(std::string_view text, const std::string& name, const std::string& key = "blockers");
  // Adds `more`'s entries; an id listed in both is an InputError naming `name`.
  void merge(BlockerCatalog more, const std::string& name);

  // The blocker covering `api`: an exact name, or a member of a listed name
  // (torch::class_ covers torch::class_<Foo>::def). Template arguments,
  // parameter lists and a leading "::" are ignored.
  const Blocker* match(std::string_view api) const;
  const Blocker* find(std::string_view id) const;
  const std::vector<Blocker>& all() const { return blockers_; }

private:
  std::vector<Blocker> blockers_;
};

// "torch::class_<Foo>::def" -> "torch::class_::def"; "::at::Tensor" -> "at::Tensor";
// "at::Tensor::add(const at::Tensor &)" -> "at::Tensor::add".
std::string normalize_api_name(std::string_view name);

}  // namespace torchabi::migration
