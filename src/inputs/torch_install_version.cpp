#include "inputs/torch_install_version.h"
#include "common/text.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <set>
#include <zlib.h>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

using text::trim;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The first line of a gzip-compressed file (Debian's changelog.Debian.gz).
std::optional<std::string> gz_first_line(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  gzFile f = gzopen(p.c_str(), "rb");
  if (!f) return std::nullopt;
  char buf[512];
  const char* line = gzgets(f, buf, sizeof buf);
  gzclose(f);
  if (!line) return std::nullopt;
  return std::string(trim(line));
}

// Lines of `text` as views.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    if (!f(text.substr(0, nl))) return;
    if (nl == std::string_view::npos) return;
    text.remove_prefix(nl + 1);
  }
}

std::string relative_label(const fs::path& p, const fs::path& base) {
  std::error_code ec;
  fs::path rel = fs::relative(p, base, ec);
  return ec || rel.empty() ? p.string() : rel.string();
}

}  // namespace

std::optional<std::string> parse_version_py(std::string_view text) {
  std::optional<std::string> out;
  for_each_line(text, [&](std::string_view line) {
    line = trim(line);
    if (!line.starts_with("__version__")) return true;
    line.remove_prefix(11);
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) return true;
    // "__version__: str = '...'" is an annotated assignment; anything else before '=' is not ours.
    std::string_view before = trim(line.substr(0, eq));
    if (!before.empty() && !before.starts_with(":")) return true;
    std::string_view value = trim(line.substr(eq + 1));
    if (value.size() < 2 || (value[0] != '\'' && value[0] != '"')) return true;
    const size_t close = value.find(value[0], 1);
    if (close == std::string_view::npos || close == 1) return true;
    out = std::string(value.substr(1, close - 1));
    return false;
  });
  return out;
}

std::optional<std::string> parse_version_py_cuda(std::string_view text) {
  std::optional<std::string> out;
  for_each_line(text, [&](std::string_view line) {
    line = trim(line);
    if (!line.starts_with("cuda")) return true;
    line.remove_prefix(4);
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) return true;
    std::string_view before = trim(line.substr(0, eq));
    if (!before.empty() && !before.starts_with(":")) return true;  // "cuda_x = ..." is another name
    std::string_view value = trim(line.substr(eq + 1));
    if (value == "None") {
      out = "none";
      return false;
    }
    if (value.size() < 3 || (value[0] != '\'' && value[0] != '"')) return true;
    const size_t close = value.find(value[0], 1);
    if (close == std::string_view::npos || close == 1) return true;
    out = std::string(value.substr(1, close - 1));
    return false;
  });
  return out;
}

std::optional<std::string> cuda_from_local_version(std::string_view v) {
  const size_t plus = v.find('+');
  if (plus == std::string_view::npos) return std::nullopt;
  std::string_view local = v.substr(plus + 1);
  if (local == "cpu" || local.starts_with("cpu.") || local.starts_with("cpu_")) return "none";
  if (!local.starts_with("cu")) return std::nullopt;
  std::string_view digits = local.substr(2);
  size_t n = 0;
  while (n < digits.size() && digits[n] >= '0' && digits[n] <= '9') ++n;
  digits = digits.substr(0, n);
  // cu118 -> 11.8, cu121 -> 12.1, cu130 -> 13.0: the last digit is the minor.
  if (digits.size() < 2 || digits.size() > 4) return std::nullopt;
  return std::string(digits.substr(0, digits.size() - 1)) + "." + std::string(digits.substr(digits.size() - 1));
}

std::optional<std::string> parse_version_header(std::string_view text) {
  std::optional<std::string> parts[3];
  static const char* const kNames[3] = {"TORCH_VERSION_MAJOR", "TORCH_VERSION_MINOR", "TORCH_VERSION_PATCH"};
  for_each_line(text, [&](std::string_view line) {
    line = trim(line);
    if (!line.starts_with("#")) return true;
    line = trim(line.substr(1));
    if (!line.starts_with("define")) return true;
    line = trim(line.substr(6));
    for (int i = 0; i < 3; ++i) {
      std::string_view name = kNames[i];
      if (!line.starts_with(name)) continue;
      std::string_view value = trim(line.substr(name.size()));
      if (all_digits(value)) parts[i] = std::string(value);
    }
    return true;
  });
  if (!parts[0] || !parts[1]) return std::nullopt;
  return *parts[0] + "." + *parts[1] + "." + parts[2].value_or("0");
}

std::optional<std::string> parse_changelog_version(std::string_view line) {
  const size_t open = line.find('('), close = line.find(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close <= open + 1) return std::nullopt;
  return std::string(trim(line.substr(open + 1, close - open - 1)));
}

std::string debian_upstream_version(std::string_view v) {
  v = trim(v);
  const size_t colon = v.find(':');
  if (colon != std::string_view::npos && all_digits(v.substr(0, colon))) v.remove_prefix(colon + 1);
  const size_t dash = v.rfind('-');
  if (dash != std::string_view::npos) v = v.substr(0, dash);
  // Repack suffixes (+dfsg, +ds) and pre-release markers (~rc1) are Debian's, not the release's.
  const size_t cut = v.find_first_of("+~");
  if (cut != std::string_view::npos) v = v.substr(0, cut);
  return std::string(v);
}

