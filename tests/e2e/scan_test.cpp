// `torchabi scan` on a real Dask LocalCluster (worker processes): ~20
// artifacts made here from the fixture libraries (wheels and conda packages;
// stable, legacy and CUDA-needing), one whose audit kills its worker every
// time (reported as failed after one retry) and one that kills it once
// (retried, then audited). The merged report must say exactly what `audit`
// says of each artifact, and a re-run must reuse every stored result.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "cli_harness.h"
#include "standins.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
namespace fs = std::filesystem;

namespace {

bool have_dask() { return std::system("/usr/bin/python3 -c 'import distributed' >/dev/null 2>&1") == 0; }

std::string tool(const std::string& rel) { return build_dir() + "/fixtures/" + rel; }

void make(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) cmd += "'" + a + "' ";
  ASSERT_EQ(std::system((cmd + ">/dev/null").c_str()), 0) << cmd;
}

// Wheels and conda packages, named and versioned differently so each has its own bytes.
std::vector<std::string> make_artifacts(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> libs = {
      {"stable", stable_lib()}, {"ext212", stable_212_lib()}, {"cuda12", fixture("cuda_ext/libcuda_ext12.so")},
      {"cuda11", fixture("cuda_ext/libcuda_ext11.so")}};
  if (have_legacy()) libs.emplace_back("legacy", legacy_lib());
  std::vector<std::string> out;
  int n = 0;
  for (const auto& [kind, lib] : libs) {
    const int versions = kind == "stable" || kind == "ext212" ? 2 : 1;  // ~20 artifacts in all
    for (int version = 1; version <= versions; ++version) {
      const std::string name = kind + "_pkg" + std::to_string(n++);
      const std::string v = "1." + std::to_string(version);
      const std::string whl = dir + "/" + name + "-" + v + "-cp311-cp311-linux_x86_64.whl";
      make({tool("wheels/torchabi_make_wheel"), "--out", whl, "--name", name, "--version", v, "--requires",
            "torch>=2.10", name + "/_C.cpython-311-x86_64-linux-gnu.so=" + lib});
      out.push_back(whl);
      for (const char* ext : {".conda", ".tar.bz2"}) {
        const std::string pkg = dir + "/" + name + "-" + v + "-py311_0" + ext;
        make({tool("conda/torchabi_make_conda"), "--out", pkg, "--name", name, "--version", v, "--depends",
              "pytorch >=2.10", "lib/python3.11/site-packages/" + name + "/_C.so=" + lib});
        out.push_back(pkg);
      }
    }
  }
  // The two that kill their worker (copies of a library under new names).
  fs::copy_file(stable_lib(), dir + "/libkillme.so");
  fs::copy_file(stable_212_lib(), dir + "/libflaky.so");
  out.push_back(dir + "/libkillme.so");
  out.push_back(dir + "/libflaky.so");
  return out;
}

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_all(path)); }

}  // namespace

