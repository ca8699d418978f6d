// PyTorch's own operators (rules/schema/aten_ops.tsv, derived from
// native_functions.yaml): which exist in the release the rules describe, with
// their schemas, and which have no composite kernel, so that a device backend
// must implement them itself. Read here, below the analyzers, because both
// the registration checks (analyzers/schema) and lint's source checks use it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace torchabi::inputs {

class RulesSource;

struct AtenOp {
  std::string schema;      // as in native_functions.yaml
  bool composite = false;  // a CompositeImplicit/ExplicitAutograd kernel serves every backend
};

class AtenOps {
public:
  // Throws InputError naming the file when a row is malformed.
  static AtenOps load(const inputs::RulesSource& rules);
  static AtenOps parse(const std::string& tsv, const std::string& origin);

  const std::string& release() const { return release_; }
  // By "name.overload" ("add.Tensor"; "relu" for the default overload).
  const AtenOp* find(const std::string& name) const;
  // Overloads of the operator `name` ("add" -> add.Tensor, add.Scalar, ...).
  std::vector<std::string> overloads_of(const std::string& name) const;
  const std::map<std::string, AtenOp>& all() const { return ops_; }

private:
  std::string release_;
  std::map<std::string, AtenOp> ops_;
};

}  // namespace torchabi::inputs