std::optional<std::string> dpkg_installed_version(std::string_view status, std::string_view package) {
  std::string_view pkg, state, version;
  std::optional<std::string> found;
  auto finish = [&] {
    if (!found && pkg == package && state.find(" installed") != std::string_view::npos && !version.empty())
      found = std::string(version);
    pkg = state = version = {};
  };
  for_each_line(status, [&](std::string_view line) {
    if (trim(line).empty()) {
      finish();
      return !found;
    }
    if (line.starts_with("Package:")) pkg = trim(line.substr(8));
    else if (line.starts_with("Status:")) state = trim(line.substr(7));
    else if (line.starts_with("Version:")) version = trim(line.substr(8));
    return true;
  });
  finish();
  return found;
}

std::vector<std::string> library_name_versions(std::string_view file_name) {
  std::vector<std::string> out;
  const size_t so = file_name.find(".so.");
  if (so == std::string_view::npos) return out;
  std::string_view rest = file_name.substr(so + 4);
  std::vector<std::string_view> parts;
  while (true) {
    const size_t dot = rest.find('.');
    std::string_view part = rest.substr(0, dot);
    if (!all_digits(part)) break;
    parts.push_back(part);
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  for (size_t n = parts.size(); n > 0; --n) {
    std::string v;
    for (size_t i = 0; i < n; ++i) v += (i ? "." : "") + std::string(parts[i]);
    out.push_back(v);
  }
  return out;
}

std::optional<InstallVersion> python_package_version(const fs::path& torch_dir) {
  if (auto text = text::read_file(torch_dir / "version.py"))
    if (auto v = parse_version_py(*text)) return InstallVersion{*v, "torch/version.py"};
  return std::nullopt;
}

std::optional<InstallVersion> python_package_cuda(const fs::path& torch_dir) {
  if (auto text = text::read_file(torch_dir / "version.py"))
    if (auto v = parse_version_py_cuda(*text)) return InstallVersion{*v, "torch/version.py (cuda)"};
  return std::nullopt;
}

std::optional<InstallVersion> libtorch_version(const fs::path& root) {
  if (auto text = text::read_file(root / "build-version")) {
    std::string_view v = trim(*text);
    if (!v.empty() && v.find('\n') == std::string_view::npos) return InstallVersion{std::string(v), "build-version"};
  }
  const fs::path header = root / "include/torch/csrc/api/include/torch/version.h";
  if (auto text = text::read_file(header))
    if (auto v = parse_version_header(*text)) return InstallVersion{*v, "include/torch/csrc/api/include/torch/version.h"};
  return std::nullopt;
}

std::optional<InstallVersion> library_directory_version(const fs::path& dir, const std::vector<std::string>& files) {
  // The file-system root the directory belongs to: /usr/lib/<triplet>,
  // /usr/lib, /lib/<triplet> and /lib are where Debian installs libraries.
  fs::path root = fs::absolute(dir).lexically_normal();
  if (root.has_filename() == false) root = root.parent_path();
  if (root.filename() != "lib") root = root.parent_path();
  const bool under_lib = root.filename() == "lib";
  if (under_lib) root = root.parent_path();
  if (under_lib && root.filename() == "usr") root = root.parent_path();

  // Debian names the runtime package after the soname version: libtorch2.14
  // (libtorch2.14t64 after the 64-bit time_t transition).
  std::vector<std::string> sovers;
  for (const auto& f : files)
    for (auto& v : library_name_versions(f))
      if (std::find(sovers.begin(), sovers.end(), v) == sovers.end()) sovers.push_back(v);
  std::stable_sort(sovers.begin(), sovers.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::vector<std::string> packages;
  for (const auto& s : sovers) {
    packages.push_back("libtorch" + s);
    packages.push_back("libtorch" + s + "t64");
  }

  if (under_lib) {
    if (auto status = text::read_file(root / "var/lib/dpkg/status")) {
      for (const auto& p : packages)
        if (auto v = status->find("Package: " + p + "\n") == std::string::npos ? std::nullopt
                                                                               : dpkg_installed_version(*status, p))
          return InstallVersion{debian_upstream_version(*v), "Debian package " + p + " " + *v + " (" +
                                                                 relative_label(root / "var/lib/dpkg/status", root) + ")"};
    }
    for (const auto& p : packages) {
      const fs::path changelog = root / "usr/share/doc" / p / "changelog.Debian.gz";
      if (auto line = gz_first_line(changelog))
        if (auto v = parse_changelog_version(*line))
          return InstallVersion{debian_upstream_version(*v),
                                "Debian package " + p + " " + *v + " (" + relative_label(changelog, root) + ")"};
    }
    const fs::path header = root / "usr/include/torch/csrc/api/include/torch/version.h";
    if (auto text = text::read_file(header))
      if (auto v = parse_version_header(*text)) return InstallVersion{*v, relative_label(header, root)};
  }
  if (auto v = libtorch_version(dir.parent_path())) return v;
  for (const auto& f : files) {
    auto versions = library_name_versions(f);
    if (!versions.empty() && versions.front() == (sovers.empty() ? "" : sovers.front()))
      return InstallVersion{versions.front(), "library file name " + f};
  }
  return std::nullopt;
}

}  // namespace torchabi::inputs
