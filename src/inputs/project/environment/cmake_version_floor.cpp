#include "inputs/project/environment/cmake_version_floor.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "inputs/project/timed_child.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

std::vector<long> parts(const std::string& v) {
  std::vector<long> out;
  std::istringstream in(v);
  std::string p;
  while (std::getline(in, p, '.')) {
    long n = 0;
    for (char c : p) {
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      n = n * 10 + (c - '0');
    }
    out.push_back(n);
  }
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Lowers the floor of every cmake_minimum_required call of `text`; returns
// the first version that was above `machine` ("" when none).
std::string lower_calls(std::string& text, const std::string& machine) {
  std::string asked;
  const std::string folded = lower(text);
  std::string out;
  size_t copied = 0;
  for (size_t at = folded.find("cmake_minimum_required"); at != std::string::npos;
       at = folded.find("cmake_minimum_required", at + 1)) {
    const size_t open = folded.find('(', at);
    const size_t close = folded.find(')', at);
    if (open == std::string::npos || close == std::string::npos || close < open) break;
    const size_t kw = folded.find("version", open);
    if (kw == std::string::npos || kw > close) continue;
    size_t v = kw + 7;
    while (v < close && std::isspace(static_cast<unsigned char>(folded[v]))) ++v;
    size_t end = v;
    // "3.26...3.30": the floor stops at the range's dots.
    while (end < close && (std::isdigit(static_cast<unsigned char>(folded[end])) ||
                           (folded[end] == '.' && end + 1 < close && std::isdigit(static_cast<unsigned char>(folded[end + 1])))))
      ++end;
    const std::string version = text.substr(v, end - v);
    if (version.empty() || !version_below(machine, version)) continue;
    if (asked.empty()) asked = version;
    out += text.substr(copied, v - copied) + machine;
    copied = end;
  }
  if (asked.empty()) return asked;
  out += text.substr(copied);
  text = std::move(out);
  return asked;
}

std::vector<LoweredFloor> floors_above(const std::string& copy, const std::string& machine, bool rewrite);

}  // namespace

bool version_below(const std::string& a, const std::string& b) {
  std::vector<long> x = parts(a), y = parts(b);
  x.resize(std::max(x.size(), y.size()));
  y.resize(x.size());
  return x < y;
}

std::string machine_cmake_version(const std::string& cmake) {
  const ChildResult r = run_timed({cmake, "--version"}, "/", 30);
  if (!r.started || r.exit_code != 0) return "";
  const std::string prefix = "cmake version ";
  const size_t at = r.output.find(prefix);
  if (at == std::string::npos) return "";
  size_t end = at + prefix.size();
  while (end < r.output.size() && (std::isdigit(static_cast<unsigned char>(r.output[end])) || r.output[end] == '.')) ++end;
  return r.output.substr(at + prefix.size(), end - at - prefix.size());
}

std::vector<LoweredFloor> lower_cmake_floor(const std::string& copy, const std::string& machine) {
  return floors_above(copy, machine, true);
}

std::string highest_cmake_floor(const std::string& copy) {
  std::string highest;
  for (const auto& f : floors_above(copy, "0", false))
    if (highest.empty() || version_below(highest, f.asked)) highest = f.asked;
  return highest;
}

namespace {

std::vector<LoweredFloor> floors_above(const std::string& copy, const std::string& machine, bool rewrite) {
  std::vector<LoweredFloor> out;
  if (machine.empty()) return out;
  std::error_code ec;
  size_t seen = 0;
  for (auto it = fs::recursive_directory_iterator(copy, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator() && ++seen < 200000; it.increment(ec)) {
    if (it->path().filename() != "CMakeLists.txt" || !it->is_regular_file(ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::string asked = lower_calls(text, machine);
    if (asked.empty()) continue;
    if (rewrite) std::ofstream(it->path(), std::ios::binary | std::ios::trunc) << text;
    out.push_back({it->path().string(), asked});
  }
  return out;
}

}  // namespace

}  // namespace torchabi::inputs
