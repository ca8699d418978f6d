#include "cli_harness.h"

#include <fstream>

#include <array>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace torchabi::e2e {

namespace fs = std::filesystem;

nlohmann::json RunResult::json() const {
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "output is not JSON: " << e.what() << "\n--- stdout ---\n" << out << "\n--- stderr ---\n" << err;
    return {};
  }
}

std::string torchabi_binary() { return TORCHABI_BIN; }
std::string source_dir() { return TORCHABI_SOURCE_DIR; }
std::string build_dir() { return TORCHABI_BUILD_DIR; }
std::string shared_data() { return (fs::path(TORCHABI_SOURCE_DIR).parent_path() / "shared/data/pytorch").string(); }

std::string make_temp_dir() {
  static int counter = 0;
  fs::path base = fs::temp_directory_path() / ("torchabi-e2e-" + std::to_string(::getpid()));
  fs::path dir = base / std::to_string(counter++);
  fs::create_directories(dir);
  static struct Cleanup {
    fs::path p;
    ~Cleanup() { std::error_code ec; fs::remove_all(p, ec); }
  } cleanup{base};
  return dir.string();
}

RunResult run_torchabi(const std::vector<std::string>& args, const std::string& cwd) {
  return run_torchabi_wrapped({}, args, cwd);
}

RunResult run_torchabi_under_ulimit(long kb, const std::vector<std::string>& args, const std::string& cwd) {
  return run_torchabi_wrapped({"sh", "-c", "ulimit -v " + std::to_string(kb) + " && exec \"$@\"", "sh"}, args, cwd);
}

RunResult run_torchabi_wrapped(const std::vector<std::string>& wrapper, const std::vector<std::string>& args,
                               const std::string& cwd) {
  const std::string dir = cwd.empty() ? make_temp_dir() : cwd;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe failed";
    return {};
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  std::vector<std::string> argv_s = wrapper;
  argv_s.push_back(torchabi_binary());
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  RunResult r;
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << argv[0];
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return r;
  }
  std::array<pollfd, 2> fds = {pollfd{out_pipe[0], POLLIN, 0}, pollfd{err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) break;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) sinks[i]->append(buf, size_t(n));
      else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else {
    ADD_FAILURE() << "torchabi died with signal " << WTERMSIG(status) << "\nstderr:\n" << r.err;
    r.exit_code = 128 + WTERMSIG(status);
  }
  return r;
}

std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string cur;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) words.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) words.push_back(cur);
  return words;
}

// The value of a `key: |` block in a rule file: its first indented line.
std::string first_block_line(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  bool in_block = false;
  for (std::string line; std::getline(in, line);) {
    if (in_block) {
      size_t b = line.find_first_not_of(' ');
      return b == std::string::npos || b == 0 ? "" : line.substr(b);
    }
    in_block = line.rfind(key + ":", 0) == 0;
  }
  return "";
}


}  // namespace torchabi::e2e
