#include "analyzers/source/front_end.h"

#include <algorithm>
#include <cstdlib>
#include <sys/resource.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <ctime>
#include <new>

#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "analyzers/source/tu_runner.h"

namespace torchabi::source {

namespace fs = std::filesystem;

struct ParseAccess {
  static std::unique_ptr<ParsedTu> make(ParseRequest r) { return std::unique_ptr<ParsedTu>(new ParsedTu(std::move(r))); }
  static CXTranslationUnit& tu(ParsedTu& p) { return p.tu_; }
  static CXIndex& index(ParsedTu& p) { return p.index_; }
  static bool& minimal(ParsedTu& p) { return p.minimal_args_; }
  static HeaderSearchList& search(ParsedTu& p) { return p.header_search_; }
  // False when the preamble's records do not line up with the main file's.
  static bool collect(ParsedTu& p) {
    p.collect_files();
    p.collect_preprocessing();
    if (p.request_.preamble && !p.adopt_preamble_includes()) return false;
    p.index_included_files();
    p.collect_diagnostics();
    return true;
  }
};

ParsedTu::ParsedTu(ParseRequest request) : request_(std::move(request)) {
  if (request_.preamble) {
    preamble_copy_ = *request_.preamble;
    request_.preamble = &*preamble_copy_;
  }
}

ParsedTu::~ParsedTu() {
  if (tu_) clang_disposeTranslationUnit(tu_);
}

const std::string& ParsedTu::path_of(CXFile file) const {
  static const std::string empty;
  if (!file) return empty;
  auto it = paths_.find(file);
  if (it != paths_.end()) return it->second;
  std::string p = take(clang_File_tryGetRealPathName(file));
  if (p.empty()) p = take(clang_getFileName(file));
  if (!p.empty()) p = fs::path(p).lexically_normal().string();
  return paths_.emplace(file, std::move(p)).first->second;
}

std::string ParsedTu::torch_header_name(const std::string& abs_path) const {
  return classifier().torch_name(abs_path, args().include_dirs);
}

bool ParsedTu::file_is_project(CXFile file, const CXSourceLocation* where) const {
  if (!file) return false;
  auto it = project_by_file_.find(file);
  if (it != project_by_file_.end()) return it->second;
  const std::string& path = path_of(file);
  bool project = false;
  if (path == main_file()) {
    project = true;
  } else if (is_preamble_header(path)) {
    project = false;  // torchabi's own file, standing in for the main file's first lines
  } else if (!path.empty() && torch_header_name(path).empty() &&
             path.find("/site-packages/") == std::string::npos && path.find("/dist-packages/") == std::string::npos) {
    bool under_root = request_.project_roots.empty();
    for (const auto& root : request_.project_roots) {
      std::string prefix = root.ends_with('/') ? root : root + "/";
      if (path.starts_with(prefix)) under_root = true;
    }
    if (under_root) {
      CXSourceLocation loc;
      if (where) {
        loc = *where;
      } else if (auto known = location_in_file_.find(file); known != location_in_file_.end()) {
        loc = known->second;
      } else {
        loc = clang_getLocationForOffset(tu_, file, 0);
      }
      project = !clang_Location_isInSystemHeader(loc);
    }
  }
  project_by_file_.emplace(file, project);
  project_by_path_[path] = project;
  return project;
}

bool ParsedTu::is_project_location(CXSourceLocation loc) const {
  CXFile f = nullptr;
  clang_getFileLocation(loc, &f, nullptr, nullptr, nullptr);
  return f && file_is_project(f, &loc);
}

bool ParsedTu::is_project_file(const std::string& abs_path) const {
  auto it = project_by_path_.find(abs_path);
  if (it != project_by_path_.end()) return it->second;
  CXFile f = clang_getFile(tu_, abs_path.c_str());
  if (!f) return false;
  return file_is_project(f);
}

std::vector<std::string> ParsedTu::project_files() const {
  std::vector<std::string> out = {main_file()};
  for (const auto& f : files_read_)
    if (f != main_file() && is_project_file(f)) out.push_back(f);
  return out;
}

static void location_parts(CXSourceLocation loc, CXFile* file, uint32_t* line, uint32_t* col, uint32_t* off) {
  unsigned l = 0, c = 0, o = 0;
  clang_getFileLocation(loc, file, &l, &c, &o);
  *line = l;
  *col = c;
  *off = o;
}

Range ParsedTu::range_of(CXSourceRange extent) const {
  Range r;
  CXFile f1 = nullptr, f2 = nullptr;
  uint32_t l, c, o, l2, c2, o2;
  location_parts(clang_getRangeStart(extent), &f1, &l, &c, &o);
  location_parts(clang_getRangeEnd(extent), &f2, &l2, &c2, &o2);
  if (!f1) return r;
  r.file = path_of(f1);
  r.line = l;
  r.column = c;
  r.begin = o;
  r.end = (f2 && clang_File_isEqual(f1, f2) && o2 >= o) ? o2 : o;
  return r;
}

Range ParsedTu::range_at(CXSourceLocation loc, uint32_t length) const {
  Range r;
  CXFile f = nullptr;
  uint32_t l, c, o;
  location_parts(loc, &f, &l, &c, &o);
  if (!f) return r;
  r.file = path_of(f);
  r.line = l;
  r.column = c;
  r.begin = o;
  r.end = o + length;
  return r;
}

std::string_view ParsedTu::file_text(const std::string& abs_path) const {
  // Cached: each clang_getFileContents call scans the TU's source locations.
  if (auto it = text_by_path_.find(abs_path); it != text_by_path_.end()) return it->second;
  CXFile f = clang_getFile(tu_, abs_path.c_str());
  size_t size = 0;
  const char* data = f ? clang_getFileContents(tu_, f, &size) : nullptr;
  std::string_view text = data ? std::string_view(data, size) : std::string_view();
  text_by_path_.emplace(abs_path, text);
  return text;
}

std::vector<Token> ParsedTu::tokens(const std::string& abs_path) const {
  std::vector<Token> out;
  CXFile f = clang_getFile(tu_, abs_path.c_str());
  if (!f) return out;
  const size_t size = file_text(abs_path).size();
  std::vector<std::pair<unsigned, unsigned>> skipped;
  if (CXSourceRangeList* list = clang_getSkippedRanges(tu_, f)) {
    for (unsigned i = 0; i < list->count; ++i) {
      unsigned b = 0, e = 0;
      clang_getFileLocation(clang_getRangeStart(list->ranges[i]), nullptr, nullptr, nullptr, &b);
      clang_getFileLocation(clang_getRangeEnd(list->ranges[i]), nullptr, nullptr, nullptr, &e);
      skipped.emplace_back(b, e);
    }
    clang_disposeSourceRangeList(list);
  }
  CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu_, f, 0),
                                       clang_getLocationForOffset(tu_, f, static_cast<unsigned>(size)));
  CXToken* toks = nullptr;
  unsigned n = 0;
  clang_tokenize(tu_, whole, &toks, &n);
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    Token t;
    t.range = range_of(clang_getTokenExtent(tu_, toks[i]));
    bool in_skipped = false;
    for (auto [b, e] : skipped)
      if (t.range.begin >= b && t.range.begin < e) in_skipped = true;
    if (in_skipped) continue;
    switch (clang_getTokenKind(toks[i])) {
      case CXToken_Punctuation: t.kind = Token::Kind::Punctuation; break;
      case CXToken_Keyword: t.kind = Token::Kind::Keyword; break;
      case CXToken_Identifier: t.kind = Token::Kind::Identifier; break;
      case CXToken_Literal: t.kind = Token::Kind::Literal; break;
      case CXToken_Comment: t.kind = Token::Kind::Comment; break;
    }
    t.text = take(clang_getTokenSpelling(tu_, toks[i]));
    out.push_back(std::move(t));
  }
  clang_disposeTokens(tu_, toks, n);
  return out;
}

