#include "analyzers/migration/fix_applier.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

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

struct Candidate {
  const FixIt* fix;
  size_t order;  // position in the input, to keep ties stable
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
    if (in_macro != scan.macro_definitions.end()) {
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

  std::sort(ok.begin(), ok.end(), [](const Candidate& a, const Candidate& b) {
    if (a.fix->begin_offset != b.fix->begin_offset) return a.fix->begin_offset < b.fix->begin_offset;
    if (a.fix->end_offset != b.fix->end_offset) return a.fix->end_offset < b.fix->end_offset;
    return a.order < b.order;
  });

  std::vector<const FixIt*> accepted;
  for (const auto& c : ok) {
    const FixIt& f = *c.fix;
    if (!accepted.empty()) {
      const FixIt& prev = *accepted.back();
      if (prev.begin_offset == f.begin_offset && prev.end_offset == f.end_offset && prev.replacement == f.replacement)
        continue;  // the same edit reported twice (e.g. a header seen from two translation units)
      // Accepted edits are disjoint and sorted, so only the last can overlap.
      const bool both_insert_here = prev.begin_offset == prev.end_offset && f.begin_offset == f.end_offset &&
                                    prev.begin_offset == f.begin_offset;
      if (f.begin_offset < prev.end_offset || both_insert_here) {
        plan.rejected.push_back({f, "it overlaps another edit at " + where(text, prev) + " (" +
                                        (prev.description.empty() ? "'" + prev.replacement + "'" : prev.description) +
                                        "); run --fix again after reviewing the first"});
        continue;
      }
    }
    accepted.push_back(&f);
  }

  size_t cursor = 0;
  for (const FixIt* f : accepted) {
    out.after.append(text, cursor, f->begin_offset - cursor);
    out.after += f->replacement;
    cursor = f->end_offset;
    out.applied.push_back(*f);
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
