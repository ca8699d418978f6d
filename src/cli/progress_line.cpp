#include "cli/progress_line.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace torchabi::cli {

namespace {

// Redrawing more often than this only costs the terminal time.
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string seconds(std::chrono::steady_clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", std::chrono::duration<double>(d).count());
  return buf;
}

}  // namespace

ProgressLine::Mode ProgressLine::mode_for(std::FILE* out, bool verbose) {
  const char* term = std::getenv("TERM");
  const bool terminal = ::isatty(::fileno(out)) && !(term && std::strcmp(term, "dumb") == 0);
  if (terminal) return Mode::Terminal;
  return verbose ? Mode::Log : Mode::Off;
}

ProgressLine::ProgressLine(std::FILE* out, Mode mode, std::string cwd) : out_(out), mode_(mode), cwd_(std::move(cwd)) {
  if (!cwd_.empty() && cwd_.back() != '/') cwd_ += '/';
}

std::string ProgressLine::shown(const std::string& file) const {
  return !cwd_.empty() && file.starts_with(cwd_) ? file.substr(cwd_.size()) : file;
}

void ProgressLine::begin(size_t total, size_t from_cache) {
  total_ = total;
  done_ = from_cache;
  start_ = Clock::now();
  if (mode_ == Mode::Log && from_cache > 0)
    std::fprintf(out_, "torchabi: [%zu/%zu] from the cache\n", done_, total_);
}

void ProgressLine::started(const std::string& file) {
  current_ = file;
  draw(false);
}

void ProgressLine::finished(const std::string& file, bool ok) {
  ++done_;
  if (mode_ == Mode::Log) {
    std::fprintf(out_, "torchabi: [%zu/%zu] %s%s (%s)\n", done_, total_, shown(file).c_str(),
                 ok ? "" : " failed", seconds(Clock::now() - start_).c_str());
    std::fflush(out_);
  }
  draw(done_ == total_);
}

void ProgressLine::end() {
  if (mode_ == Mode::Terminal && drawn_) {
    std::fputs("\r\033[K", out_);  // erase: the report starts on a clean line
    std::fflush(out_);
  }
  drawn_ = false;
}

void ProgressLine::draw(bool force) {
  if (mode_ != Mode::Terminal) return;
  const auto now = Clock::now();
  if (drawn_ && !force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  drawn_ = true;
  std::string line = "torchabi: [" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + seconds(now - start_);
  if (!current_.empty() && done_ < total_) line += "  " + shown(current_);
  // Keep it on one line of a narrow terminal: cut the path from the left.
  constexpr size_t kWidth = 78;
  if (line.size() > kWidth) line = line.substr(0, 20) + "..." + line.substr(line.size() - (kWidth - 23));
  std::fprintf(out_, "\r\033[K%s", line.c_str());
  std::fflush(out_);
}

PhaseLine::PhaseLine(std::FILE* out, ProgressLine::Mode mode, const std::string& text) : out_(out), mode_(mode) {
  if (mode_ == ProgressLine::Mode::Off) return;
  std::string line = "torchabi: " + text;
  if (mode_ == ProgressLine::Mode::Terminal) {
    constexpr size_t kWidth = 78;
    if (line.size() > kWidth) line = line.substr(0, kWidth - 3) + "...";
    std::fprintf(out_, "\r\033[K%s", line.c_str());
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

PhaseLine::~PhaseLine() {
  if (mode_ != ProgressLine::Mode::Terminal) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
}

}  // namespace torchabi::cli
