// info/index.json of a conda package: its name, version, build and the
// run-time `depends` (conda match specs such as "pytorch >=2.10,<3").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

// One `depends` entry split as conda reads a match spec: "name [version [build]]".
struct CondaDependency {
  std::string text;     // as written
  std::string name;     // lower-cased, channel ("conda-forge::") removed
  std::string version;  // the version spec ("" = any): ">=2.10,<3", "2.12.*", "2.4|2.5"
  std::string build;    // the build string spec ("" = any)
};

struct CondaIndex {
  std::string name, version, build, subdir;
  std::vector<CondaDependency> depends;
};

CondaDependency parse_conda_dependency(std::string_view spec);

// Throws InputError naming `label` when the text is not a JSON object with a
// string "name" (all else is optional, as conda's own readers treat it).
CondaIndex parse_conda_index(std::string_view json, const std::string& label);

}  // namespace torchabi::inputs
