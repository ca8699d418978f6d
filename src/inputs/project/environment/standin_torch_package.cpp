#include "inputs/project/environment/standin_torch_package.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/json_io.h"

#include "inputs/project/record_cmake_drive_py.h"  // generated from record_cmake_drive.py
#include "inputs/project/record_setup_py.h"  // generated from record_setup.py
#include "inputs/project/standin_torch_package_py.h"  // generated from standin_torch_package.py
#include "inputs/rules_source.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

StandInTorchPackage write_standin_torch_package(const std::string& dir, const TorchLocation& torch,
                                                const std::string& cuda_home, const std::string& cuda_version) {
  const fs::path root(dir);
  fs::create_directories(root / "torch");
  std::ofstream(root / "torch" / "__init__.py", std::ios::binary) << generated::kStandinTorchPackagePy;
  std::ofstream(root / "record_setup.py", std::ios::binary) << generated::kRecordSetupPy;
  std::ofstream(root / "record_cmake_drive.py", std::ios::binary) << generated::kRecordCmakeDrivePy;
  const fs::path surface = root / "torch_surface.json";
  std::ofstream(surface, std::ios::binary) << RulesSource::current().read("project/torch_surface.json").value_or("{}");
  nlohmann::json config = {{"cuda_home", cuda_home},
                           {"cuda_version", cuda_version},
                           {"surface", surface.string()},
                           {"torch_version", torch_headers_version(torch.include_dirs)}};
  if (!torch.include_dirs.empty()) config["include_dir"] = torch.include_dirs.front();
  std::ofstream(root / "standin.json", std::ios::binary) << json_io::dump(config, 1);
  return {root.string(), (root / "used").string()};
}

}  // namespace torchabi::inputs
