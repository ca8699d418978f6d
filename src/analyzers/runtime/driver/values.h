// Builds the arguments of a call: from a case file's YAML, converted to the
// types the op's schema declares, or (smoke mode) synthesised from the schema
// alone. Conversion errors are the case file's fault: InputError naming the
// case and the argument.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime_driver {

using runtime::OpSignature;
using runtime::Tensor;
using runtime::TypeDesc;
using runtime::Value;

// `where` prefixes error messages ("cases.yaml:4: case 'x', argument 'a'").
Value value_from_yaml(const YAML::Node& n, const TypeDesc& t, const std::string& where);
Tensor tensor_from_yaml(const YAML::Node& n, const std::string& where);

// The numbers of a (nested) `values` list, flattened, and the shape the nesting
// implies. Reads `n` in place: building new YAML nodes out of a big case file's
// nodes would merge the whole file's node memory into them each time.
std::vector<double> flat_values(const YAML::Node& n, std::vector<int64_t>& implied_shape, const std::string& where);

// Arguments in schema order; a missing argument takes its schema default.
std::vector<Value> case_arguments(const YAML::Node& inputs, const OpSignature& sig, const std::string& where);

// Small CPU inputs derived from the schema: every Tensor is a 2x3 tensor of
// `dtype` with distinct values, ints are 1, floats 0.5, optionals None
// (unless required), lists one element. Defaults are used where present.
std::vector<Value> smoke_arguments(const OpSignature& sig, int32_t dtype);

// The dtypes smoke mode tries, in order, until a kernel accepts one.
const std::vector<int32_t>& smoke_dtypes();

}  // namespace torchabi::runtime_driver
