// Where clang looked for each header of a TU, so that the lint cache can tell
// when a header *appears*: a missing header later installed (pybind11-dev into
// /usr/include), or a header of the same name put in a directory searched
// before the one it was found in. Either changes what the TU compiles, yet no
// file the TU read changed.
//
// The search list is clang's own, as `-v` prints it during the parse: the
// -iquote/-I/-isystem/-idirafter directories and the built-in system ones
// (libstdc++, clang's resource dir, /usr/local/include, /usr/include, ...),
// which no compile command spells out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchabi::source {

struct HeaderSearchList {
  std::vector<std::string> quoted;  // searched for "x.h" only, after the includer's directory
  std::vector<std::string> angled;  // searched for <x.h> and "x.h"
  // Directories clang dropped because they did not exist: each counts as a
  // miss itself (one created may hold any header).
  std::vector<std::string> absent;
  bool empty() const { return quoted.empty() && angled.empty() && absent.empty(); }
};

// Reads the search list out of clang's `-v` output ("#include <...> search
// starts here:" ...). Directories are made canonical (clang prints its
// libstdc++ ones as "/../lib/gcc/.../../../../include/c++/12").
HeaderSearchList parse_verbose_search_list(std::string_view verbose_output);

// What `-v` printed that is not the search list: lines after "End of search
// list." (a crash report, say), to be passed on to the real stderr.
std::string verbose_output_rest(std::string_view verbose_output);

// Captures what is written to file descriptor 2 between construction and
// text(); restores it on text() or destruction. Libclang prints `-v` there.
class StderrCapture {
public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  // Restores stderr and returns what was written meanwhile.
  std::string text();

private:
  void restore();
  int saved_ = -1;
  int capture_ = -1;
};

// One lookup of a header by name: an #include directive, or a
// __has_include() test (probe: found means the first existing candidate).
struct HeaderLookup {
  std::string includer;  // absolute path of the file doing the lookup
  std::string spelled;   // as written, without <> or ""
  bool angled = false;
  std::string resolved;  // absolute path it resolved to; empty when not found
  bool probe = false;
};

// The candidate paths that were searched and did not exist: for a header not
// found, every candidate; for one found, those in directories searched before
// the one it was found in. Deduplicated, in first-seen order. Costs one stat
// per distinct candidate.
std::vector<std::string> lookup_misses(const std::vector<HeaderLookup>& lookups, const HeaderSearchList& search,
                                       const std::vector<std::string>& fallback_dirs);

// `__has_include(<x.h>)` / `__has_include_next("x.h")` tests in a file's text.
std::vector<std::pair<std::string, bool>> has_include_tests(std::string_view text);  // (name, angled)

}  // namespace torchabi::source
