#include "inputs/project/torch_include_kind.h"

#include <filesystem>
#include <fstream>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

constexpr size_t kReadLimit = 256u << 10;  // #include lines are at the top
constexpr int kMaxDepth = 32;

const char* const kStableRoots[] = {"torch/csrc/stable/", "torch/headeronly/", "torch/csrc/inductor/aoti_torch/c/"};
const char* const kLegacyRoots[] = {"ATen/", "c10/", "torch/extension.h", "torch/torch.h", "torch/library.h",
                                    "torch/all.h", "torch/python.h", "torch/script.h"};

// The name between the delimiters of an #include line, or "" when the line
// is not one (a comment mentioning ATen/ is not an include).
std::string included_name(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  const size_t open = line.find_first_of("\"<", i + 7);
  if (open == std::string::npos) return "";
  const size_t close = line.find(line[open] == '"' ? '"' : '>', open + 1);
  return close == std::string::npos ? "" : line.substr(open + 1, close - open - 1);
}

}  // namespace

TorchIncludeGraph::TorchIncludeGraph(const std::vector<std::string>& headers) {
  for (const auto& h : headers) by_basename_[fs::path(h).filename().string()].push_back(h);
}

TorchIncludeGraph::Own TorchIncludeGraph::own_includes(const std::string& file) const {
  Own own;
  std::ifstream in(file, std::ios::binary);
  std::string line;
  size_t read = 0;
  while (read < kReadLimit && std::getline(in, line)) {
    read += line.size() + 1;
    const std::string name = included_name(line);
    if (name.empty()) continue;
    bool torch = false;
    for (const char* root : kStableRoots)
      if (name.starts_with(root)) {
        torch = true;
        own.kind = own.kind == TorchIncludeKind::None ? TorchIncludeKind::Stable : own.kind;
        own.api = own.api || !name.starts_with("torch/headeronly/");
      }
    for (const char* root : kLegacyRoots)
      if (name.starts_with(root)) torch = true, own.legacy = true, own.kind = TorchIncludeKind::Legacy;
    if (!torch) own.quoted.push_back(name);
  }
  return own;
}

std::string TorchIncludeGraph::resolve(const std::string& from, const std::string& name) const {
  std::error_code ec;
  const fs::path sibling = (fs::path(from).parent_path() / name).lexically_normal();
  if (fs::is_regular_file(sibling, ec)) {
    const auto it = by_basename_.find(sibling.filename().string());
    if (it != by_basename_.end())
      for (const auto& h : it->second)
        if (h == sibling.string()) return h;
  }
  const auto it = by_basename_.find(fs::path(name).filename().string());
  if (it == by_basename_.end()) return "";
  const std::string suffix = "/" + fs::path(name).lexically_normal().string();
  for (const auto& h : it->second)
    if (h.ends_with(suffix)) return h;
  return "";
}

TorchIncludeKind TorchIncludeGraph::reach(const std::string& file, int depth) {
  if (const auto it = memo_.find(file); it != memo_.end()) return it->second;
  memo_[file] = TorchIncludeKind::None;  // an include cycle adds nothing
  const Own own = own_includes(file);
  TorchIncludeKind kind = own.kind;
  if (kind == TorchIncludeKind::None && depth < kMaxDepth) {
    for (const auto& name : own.quoted) {
      const std::string header = resolve(file, name);
      if (header.empty()) continue;
      const TorchIncludeKind k = reach(header, depth + 1);
      if (k == TorchIncludeKind::Legacy) {
        kind = k;
        break;
      }
      if (k == TorchIncludeKind::Stable) kind = k;
    }
  }
  memo_[file] = kind;
  return kind;
}

bool TorchIncludeGraph::reach_api(const std::string& file, int depth) {
  if (const auto it = api_memo_.find(file); it != api_memo_.end()) return it->second;
  api_memo_[file] = false;  // an include cycle adds nothing
  const Own own = own_includes(file);
  bool api = own.api;
  for (size_t i = 0; !api && depth < kMaxDepth && i < own.quoted.size(); ++i)
    if (const std::string header = resolve(file, own.quoted[i]); !header.empty()) api = reach_api(header, depth + 1);
  api_memo_[file] = api;
  return api;
}

bool TorchIncludeGraph::reach_mixed(const std::string& file, int depth) {
  if (const auto it = mixed_memo_.find(file); it != mixed_memo_.end()) return it->second;
  mixed_memo_[file] = false;  // an include cycle adds nothing
  const Own own = own_includes(file);
  bool mixed = own.api && own.legacy;
  for (size_t i = 0; !mixed && depth < kMaxDepth && i < own.quoted.size(); ++i)
    if (const std::string header = resolve(file, own.quoted[i]); !header.empty()) mixed = reach_mixed(header, depth + 1);
  mixed_memo_[file] = mixed;
  return mixed;
}

TorchIncludeKind TorchIncludeGraph::kind(const std::string& file) { return reach(file, 0); }

bool TorchIncludeGraph::reaches_stable_api(const std::string& file) { return reach_api(file, 0); }

bool TorchIncludeGraph::mixes_stable_and_legacy(const std::string& file) { return reach_mixed(file, 0); }

}  // namespace torchabi::inputs
