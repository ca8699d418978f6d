#include "cli/audit_target.h"

#include "common/input_error.h"
#include "findings/config.h"

namespace torchabi::cli {

std::optional<TorchVersion> audit_target_version(const std::string& flag, const std::string& config_path,
                                                 const std::vector<std::string>& inputs,
                                                 const inputs::ApiCatalog& catalog) {
  std::string text = flag, origin = "--target-version";
  if (text.empty()) {
    findings::Config config =
        config_path.empty() ? findings::Config::discover(inputs) : findings::Config::load_file(config_path);
    if (!config.target_version) return std::nullopt;
    text = *config.target_version;
    origin = config.source + ": target-version";
  }
  TargetVersionReading r = read_target_version(text, catalog.latest());
  if (!r.error.empty()) throw InputError(origin, r.error);
  return r.version;
}

}  // namespace torchabi::cli
