// A repository's TUs share their common preamble.
//
// Why: an extension's TUs mostly begin with the same torch headers
// (torch/extension.h is ~10 s of clang per TU; the TU's own code is a small
// part of that). Those leading #include lines are parsed once into a
// precompiled header, which every TU of the run with the same flags loads
// (-include-pch: the guarded headers are then skipped) instead of parsing
// them again. The PCH is kept on disk like a cached result (result_cache.h:
// validated against every file it read and every path it looked for and did
// not find) and reused by later runs.
//
// Only what cannot change a TU's meaning is shared: the run of
// `#include <...>` lines a source starts with, with nothing but comments and
// blank lines before and between them (a #define before them,
// TORCH_TARGET_VERSION say, changes what the headers declare; a quoted
// include is looked up next to its file), of C++ TUs with identical flags and
// no -include of their own. A PCH is not used when its headers had errors
// (the TU would no longer report them), when a header it includes directly is
// not include-guarded (the TU would read it twice), or when it includes
// project headers (whose macros, tokens and cursors the checks read). The
// front end (front_end.h) falls back to a plain parse whenever clang cannot
// use a PCH; findings are the same either way (tests/e2e/preamble_test.cpp).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/source/front_end.h"
#include "inputs/compile_db_args.h"

namespace torchabi::source {

// The headers (spelled "<torch/extension.h>") of the #include lines a source
// starts with; empty when it starts with anything else.
std::vector<std::string> leading_includes(std::string_view source);

// `includes` up to the first one found (along `include_dirs`, as an angled
// include is looked up) under a project root: the project's own headers stay
// in the TU.
std::vector<std::string> shareable_prefix(std::vector<std::string> includes, const std::vector<std::string>& include_dirs,
                                          const std::vector<std::string>& project_roots);

// Whether a TU's flags allow a shared preamble: C++ (not CUDA, C or a header),
// no -include/-imacros/-include-pch of its own, no modules, no -Xclang.
bool preamble_eligible(const inputs::ClangArgs& args);

// A PCH's cache key: the format, the compiler that reads it, the flags, the
// headers and the project roots (they decide which headers are the project's).
std::string preamble_key(const inputs::ClangArgs& args, const std::vector<std::string>& includes,
                         const std::vector<std::string>& project_roots, const std::string& compiler);

// The generated header a PCH is built from.
std::string preamble_header_text(const std::vector<std::string>& includes);

// What a child that built a PCH sends back (and the cache keeps).
struct PreambleBuild {
  std::optional<PrecompiledPreamble> preamble;  // empty: not usable
  std::string why;                              // when not usable
  std::vector<std::string> files_read;          // the inputs, for the cache
  std::vector<std::string> files_missing;
};

// Builds `<dir>/<key>.pch` from `<dir>/<key>.h` with `args`' flags, in this
// process (lint runs it in a child). Never throws.
PreambleBuild build_preamble(const inputs::ClangArgs& args, const std::vector<std::string>& includes,
                             const std::string& dir, const std::string& key,
                             const std::vector<std::string>& project_roots, const HeaderClassifier& classifier);

std::string serialize_preamble_build(const PreambleBuild& b);
PreambleBuild deserialize_preamble_build(const std::string& text);  // throws on malformed text

// The preambles of one lint run.
class SharedPreambles {
public:
  // `cache_dir` empty: the PCHs live in a temporary directory for this run only.
  SharedPreambles(std::string cache_dir, std::vector<std::string> project_roots, const HeaderClassifier& classifier);
  ~SharedPreambles();
  SharedPreambles(const SharedPreambles&) = delete;
  SharedPreambles& operator=(const SharedPreambles&) = delete;

  // Groups `tus[todo...]` by preamble, takes valid cached PCHs, and builds
  // (in child processes, `jobs` at a time) those that two or more TUs share.
  // `started` is told the label of each build.
  void prepare(const std::vector<inputs::ClangArgs>& tus, const std::vector<size_t>& todo, unsigned jobs,
               const std::function<void(const std::string&)>& started = {});

  // The preamble for `tus[i]`, or null.
  const PrecompiledPreamble* for_tu(size_t i) const;

  // What happened, one line each (shown with -v).
  const std::vector<std::string>& notes() const { return notes_; }

private:
  std::string dir_;
  bool temporary_ = false;
  std::vector<std::string> project_roots_;
  const HeaderClassifier& classifier_;
  std::map<size_t, std::string> key_of_tu_;
  std::map<std::string, PrecompiledPreamble> ready_;
  std::vector<std::string> notes_;
};

}  // namespace torchabi::source