TEST(Scan, DaskLocalClusterMergesEveryAuditSurvivesKilledWorkersAndSkipsOnRerun) {
  if (!have_dask()) GTEST_SKIP() << "/usr/bin/python3 has no Dask distributed (apt-get install python3-distributed)";
  TORCHABI_REQUIRE_STANDINS();
  const std::string dir = make_temp_dir(), out = make_temp_dir() + "/scan";
  const auto artifacts = make_artifacts(dir);
  ASSERT_GE(artifacts.size(), 20u);
  const std::vector<std::string> scan = {"scan", "-o", out, "--workers", "2", "--torch", torchabi::test::standin_v1(),
                                         "--release", "2.10", "--release", "2.11", dir};
  ::setenv("TORCHABI_SCAN_TEST_KILL", "libkillme.so,libflaky.so@once", 1);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_torchabi(scan);
  const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 1) << r.err;  // one artifact failed
  EXPECT_NE(r.err.find(std::to_string(artifacts.size()) + " artifacts"), std::string::npos) << r.err;

  auto report = read_json(out + "/report.json");
  ASSERT_EQ(report["artifacts"].size(), artifacts.size());
  EXPECT_EQ(report["summary"]["failed"], 1);
  EXPECT_EQ(report["summary"]["audited"], artifacts.size() - 1);
  std::map<std::string, nlohmann::json> by_path;
  for (const auto& a : report["artifacts"]) by_path[a["path"]] = a;
  EXPECT_EQ(by_path[dir + "/libkillme.so"]["status"], "failed");
  EXPECT_EQ(by_path[dir + "/libkillme.so"]["attempts"], 2);
  EXPECT_NE(by_path[dir + "/libkillme.so"]["error"].get<std::string>().find("worker died"), std::string::npos);
  EXPECT_EQ(by_path[dir + "/libflaky.so"]["status"], "audited");  // killed once, retried

  // The merged report holds exactly what `audit` says of each artifact.
  for (const auto& path : artifacts) {
    const auto& a = by_path[path];
    if (a["status"] != "audited") continue;
    auto direct = run_torchabi({"audit", "--format", "json", "--torch", torchabi::test::standin_v1(), path});
    EXPECT_EQ(a["exit_code"], direct.exit_code) << path;
    EXPECT_EQ(a["audit"], direct.json()) << path;
  }
  // Per package and version: the rules' answer per release, CUDA, requirement consistency.
  std::map<std::string, nlohmann::json> packages;
  for (const auto& p : report["packages"]) packages[p["name"].get<std::string>() + " " + p["version"].get<std::string>()] = p;
  const auto& ext212 = packages["ext212_pkg2 1.1"];
  EXPECT_EQ(ext212["artifacts"].size(), 3u);  // wheel, .conda, .tar.bz2
  EXPECT_EQ(ext212["floor"], "2.12");
  EXPECT_EQ(ext212["requirement_consistent"], false);
  EXPECT_EQ(ext212["releases"]["2.11"]["loads"], false);
  EXPECT_EQ(ext212["releases"]["2.10"]["loads"], false);
  EXPECT_EQ(packages["stable_pkg0 1.1"]["releases"]["2.10"]["loads"], true);
  EXPECT_EQ(packages["stable_pkg0 1.1"]["requirement_consistent"], true);
  EXPECT_EQ(packages["cuda12_pkg4 1.1"]["cuda"], nlohmann::json::array({"12"}));
  for (const char* f : {"/report.md", "/report.html"}) EXPECT_TRUE(fs::exists(out + f)) << f;
  EXPECT_NE(read_all(out + "/report.html").find("<td>ext212_pkg2</td>"), std::string::npos);
  EXPECT_NE(read_all(out + "/report.md").find("| ext212_pkg2 | 1.1 | STABLE | 2.12 |"), std::string::npos);

  // A re-run audits nothing that is done: only the failed artifact is tried
  // again (its worker survives this time).
  std::map<std::string, fs::file_time_type> stored;
  for (const auto& e : fs::directory_iterator(out + "/results")) stored[e.path().string()] = e.last_write_time();
  ::unsetenv("TORCHABI_SCAN_TEST_KILL");
  auto again = run_torchabi(scan);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto second = read_json(out + "/report.json");
  EXPECT_EQ(second["summary"]["reused"], artifacts.size() - 1);
  EXPECT_EQ(second["summary"]["failed"], 0);
  for (const auto& [path, time] : stored)
    if (path.ends_with(".json") && path.find("hashes") == std::string::npos)
      EXPECT_EQ(fs::last_write_time(path), time) << path << " was rewritten";
  for (size_t i = 0; i < second["artifacts"].size(); ++i)
    if (second["artifacts"][i]["path"] != dir + "/libkillme.so")
      EXPECT_EQ(second["artifacts"][i], report["artifacts"][i]);
  const auto killme = std::find_if(second["artifacts"].begin(), second["artifacts"].end(),
                                   [&](const auto& a) { return a["path"] == dir + "/libkillme.so"; });
  ASSERT_NE(killme, second["artifacts"].end());
  EXPECT_EQ((*killme)["status"], "audited");
  RecordProperty("first_run_seconds", std::to_string(first));
}

