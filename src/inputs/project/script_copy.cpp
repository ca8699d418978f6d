#include "inputs/project/script_copy.h"

#include "common/regex.h"
#include "common/text.h"
#include "inputs/project/project_copy.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// The enclosing repository's files beside the project: copied only when the
// scripts reach up, and only when they are about the size of sources.
constexpr std::uintmax_t kMaxSurroundingBytes = 64ull << 20;

bool reaches_up(const std::string& text) {
  // "../csrc", '..', "a/../b" in a string; os.pardir; Path(...).parent.parent
  // or .parents[1+]; dirname(dirname(...)).
  static const Regex kUp(
      R"re((["'/\\]\.\.(["'/\\]))|\bos\.pardir\b|\.parent\s*\.\s*parent\b|\.parents\s*\[\s*[1-9]|dirname\s*\(\s*(os\.path\.)?dirname\s*\()re");
  return kUp.contains(text);
}

fs::path enclosing_repository(const fs::path& project) {
  std::error_code ec;
  if (fs::exists(project / ".git", ec)) return {};
  for (fs::path p = project.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path())
    if (fs::exists(p / ".git", ec)) return p;
  return {};
}

}  // namespace

ScriptCopyPlan plan_script_copy(const fs::path& project, const std::vector<fs::path>& scripts) {
  ScriptCopyPlan plan;
  plan.project = fs::absolute(project).lexically_normal();
  if (plan.project.filename().empty()) plan.project = plan.project.parent_path();
  plan.top = plan.project;
  bool up = false;
  for (const auto& s : scripts)
    if (reaches_up(text::read_file_or_empty(s))) up = true;
  if (!up) return plan;
  // Outside a repository (an unpacked archive), the directory above: what
  // `..` names first. Too large, it is left out without a word: nothing
  // says the project extends there.
  std::error_code ec;
  if (fs::exists(plan.project / ".git", ec)) return plan;  // the repository's top: nothing around it is its
  const fs::path repo = enclosing_repository(plan.project);
  const fs::path around = repo.empty() ? plan.project.parent_path() : repo;
  if (around.empty() || around == around.root_path()) return plan;
  const std::uintmax_t bytes =
      project_tree_bytes(around.string(), CopyLimits{kMaxSurroundingBytes, plan.project.string()}, kMaxSurroundingBytes);
  if (bytes > kMaxSurroundingBytes && repo.empty()) return plan;
  if (bytes > kMaxSurroundingBytes) {
    plan.note = "the build script reaches up out of " + plan.project.string() + ", but the repository around it (" +
                repo.string() + ") is larger than " + std::to_string(kMaxSurroundingBytes >> 20) +
                " MB of sources: it ran in a copy of its directory alone, so sources it finds above it are not "
                "analysed";
    return plan;
  }
  plan.top = around;
  return plan;
}

fs::path script_copy_top(const ScriptCopyPlan& plan, const fs::path& under) { return under / plan.top.filename(); }

fs::path make_script_copy(const ScriptCopyPlan& plan, const fs::path& under) {
  const fs::path top = script_copy_top(plan, under);
  const fs::path copy = top / plan.project.lexically_relative(plan.top);
  fs::create_directories(copy);
  copy_project_tree(plan.project.string(), copy.lexically_normal().string(), CopyLimits{kMaxScriptCopyBytes});
  if (plan.top != plan.project)
    copy_project_tree(plan.top.string(), top.string(), CopyLimits{kMaxSurroundingBytes, plan.project.string()});
  return copy.lexically_normal();
}

}  // namespace torchabi::inputs
