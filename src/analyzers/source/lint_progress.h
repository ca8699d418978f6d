// How a lint run tells its caller where it is, so that a terminal can show
// progress on a long run. The engine calls these in the parent process only,
// in order: begin, then started/finished per translation unit it parses
// (cached ones are counted in begin), then end.
#pragma once

#include <cstddef>
#include <string>

namespace torchabi::source {

class LintProgress {
public:
  virtual ~LintProgress() = default;
  virtual void begin(size_t total, size_t from_cache) = 0;
  virtual void started(const std::string& file) = 0;
  virtual void finished(const std::string& file, bool ok) = 0;
  virtual void end() = 0;
};

}  // namespace torchabi::source
