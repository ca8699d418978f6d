// Compares a kernel's outputs with what a case expects: dtype, shape, and
// values within a tolerance (|got - want| <= atol + rtol * |want|, NaN equal
// to NaN), with torch.testing's default tolerances for the dtype unless the
// case gives rtol/atol. An expected output written as null is not compared.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime_driver {

struct Mismatch {
  std::string message;             // "output 0 has dtype float64, expected float32"
  std::vector<std::string> notes;  // element details
};

// Throws InputError (prefixed by `where`) when the expectation itself is malformed.
std::vector<Mismatch> compare_outputs(const std::vector<runtime::Value>& actual, const YAML::Node& expected,
                                      const runtime::OpSignature& sig, const std::string& where);

struct Tolerance {
  double rtol = 0, atol = 0;
};
Tolerance default_tolerance(int32_t dtype);

// "[2, 3]": a shape or an element index as torch prints it.
std::string shape_text(const std::vector<int64_t>& sizes);

}  // namespace torchabi::runtime_driver
