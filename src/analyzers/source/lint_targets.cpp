#include "analyzers/source/lint_targets.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <unordered_map>

#include "analyzers/source/lint_engine.h"
#include "common/input_error.h"
#include "common/text.h"
#include "inputs/compile_db_reader.h"

namespace torchabi::source {

namespace fs = std::filesystem;

namespace {

const std::set<std::string> kSources = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cu"};
const std::set<std::string> kHeaders = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl"};

std::string ext(const std::string& p) { return fs::path(p).extension().string(); }

std::string display_path_for_inputs(const std::string& abs, const std::string& cwd) {
  std::string prefix = cwd.ends_with('/') ? cwd : cwd + "/";
  return abs.starts_with(prefix) ? abs.substr(prefix.size()) : abs;
}

// Flags for a header nobody compiles directly: those of a TU in the same
// directory, else of the first TU.
const inputs::CompileCommand* command_for_header(const inputs::CompileDb& db, const std::string& header) {
  const std::string dir = fs::path(header).parent_path().string();
  for (const auto& c : db.commands)
    if (fs::path(c.file).parent_path().string() == dir) return &c;
  return db.commands.empty() ? nullptr : &db.commands.front();
}

// The project a directory belongs to, as people mark one: its repository or
// its Python packaging. A file linted alone (`lint csrc/op.cpp -- -Iinclude`)
// then has its project's headers (include/...) as the project's, so a project
// macro defined there is followed to the torch macros it expands to. Without a
// marker, the directory itself.
std::optional<std::string> marked_project(const std::string& dir) {
  static const char* kMarkers[] = {".git", "pyproject.toml", "setup.py", "setup.cfg"};
  std::error_code ec;
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    for (const char* m : kMarkers)
      if (fs::exists(p / m, ec)) return p.string();
    if (p == p.root_path()) break;
  }
  return std::nullopt;
}

// The projects the linted files belong to (`material`: their directories and
// the database's): the one project that holds them all, usually. Files of
// unrelated trees (a database in /tmp that lists a checkout's sources) have no
// project in common, only a directory like / or /tmp, and a root is searched
// for the project's Python (every file of it parsed): each tree's own project
// is a root then, never the filesystem's.
std::vector<std::string> project_roots_of(const std::vector<std::string>& material) {
  const std::string common = common_ancestor(material);
  if (auto project = marked_project(common)) return {*project};
  std::vector<std::string> own;
  bool any_marked = false;
  for (const auto& dir : material) {
    const auto project = marked_project(dir);
    any_marked |= project.has_value();
    own.push_back(project.value_or(fs::path(dir).lexically_normal().string()));
  }
  // Unmarked trees (a build and its sources side by side): their common directory.
  if (!any_marked && common != fs::path(common).root_path().string()) return {common};
  std::sort(own.begin(), own.end());
  std::vector<std::string> out;
  for (const auto& p : own)
    if (std::none_of(out.begin(), out.end(), [&](const std::string& kept) { return text::path_is_under(p, kept); }))
      out.push_back(p);
  return out;
}

// A file the compile database lists more often than this is linted in its
// first kMaxConfigurations distinct configurations only: each one costs a
// parse (tens of ms to seconds), and a database that lists one file 10^5
// times would otherwise take hours. Real builds compile a file a few ways
// (per CUDA arch, per feature set); the rest is reported as not analysed.
constexpr size_t kMaxConfigurations = 64;

// Two commands that become the same clang invocation give the same findings
// (they differ in -o, -MF, -gencode and other flags lint drops).
bool same_configuration(const inputs::ClangArgs& a, const inputs::ClangArgs& b) {
  return a.args == b.args && a.directory == b.directory && a.language == b.language && a.label == b.label &&
         a.reference_only == b.reference_only;
}

}  // namespace

bool is_source_or_header(const std::string& path) {
  std::string e = ext(path);
  return kSources.count(e) || kHeaders.count(e);
}

