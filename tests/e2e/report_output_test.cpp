// -o never destroys anything (common/report_output.h): it refuses an input of
// the run, a device, a FIFO, a socket, a directory and a symbolic link with one line and
// exit 2, leaving each as it was; a failed write to standard output is exit 2.
#include <filesystem>
#include <fstream>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::write_file;

std::string sample_source(const std::string& dir) {
  return write_file(dir, "ops.cpp", "int ops() { return 1; }\n");
}

void expect_refused(const std::string& out, const std::string& source, const std::string& why) {
  auto r = run_torchabi({"lint", source, "-o", out, "--", "-std=c++17"});
  EXPECT_EQ(r.exit_code, 2) << out << ": " << r.out << r.err;
  EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
}

TEST(ReportOutput, AnInputOfTheRunIsNeverReplaced) {
  const std::string dir = make_temp_dir();
  const std::string cpp = sample_source(dir);
  expect_refused(cpp, cpp, "is an input of this run");
  EXPECT_EQ(lint::read_all(cpp), "int ops() { return 1; }\n");
}

TEST(ReportOutput, DevicesFifosDirectoriesAndLinksAreRefusedAndLeftAsTheyWere) {
  const std::string dir = make_temp_dir();
  const std::string cpp = sample_source(dir);
  expect_refused("/dev/full", cpp, "is a device");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(fifo, cpp, "is a FIFO");
  EXPECT_TRUE(fs::is_fifo(fifo));
  expect_refused(dir, cpp, "is a directory");
  // A listening Unix socket (a daemon's): refused, and still a socket.
  const std::string sock = dir + "/sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  expect_refused(sock, cpp, "is a socket");
  EXPECT_TRUE(fs::is_socket(sock));
  ::close(fd);
  // A block device node too (made here, as root can: never a real disk's).
  const std::string blk = dir + "/blk";
  if (::mknod(blk.c_str(), S_IFBLK | 0600, ::makedev(7, 0)) == 0) {
    expect_refused(blk, cpp, "is a device");
    EXPECT_TRUE(fs::is_block_file(blk));
  }
  const std::string target = write_file(dir, "kept.txt", "kept\n");
  fs::create_symlink(target, dir + "/link");
  expect_refused(dir + "/link", cpp, "is a symbolic link");
  EXPECT_TRUE(fs::is_symlink(dir + "/link"));
  EXPECT_EQ(lint::read_all(target), "kept\n");
}

TEST(ReportOutput, ANewOrRegularFileIsWritten) {
  const std::string dir = make_temp_dir();
  const std::string cpp = sample_source(dir);
  const std::string old = write_file(dir, "old-report.txt", "old\n");
  auto r = run_torchabi({"lint", cpp, "-o", old, "--", "-std=c++17"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(lint::read_all(old), "old\n");
  auto fresh = run_torchabi({"lint", cpp, "-o", dir + "/new.txt", "--", "-std=c++17"});
  EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_TRUE(fs::is_regular_file(dir + "/new.txt"));
}

TEST(ReportOutput, AFailedWriteToStandardOutputIsAnError) {
  const std::string dir = make_temp_dir();
  const std::string cpp = sample_source(dir);
  const int rc = std::system((torchabi_binary() + " lint " + cpp + " -- -std=c++17 > /dev/full 2>/dev/null").c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 2);
}

}  // namespace
}  // namespace torchabi::e2e
