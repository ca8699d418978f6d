// The shipped C shim catalog (rules/api/stable_c_functions.tsv) against
// Debian's newest real PyTorch: the dynamic symbols its libtorch_cpu.so
// exports, and what scripts/build-rules.py reads from its headers. Nothing
// about that PyTorch is written here: its release, build options and symbols
// all come from the unpacked files.
#include <elf.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/mapped_file.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_view.h"
#include "real_torch.h"

namespace {

namespace fs = std::filesystem;
using torchabi::TorchVersion;
using torchabi::inputs::ApiCatalog;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The real tree's release, from torch/headeronly/version.h.
std::optional<TorchVersion> real_release() {
  const std::string text = read_file(torchabi::test::real_torch_include() + "/torch/headeronly/version.h");
  int parts[3];
  const char* names[3] = {"MAJOR", "MINOR", "PATCH"};
  for (int i = 0; i < 3; ++i) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(std::string("#define TORCH_VERSION_") + names[i] + " +([0-9]+)")))
      return std::nullopt;
    parts[i] = std::stoi(m[1]);
  }
  return TorchVersion{parts[0], parts[1], parts[2]};
}

// How the real libtorch was built: "AT_X()" from ATen/Config.h and the
// {"USE_X", "ON"} build strings of caffe2/core/macros.h. An option neither
// records (USE_MPS on Linux) was not part of the build.
std::map<std::string, bool> real_build_options() {
  std::map<std::string, bool> opts;
  const std::string inc = torchabi::test::real_torch_include();
  const std::string config = read_file(inc + "/ATen/Config.h");
  std::regex at(R"(#define (AT_\w+\(\)) +([0-9]+))");
  for (auto it = std::sregex_iterator(config.begin(), config.end(), at); it != std::sregex_iterator(); ++it)
    opts[(*it)[1]] = (*it)[2] != "0";
  const std::string macros = read_file(inc + "/caffe2/core/macros.h");
  std::regex use(R"re(\{"(USE_\w+)", "([^"]*)"\})re");
  for (auto it = std::sregex_iterator(macros.begin(), macros.end(), use); it != std::sregex_iterator(); ++it)
    opts[(*it)[1]] = (*it)[2] == "ON" || (*it)[2] == "1";
  return opts;
}

// Whether the real build meets a catalog build_condition ("-", "USE_CUDA",
// "USE_XPU && AT_MKLDNN_ENABLED()", "!X"); nullopt when it names something
// the real tree does not record.
std::optional<bool> condition_holds(const std::string& cond, const std::map<std::string, bool>& opts) {
  if (cond == "-") return true;
  if (cond.find('|') != std::string::npos)
    return std::nullopt;  // alternatives of configurations: not decided here
  bool all = true;
  std::stringstream ss(cond);
  for (std::string term; std::getline(ss, term, '&');) {
    while (!term.empty() && (term.front() == ' ' || term.front() == '&')) term.erase(0, 1);
    while (!term.empty() && term.back() == ' ') term.pop_back();
    if (term.empty()) continue;
    const bool negated = term.front() == '!';
    if (negated) term.erase(0, 1);
    std::string name = term;
    bool value;
    if (auto it = opts.find(name); it != opts.end()) value = it->second;
    else if (name.starts_with("USE_")) value = false;  // not in the build strings: not built
    else return std::nullopt;
    all = all && (value != negated);
  }
  return all;
}

// The C functions libtorch_cpu.so offers to extensions, read with torchabi's own ELF reader.
std::set<std::string> exported_c_functions(const std::string& lib) {
  torchabi::MappedFile file(lib);
  torchabi::inputs::ElfView elf(file.bytes(), lib);
  std::set<std::string> out;
  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    auto s = elf.symbol(i, false);
    if (!s.defined || s.hidden_version || (s.bind != STB_GLOBAL && s.bind != STB_WEAK)) continue;
    if (s.visibility != STV_DEFAULT && s.visibility != STV_PROTECTED) continue;
    if (s.type != STT_FUNC && s.type != STT_GNU_IFUNC) continue;
    s = elf.symbol(i);
    if (!s.name.starts_with("_Z") && ApiCatalog::looks_like_shim(s.name)) out.emplace(s.name);
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "  " + x + "\n";
  return s;
}

TEST(CatalogAgainstRealTorch, MatchesWhatLibtorchCpuExports) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string lib = torchabi::test::real_torch_libdir() + "/libtorch_cpu.so";
  auto release = real_release();
  ASSERT_TRUE(release) << "no TORCH_VERSION_MAJOR/MINOR/PATCH in the real torch/headeronly/version.h";
  const auto opts = real_build_options();
  ASSERT_FALSE(opts.empty()) << "no build options in the real ATen/Config.h / caffe2/core/macros.h";
  const auto exported = exported_c_functions(lib);
  ASSERT_FALSE(exported.empty()) << lib << " exports no aoti_torch_*/torch_* function";
  const auto& cat = ApiCatalog::current();

  // Every C shim function the library exports is known, as a function.
  std::vector<std::string> unknown, elsewhere;
  for (const auto& name : exported) {
    const auto* f = cat.find_c(name);
    if (!f || f->is_type) unknown.push_back(name);
    else if (f->library != "libtorch_cpu") elsewhere.push_back(name + " (" + f->library + ")");
  }
  // Every function the catalog says libtorch_cpu defines in a build like this
  // one, at this release or earlier, is there.
  std::vector<std::string> missing, unchecked;
  size_t checked = 0, backend_checked = 0;
  for (const auto& f : cat.c_functions()) {
    if (f.is_type || f.library != "libtorch_cpu" || f.since > *release) continue;
    auto holds = condition_holds(f.build_condition, opts);
    if (!holds) {
      unchecked.push_back(f.name + " (" + f.build_condition + ")");
      continue;
    }
    if (!*holds) continue;
    ++checked;
    if (f.backend == "cpu" || f.backend == "aten") ++backend_checked;
    if (!exported.count(f.name))
      missing.push_back(f.name + " (" + f.since_label() + ", " + f.header + ")");
  }
  EXPECT_TRUE(unknown.empty()) << unknown.size() << " C shim function(s) exported by " << lib
                               << " (PyTorch " << release->str() << ") are not in the catalog:\n" << join_lines(unknown);
  EXPECT_TRUE(missing.empty()) << missing.size() << " catalog function(s) attributed to libtorch_cpu are not exported by "
                               << lib << ":\n" << join_lines(missing);
  EXPECT_TRUE(elsewhere.empty()) << "exported by " << lib << " but attributed to another library:\n"
                                 << join_lines(elsewhere);
  EXPECT_TRUE(unchecked.empty()) << "build conditions the real tree does not record:\n" << join_lines(unchecked);
  // The per-backend generated shims are part of what was compared.
  EXPECT_GT(backend_checked, 0u);
  std::cout << "[ catalog ] " << exported.size() << " C shim functions exported by libtorch_cpu " << release->str()
            << "; " << checked << " catalog functions checked (" << backend_checked << " aoti_torch_cpu_/aten_)\n";
}

