// The reusable libclang front end for every source-level analysis (lint,
// schema registration checks, migration rewrites).
//
// parse_translation_unit() parses one TU in keep-going mode with a detailed
// preprocessing record, under libclang's crash recovery; a TU whose headers
// are missing still yields every directive, macro use and token of the
// project's files, and whatever AST clang could recover. What a check needs
// is then available as plain values (source_model.h):
//
//   includes()        every #include of every file, resolved or not, classified
//   include_chain()   how a file was reached from the main file
//   references()      every use in project files of a type, function, method,
//                     variable, enum constant, template or namespace, resolved
//                     to its declaration's fully qualified name and declaring
//                     header — through `using namespace`, typedefs, `auto` and
//                     macro expansions
//   macro_uses()      top-level macro expansions in project files
//   macro_definitions()  #defines in project files
//   diagnostics()     clang's diagnostics (errors mean the AST is partial)
//
// Checks that need more than this (call arguments, string literals of
// m.def("schema")) visit the project's cursors directly with
// visit_project_cursors(), and use the helpers in cursor_utils.h.
//
// "Project files" are the main file and the headers of the project: files
// under a project root that are neither system headers nor torch headers.
//
// A ParsedTu is not thread-safe; parse different TUs on different threads or,
// as lint does (tu_runner.h), in child processes.
#pragma once

#include <clang-c/Index.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzers/source/header_classifier.h"
#include "analyzers/source/header_search.h"
#include "analyzers/source/source_model.h"
#include "inputs/compile_db_args.h"

namespace torchabi::source {

// A precompiled header of the TU's leading #include lines (shared_preamble.h
// builds and caches it): parsed with -include-pch, the TU skips those
// already-included, guarded headers. The records clang keeps of the PCH's
// header (its own #include lines) are rewritten to the main file's, so that
// nothing downstream can tell the difference.
struct PrecompiledPreamble {
  std::string pch;                      // the .pch file
  std::string header;                   // the generated header it was built from
  size_t includes = 0;                  // #include lines in `header` (= the main file's first ones)
  std::vector<std::string> files_read;  // every file the PCH read, `header` excluded
};

struct ParseRequest {
  inputs::ClangArgs args;
  // Directories whose files (outside system and torch headers) are the
  // project's. Empty: every non-system, non-torch file is the project's.
  std::vector<std::string> project_roots;
  const HeaderClassifier* classifier = nullptr;  // required
  // Optional: parse with this preamble. Any sign that clang could not use it
  // (a stale or unreadable PCH, records that do not line up) parses the TU
  // again without it; ParseOutcome::preamble_note says why.
  const PrecompiledPreamble* preamble = nullptr;
  // Parse `args.file` as a header to be saved as a PCH (shared_preamble.cpp):
  // -x c++-header, templates instantiated in the PCH, no keep-going.
  bool for_pch = false;
};

// A visitor over the cursors located in project files, depth-first in source
// order. Return false from visit() to skip the cursor's children.
class CursorVisitor {
public:
  virtual ~CursorVisitor() = default;
  virtual bool visit(CXCursor cursor, CXCursor parent) = 0;
};

class ParsedTu {
public:
  ~ParsedTu();
  ParsedTu(const ParsedTu&) = delete;
  ParsedTu& operator=(const ParsedTu&) = delete;

  const inputs::ClangArgs& args() const { return request_.args; }
  const std::string& main_file() const { return request_.args.file; }
  // Whether the full argument set was rejected and the TU was parsed with
  // only include paths and macros (ClangArgs::minimal_args()).
  bool used_minimal_args() const { return minimal_args_; }
  bool for_pch() const { return request_.for_pch; }
  const std::string& preamble_pch() const { return request_.preamble->pch; }

  bool is_project_file(const std::string& abs_path) const;
  // Project files seen in this TU, main file first.
  std::vector<std::string> project_files() const;
  // The include-relative torch name of a file ("" when it is not a torch header).
  std::string torch_header_name(const std::string& abs_path) const;

  const std::vector<IncludeDirective>& includes() const { return includes_; }
  // Directives from the main file down to `abs_path`, outermost first; empty
  // for the main file or a file this TU did not include.
  std::vector<const IncludeDirective*> include_chain(const std::string& abs_path) const;

