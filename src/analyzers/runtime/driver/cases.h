// Case files for `torchabi run --cases FILE.yaml`: named calls of the
// extension's ops with inputs and the outputs (or the error) to expect.
//
//   cases:
//     - name: add_small
//       op: myops::add            # ns::name[.overload]
//       inputs:                   # in schema order, or a map by argument name
//         - {dtype: float32, shape: [2, 3], arange: true}
//         - {dtype: float32, shape: [2, 3], fill: 1.5}
//         - 2                     # scalars take the argument's schema type
//       expect:
//         outputs:
//           - {dtype: float32, shape: [2, 3], values: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]}
//     - name: rejects_bool
//       op: myops::add
//       inputs: [{dtype: bool, shape: [2]}, {dtype: bool, shape: [2]}, 1]
//       expect: {error: "expected a float tensor"}
//
// The file is read and checked for shape before the extension is loaded;
// values are converted to the schema's types once the op's schema is known.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace torchabi::runtime_driver {

struct Case {
  std::string name;
  std::string op;             // "myops::add" or "myops::add.Tensor"
  YAML::Node inputs;          // sequence, map, or null (no arguments)
  YAML::Node expect_outputs;  // a sequence when expects_outputs
  bool expects_outputs = false;
  std::optional<std::string> expect_error;  // substring; "" = any error
  int line = 0;               // 1-based line of the case in the file
};

struct CaseFile {
  std::string path;
  std::vector<Case> cases;
};

// Throws InputError (naming the file, and the line where it helps) for a file
// that is missing, is not YAML, or does not have the shape above.
CaseFile load_case_file(const std::string& path);

// "file.yaml:12: case 'add_small'" — the prefix of messages about a case.
std::string where(const CaseFile& file, const Case& c);

}  // namespace torchabi::runtime_driver
