#include "common/temp_dirs.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <set>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace torchabi::temp_dirs {

namespace fs = std::filesystem;

namespace {

// Never destroyed: scratch directories held by other statics (a
// function-local ScratchDirs constructed before the first make()) are
// removed by their destructors at exit, after any static made later than
// them would be gone.
std::mutex& lock() {
  static auto* m = new std::mutex;
  return *m;
}

std::set<std::string>& live() {
  static auto* dirs = new std::set<std::string>;
  return *dirs;
}

int signal_pipe[2] = {-1, -1};
// The watcher thread starts with the first scratch directory: most runs (an
// audit, --version) make none, and a thread at every start cost each of them
// its creation and a two-thread exit (bench/audit).
std::atomic<bool> watcher_running{false};

// Only a write: the watcher thread does the work outside the handler. Before
// there is anything to remove, the exit the watcher would make, at once.
void on_signal(int sig) {
  if (!watcher_running.load()) ::_exit(128 + sig);
  const unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] const ssize_t n = ::write(signal_pipe[1], &byte, 1);
}

void start_watcher() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (signal_pipe[0] < 0) return;  // remove_on_interrupt() was not called: signals are not ours
    std::thread([] {
      unsigned char sig = 0;
      while (::read(signal_pipe[0], &sig, 1) < 0) {
      }
      {
        std::lock_guard<std::mutex> g(lock());
        std::error_code ec;
        for (const auto& d : live()) fs::remove_all(d, ec);
        live().clear();
      }
      // Confined build scripts and analysis workers die with us (their
      // PR_SET_PDEATHSIG); nothing else is left to stop.
      std::_Exit(128 + sig);
    }).detach();
    watcher_running = true;
  });
}

}  // namespace

std::string make(const std::string& prefix) {
  start_watcher();
  std::error_code ec;
  std::string templ = (fs::temp_directory_path(ec) / ("torchabi-" + prefix + "-XXXXXX")).string();
  if (ec || !::mkdtemp(templ.data())) return "";
  std::lock_guard<std::mutex> g(lock());
  live().insert(templ);
  return templ;
}

void remove(const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  fs::remove_all(path, ec);
  std::lock_guard<std::mutex> g(lock());
  live().erase(path);
}

void remove_on_interrupt() {
  if (signal_pipe[0] >= 0 || ::pipe2(signal_pipe, O_CLOEXEC) != 0) return;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

void die_with_parent() {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // A forked worker has no watcher thread: its signals are its own again.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
}

}  // namespace torchabi::temp_dirs
