#include "analyzers/schema/compile_readiness/view_functions.h"

#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

bool ViewFunctions::aliases(const std::string& via) const {
  const auto colons = via.rfind("::");
  if (colons != std::string::npos)
    return namespaces.count(via.substr(0, colons)) && names.count(via.substr(colons + 2));
  const auto dot = via.rfind('.');
  return dot != std::string::npos && names.count(via.substr(dot + 1));
}

ViewFunctions ViewFunctions::load(const inputs::RulesSource& rules) {
  const char* path = "schema/view_functions.yaml";
  ViewFunctions v;
  try {
    YAML::Node doc = YAML::Load(rules.require(path));
    for (const auto& n : doc["namespaces"]) v.namespaces.insert(n.as<std::string>());
    for (const auto& n : doc["functions"]) v.names.insert(n.as<std::string>());
  } catch (const YAML::Exception& e) {
    throw InputError(path, "malformed: " + e.msg);
  }
  if (v.names.empty() || v.namespaces.empty())
    throw InputError(path, "expected 'namespaces:' and 'functions:', lists of names");
  return v;
}

}  // namespace torchabi::schema
