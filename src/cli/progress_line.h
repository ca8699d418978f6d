// Progress of a long lint/check/migrate on stderr. On a terminal: one line,
// redrawn in place (done/total, elapsed, the file being parsed) and erased
// when the run ends, so the report below is unchanged. Elsewhere (CI logs):
// nothing, or with -v one line per finished translation unit.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "analyzers/source/lint_progress.h"

namespace torchabi::cli {

class ProgressLine : public source::LintProgress {
public:
  enum class Mode { Off, Terminal, Log };
  // Terminal when `out` is a terminal (and TERM is not "dumb"), else Log
  // when verbose, else Off.
  static Mode mode_for(std::FILE* out, bool verbose);

  ProgressLine(std::FILE* out, Mode mode, std::string cwd);

  void begin(size_t total, size_t from_cache) override;
  void started(const std::string& file) override;
  void finished(const std::string& file, bool ok) override;
  void end() override;

private:
  using Clock = std::chrono::steady_clock;
  void draw(bool force);
  std::string shown(const std::string& file) const;

  std::FILE* out_;
  Mode mode_;
  std::string cwd_;
  size_t total_ = 0, done_ = 0;
  std::string current_;
  Clock::time_point start_{}, last_draw_{};
  bool drawn_ = false;
};

// One line naming a long step that reports no progress of its own (a build
// script or a CMake configure running, seconds to minutes): on a terminal it
// is shown while the step runs and erased after; with -v elsewhere it is
// logged once; otherwise nothing.
class PhaseLine {
public:
  PhaseLine(std::FILE* out, ProgressLine::Mode mode, const std::string& text);
  ~PhaseLine();
  PhaseLine(const PhaseLine&) = delete;
  PhaseLine& operator=(const PhaseLine&) = delete;

private:
  std::FILE* out_;
  ProgressLine::Mode mode_;
};

}  // namespace torchabi::cli