  const std::vector<Reference>& references() const;
  const std::vector<MacroUse>& macro_uses() const { return macro_uses_; }
  const std::vector<MacroDefinition>& macro_definitions() const { return macro_definitions_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // Compiler flags clang did not know and ignored (gcc-only options): they
  // do not make the AST incomplete, so they are kept out of diagnostics().
  const std::vector<std::string>& ignored_flags() const { return ignored_flags_; }
  size_t error_count() const;
  // True when clang reported no error: the AST covers all of the code.
  bool ast_complete() const { return error_count() == 0; }

  // Contents of a file of the TU as clang read it (empty if unknown).
  std::string_view file_text(const std::string& abs_path) const;
  // Tokens of a file, in order, without those in blocks the preprocessor
  // skipped (#if 0, a false #ifdef): what the compiler actually read.
  std::vector<Token> tokens(const std::string& abs_path) const;

  // Every file clang read, and the paths it looked for and did not find
  // (unresolved includes, per search directory): the TU's inputs for caching.
  const std::vector<std::string>& files_read() const { return files_read_; }
  // Computed on first use (costly on a TU with many includes).
  const std::vector<std::string>& files_missing() const;
  // Clang's header search directories for this TU, as `-v` printed them
  // (empty when they could not be read; the cache then falls back to -I dirs).
  const HeaderSearchList& header_search() const { return header_search_; }

  void visit_project_cursors(CursorVisitor& visitor) const;

  // Escape hatch for analyses that need libclang directly.
  CXTranslationUnit raw() const { return tu_; }
  const HeaderClassifier& classifier() const { return *request_.classifier; }

  // Path of a CXFile (absolute, normalised), cached.
  const std::string& path_of(CXFile file) const;
  // Whether the file holding `loc` is a project file (cached per file).
  bool is_project_location(CXSourceLocation loc) const;
  // Range of a cursor/extent in terms of file offsets (expansion locations).
  Range range_of(CXSourceRange extent) const;
  Range range_at(CXSourceLocation loc, uint32_t length) const;

private:
  friend struct ParseAccess;
  explicit ParsedTu(ParseRequest request);
  void collect_preprocessing();
  void collect_diagnostics();
  void collect_files();
  // `where`, when given, is any location inside `file`: clang answers "is
  // this a system header" from it without scanning every source location of
  // the TU (which clang_getLocationForOffset does, once per file).
  bool file_is_project(CXFile file, const CXSourceLocation* where = nullptr) const;

  bool is_preamble_header(const std::string& path) const {
    return request_.preamble && path == request_.preamble->header;
  }
  // With a preamble: the PCH header's #include lines become the main file's.
  bool adopt_preamble_includes();
  void index_included_files();

  ParseRequest request_;
  std::optional<PrecompiledPreamble> preamble_copy_;  // request_.preamble points here
  CXIndex index_ = nullptr;  // the process-wide index (shared_index), not owned
  CXTranslationUnit tu_ = nullptr;
  bool minimal_args_ = false;
  std::vector<IncludeDirective> includes_;
  std::vector<MacroUse> macro_uses_;
  std::vector<MacroDefinition> macro_definitions_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> ignored_flags_;
  std::vector<std::string> files_read_;
  std::vector<HeaderLookup> lookups_;
  std::vector<HeaderLookup> probes_;  // __has_include tests, until index_included_files()
  mutable std::optional<std::vector<std::string>> files_missing_;
  HeaderSearchList header_search_;
  std::unordered_map<std::string, size_t> included_by_;  // file -> index of the directive that first included it
  mutable std::unordered_map<void*, std::string> paths_;
  mutable std::unordered_map<void*, bool> project_by_file_;
  mutable std::unordered_map<void*, CXSourceLocation> location_in_file_;
  mutable std::unordered_map<std::string, std::string_view> text_by_path_;
  mutable std::unordered_map<std::string, bool> project_by_path_;
  mutable std::optional<std::vector<Reference>> references_;
};

struct ParseOutcome {
  std::unique_ptr<ParsedTu> tu;  // null when nothing could be parsed
  std::string error;             // one line: why nothing could be parsed
  bool crashed = false;          // libclang crashed (and recovered)
  bool used_preamble = false;    // ParseRequest::preamble was used
  std::string preamble_note;     // why it was not, when it was given
};

// Never throws for bad input: a missing file, rejected flags or a libclang
// crash come back as `error`.
ParseOutcome parse_translation_unit(ParseRequest request);

// Loads libclang and creates the index every parse uses (libclang's set-up,
// 10-20 ms). Called in lint's parent process so that every forked child
// inherits both instead of repeating it. Throws InputError when libclang
// cannot be loaded.
void prepare_libclang();

}  // namespace torchabi::source