size_t ParsedTu::error_count() const {
  return static_cast<size_t>(std::count_if(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& d) {
    return d.severity == Diagnostic::Severity::Error || d.severity == Diagnostic::Severity::Fatal;
  }));
}

std::vector<const IncludeDirective*> ParsedTu::include_chain(const std::string& abs_path) const {
  std::vector<const IncludeDirective*> chain;
  std::string cur = abs_path;
  for (int guard = 0; guard < 256; ++guard) {
    auto it = included_by_.find(cur);
    if (it == included_by_.end()) break;
    const IncludeDirective& d = includes_[it->second];
    chain.push_back(&d);
    if (d.includer == main_file()) break;
    cur = d.includer;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

void ParsedTu::collect_files() {
  struct Ctx {
    ParsedTu* self;
  } ctx{this};
  clang_getInclusions(
      tu_,
      [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
        auto* c = static_cast<Ctx*>(data);
        const std::string& p = c->self->path_of(file);
        if (!p.empty()) c->self->files_read_.push_back(p);
      },
      &ctx);
  if (request_.preamble) {
    // clang_getInclusions lists the files this parse entered, not those the
    // PCH had read: those were recorded when it was built.
    std::erase(files_read_, request_.preamble->header);
    files_read_.insert(files_read_.end(), request_.preamble->files_read.begin(), request_.preamble->files_read.end());
  }
  std::sort(files_read_.begin(), files_read_.end());
  files_read_.erase(std::unique(files_read_.begin(), files_read_.end()), files_read_.end());
}

namespace {

// The replacement text and identifiers of a project #define.
void read_definition_body(const ParsedTu& tu, CXCursor c, MacroDefinition& def) {
  CXToken* tokens = nullptr;
  unsigned n = 0;
  clang_tokenize(tu.raw(), clang_getCursorExtent(c), &tokens, &n);
  unsigned i = 1;  // skip the macro name
  if (clang_Cursor_isMacroFunctionLike(c)) {
    for (; i < n; ++i)
      if (take(clang_getTokenSpelling(tu.raw(), tokens[i])) == ")") {
        ++i;
        break;
      }
  }
  for (; i < n; ++i) {
    std::string s = take(clang_getTokenSpelling(tu.raw(), tokens[i]));
    Range r = tu.range_of(clang_getTokenExtent(tu.raw(), tokens[i]));
    if (!def.body_range.valid()) def.body_range = r;
    def.body_range.end = r.end;
    def.body += (def.body.empty() ? "" : " ") + s;
    if (clang_getTokenKind(tokens[i]) == CXToken_Identifier)
      def.body_identifiers.emplace_back(s, tu.range_of(clang_getTokenExtent(tu.raw(), tokens[i])));
  }
  clang_disposeTokens(tu.raw(), tokens, n);
}

}  // namespace

void ParsedTu::collect_preprocessing() {
  // A TU that includes torch/extension.h has ~40k #include directives (every
  // re-inclusion of a guarded header is one), so per-file facts are cached.
  struct FileFacts {
    std::string owned;
    std::string_view text;
    bool text_read = false;
    std::string torch_name;
    HeaderKind kind = HeaderKind::Other;
    bool classified = false;
  };
  struct Ctx {
    ParsedTu* self;
    std::unordered_map<void*, FileFacts> files;
    std::vector<HeaderLookup> probes;
    FileFacts& facts(CXFile f) { return files[f]; }
  } ctx{this, {}, {}};
  clang_visitChildren(
      clang_getTranslationUnitCursor(tu_),
      [](CXCursor c, CXCursor, CXClientData data) {
        if (!is_preprocessing_cursor(c)) return CXChildVisit_Continue;
        Ctx& x = *static_cast<Ctx*>(data);
        ParsedTu& self = *x.self;
        CXFile file = nullptr;
        CXSourceLocation where = clang_getCursorLocation(c);
        clang_getFileLocation(where, &file, nullptr, nullptr, nullptr);
        if (!file) return CXChildVisit_Continue;
        self.location_in_file_.emplace(file, where);
        if (c.kind == CXCursor_InclusionDirective) {
          IncludeDirective d;
          d.includer = self.path_of(file);
          d.range = self.range_of(clang_getCursorExtent(c));
          d.spelled = spelling(c);
          FileFacts& includer = x.facts(file);
          if (!includer.text_read) {
            // Read from disk: clang_getFileContents finds the file's buffer by
            // scanning all of the TU's source locations, once per file.
            includer.text_read = true;
            std::ifstream in(d.includer, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            includer.owned = ss.str();
            includer.text = includer.owned;
            // __has_include tests look headers up too: one appearing changes the TU.
            for (auto& [name, angled] : has_include_tests(includer.text))
              x.probes.push_back({d.includer, std::move(name), angled, {}, true});
          }
          if (d.range.end <= includer.text.size()) {
            std::string_view directive = includer.text.substr(d.range.begin, d.range.end - d.range.begin);
            auto lt = directive.find('<');
            auto q = directive.find('"');
            d.angled = lt != std::string_view::npos && (q == std::string_view::npos || lt < q);
          }
          CXFile inc = clang_getIncludedFile(c);
          if (inc) {
            d.resolved = self.path_of(inc);
            FileFacts& target = x.facts(inc);
            if (!target.classified) {
              target.classified = true;
              target.torch_name = self.torch_header_name(d.resolved);
              target.kind = target.torch_name.empty() ? HeaderKind::Other : self.classifier().classify(target.torch_name);
            }
            d.header_name = target.torch_name;
            d.kind = target.kind;
          }
          if (d.header_name.empty()) {
            // Unresolved, or resolved outside a torch layout: the spelling decides.
            HeaderKind spelled_kind = self.classifier().classify(d.spelled);
            if (spelled_kind != HeaderKind::Other && (!inc || !self.file_is_project(inc))) {
              d.header_name = d.spelled;
              d.kind = spelled_kind;
            }
          }
          self.includes_.push_back(std::move(d));
        } else if (c.kind == CXCursor_MacroExpansion && self.file_is_project(file, &where)) {
          if (clang_Cursor_isMacroBuiltin(c)) return CXChildVisit_Continue;
          MacroUse u;
          u.name = spelling(c);
          u.invocation_range = self.range_of(clang_getCursorExtent(c));
          u.range = self.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(u.name.size()));
          CXCursor def = clang_getCursorReferenced(c);
          if (!clang_Cursor_isNull(def) && !clang_isInvalid(def.kind)) {
            CXFile df = nullptr;
            unsigned line = 0;
            clang_getFileLocation(clang_getCursorLocation(def), &df, &line, nullptr, nullptr);
            if (df) {
              u.def_file = self.path_of(df);
              u.def_line = line;
              FileFacts& facts = x.facts(df);
              if (!facts.classified) {
                facts.classified = true;
                facts.torch_name = self.torch_header_name(u.def_file);
                facts.kind = facts.torch_name.empty() ? HeaderKind::Other : self.classifier().classify(facts.torch_name);
              }
              u.def_header = facts.torch_name;
              u.def_kind = facts.kind;
            }
          }
          self.macro_uses_.push_back(std::move(u));
        } else if (c.kind == CXCursor_MacroDefinition && self.file_is_project(file, &where)) {
          if (clang_Cursor_isMacroBuiltin(c)) return CXChildVisit_Continue;
          MacroDefinition d;
          d.name = spelling(c);
          d.range = self.range_at(clang_getCursorLocation(c), static_cast<uint32_t>(d.name.size()));
          read_definition_body(self, c, d);
          self.macro_definitions_.push_back(std::move(d));
        }
        return CXChildVisit_Continue;
      },
      &ctx);
  probes_ = std::move(ctx.probes);
}

bool ParsedTu::adopt_preamble_includes() {
  // The PCH's records come first: its header's N #include lines, each
  // followed by what it pulled in; then the main file's records, whose first
  // N #include lines are the same ones (clang skipped the guarded headers).
  // In a parse without the PCH the main file's lines stand where the
  // header's do: move them there.
  const PrecompiledPreamble& p = *request_.preamble;
  std::vector<size_t> from_header, from_main;
  for (size_t i = 0; i < includes_.size(); ++i) {
    if (includes_[i].includer == p.header) from_header.push_back(i);
    else if (includes_[i].includer == main_file() && from_main.size() < p.includes) from_main.push_back(i);
  }
  if (from_header.size() != p.includes || from_main.size() != p.includes) return false;
  for (size_t k = 0; k < p.includes; ++k) {
    IncludeDirective& h = includes_[from_header[k]];
    IncludeDirective& m = includes_[from_main[k]];
    if (h.spelled != m.spelled || h.resolved != m.resolved || from_main[k] < from_header[k]) return false;
    h = std::move(m);
  }
  for (size_t k = p.includes; k-- > 0;) includes_.erase(includes_.begin() + long(from_main[k]));
  std::erase_if(probes_, [&](const HeaderLookup& l) { return l.includer == p.header; });
  return true;
}

void ParsedTu::index_included_files() {
  for (size_t i = 0; i < includes_.size(); ++i)
    if (!includes_[i].resolved.empty()) included_by_.emplace(includes_[i].resolved, i);

  // Where each header was looked for and not found (all of the search path
  // for a missing one, the directories before the one it was found in for
  // the others): if one of these paths appears later, the TU's inputs changed.
  // Kept and resolved on demand: only a run that stores results in the
  // cache needs them, and resolving them is 40% of this function.
  lookups_.reserve(includes_.size() + probes_.size());
  for (const auto& d : includes_) lookups_.push_back({d.includer, d.spelled, d.angled, d.resolved, false});
  for (auto& p : probes_) lookups_.push_back(std::move(p));
  probes_.clear();
}

const std::vector<std::string>& ParsedTu::files_missing() const {
  if (!files_missing_) files_missing_ = lookup_misses(lookups_, header_search_, args().include_dirs);
  return *files_missing_;
}

void ParsedTu::collect_diagnostics() {
  unsigned n = clang_getNumDiagnostics(tu_);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic diag = clang_getDiagnostic(tu_, i);
    Diagnostic d;
    switch (clang_getDiagnosticSeverity(diag)) {
      case CXDiagnostic_Ignored: clang_disposeDiagnostic(diag); continue;
      case CXDiagnostic_Note: d.severity = Diagnostic::Severity::Note; break;
      case CXDiagnostic_Warning: d.severity = Diagnostic::Severity::Warning; break;
      case CXDiagnostic_Error: d.severity = Diagnostic::Severity::Error; break;
      case CXDiagnostic_Fatal: d.severity = Diagnostic::Severity::Fatal; break;
    }
    d.message = take(clang_getDiagnosticSpelling(diag));
    const std::string_view kUnknown = "unknown argument: '";
    if (std::string_view(d.message).starts_with(kUnknown) && d.message.back() == '\'') {
      ignored_flags_.push_back(d.message.substr(kUnknown.size(), d.message.size() - kUnknown.size() - 1));
      clang_disposeDiagnostic(diag);
      continue;
    }
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    clang_getFileLocation(clang_getDiagnosticLocation(diag), &f, &line, &col, &off);
    if (f) {
      d.file = path_of(f);
      d.line = line;
      d.column = col;
      d.offset = off;
    }
    if (CXDiagnosticSet children = clang_getChildDiagnostics(diag)) {
      unsigned nc = clang_getNumDiagnosticsInSet(children);
      for (unsigned k = 0; k < nc; ++k) {
        CXDiagnostic child = clang_getDiagnosticInSet(children, k);
        Diagnostic note;
        note.severity = Diagnostic::Severity::Note;
        note.message = take(clang_getDiagnosticSpelling(child));
        CXFile cf = nullptr;
        unsigned cl = 0, cc = 0, co = 0;
        clang_getFileLocation(clang_getDiagnosticLocation(child), &cf, &cl, &cc, &co);
        if (cf) {
          note.file = path_of(cf);
          note.line = cl;
          note.column = cc;
          note.offset = co;
        }
        d.notes.push_back(std::move(note));
        clang_disposeDiagnostic(child);
      }
    }
    diagnostics_.push_back(std::move(d));
    clang_disposeDiagnostic(diag);
  }
}

namespace {

constexpr unsigned kParseOptions = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                                   CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
// A PCH keeps the detailed preprocessing record (the #include lines and macro
// definitions of its headers, which the TUs' records then hold) and is an
// incomplete TU whose templates are instantiated in it (-fpch-instantiate-templates
// below), not again in every TU.
constexpr unsigned kPchOptions = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_Incomplete |
                                 CXTranslationUnit_ForSerialization |
                                 CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;

// Parses with `-v` added, so that clang prints its header search list
// (read into `search`; see header_search.h) on stderr, which is captured
// meanwhile. Anything else written there is passed on.
CXErrorCode try_parse(CXIndex index, const std::string& file, const std::vector<std::string>& args,
                      CXTranslationUnit* out, HeaderSearchList* search, unsigned options = kParseOptions) {
  std::vector<const char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back("-v");
  StderrCapture capture;
  CXErrorCode rc = clang_parseTranslationUnit2(index, file.c_str(), argv.data(), static_cast<int>(argv.size()),
                                               nullptr, 0, options, out);
  const std::string verbose = capture.text();
  // Under a memory limit (tu_runner.h) an allocation that fails inside the
  // parse is a crash to libclang, which recovers from it; it is the limit,
  // so it is thrown as such and the unit is reported as over it.
  if (rc == CXError_Crashed && llvm_ran_out_of_memory(verbose)) throw std::bad_alloc();
  *search = parse_verbose_search_list(verbose);
  if (std::string rest = verbose_output_rest(verbose); !rest.empty()) {
    std::fwrite(rest.data(), 1, rest.size(), stderr);
    std::fflush(stderr);
  }
  return rc;
}

}  // namespace

namespace {

// libclang parses on a thread of its own (8 MB stack) unless LIBCLANG_NOTHREADS
// is set. That thread allocates from a second malloc arena and made a small
// TU's parse and the walks after it ~10% slower; lint's crash isolation is the
// forked child, not that thread, and libclang still recovers from a crash on
// the calling thread. The calling thread's stack is then what deep template
// instantiation uses: like clang's own driver, raise its limit to 8 MB when
// it is lower (the main thread's stack grows up to the limit).
void parse_on_calling_thread() {
  static const bool done = [] {
    constexpr rlim_t kStack = rlim_t(8) << 20;
    rlimit limit{};
    if (::getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < kStack) {
      limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? kStack : std::min(kStack, limit.rlim_max);
      ::setrlimit(RLIMIT_STACK, &limit);
    }
    ::setenv("LIBCLANG_NOTHREADS", "1", /*overwrite=*/0);
    return true;
  }();
  (void)done;
}

// One index for every parse of the process: creating one costs ~10 ms (most
// of it libclang's set-up), and lint's parent creates it before forking so
// that no child pays it. Never disposed: it lives as long as the process.
CXIndex shared_index() {
  static const CXIndex index = [] {
    libclang::load();
    return clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  }();
  return index;
}

}  // namespace

void prepare_libclang() { (void)shared_index(); }

namespace {

// The arguments to build a PCH of a header with the TU's flags.
std::vector<std::string> pch_build_args(const std::vector<std::string>& args) {
  std::vector<std::string> out = args;
  for (size_t i = 0; i + 1 < out.size(); ++i)
    if (out[i] == "-x") out[i + 1] = "c++-header";
  out.push_back("-fpch-instantiate-templates");
  return out;
}

// Whether a diagnostic says the PCH could not be used (stale, unreadable,
// built with other options).
bool about_the_pch(CXTranslationUnit tu) {
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    const CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    std::string msg = take(clang_getDiagnosticSpelling(d));
    clang_disposeDiagnostic(d);
    if (sev < CXDiagnostic_Warning) continue;
    for (const char* word : {"precompiled", "PCH file", "AST file"})
      if (msg.find(word) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

ParseOutcome parse_translation_unit(ParseRequest request) {
  if (request.preamble && !request.for_pch) {
    // Parse with the PCH; on any sign that it was not used as intended, as if it were not there.
    ParseRequest plain = request;
    plain.preamble = nullptr;
    std::error_code ec;
    std::string why;
    if (!fs::is_regular_file(request.preamble->pch, ec)) {
      why = "its PCH is gone";
    } else {
      auto tu = ParseAccess::make(std::move(request));
      parse_on_calling_thread();
      ParseAccess::index(*tu) = shared_index();
      std::vector<std::string> args = tu->args().args;
      args.push_back("-include-pch");
      args.push_back(tu->preamble_pch());
      CXTranslationUnit raw = nullptr;
      CXErrorCode rc = try_parse(ParseAccess::index(*tu), tu->main_file(), args, &raw, &ParseAccess::search(*tu));
      if (rc == CXError_Success && raw && !about_the_pch(raw)) {
        ParseAccess::tu(*tu) = raw;
        if (ParseAccess::collect(*tu)) {
          ParseOutcome out;
          out.tu = std::move(tu);
          out.used_preamble = true;
          return out;
        }
        why = "its #include records did not match the file's";
      } else {
        why = rc == CXError_Crashed ? "libclang crashed with it" : "clang could not use its PCH";
        if (raw) clang_disposeTranslationUnit(raw);
      }
    }
    ParseOutcome out = parse_translation_unit(std::move(plain));
    out.preamble_note = "shared preamble not used: " + why;
    return out;
  }
  ParseOutcome out;
  std::error_code ec;
  const std::string file = request.args.file;
  if (!fs::is_regular_file(file, ec)) {
    out.error = "source file not found";
    return out;
  }
  auto tu = ParseAccess::make(std::move(request));
  parse_on_calling_thread();
  ParseAccess::index(*tu) = shared_index();
  CXTranslationUnit raw = nullptr;
  if (tu->for_pch()) {
    CXErrorCode rc = try_parse(ParseAccess::index(*tu), file, pch_build_args(tu->args().args), &raw,
                               &ParseAccess::search(*tu), kPchOptions);
    if (rc != CXError_Success || !raw) {
      out.crashed = rc == CXError_Crashed;
      out.error = "libclang could not parse the preamble";
      return out;
    }
    ParseAccess::tu(*tu) = raw;
    ParseAccess::collect(*tu);
    out.tu = std::move(tu);
    return out;
  }
  CXErrorCode rc = try_parse(ParseAccess::index(*tu), file, tu->args().args, &raw, &ParseAccess::search(*tu));
  if (rc == CXError_Crashed) {
    out.crashed = true;
    out.error = "libclang crashed while parsing this file";
    return out;
  }
  if (rc != CXError_Success || !raw) {
    // Flags clang does not accept (a gcc-only option, say) fail the whole
    // parse; the include paths and macros alone still give a useful AST.
    rc = try_parse(ParseAccess::index(*tu), file, tu->args().minimal_args(), &raw, &ParseAccess::search(*tu));
    if (rc == CXError_Crashed) {
      out.crashed = true;
      out.error = "libclang crashed while parsing this file";
      return out;
    }
    if (rc != CXError_Success || !raw) {
      out.error = "libclang could not parse this file with its compile flags";
      return out;
    }
    ParseAccess::minimal(*tu) = true;
  }
  ParseAccess::tu(*tu) = raw;
  ParseAccess::collect(*tu);
  out.tu = std::move(tu);
  return out;
}

}  // namespace torchabi::source
