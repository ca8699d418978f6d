#include "analyzers/migration/fix_applier.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <tuple>
#include <sstream>

#include "analyzers/migration/fix_nesting.h"
#include "analyzers/migration/include_graph.h"
#include "common/atomic_file.h"
#include "common/input_error.h"

namespace torchabi::migration {

using findings::FixIt;

size_t RewritePlan::applied_count() const {
  size_t n = 0;
  for (const auto& f : files) n += f.applied.size();
  return n;
}

void FixApplier::protect(const std::string& file, ProtectedRange range) {
  protected_[normal_path(file)].push_back(std::move(range));
}

std::string read_source_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read");
  return ss.str();
}

namespace {

uint32_t line_of(const std::string& text, uint32_t offset) {
  return 1 + uint32_t(std::count(text.begin(), text.begin() + std::min<size_t>(offset, text.size()), '\n'));
}

std::string where(const std::string& text, const FixIt& f) {
  return f.file + ":" + std::to_string(line_of(text, f.begin_offset));
}

std::string shown(const FixIt& f) { return f.description.empty() ? "'" + f.replacement + "'" : f.description; }

struct Candidate {
  const FixIt* fix;
  size_t order;  // position in the input, to keep ties stable
  const std::vector<FixIt>* absorbed = nullptr;  // the nested rewrites `fix` now includes
  const FixIt* given = nullptr;                   // `fix` as it came in, before it absorbed them
};

FileRewrite rewrite_one(const std::string& path, const std::vector<Candidate>& fixes,
                        const std::vector<ProtectedRange>& protected_ranges, bool include_unsafe,
                        RewritePlan& plan) {
  FileRewrite out;
  out.path = path;
  try {
    out.before = read_source_file(path);
  } catch (const InputError& e) {
    for (const auto& c : fixes) plan.rejected.push_back({*c.fix, e.what()});
    return out;
  }
  const std::string& text = out.before;
  const DirectiveScan scan = scan_directives(text);

  std::vector<Candidate> ok;
  for (const auto& c : fixes) {
    const FixIt& f = *c.fix;
    if (f.begin_offset > f.end_offset || f.end_offset > text.size()) {
      plan.rejected.push_back({f, "byte range " + std::to_string(f.begin_offset) + "-" + std::to_string(f.end_offset) +
                                      " is outside the file (" + std::to_string(text.size()) +
                                      " bytes); it changed after it was analysed"});
      continue;
    }
    if (f.safety == findings::FixSafety::Unsafe && !include_unsafe) {
      plan.rejected.push_back({f, "the fix may change behaviour; review it and apply with --unsafe-fixes"});
      continue;
    }
    const auto in_macro = std::find_if(scan.macro_definitions.begin(), scan.macro_definitions.end(),
                                       [&](const ByteRange& r) { return r.overlaps(f.begin_offset, f.end_offset); });
    if (in_macro != scan.macro_definitions.end() && !macro_definitions_editable(path)) {
      plan.rejected.push_back({f, "the edit is inside a macro definition (line " +
                                      std::to_string(line_of(text, in_macro->begin)) +
                                      "); every expansion would change, so it is left to you"});
      continue;
    }
    const auto guarded = std::find_if(protected_ranges.begin(), protected_ranges.end(), [&](const ProtectedRange& p) {
      return p.range.overlaps(f.begin_offset, f.end_offset);
    });
    if (guarded != protected_ranges.end()) {
      plan.rejected.push_back({f, "the edit is inside " + guarded->why + " (line " +
                                      std::to_string(line_of(text, guarded->range.begin)) + ")"});
      continue;
    }
    if (std::string_view(text).substr(f.begin_offset, f.end_offset - f.begin_offset) == f.replacement) {
      ++plan.already_applied;
      continue;
    }
    ok.push_back(c);
  }

  // Rewrites inside the text another rewrite keeps become part of it.
  // The same edit reported twice (a header seen from two translation units) goes in once.
  std::vector<FixIt> raw;
  {
    std::set<std::tuple<uint32_t, uint32_t, std::string>> seen;
    std::vector<Candidate> unique;
    for (const auto& c : ok)
      if (seen.emplace(c.fix->begin_offset, c.fix->end_offset, c.fix->replacement).second) {
        unique.push_back(c);
        raw.push_back(*c.fix);
      }
    ok = std::move(unique);
  }
  NestingResult nesting = fold_nested_fixes(raw, text);
  for (const auto& [inner, outer] : nesting.refused)
    plan.rejected.push_back({inner, "it is inside another edit at " + where(text, outer) + " (" + shown(outer) +
                                        ") and collides with a rewrite next to it; run --fix again after reviewing the first"});
  {
    std::vector<Candidate> top;
    for (const auto& t : nesting.top) top.push_back({&t.fix, ok[t.index].order, &t.absorbed, ok[t.index].fix});
    ok = std::move(top);
  }

  std::sort(ok.begin(), ok.end(), [](const Candidate& a, const Candidate& b) {
    if (a.fix->begin_offset != b.fix->begin_offset) return a.fix->begin_offset < b.fix->begin_offset;
    if (a.fix->end_offset != b.fix->end_offset) return a.fix->end_offset < b.fix->end_offset;
    return a.order < b.order;
  });

  std::vector<const Candidate*> accepted;
  for (const auto& c : ok) {
    const FixIt& f = *c.fix;
    if (!accepted.empty()) {
      const FixIt& prev = *accepted.back()->fix;
      if (prev.begin_offset == f.begin_offset && prev.end_offset == f.end_offset && prev.replacement == f.replacement)
        continue;  // the same edit reported twice (e.g. a header seen from two translation units)
      // Accepted edits are disjoint and sorted, so only the last can overlap.
      const bool both_insert_here = prev.begin_offset == prev.end_offset && f.begin_offset == f.end_offset &&
                                    prev.begin_offset == f.begin_offset;
      if (f.begin_offset < prev.end_offset || both_insert_here) {
        const std::string why = "it overlaps another edit at " + where(text, prev) + " (" + shown(prev) +
                                "); run --fix again after reviewing the first";
        plan.rejected.push_back({f, why});
        for (const auto& a : *c.absorbed) plan.rejected.push_back({a, why});
        continue;
      }
    }
    accepted.push_back(&c);
  }

  size_t cursor = 0;
  for (const Candidate* c : accepted) {
    const FixIt* f = c->fix;
    out.after.append(text, cursor, f->begin_offset - cursor);
    out.after += f->replacement;
    cursor = f->end_offset;
    out.edits.push_back(*f);
    out.applied.push_back(*c->given);
    for (const auto& a : *c->absorbed) out.applied.push_back(a);
  }
  out.after.append(text, cursor, std::string::npos);
  return out;
}

}  // namespace

RewritePlan FixApplier::plan() const {
  RewritePlan plan;
  // Keyed by normal path: one file named two ways must still be rewritten once.
  std::map<std::string, std::vector<Candidate>> by_file;
  for (size_t i = 0; i < fixes_.size(); ++i) by_file[normal_path(fixes_[i].file)].push_back({&fixes_[i], i});
  static const std::vector<ProtectedRange> kNone;
  for (const auto& [path, list] : by_file) {
    auto it = protected_.find(path);
    const std::string& shown = list.front().fix->file;
    FileRewrite fr = rewrite_one(shown, list, it == protected_.end() ? kNone : it->second, include_unsafe_, plan);
    if (!fr.applied.empty() && fr.after != fr.before) plan.files.push_back(std::move(fr));
  }
  return plan;
}

void write_rewrites(const RewritePlan& plan) {
  for (const auto& f : plan.files) write_file_atomically(f.path, f.after);
}

}  // namespace torchabi::migration