struct Row {
  std::vector<std::string> cols;
};

std::map<std::string, Row> read_catalog_rows(const std::string& path) {
  std::map<std::string, Row> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    Row r;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, '\t');) r.cols.push_back(c);
    rows[r.cols[0]] = r;
  }
  return rows;
}

std::optional<TorchVersion> since_of(const std::string& label) {
  return TorchVersion::parse_dotted(label.starts_with("<=") ? label.substr(2) : label);
}

TEST(CatalogAgainstRealTorch, CommittedCatalogIsWhatTheRealHeadersSay) {
  TORCHABI_REQUIRE_REAL_TORCH();
  std::string dir = (fs::temp_directory_path() / "torchabi-catalog-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const std::string derived_path = dir + "/derived.tsv", log = dir + "/log";
  const std::string cmd = "python3 '" + std::string(TORCHABI_SOURCE_DIR) + "/scripts/build-rules.py' --torch-include '" +
                          torchabi::test::real_torch_include() + "' --no-shared --keep-newer -o '" + derived_path +
                          "' >'" + log + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << read_file(log);

  const auto derived = read_catalog_rows(derived_path);
  const auto committed = read_catalog_rows(std::string(TORCHABI_SOURCE_DIR) + "/rules/api/stable_c_functions.tsv");
  fs::remove_all(dir);
  ASSERT_GT(derived.size(), 0u);
  const TorchVersion latest = ApiCatalog::current().latest();

  // Every column but dlopen_export (which only the shared data knows).
  const std::vector<std::string> names = {"name", "since", "kind", "dlopen_export", "header", "prototype",
                                          "backend", "library", "build_condition"};
  std::vector<std::string> differ, newer, stale;
  std::set<std::string> headers;
  for (const auto& [name, row] : derived) {
    headers.insert(row.cols.at(4));
    auto since = since_of(row.cols.at(1));
    ASSERT_TRUE(since) << name << ": " << row.cols.at(1);
    if (TorchVersion{since->major, since->minor, 0} > latest) {
      newer.push_back(name + " (" + row.cols[1] + ", " + row.cols[4] + ")");
      continue;
    }
    auto it = committed.find(name);
    if (it == committed.end()) {
      differ.push_back(name + ": missing from the committed catalog (headers: " + row.cols[1] + ", " + row.cols[4] + ")");
      continue;
    }
    ASSERT_EQ(it->second.cols.size(), names.size()) << name;
    for (size_t c = 1; c < names.size(); ++c)
      if (c != 3 && it->second.cols[c] != row.cols[c])
        differ.push_back(name + ": " + names[c] + " is '" + it->second.cols[c] + "', the headers say '" + row.cols[c] + "'");
  }
  // Rows the committed catalog dates from a header the real tree has, for a name that header no longer declares.
  for (const auto& [name, row] : committed)
    if (headers.count(row.cols.at(4)) && !derived.count(name)) stale.push_back(name + " (" + row.cols[4] + ")");

  EXPECT_TRUE(differ.empty()) << "rerun scripts/build-rules.py:\n" << join_lines(differ);
  EXPECT_TRUE(stale.empty()) << "in the committed catalog, not in the real headers:\n" << join_lines(stale);
  if (!newer.empty())
    std::cout << "[ catalog ] newer than rules/api/releases.yaml's latest " << latest.str()
              << " (add the release there, then rerun scripts/build-rules.py):\n" << join_lines(newer);
}

}  // namespace
