// The rewrite engine behind `torchabi migrate --fix`: applies fix-its (exact
// byte ranges, as clang reports them) to the files they name. It is the last
// line of defence for the guarantees --fix makes, so it checks them itself
// instead of trusting the producers of fix-its:
//   - an edit that overlaps another edit is refused (never a guess at a merge);
//   - an edit inside a #define/#undef body or a range the front end marked as
//     protected (an inactive #if branch) is refused;
//   - an edit whose range already holds its replacement is a no-op, so running
//     --fix twice changes nothing the second time;
//   - nothing is written until every file's new content is computed, and each
//     file is replaced atomically.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/migration/directive_scanner.h"
#include "findings/finding.h"

namespace torchabi::migration {

struct ProtectedRange {
  ByteRange range;
  std::string why;  // "an inactive #if branch", ...
};

struct RejectedFix {
  findings::FixIt fix;
  std::string reason;  // one sentence, for the user
};

struct FileRewrite {
  std::string path;
  std::string before;
  std::string after;
  std::vector<findings::FixIt> applied;  // the fix-its that went in, as given (nested ones too)
  // The edits made, in file order: a fix-it that absorbed nested ones
  // (fix_nesting.h) appears once, with them inside its replacement.
  std::vector<findings::FixIt> edits;
};

struct RewritePlan {
  std::vector<FileRewrite> files;  // only files whose content changes, sorted by path
  std::vector<RejectedFix> rejected;
  size_t already_applied = 0;      // fixes whose replacement was already in place
  size_t applied_count() const;
};

class FixApplier {
public:
  // Unsafe fixes are applied only when asked (`--unsafe-fixes`); otherwise
  // they are reported as rejected with a reason that says how to apply them.
  explicit FixApplier(bool include_unsafe = false) : include_unsafe_(include_unsafe) {}

  void add(const findings::FixIt& fix) { fixes_.push_back(fix); }
  // Marks a range of `file` as untouchable (from the front end: inactive
  // preprocessor branches). Macro definitions are found by the engine itself.
  void protect(const std::string& file, ProtectedRange range);

  // Reads every named file and computes the new contents; writes nothing.
  // A file that cannot be read rejects its fixes (the report says why).
  RewritePlan plan() const;

private:
  bool include_unsafe_;
  std::vector<findings::FixIt> fixes_;
  std::map<std::string, std::vector<ProtectedRange>> protected_;
};

// Writes every rewritten file atomically. Throws InputError naming the file
// that could not be written; files written before it keep their new content.
void write_rewrites(const RewritePlan& plan);

// Reads a whole file; throws InputError naming it when it cannot.
std::string read_source_file(const std::string& path);

}  // namespace torchabi::migration
