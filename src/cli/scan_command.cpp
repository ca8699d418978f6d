// `torchabi scan`: audits a whole mirror of artifacts (wheels, conda
// packages, libraries) against torch installs and releases, distributed on
// Dask, and merges the per-artifact `audit --format json` results into one
// report. The distribution is Dask's job, in the Python front end shipped
// with torchabi (tools/scan/scan.py, installed as share/torchabi/scan.py);
// this command checks its arguments, finds the front end and execs Debian's
// /usr/bin/python3 on it, handing over this binary for the workers to run.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <unistd.h>

#include "cli/commands.h"
#include "common/input_error.h"
#include "common/install_layout.h"

namespace torchabi::cli {

namespace {

namespace fs = std::filesystem;

// Dask distributed is Debian's python3-distributed, installed for this interpreter.
constexpr const char* kPython = "/usr/bin/python3";

struct ScanArgs {
  std::vector<std::string> inputs;
  std::vector<std::string> lists;
  std::vector<std::string> torch;
  std::vector<std::string> releases;
  std::string target_version;
  std::string out;
  int workers = 0;
  std::string scheduler;
  double timeout = 600;
  bool merge_only = false;
  bool verbose = false;
};

fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

// Installed from the wheel into an environment that has Dask too (its
// site-packages holds distributed/ next to torchabi/): that environment's
// Python, in the scripts directory the program runs from. Else "".
std::string environment_python_with_dask() {
  const fs::path& root = install_layout::root();
  const std::string packages = root.parent_path().filename().string();
  if (packages != "site-packages" && packages != "dist-packages") return {};
  std::error_code ec;
  const fs::path python = self_exe().parent_path() / "python3";
  if (!fs::is_directory(root.parent_path() / "distributed", ec) || !fs::exists(python, ec)) return {};
  return python.string();
}

// The installed front end next to the binary, else the source tree's (a build tree).
fs::path find_driver() {
  if (const char* env = std::getenv("TORCHABI_SCAN_DRIVER"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = self_exe();
  for (const fs::path& p : {install_layout::root() / "share/torchabi/scan.py",
                            fs::path(TORCHABI_SCAN_DRIVER_SOURCE)})
    if (!p.empty() && fs::is_regular_file(p, ec)) return p;
  throw InputError("scan", "the scan front end (share/torchabi/scan.py) is not installed next to " + exe.string() +
                               "; reinstall torchabi or set TORCHABI_SCAN_DRIVER");
}

int run(const ScanArgs& a) {
  if (a.inputs.empty() && a.lists.empty())
    throw InputError("scan", "give the artifacts: wheels, conda packages, libraries, directories of them or "
                             "--list FILE");
  if (a.out.empty()) throw InputError("scan", "give -o OUTDIR: the results and the merged report are written there");
  if (a.torch.empty() && a.releases.empty())
    throw InputError("scan", "give --torch INSTALL and/or --release X.Y: what to check the artifacts against");
  if (!a.scheduler.empty() && a.workers > 0)
    throw InputError("--workers", "--workers starts a local cluster; it cannot be used with --scheduler");
  // TORCHABI_SCAN_PYTHON: another interpreter with Dask (tests, non-Debian systems).
  const char* env_python = std::getenv("TORCHABI_SCAN_PYTHON");
  const std::string venv_python = env_python && *env_python ? std::string() : environment_python_with_dask();
  const std::string python = env_python && *env_python ? env_python : !venv_python.empty() ? venv_python : kPython;
  std::error_code ec;
  if (!fs::exists(python, ec))
    throw InputError(python, "not found: torchabi scan runs on Debian's Python with python3-distributed "
                             "(apt-get install python3-distributed)");
  const fs::path driver = find_driver();
  std::vector<std::string> argv = {python, driver.string(), "--torchabi", self_exe().string(), "-o", a.out};
  for (const auto& t : a.torch) argv.insert(argv.end(), {"--torch", t});
  for (const auto& r : a.releases) argv.insert(argv.end(), {"--release", r});
  for (const auto& l : a.lists) argv.insert(argv.end(), {"--list", l});
  if (!a.target_version.empty()) argv.insert(argv.end(), {"--target-version", a.target_version});
  if (a.workers > 0) argv.insert(argv.end(), {"--workers", std::to_string(a.workers)});
  if (!a.scheduler.empty()) argv.insert(argv.end(), {"--scheduler", a.scheduler});
  argv.insert(argv.end(), {"--timeout", std::to_string(a.timeout)});
  if (a.merge_only) argv.push_back("--merge-only");
  if (a.verbose) argv.push_back("-v");
  argv.push_back("--");
  argv.insert(argv.end(), a.inputs.begin(), a.inputs.end());
  std::vector<char*> raw;
  for (auto& s : argv) raw.push_back(s.data());
  raw.push_back(nullptr);
  execv(python.c_str(), raw.data());
  throw InputError(python, std::string("cannot run: ") + std::strerror(errno));
}

}  // namespace

void add_scan_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "scan", "Audit a mirror of artifacts (wheels, conda packages, libraries) against torch installs and releases, "
              "distributed on Dask, into one report per package (report.md, report.json, report.html)");
  auto a = std::make_shared<ScanArgs>();
  cmd->add_option("INPUT", a->inputs,
                  "Artifacts: wheels, .conda/.tar.bz2 packages, shared libraries, directories walked for them, "
                  "or file:// URLs");
  cmd->add_option("--list", a->lists, "A file listing artifacts, one path or file:// URL a line (repeatable)");
  cmd->add_option("--torch", a->torch, "A PyTorch install each artifact is resolved against, as in audit (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--release", a->releases,
                  "A PyTorch release (2.10) each artifact is judged against by the rules, no install needed "
                  "(repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--target-version", a->target_version, "Passed to every audit");
  cmd->add_option("-o,--output", a->out, "Output directory: results/ (one JSON per artifact, by content hash) and "
                                         "the merged report")
      ->required();
  cmd->add_option("--workers", a->workers, "Worker processes of the local Dask cluster (default: one per core)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--scheduler", a->scheduler,
                  "A running Dask scheduler (tcp://HOST:PORT) whose workers have torchabi installed and see the "
                  "artifacts' paths");
  cmd->add_option("--timeout", a->timeout, "Seconds one audit may take before it counts as a crash (default 600)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--merge-only", a->merge_only, "Only merge the results already in OUTDIR/results into the report");
  cmd->add_flag("-v,--verbose", a->verbose, "One line per artifact as it finishes");
  cmd->callback([&d, a] { d.run = [a] { return run(*a); }; });
}

}  // namespace torchabi::cli
