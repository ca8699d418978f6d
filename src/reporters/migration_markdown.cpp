// The plan as a pull-request comment: the headline and target version first,
// then the tables a reviewer scans; long location lists fold into <details>.
#include "reporters/migration_reporter.h"
#include "reporters/path_bytes.h"

namespace torchabi::reporters {

using namespace torchabi::migration;

namespace {

// Text that is not UTF-8 (a file name quoted in a note) is escaped as `ls -b`
// does; otherwise a newline becomes a space.
std::string cell(const std::string& text) {
  const std::string s = valid_utf8(text) ? text : escape_for_text(text);
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

// A name in code spans: a file name with a newline or bytes that are not
// UTF-8 is escaped as `ls -b` does (path_bytes.h), so it stays one line and
// reads back exactly; API names are plain and stay as they are.
std::string md_name(const std::string& s) { return cell(escape_for_text(s)); }
std::string code(const std::string& s) { return s.empty() ? std::string("—") : "`" + md_name(s) + "`"; }

std::string how(const Counts& c) {
  std::string out;
  auto part = [&](size_t n, const char* what) {
    if (!n) return;
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  part(c.fixable, "fixable");
  part(c.fixable_unsafe, "unsafe fix");
  part(c.manual, "manual");
  part(c.blocked, "blocked");
  part(c.unchanged, "unchanged");
  return out;
}

std::string file_list(const std::vector<std::string>& files, size_t max) {
  std::string out;
  for (size_t i = 0; i < files.size() && i < max; ++i) out += (i ? ", " : "") + code(files[i]);
  if (files.size() > max) out += " (+" + std::to_string(files.size() - max) + ")";
  return out;
}

constexpr size_t kMaxPlaces = 30;

}  // namespace

std::string render_plan_markdown(const MigrationPlan& p) {
  std::string out = "## torchabi migrate: plan to the LibTorch stable ABI\n\n";
  out += "**" + plan_headline(p) + "**";
  if (p.summary.fixable) out += " — `torchabi migrate --fix` applies the fixable ones";
  out += "\n\n";
  if (p.target) {
    out += "Lowest `TORCH_TARGET_VERSION` after migration: **" + p.target->str() + "** (`" + p.target->hex() + "`)";
    if (p.target_is_baseline) out += ", nothing newer than " + p.target->str() + " is needed";
    else out += ", set by " + file_list(p.target_set_by, 5);
    out += ".\n\n";
    // Which uses have no older stable spelling: what a lower target would cost.
    if (!p.target_is_baseline && !p.target_forced_by.empty()) {
      out += "Uses that need " + p.target->str() + " even with every older alternative taken:\n";
      for (size_t i = 0; i < p.target_forced_by.size() && i < 10; ++i) out += "- " + cell(p.target_forced_by[i]) + "\n";
      if (p.target_forced_by.size() > 10) out += "- and " + std::to_string(p.target_forced_by.size() - 10) + " more\n";
      out += "\n";
    }
  }
  if (p.ceiling) {
    out += "Asked to stay at or below **" + p.ceiling->str() + "** (`--target-version`): ";
    if (p.above_ceiling.empty()) out += "every replacement fits.\n\n";
    else {
      out += std::to_string(p.above_ceiling.size()) + " use" + (p.above_ceiling.size() == 1 ? " has" : "s have") +
             " no stable spelling that old:\n";
      for (size_t i = 0; i < p.above_ceiling.size() && i < 20; ++i) out += "- " + cell(p.above_ceiling[i]) + "\n";
      if (p.above_ceiling.size() > 20) out += "- and " + std::to_string(p.above_ceiling.size() - 20) + " more\n";
      out += "\n";
    }
  }

  if (!p.apis.empty()) {
    out += "### APIs to replace\n\n| API | uses | stable replacement | since | how | files |\n|---|---:|---|---|---|---|\n";
    for (const auto& g : p.apis) {
      std::string since = g.since ? g.since->str() : "—";
      if (g.alternative_since) since = g.alternative_since->str() + " (" + code(g.alternative) + "; " + since + " as written)";
      out += "| " + code(g.api) + " | " + std::to_string(g.counts.total() + g.counts.unchanged) + " | " +
             code(g.replacement) + " | " + since + " | " + how(g.counts) + " | " + file_list(g.files, 3) + " |\n";
    }
    out += "\n<details><summary>Where each API is used</summary>\n\n";
    for (const auto& g : p.apis) {
      out += "- " + code(g.api) + ":";
      for (size_t i = 0; i < g.uses.size() && i < kMaxPlaces; ++i) out += " `" + md_name(g.uses[i].file_line()) + "`";
      if (g.uses.size() > kMaxPlaces) out += " … (+" + std::to_string(g.uses.size() - kMaxPlaces) + ")";
      if (!g.note.empty()) out += " — " + cell(g.note);
      out += "\n";
    }
    out += "\n</details>\n\n";
  }

  if (!p.blockers.empty()) {
    out += "### Blockers (no stable equivalent today)\n\n";
    for (const auto& b : p.blockers) {
      out += "- **" + cell(b.title) + "** — " + std::to_string(b.uses.size()) + " use" +
             (b.uses.size() == 1 ? "" : "s") + " (" + file_list(b.apis, 6) + ")";
      if (b.partial_since) out += "; partly available from " + b.partial_since->str();
      if (b.added_in) out += "; the stable headers add it in " + b.added_in->str();
      out += "\n  - Workaround: " + cell(b.workaround);
      if (!b.source.empty()) out += "\n  - Source: " + cell(b.source);
      out += "\n  - At:";
      for (size_t i = 0; i < b.uses.size() && i < 10; ++i) out += " `" + md_name(b.uses[i].file_line()) + "`";
      if (b.uses.size() > 10) out += " … (+" + std::to_string(b.uses.size() - 10) + ")";
      out += "\n";
    }
    out += "\n";
  }

  if (!p.order.empty()) {
    out += "### Order of work\n\nEach step can land as one reviewable change.\n\n";
    for (size_t i = 0; i < p.order.size(); ++i) {
      const auto& g = p.order[i];
      out += std::to_string(i + 1) + ". " + file_list(g.files, 8) + " — " + std::to_string(g.counts.total()) +
             " use" + (g.counts.total() == 1 ? "" : "s") + " (" + how(g.counts) + ")";
      if (!g.why.empty()) out += "; " + cell(g.why);
      out += "\n";
    }
    out += "\n";
  }

  if (!p.steps.empty()) {
    out += "### Steps\n\nOne pull request each, in this order; each still builds and loads. The id stays the same "
           "while the step's files do (`--baseline` compares by it).\n\n";
    for (size_t i = 0; i < p.steps.size(); ++i) {
      const auto& s = p.steps[i];
      out += std::to_string(i + 1) + ". `" + s.id + "` " + file_list(s.files, 8) + " — " +
             std::to_string(s.counts.total()) + " use" + (s.counts.total() == 1 ? "" : "s") + " left";
      if (s.counts.total()) out += " (" + how(s.counts) + ")";
      if (s.kind == "library-defs") out += "; the library's defs";
      if (s.kind == "pybind-module") out += s.keep_legacy_module ? "; **keep as a separate non-stable module**" : "; pybind module";
      out += "\n";
      if (!s.after.empty()) out += "   - after: " + file_list(s.after, 8) + "\n";
      for (const auto& w : s.why) out += "   - together: " + cell(w) + "\n";
      for (const auto& e : s.edits)
        out += "   - also `" + md_name(e.file) + ":" + std::to_string(e.line) + "`: " + cell(e.what) + "\n";
      for (const auto& b : s.builds) out += "   - builds: " + cell(b) + "\n";
      for (const auto& b : s.blockers) out += "   - blocked: " + cell(b) + "\n";
    }
    out += "\n";
  }
  if (!p.libraries.empty()) {
    out += "### Operator libraries\n\n";
    for (const auto& l : p.libraries) out += "- `" + cell(l.ns) + "`: " + cell(l.plan) + "\n";
    out += "\n";
  }
  if (p.comparison) {
    const auto& c = *p.comparison;
    out += "### Progress since `" + md_name(c.baseline) + "`\n\n";
    out += std::string(c.regressed ? "**Went up**" : "Uses left") + ": " + std::to_string(c.before) + " → " +
           std::to_string(c.now) + "\n\n";
    bool any = false;
    for (const auto& s : c.steps) {
      if (s.status == "same") continue;
      if (!any) out += "| step | files | before | now | |\n|---|---|---:|---:|---|\n";
      any = true;
      out += "| `" + s.id + "` | " + file_list(s.files, 4) + " | " + (s.before ? std::to_string(*s.before) : "—") +
             " | " + (s.now ? std::to_string(*s.now) : "—") + " | " + s.status + " |\n";
    }
    out += any ? "\n" : "No step changed.\n\n";
  }

  if (!p.files.empty()) {
    out += "<details><summary>Remaining work per file</summary>\n\n| file | fixable | unsafe fix | manual | blocked |\n"
           "|---|---:|---:|---:|---:|\n";
    for (const auto& f : p.files)
      out += "| " + code(f.path) + " | " + std::to_string(f.counts.fixable) + " | " +
             std::to_string(f.counts.fixable_unsafe) + " | " + std::to_string(f.counts.manual) + " | " +
             std::to_string(f.counts.blocked) + " |\n";
    out += "\n</details>\n\n";
  }
  for (const auto& n : p.notes) out += "> " + cell(n) + "\n";
  for (const auto& e : p.failures) out += "> :x: could not analyse `" + md_name(e.input) + "`: " + cell(e.message) + "\n";
  return out;
}

}  // namespace torchabi::reporters
