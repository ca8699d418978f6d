#include "inputs/project/torch_location.h"

#include "common/regex.h"
#include "common/text.h"
#include "common/version.h"
#include "inputs/python/run_python.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// Prints, one per line: torch's version, its cpp_extension.py, Python's
// include directory, then torch's include paths.
constexpr const char* kQuery =
    "import sysconfig, torch, torch.utils.cpp_extension as c; "
    "print(torch.__version__); print(c.__file__); print(sysconfig.get_paths()['include']); "
    "print('\\n'.join(c.include_paths()))";

}  // namespace

void read_cpp_extension_defaults(const std::string& path, TorchLocation& into) {
  std::ifstream in(path);
  if (!in) return;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  // The standard the build functions pass most often (docstrings mention others).
  std::map<std::string, int> stds;
  static const Regex kStd("-std=c\\+\\+\\d+");
  for (const RegexMatch& m : kStd.search_all(text)) ++stds[m[0]];
  int best = 0;
  for (const auto& [flag, n] : stds)
    if (n > best) best = n, into.std_flag = flag;
  static const Regex kLimited("min_supported_cpython\\s*=\\s*[\"'](0x[0-9A-Fa-f]+)[\"']");
  if (auto m = kLimited.search(text)) into.limited_api = (*m)[1];
}

TorchLocation locate_torch(const std::string& torch_include, const std::string& python) {
  TorchLocation loc;
  if (!torch_include.empty()) {
    const fs::path dir = fs::absolute(torch_include).lexically_normal();
    loc.include_dirs.push_back(dir.string());
    if (fs::is_directory(dir / "torch/csrc/api/include")) loc.include_dirs.push_back((dir / "torch/csrc/api/include").string());
    loc.how = "torch headers from --torch-include " + dir.string();
    // pip's layout (torch/include next to torch/utils) and Debian's (/usr/include
    // with the Python package under /usr/lib/python3/dist-packages).
    for (const fs::path& p : {dir.parent_path() / "utils/cpp_extension.py",
                              dir.parent_path() / "lib/python3/dist-packages/torch/utils/cpp_extension.py"})
      if (fs::is_regular_file(p)) {
        read_cpp_extension_defaults(p.string(), loc);
        loc.how += " (defaults of " + p.string() + ")";
        break;
      }
    // BuildExtension adds the interpreter's include directory (Python.h) too.
    if (auto py = run_python_query(python, "import sysconfig; print(sysconfig.get_paths()['include'])");
        py && py->size() == 1 && fs::is_regular_file(fs::path(py->front()) / "Python.h")) {
      loc.include_dirs.push_back(py->front());
      loc.how += "; Python.h from " + py->front();
    }
    return loc;
  }
  const auto result = run_python_query(python, kQuery);
  if (!result || result->size() < 4) {
    loc.how = "torch headers not found: " + python + " cannot import torch (give them with --torch-include DIR)";
    return loc;
  }
  const std::vector<std::string>& lines = *result;
  for (size_t i = 3; i < lines.size(); ++i) loc.include_dirs.push_back(lines[i]);
  loc.include_dirs.push_back(lines[2]);  // Python.h, as setuptools adds it
  read_cpp_extension_defaults(lines[1], loc);
  loc.how = "torch " + lines[0] + " of " + python + " (" + fs::path(lines[1]).parent_path().parent_path().string() + ")";
  return loc;
}

std::string torch_headers_version(const std::vector<std::string>& include_dirs) {
  for (const auto& d : include_dirs)
    for (const char* rel : {"torch/headeronly/version.h", "torch/csrc/api/include/torch/version.h", "torch/version.h"})
      if (auto v = TorchVersion::from_version_header(text::read_file_or_empty(std::filesystem::path(d) / rel)))
        return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
  return "";
}

}  // namespace torchabi::inputs
