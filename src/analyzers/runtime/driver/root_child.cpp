#include "analyzers/runtime/driver/root_child.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "analyzers/runtime/driver/python_errors.h"
#include "analyzers/runtime/driver/signatures.h"
#include "analyzers/runtime/driver/wire.h"
#include "common/input_error.h"
#include "common/json_io.h"
#include "common/mapped_file.h"
#include "inputs/elf_view.h"
#include "inputs/library_search.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kHost = "/.torchabi-host";
constexpr const char* kLibs = "/.torchabi-libs";

// The C runtime itself comes from the root: these are never linked in.
bool is_c_runtime(const std::string& soname) {
  for (const char* p : {"libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "libdl.so", "libpthread.so",
                        "librt.so", "libresolv.so"})
    if (soname.starts_with(p)) return true;
  return false;
}

// The shared libraries this process has mapped, by soname (torchabi's own
// dependencies, whatever the build linked).
std::vector<std::pair<std::string, std::string>> mapped_libraries() {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    const std::string name = fs::path(path).filename().string();
    if (name.find(".so") == std::string::npos || !seen.insert(path).second) continue;
    try {
      MappedFile f(path);
      inputs::ElfView elf(f.bytes(), path);
      const std::string soname = elf.soname().empty() ? name : std::string(elf.soname());
      if (!is_c_runtime(soname)) out.emplace_back(soname, path);
    } catch (const InputError&) {
    }
  }
  return out;
}

std::string self_path() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

[[noreturn]] void fail(int fd, const std::string& root, const std::string& what) {
  send(fd, {{"t", "input_error"},
            {"input", "--root"},
            {"message", "cannot run the reference runtime inside " + root + ": " + what + ": " + strerror(errno)}});
  _exit(3);
}

void write_file(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)!write(fd, text.data(), text.size());
  close(fd);
}

// Private namespaces: a user namespace first when not root (mapping us to
// root inside it), then a mount namespace whose mounts never propagate out.
bool enter_namespaces() {
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  if (geteuid() != 0) {
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
    write_file("/proc/self/setgroups", "deny");
    write_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1");
    write_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
  } else if (unshare(CLONE_NEWNS) != 0) {
    return false;
  }
  return mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
}

