#include "analyzers/runtime/shim/journal.h"

#include <mutex>

namespace torchabi::runtime {
namespace {

std::mutex& journal_mutex() {
  static std::mutex m;
  return m;
}
std::vector<Event>& journal() {
  static std::vector<Event> events;
  return events;
}
// A kernel stuck in a loop of bad calls must not grow the journal without bound.
constexpr size_t kMaxDistinctEvents = 256;

}  // namespace

void record(EventKind kind, const std::string& function, const std::string& detail) {
  std::lock_guard<std::mutex> lock(journal_mutex());
  for (auto& e : journal()) {
    if (e.kind == kind && e.function == function && e.detail == detail) {
      ++e.count;
      return;
    }
  }
  if (journal().size() < kMaxDistinctEvents) journal().push_back({kind, function, detail, 1});
}

void record_unimplemented(const char* function) {
  record(EventKind::Unimplemented, function,
         std::string("called ") + function + ", which the reference runtime does not implement");
  set_last_error(std::string(function) + " is not available in torchabi's reference runtime");
}

std::vector<Event> drain_events() {
  std::lock_guard<std::mutex> lock(journal_mutex());
  std::vector<Event> out;
  out.swap(journal());
  return out;
}

namespace {
thread_local std::string t_last_error;
}

void set_last_error(const std::string& message) { t_last_error = message; }
const std::string& last_error() { return t_last_error; }

}  // namespace torchabi::runtime
