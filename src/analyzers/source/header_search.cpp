#include "analyzers/source/header_search.h"
#include "common/text.h"

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace torchabi::source {

namespace fs = std::filesystem;

namespace {

std::string canonical_dir(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(dir), ec);
  if (ec || p.empty()) return fs::path(dir).lexically_normal().string();
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

using text::trim;

bool exists(const std::string& path, struct stat* out = nullptr) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  if (out) *out = st;
  return true;
}

}  // namespace

HeaderSearchList parse_verbose_search_list(std::string_view text) {
  HeaderSearchList out;
  enum { None, Quoted, Angled } section = None;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    constexpr std::string_view kIgnoring = "ignoring nonexistent directory \"";
    if (line.starts_with(kIgnoring) && line.ends_with("\"")) {
      out.absent.push_back(canonical_dir(std::string(line.substr(kIgnoring.size(), line.size() - kIgnoring.size() - 1))));
      continue;
    }
    if (line.starts_with("#include \"...\" search starts here")) {
      section = Quoted;
      continue;
    }
    if (line.starts_with("#include <...> search starts here")) {
      section = Angled;
      continue;
    }
    if (line.starts_with("End of search list")) break;
    if (section == None || !line.starts_with(" ")) continue;
    std::string_view dir = trim(line);
    for (std::string_view suffix : {" (framework directory)", " (headermap)"})
      if (dir.ends_with(suffix)) dir.remove_suffix(suffix.size());
    if (dir.empty()) continue;
    (section == Quoted ? out.quoted : out.angled).push_back(canonical_dir(std::string(dir)));
  }
  return out;
}

std::string verbose_output_rest(std::string_view text) {
  const std::string_view kEnd = "End of search list.";
  size_t p = text.find(kEnd);
  if (p == std::string_view::npos) {
    // No search list: nothing of -v's was printed, so it is all someone else's.
    return text.find("search starts here") == std::string_view::npos && text.find("clang version") == std::string_view::npos
               ? std::string(text)
               : std::string();
  }
  p = text.find('\n', p);
  return p == std::string_view::npos ? std::string() : std::string(text.substr(p + 1));
}

StderrCapture::StderrCapture() {
  std::fflush(stderr);
  capture_ = ::memfd_create("torchabi-clang-v", MFD_CLOEXEC);
  if (capture_ < 0) return;
  saved_ = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
  if (saved_ < 0 || ::dup2(capture_, 2) < 0) {
    if (saved_ >= 0) ::close(saved_);
    ::close(capture_);
    saved_ = capture_ = -1;
  }
}

void StderrCapture::restore() {
  if (saved_ < 0) return;
  std::fflush(stderr);
  ::dup2(saved_, 2);
  ::close(saved_);
  saved_ = -1;
}

StderrCapture::~StderrCapture() {
  restore();
  if (capture_ >= 0) ::close(capture_);
}

std::string StderrCapture::text() {
  restore();
  std::string out;
  if (capture_ < 0) return out;
  char buf[8192];
  for (off_t off = 0;;) {
    ssize_t n = ::pread(capture_, buf, sizeof buf, off);
    if (n <= 0) break;
    out.append(buf, size_t(n));
    off += n;
  }
  return out;
}

std::vector<std::pair<std::string, bool>> has_include_tests(std::string_view text) {
  std::vector<std::pair<std::string, bool>> out;
  constexpr std::string_view kName = "__has_include";
  for (size_t p = text.find(kName); p != std::string_view::npos; p = text.find(kName, p + kName.size())) {
    size_t i = p + kName.size();
    if (text.substr(i).starts_with("_next")) i += 5;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i >= text.size() || text[i] != '(') continue;
    ++i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i >= text.size() || (text[i] != '<' && text[i] != '"')) continue;  // a macro argument: not readable here
    const char close = text[i] == '<' ? '>' : '"';
    size_t end = text.find(close, i + 1);
    if (end == std::string_view::npos || text.substr(i + 1, end - i - 1).find('\n') != std::string_view::npos) continue;
    out.emplace_back(std::string(text.substr(i + 1, end - i - 1)), close == '>');
  }
  return out;
}

std::vector<std::string> lookup_misses(const std::vector<HeaderLookup>& lookups, const HeaderSearchList& search,
                                       const std::vector<std::string>& fallback_dirs) {
  std::vector<std::string> quoted = search.quoted, angled = search.angled;
  if (search.empty())
    for (const auto& d : fallback_dirs) angled.push_back(canonical_dir(d));
  std::vector<std::string> out;
  std::unordered_set<std::string> recorded, done;
  std::unordered_map<std::string, bool> exists_cache;
  auto candidate_exists = [&](const std::string& p, struct stat* st) {
    if (st) return exists(p, st);
    auto it = exists_cache.find(p);
    if (it != exists_cache.end()) return it->second;
    return exists_cache[p] = exists(p);
  };
  // A search directory that did not exist: any header appearing in it means
  // it was created, so the directory itself stands for all its candidates.
  for (const auto& d : search.absent)
    if (recorded.insert(d).second) out.push_back(d);
  for (const auto& l : lookups) {
    if (l.spelled.empty()) continue;
    const std::string includer_dir = fs::path(l.includer).parent_path().string();
    const std::string memo = (l.angled ? std::string() : includer_dir) + '\0' + l.spelled + '\0' + l.resolved +
                             (l.probe ? "\1" : "");
    if (!done.insert(memo).second) continue;
    auto record = [&](const std::string& p) {
      if (recorded.insert(p).second) out.push_back(p);
    };
    if (l.spelled.front() == '/') {
      if (l.resolved.empty()) record(fs::path(l.spelled).lexically_normal().string());
      continue;
    }
    struct stat resolved_st {};
    const bool have_resolved = !l.resolved.empty() && exists(l.resolved, &resolved_st);
    std::vector<const std::string*> dirs;
    if (!l.angled) {
      dirs.push_back(&includer_dir);
      for (const auto& d : quoted) dirs.push_back(&d);
    }
    for (const auto& d : angled) dirs.push_back(&d);
    for (const std::string* d : dirs) {
      const std::string p = (fs::path(*d) / l.spelled).lexically_normal().string();
      if (!l.resolved.empty() && p == l.resolved) break;
      struct stat st {};
      if (!candidate_exists(p, have_resolved ? &st : nullptr)) {
        record(p);
        continue;
      }
      if (l.probe) break;  // __has_include is true from the first existing candidate
      // Found where it resolved (through a symlink, say): the search stopped
      // here. Another existing file before it was skipped (#include_next).
      if (have_resolved && st.st_dev == resolved_st.st_dev && st.st_ino == resolved_st.st_ino) break;
    }
  }
  return out;
}

}  // namespace torchabi::source