void bind(int fd, const std::string& root, const std::string& from, const std::string& to, bool dir) {
  if (dir) {
    if (mkdir(to.c_str(), 0755) != 0 && errno != EEXIST) fail(fd, root, "mkdir " + to);
  } else {
    int f = open(to.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (f < 0) fail(fd, root, "create " + to);
    close(f);
  }
  if (mount(from.c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) fail(fd, root, "bind " + from);
}

}  // namespace

RootSetup prepare_root(const std::string& root) {
  std::error_code ec;
  const fs::file_status st = fs::status(root, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) throw InputError("--root", root + ": " + ec.message());
  if (!fs::exists(st)) throw InputError("--root", root + ": no such directory");
  if (!fs::is_directory(st)) throw InputError("--root", root + ": not a directory");
  RootSetup s;
  s.root = fs::canonical(root, ec).string();
  if (ec || s.root == "/") throw InputError("--root", root + ": not a root filesystem other than this machine's");
  s.self = self_path();
  if (s.self.empty()) throw InputError("--root", "cannot tell where torchabi itself is (/proc/self/exe)");
  for (auto& [soname, path] : mapped_libraries()) {
    inputs::LibrarySearch search;
    search.root = s.root;
    if (!inputs::find_library(soname, search)) s.libraries.emplace_back(soname, path);
  }
  std::string pattern = (fs::temp_directory_path() / "torchabi-root-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw InputError("--root", std::string("cannot create a scratch directory: ") + strerror(errno));
  s.scratch = pattern;
  return s;
}

void release_root(const RootSetup& setup) {
  std::error_code ec;
  if (!setup.scratch.empty()) fs::remove(setup.scratch, ec);  // empty here: the mounts were the child's
}

std::string path_in_root(const RootSetup& setup, const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec).lexically_normal();
  const std::string root = setup.root + "/";
  if (abs.string().starts_with(root)) return "/" + abs.string().substr(root.size());
  return kHost + abs.string();
}

void exec_in_root(const ChildPlan& plan, const RunOptions& options, const RootSetup& s) {
  const int fd = plan.event_fd;
  if (!enter_namespaces()) fail(fd, s.root, "cannot enter private user and mount namespaces");
  const std::string& v = s.scratch;
  if (mount("tmpfs", v.c_str(), "tmpfs", 0, "mode=755") != 0) fail(fd, s.root, "mount a tmpfs on " + v);
  std::error_code ec;
  for (fs::directory_iterator it(s.root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string to = v + "/" + name;
    if (name == "proc" || name == "dev" || name == "sys") {
      bind(fd, s.root, "/" + name, to, true);
    } else if (it->is_symlink(ec)) {
      const fs::path target = fs::read_symlink(it->path(), ec);
      if (!ec && symlink(target.c_str(), to.c_str()) != 0) fail(fd, s.root, "symlink " + to);
    } else {
      bind(fd, s.root, it->path().string(), to, it->is_directory(ec));
    }
  }
  bind(fd, s.root, "/", v + kHost, true);
  if (mkdir((v + kLibs).c_str(), 0755) != 0) fail(fd, s.root, std::string("mkdir ") + kLibs);
  for (const auto& [soname, path] : s.libraries)
    if (symlink((kHost + path).c_str(), (v + kLibs + "/" + soname).c_str()) != 0) fail(fd, s.root, "symlink " + soname);
  if (chroot(v.c_str()) != 0 || chdir("/") != 0) fail(fd, s.root, "chroot");

  std::vector<std::string> preload;
  for (const auto& l : plan.preload) preload.push_back(path_in_root(s, l));
  json p = {{"extension", path_in_root(s, plan.extension)},
            {"runtime_library", path_in_root(s, plan.runtime_library)},
            {"standin_template", path_in_root(s, plan.standin_template)},
            {"cases", options.cases ? path_in_root(s, *options.cases) : ""},
            {"abi_version", plan.abi_version},
            {"release", plan.release},
            {"standins", plan.standins},
            {"preload", preload},
            {"start", plan.start},
            {"report_load", plan.report_load},
            {"event_fd", fd}};
  const int flags = fcntl(fd, F_GETFD);
  if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) != 0) fail(fd, s.root, "keep the event pipe open");
  const std::string exe = kHost + s.self, plan_text = json_io::dump(p);
  const std::string ld = std::string("LD_LIBRARY_PATH=") + kLibs;
  char* argv[] = {const_cast<char*>("torchabi"), const_cast<char*>("__run-child"), const_cast<char*>(plan_text.c_str()),
                  nullptr};
  char* envp[] = {const_cast<char*>(ld.c_str()), const_cast<char*>("PATH=/usr/bin:/bin"),
                  const_cast<char*>("HOME=/tmp"), nullptr};
  execve(exe.c_str(), argv, envp);
  fail(fd, s.root, "execute " + exe);
}

void run_child_main(int argc, char** argv) {
  if (argc < 3) _exit(2);
  const json p = json_io::parse_or_discarded(argv[2]);
  if (p.is_discarded()) _exit(2);
  const int fd = p.value("event_fd", -1);
  static std::optional<CaseFile> cases;
  ChildPlan plan;
  try {
    const inputs::RulesSource& rules = inputs::RulesSource::current();
    plan.extension = p.value("extension", "");
    plan.runtime_library = p.value("runtime_library", "");
    plan.standin_template = p.value("standin_template", "");
    plan.abi_version = p.value("abi_version", uint64_t{0});
    plan.release = p.value("release", "");
    plan.standins = p.value("standins", std::vector<std::string>{});
    plan.preload = p.value("preload", std::vector<std::string>{});
    plan.start = p.value("start", size_t{0});
    plan.report_load = p.value("report_load", true);
    plan.event_fd = fd;
    plan.python_errors = load_python_error_rules(rules);
    plan.aten = load_aten_signatures(rules);
    plan.aten_lookup = make_aten_schema_lookup(rules);
    if (const std::string c = p.value("cases", ""); !c.empty()) {
      cases = load_case_file(c);
      plan.cases = &*cases;
    }
  } catch (const InputError& e) {
    send(fd, {{"t", "input_error"}, {"input", e.input()}, {"message", e.what()}});
    _exit(3);
  } catch (const std::exception& e) {
    send(fd, {{"t", "internal_error"}, {"message", e.what()}});
    _exit(3);
  }
  run_child(plan);
}

}  // namespace torchabi::runtime_driver