LintTargets collect_lint_targets(const LintRequest& req) {
  LintTargets out;
  std::optional<inputs::CompileDb> db;
  if (req.derived_db) {
    db = *req.derived_db;
  } else if (!req.build_dir.empty()) {
    // compile_commands.json, else the build's own build.ninja.
    db = inputs::load_build_commands(inputs::absolute_path(req.build_dir, req.cwd));
  } else if (!req.flags && inputs::has_build_commands(req.cwd)) {
    db = inputs::load_build_commands(req.cwd);
  }
  if (db) out.compile_db = db->path;
  if (db) out.sources_left_out = !db->left_out.empty();
  if (!db && !req.flags && req.files.empty())
    throw InputError(req.cwd.empty() ? "." : req.cwd,
                     "no compile_commands.json here; use -p BUILD_DIR, or name files and give their flags after --");

  std::vector<std::string> files;
  if (!req.files.empty()) {
    for (const auto& f : req.files) files.push_back(inputs::absolute_path(f, req.cwd));
  } else if (db) {
    std::set<std::string> seen;
    for (const auto& c : db->commands)
      if (kSources.count(ext(c.file)) && seen.insert(c.file).second) files.push_back(c.file);
    if (files.empty()) throw InputError(db->path, "the compile database lists no C, C++ or CUDA sources");
  } else {
    throw InputError("lint", "name the files to lint before --");
  }

  std::vector<std::string> root_material;
  std::unordered_map<std::string, std::vector<const inputs::CompileCommand*>> by_file;
  if (db) by_file = db->all_by_file();
  for (const auto& file : files) {
    const std::string shown = display_path_for_inputs(file, req.cwd);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      out.skipped.push_back({shown, "file not found"});
      continue;
    }
    try {
      if (db) {
        auto listed = by_file.find(file);
        std::vector<const inputs::CompileCommand*> cmds;
        if (listed != by_file.end()) cmds = listed->second;
        inputs::CompileCommand borrowed;
        if (cmds.empty() && kHeaders.count(ext(file))) {
          if (const auto* near = command_for_header(*db, file)) {
            borrowed = *near;
            borrowed.file = file;
            // The borrowed command names its own source; drop it.
            for (auto& a : borrowed.arguments)
              if (inputs::absolute_path(a, near->directory) == near->file) a = file;
            cmds.push_back(&borrowed);
            out.notes.push_back(shown + ": not in the compile database; using the flags of " +
                                display_path_for_inputs(near->file, req.cwd));
          }
        }
        if (cmds.empty()) {
          out.skipped.push_back({shown, "not in " + display_path_for_inputs(db->path, req.cwd)});
          continue;
        }
        const size_t first = out.tus.size();
        size_t beyond = 0;
        for (const auto* cmd : cmds) {
          inputs::CompileCommand c = *cmd;
          if (req.flags) c.arguments.insert(c.arguments.end(), req.flags->begin(), req.flags->end());
          inputs::ClangArgs tu = inputs::translate_compile_command(c);
          if (std::any_of(out.tus.begin() + first, out.tus.end(),
                          [&](const inputs::ClangArgs& seen) { return same_configuration(seen, tu); }))
            continue;
          if (out.tus.size() - first == kMaxConfigurations) {
            ++beyond;
            continue;
          }
          out.tus.push_back(std::move(tu));
          root_material.push_back(c.directory);
        }
        // Project mode labels its configurations and reports them per finding.
        const size_t distinct = std::count_if(out.tus.begin() + first, out.tus.end(),
                                              [](const inputs::ClangArgs& t) { return !t.reference_only; });
        if (distinct > 1 && cmds.front()->label.empty())
          out.notes.push_back(shown + ": compiled " + std::to_string(distinct) +
                              " ways in the compile database; each configuration is linted");
        if (beyond)
          out.skipped.push_back({shown, std::to_string(beyond) + " more configuration" + (beyond == 1 ? "" : "s") +
                                            " of it in the compile database (" + std::to_string(kMaxConfigurations) +
                                            " distinct ones are linted per file)"});
      } else {
        out.tus.push_back(inputs::translate_flags(file, req.flags.value_or(std::vector<std::string>{}), req.cwd));
        if (!req.flags) out.notes.push_back(shown + ": no compile_commands.json and no flags after --; parsed without flags");
      }
      root_material.push_back(fs::path(file).parent_path().string());
    } catch (const InputError& e) {
      out.skipped.push_back({shown, e.line()});
    }
  }
  if (!root_material.empty()) out.default_roots = project_roots_of(root_material);
  return out;
}

}  // namespace torchabi::source
