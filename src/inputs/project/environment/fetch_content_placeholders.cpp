#include "inputs/project/environment/fetch_content_placeholders.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/regex.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace fetch_content_detail {

constexpr size_t kMaxFiles = 20000;
constexpr uintmax_t kMaxBytes = 1 << 20;

std::string cmake_upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The text of every FetchContent_Declare(...) call, up to its closing paren.
std::vector<std::string> declarations(const std::string& text) {
  std::vector<std::string> out;
  static const std::string kCall = "fetchcontent_declare";
  std::string lower = text;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (size_t at = lower.find(kCall); at != std::string::npos; at = lower.find(kCall, at + 1)) {
    size_t open = text.find_first_not_of(" \t", at + kCall.size());
    if (open == std::string::npos || text[open] != '(') continue;
    int depth = 0;
    size_t end = open;
    for (; end < text.size(); ++end) {
      if (text[end] == '(') ++depth;
      else if (text[end] == ')' && --depth == 0) break;
    }
    if (end < text.size()) out.push_back(text.substr(open + 1, end - open - 1));
  }
  return out;
}

}  // namespace fetch_content_detail

using namespace fetch_content_detail;

FetchContentPlaceholders write_fetch_content_placeholders(const std::string& project, const std::string& dir) {
  FetchContentPlaceholders out;
  static const Regex kName(R"(^\s*([A-Za-z0-9_.+-]+))");
  static const Regex kDownload(R"(\b(GIT_REPOSITORY|URL|SVN_REPOSITORY|HG_REPOSITORY)\b)");
  static const Regex kLocal(R"(\bSOURCE_DIR\b)");
  std::set<std::string> seen;
  std::error_code ec;
  size_t files = 0;
  for (auto it = fs::recursive_directory_iterator(project, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator() && ++files < kMaxFiles; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename() != "CMakeLists.txt" && p.extension() != ".cmake") continue;
    if (!it->is_regular_file(ec) || it->file_size(ec) > kMaxBytes) continue;
    std::ifstream in(p, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    for (const std::string& d : declarations(text.str())) {
      const auto name = kName.search(d);
      // A declaration with its own SOURCE_DIR is read from the project. (A
      // name also declared with a download elsewhere, vLLM's
      // `if(DEFINED ENV{VLLM_CUTLASS_SRC_DIR})`, takes the download's
      // branch here: the sandbox's environment is cleared.)
      if (!name || !kDownload.contains(d) || kLocal.contains(d)) continue;
      const std::string n = (*name)[1];
      if (n.find('$') != std::string::npos || !seen.insert(cmake_upper(n)).second) continue;
      const fs::path placeholder = fs::path(dir) / n;
      fs::create_directories(placeholder);
      std::ofstream(placeholder / "CMakeLists.txt")
          << "# torchabi: a placeholder for " << n << ", which a real configure downloads (no network here).\n";
      out.cmake_args.push_back("-DFETCHCONTENT_SOURCE_DIR_" + cmake_upper(n) + "=" + placeholder.string());
      out.names.push_back(n);
    }
  }
  return out;
}

}  // namespace torchabi::inputs
