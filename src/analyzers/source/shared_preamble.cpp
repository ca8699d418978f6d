#include "analyzers/source/shared_preamble.h"

#include "common/temp_dirs.h"
#include "common/json_io.h"
#include "common/text.h"

#include <clang-c/Index.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzers/source/libclang_version.h"
#include "analyzers/source/lint_env.h"
#include "analyzers/source/result_cache.h"
#include "analyzers/source/tu_runner.h"
#include "common/atomic_file.h"

namespace torchabi::source {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Bump when what a PCH holds or how TUs use it changes.
constexpr const char* kPreambleFormat = "torchabi-preamble-2";

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::vector<std::string> leading_includes(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  const size_t n = s.size();
  if (s.starts_with("\xEF\xBB\xBF")) i = 3;
  // Skips a block comment starting at i ("/*"); false when it does not end.
  auto skip_block_comment = [&]() {
    size_t end = s.find("*/", i + 2);
    if (end == std::string_view::npos) return false;
    i = end + 2;
    return true;
  };
  for (;;) {
    // Blank lines and comments between the lines.
    while (i < n) {
      if (is_blank(s[i]) || s[i] == '\n') {
        ++i;
      } else if (s.substr(i, 2) == "//") {
        size_t end = s.find('\n', i);
        std::string_view comment = s.substr(i, end == std::string_view::npos ? n - i : end - i);
        while (!comment.empty() && comment.back() == '\r') comment.remove_suffix(1);
        if (comment.ends_with('\\')) return out;  // continued onto the next line: keep it simple
        i = end == std::string_view::npos ? n : end + 1;
      } else if (s.substr(i, 2) == "/*") {
        if (!skip_block_comment()) return out;
      } else {
        break;
      }
    }
    if (i >= n || s[i] != '#') return out;
    // `# include <name>`, then only blanks and comments to the end of the line.
    size_t j = i + 1;
    while (j < n && is_blank(s[j])) ++j;
    if (s.substr(j, 7) != "include") return out;
    j += 7;
    while (j < n && is_blank(s[j])) ++j;
    if (j >= n || s[j] != '<') return out;  // "quoted", #include_next, #include MACRO
    size_t close = s.find_first_of(">\n", j);
    if (close == std::string_view::npos || s[close] != '>') return out;
    std::string header(s.substr(j, close - j + 1));
    if (header.find('\\') != std::string::npos) return out;
    i = close + 1;
    for (;;) {
      while (i < n && is_blank(s[i])) ++i;
      if (i >= n || s[i] == '\n') break;
      if (s.substr(i, 2) == "//") {
        size_t end = s.find('\n', i);
        std::string_view comment = s.substr(i, end == std::string_view::npos ? n - i : end - i);
        while (!comment.empty() && comment.back() == '\r') comment.remove_suffix(1);
        if (comment.ends_with('\\')) return out;
        i = end == std::string_view::npos ? n : end;
        break;
      }
      if (s.substr(i, 2) == "/*") {
        size_t end = s.find("*/", i + 2);
        if (end == std::string_view::npos || s.substr(i, end - i).find('\n') != std::string_view::npos) return out;
        i = end + 2;
        continue;
      }
      return out;  // something else after the header name
    }
    out.push_back(std::move(header));
  }
}

std::vector<std::string> shareable_prefix(std::vector<std::string> includes, const std::vector<std::string>& include_dirs,
                                          const std::vector<std::string>& project_roots) {
  for (size_t k = 0; k < includes.size(); ++k) {
    const std::string name = includes[k].substr(1, includes[k].size() - 2);
    for (const auto& d : include_dirs) {
      std::error_code ec;
      const fs::path p = fs::path(d) / name;
      if (!fs::is_regular_file(p, ec)) continue;
      const std::string found = p.lexically_normal().string();
      for (const auto& root : project_roots)
        if (found.starts_with(root.ends_with('/') ? root : root + "/")) {
          includes.resize(k);
          return includes;
        }
      break;
    }
  }
  return includes;
}

bool preamble_eligible(const inputs::ClangArgs& args) {
  if (args.language != "c++" || args.cuda_without_sdk) return false;
  for (const auto& a : args.args)
    if (a.starts_with("-include") || a.starts_with("--include") || a.starts_with("-imacros") ||
        a.starts_with("--imacros") || a.starts_with("-Xclang") || a.starts_with("-fmodule") || a.starts_with("-emit"))
      return false;
  // Exactly one language, the one `language` names.
  size_t xs = 0;
  for (size_t i = 0; i < args.args.size(); ++i)
    if (args.args[i] == "-x") {
      ++xs;
      if (i + 1 >= args.args.size() || args.args[i + 1] != "c++") return false;
    } else if (args.args[i].starts_with("-x")) {
      return false;
    }
  return xs == 1;
}

std::string preamble_key(const inputs::ClangArgs& args, const std::vector<std::string>& includes,
                         const std::vector<std::string>& project_roots, const std::string& compiler) {
  std::string m = std::string(kPreambleFormat) + "\n" + compiler + "\n";
  for (const auto& a : args.args) m += a + '\0';
  m += '\n';
  for (const auto& h : includes) m += h + '\n';
  for (const auto& r : project_roots) m += r + '\x1e';
  return digest_hex(m) + digest_hex(m, 0x84222325cbf29ce4ull);
}

std::string preamble_header_text(const std::vector<std::string>& includes) {
  std::string text =
      "// Generated by torchabi: the #include lines several translation units start with, parsed once\n"
      "// into a precompiled header (src/analyzers/source/shared_preamble.h).\n";
  for (const auto& h : includes) text += "#include " + h + "\n";
  return text;
}

namespace {

std::pair<uint64_t, int64_t> size_and_mtime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {0, -1};
  return {uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

std::string show(const std::vector<std::string>& includes) {
  std::string s;
  for (const auto& h : includes) s += (s.empty() ? "" : " ") + h;
  return s;
}

}  // namespace

PreambleBuild build_preamble(const inputs::ClangArgs& args, const std::vector<std::string>& includes,
                             const std::string& dir, const std::string& key,
                             const std::vector<std::string>& project_roots, const HeaderClassifier& classifier) {
  PreambleBuild b;
  try {
    const std::string header = (fs::path(dir) / (key + ".h")).string();
    const std::string pch = (fs::path(dir) / (key + ".pch")).string();
    std::error_code ec;
    fs::create_directories(dir, ec);
    const std::string text = preamble_header_text(includes);
    if (text::read_file(header) != text) write_file_atomically(header, text);  // unchanged: keep its mtime

    ParseRequest req;
    req.args = args;
    req.args.file = header;
    req.project_roots = project_roots;
    req.classifier = &classifier;
    req.for_pch = true;
    ParseOutcome outcome = parse_translation_unit(std::move(req));
    if (!outcome.tu) {
      b.why = outcome.error;
      return b;
    }
    const ParsedTu& tu = *outcome.tu;
    b.files_read = tu.files_read();
    b.files_missing = tu.files_missing();
    if (tu.error_count() > 0) {
      for (const auto& d : tu.diagnostics())
        if (d.severity == Diagnostic::Severity::Error || d.severity == Diagnostic::Severity::Fatal) {
          b.why = "its headers have errors (" + d.file + ":" + std::to_string(d.line) + ": " + d.message + ")";
          break;
        }
      return b;
    }
    if (auto project = tu.project_files(); project.size() > 1) {
      b.why = "it includes a project header (" + project[1] + ")";
      return b;
    }
    size_t direct = 0;
    for (const auto& d : tu.includes()) {
      if (d.includer != header) continue;
      ++direct;
      CXFile f = d.resolved.empty() ? nullptr : clang_getFile(tu.raw(), d.resolved.c_str());
      if (!f || !clang_isFileMultipleIncludeGuarded(tu.raw(), f)) {
        b.why = "<" + d.spelled + "> is not include-guarded";
        return b;
      }
    }
    if (direct != includes.size()) {
      b.why = "its #include lines were not all read";
      return b;
    }
    const std::string tmp = pch + "." + std::to_string(::getpid()) + ".tmp";
    if (clang_saveTranslationUnit(tu.raw(), tmp.c_str(), clang_defaultSaveOptions(tu.raw())) != CXSaveError_None) {
      fs::remove(tmp, ec);
      b.why = "libclang could not save the PCH";
      return b;
    }
    fs::rename(tmp, pch, ec);
    if (ec) {
      fs::remove(tmp, ec);
      b.why = "the PCH could not be written in " + dir;
      return b;
    }
    PrecompiledPreamble p;
    p.pch = pch;
    p.header = header;
    p.includes = includes.size();
    for (const auto& f : b.files_read)
      if (f != header) p.files_read.push_back(f);
    b.preamble = std::move(p);
  } catch (const std::exception& e) {
    b.preamble.reset();
    b.why = e.what();
  }
  return b;
}

std::string serialize_preamble_build(const PreambleBuild& b) {
  json j;
  j["why"] = b.why;
  j["read"] = b.files_read;
  j["missing"] = b.files_missing;
  if (b.preamble) {
    const auto [size, mtime] = size_and_mtime(b.preamble->pch);
    // clang rejects a PCH whose (non-system) input files have another mtime,
    // even with the same content, which the cache would accept: kept to compare.
    std::vector<int64_t> mtimes;
    for (const auto& f : b.preamble->files_read) mtimes.push_back(size_and_mtime(f).second);
    j["preamble"] = {{"pch", b.preamble->pch},
                     {"mtimes", mtimes},
                     {"header", b.preamble->header},
                     {"includes", b.preamble->includes},
                     {"files_read", b.preamble->files_read},
                     {"pch_size", size},
                     {"pch_mtime", mtime}};
  }
  return json_io::dump(j);
}

PreambleBuild deserialize_preamble_build(const std::string& text) {
  json j = json_io::parse(text);
  PreambleBuild b;
  b.why = j.at("why").get<std::string>();
  b.files_read = j.at("read").get<std::vector<std::string>>();
  b.files_missing = j.at("missing").get<std::vector<std::string>>();
  if (j.contains("preamble")) {
    const json& p = j.at("preamble");
    PrecompiledPreamble pre;
    pre.pch = p.at("pch").get<std::string>();
    pre.header = p.at("header").get<std::string>();
    pre.includes = p.at("includes").get<size_t>();
    pre.files_read = p.at("files_read").get<std::vector<std::string>>();
    // The PCH is not among the validated inputs (digesting it would cost more
    // than a stat): a PCH replaced or truncated since is not used.
    const auto [size, mtime] = size_and_mtime(pre.pch);
    bool same = size == p.at("pch_size").get<uint64_t>() && mtime == p.at("pch_mtime").get<int64_t>();
    const auto mtimes = p.at("mtimes").get<std::vector<int64_t>>();
    same = same && mtimes.size() == pre.files_read.size();
    for (size_t i = 0; same && i < mtimes.size(); ++i) same = size_and_mtime(pre.files_read[i]).second == mtimes[i];
    if (same) b.preamble = std::move(pre);
    else b.why = "its PCH changed since it was built";
  }
  return b;
}

SharedPreambles::SharedPreambles(std::string cache_dir, std::vector<std::string> project_roots,
                                 const HeaderClassifier& classifier)
    : dir_(std::move(cache_dir)), project_roots_(std::move(project_roots)), classifier_(classifier) {
  if (dir_.empty()) {
    dir_ = temp_dirs::make("preamble");
    temporary_ = !dir_.empty();
  }
}

SharedPreambles::~SharedPreambles() {
  if (temporary_) temp_dirs::remove(dir_);
}

void SharedPreambles::prepare(const std::vector<inputs::ClangArgs>& tus, const std::vector<size_t>& todo,
                              unsigned jobs, const std::function<void(const std::string&)>& started) {
  if (dir_.empty()) return;
  struct Group {
    std::vector<size_t> members;
    std::vector<std::string> includes;
  };
  std::map<std::string, Group> groups;
  std::string compiler;
  for (size_t i : todo) {
    if (!preamble_eligible(tus[i])) continue;
    auto text = text::read_file(tus[i].file);
    if (!text) continue;
    std::vector<std::string> includes =
        shareable_prefix(leading_includes(*text), tus[i].include_dirs, project_roots_);
    if (includes.empty()) continue;
    if (compiler.empty()) {
      try {
        compiler = libclang_version();
      } catch (const std::exception&) {
        return;  // the parse will say so
      }
    }
    const std::string key = preamble_key(tus[i], includes, project_roots_, compiler);
    Group& g = groups[key];
    if (g.includes.empty()) g.includes = std::move(includes);
    g.members.push_back(i);
  }
  std::optional<ResultCache> cache;
  if (!temporary_) cache.emplace(dir_);
  std::vector<std::string> to_build;
  for (auto& [key, g] : groups) {
    const std::string label = show(g.includes);
    if (cache) {
      if (auto payload = cache->load(key)) {
        try {
          PreambleBuild b = deserialize_preamble_build(*payload);
          if (b.preamble) {
            ready_[key] = std::move(*b.preamble);
            notes_.push_back("shared preamble " + label + " (cached) for " + std::to_string(g.members.size()) +
                             " translation unit" + (g.members.size() == 1 ? "" : "s"));
            continue;
          }
          if (b.why != "its PCH changed since it was built") {
            notes_.push_back("shared preamble " + label + " not used: " + b.why + " (cached verdict)");
            continue;
          }
        } catch (const std::exception&) {
        }
      }
    }
    // TORCHABI_PREAMBLE_ALWAYS=1 (for tests): a TU of its own gets one too.
    static const bool always = [] {
      const char* v = std::getenv("TORCHABI_PREAMBLE_ALWAYS");
      return v && std::string(v) == "1";
    }();
    if (g.members.size() >= 2 || always) to_build.push_back(key);
  }
  if (!to_build.empty()) {
    IsolatedHooks hooks;
    if (started) hooks.started = [&](size_t k) { started("shared preamble " + show(groups[to_build[k]].includes)); };
    auto outputs = run_isolated(to_build.size(), jobs, [&](size_t k) {
      const Group& g = groups.at(to_build[k]);
      return serialize_preamble_build(
          build_preamble(tus[g.members[0]], g.includes, dir_, to_build[k], project_roots_, classifier_));
    }, hooks);
    for (size_t k = 0; k < to_build.size(); ++k) {
      const std::string& key = to_build[k];
      const Group& g = groups.at(key);
      const std::string label = show(g.includes);
      if (!outputs[k].ok) {
        notes_.push_back("shared preamble " + label + " not built: libclang " + outputs[k].error);
        continue;
      }
      PreambleBuild b;
      try {
        b = deserialize_preamble_build(outputs[k].output);
      } catch (const std::exception& e) {
        notes_.push_back("shared preamble " + label + " not built: " + e.what());
        continue;
      }
      if (cache && !b.files_read.empty()) {
        // A verdict against it is kept too: the same headers would fail again.
        cache->store(key, b.files_read, b.files_missing, outputs[k].output);
      }
      if (!b.preamble) {
        notes_.push_back("shared preamble " + label + " not used: " + b.why);
        continue;
      }
      notes_.push_back("shared preamble " + label + " built for " + std::to_string(g.members.size()) +
                       " translation unit" + (g.members.size() == 1 ? "" : "s"));
      ready_[key] = std::move(*b.preamble);
    }
  }
  for (auto& [key, g] : groups)
    if (ready_.count(key))
      for (size_t i : g.members) key_of_tu_[i] = key;
}

const PrecompiledPreamble* SharedPreambles::for_tu(size_t i) const {
  auto it = key_of_tu_.find(i);
  if (it == key_of_tu_.end()) return nullptr;
  return &ready_.at(it->second);
}

}  // namespace torchabi::source