TEST(Scan, WithoutDaskOneLineNamingWhatToInstall) {
  const std::string dir = make_temp_dir();
  // Debian's python without its site directories: no Dask importable.
  const std::string python = write_file(dir, "python-no-dask", "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n");
  fs::permissions(python, fs::perms::owner_all);
  ::setenv("TORCHABI_SCAN_PYTHON", python.c_str(), 1);
  auto r = run_torchabi({"scan", "-o", dir + "/out", "--release", "2.10", stable_lib()});
  ::unsetenv("TORCHABI_SCAN_PYTHON");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("Dask distributed is not installed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("apt-get install python3-distributed"), std::string::npos) << r.err;
}

TEST(Scan, BadArgumentsAreInputErrors) {
  auto r = run_torchabi({"scan", "-o", make_temp_dir() + "/o", stable_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--torch INSTALL and/or --release"), std::string::npos) << r.err;
  if (!have_dask()) return;
  r = run_torchabi({"scan", "-o", make_temp_dir() + "/o", "--release", "2.10", "/nonexistent/x.whl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "torchabi: error: /nonexistent/x.whl: no such file or directory\n");
}

// --scheduler: a Dask cluster started apart (dask-scheduler and dask-worker
// on this machine's loopback), as on a real cluster whose workers see the
// same paths. The client only submits and writes the results.
TEST(Scan, RunsOnAnExistingSchedulerAndItsWorkers) {
  if (!have_dask() || std::system("command -v dask-scheduler >/dev/null && command -v dask-worker >/dev/null") != 0)
    GTEST_SKIP() << "dask-scheduler or dask-worker (python3-distributed) is missing";
  const std::string dir = make_temp_dir();
  // A free loopback port: bound by the kernel, released, then given to the scheduler.
  const std::string port = [] {
    FILE* p = popen("/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\",0)); "
                    "print(s.getsockname()[1])'", "r");
    char buf[16] = {};
    if (p) {
      if (!fgets(buf, sizeof buf, p)) buf[0] = 0;
      pclose(p);
    }
    return std::string(buf, strcspn(buf, "\n"));
  }();
  ASSERT_FALSE(port.empty());
  const std::string address = "tcp://127.0.0.1:" + port;
  ASSERT_EQ(std::system(("dask-scheduler --host 127.0.0.1 --port " + port + " --no-dashboard >'" + dir +
                         "/scheduler.log' 2>&1 & echo $! >'" + dir + "/scheduler.pid'")
                            .c_str()),
            0);
  ASSERT_EQ(std::system(("sleep 2; dask-worker " + address + " --nworkers 1 --nthreads 1 --no-dashboard >'" + dir +
                         "/worker.log' 2>&1 & echo $! >'" + dir + "/worker.pid'")
                            .c_str()),
            0);
  auto stop = [&] {
    for (const char* pid : {"/worker.pid", "/scheduler.pid"})
      std::system(("kill $(cat '" + dir + pid + "') 2>/dev/null; sleep 1").c_str());
  };
  const std::string out = dir + "/scan";
  RunResult r;
  // The worker needs a few seconds to register; the client waits for the scheduler only.
  for (int attempt = 0; attempt < 20; ++attempt) {
    r = run_torchabi({"scan", "-o", out, "--scheduler", address, "--release", "2.12", fixture("conda"), stable_lib()});
    if (r.exit_code != 2) break;
    std::system("sleep 0.5");
  }
  stop();
  ASSERT_EQ(r.exit_code, 0) << r.err << read_all(dir + "/worker.log");
  const auto report = read_json(out + "/report.json");
  EXPECT_EQ(report["summary"]["audited"], 5);
  for (const auto& a : report["artifacts"]) {
    auto direct = run_torchabi({"audit", "--format", "json", a["path"]});
    EXPECT_EQ(a["audit"], direct.json()) << a["path"];
  }
}
