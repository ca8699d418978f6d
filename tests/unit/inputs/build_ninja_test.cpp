// build.ninja read as the real build's commands: manifests shaped like the
// ones torch's BuildExtension and CMake's Ninja generator write (written here,
// not copied), ninja's escapes and scoping, and bad manifests as one-line
// InputErrors. Where ninja itself is installed, every manifest is also run
// through `ninja -t compdb` and the two must agree.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "common/input_error.h"
#include "common/json_io.h"
#include "inputs/build_ninja.h"
#include "inputs/compile_db_reader.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

std::string temp_dir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("build_ninja_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

std::vector<std::string> words(const std::string& s) { return split_shell_words(s); }

// What `ninja -t compdb -x` says of the manifest, filtered as the reader
// filters (compiles of C/C++/CUDA sources); nullopt when ninja is not installed.
std::optional<CompileDb> ninja_compdb(const std::string& dir, const std::string& manifest) {
  if (std::system("ninja --version >/dev/null 2>&1") != 0) return std::nullopt;
  const std::string out = dir + "/ninja_compdb.json";
  const std::string cmd = "ninja -C '" + dir + "' -f '" + manifest + "' -t compdb -x > '" + out + "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "ninja rejects " << manifest << " in " << dir;
    return std::nullopt;
  }
  // Phony edges are listed with an empty command, which a database may not have.
  std::ifstream in(out);
  nlohmann::json entries = json_io::parse(in), real = nlohmann::json::array();
  for (auto& e : entries)
    if (!e["command"].get<std::string>().empty()) real.push_back(e);
  std::ofstream(out) << json_io::dump(real);
  CompileDb all = load_compile_db(out);
  fs::remove(out);
  CompileDb kept;
  for (auto& c : all.commands) {
    const std::string ext = fs::path(c.file).extension().string();
    const bool source = ext == ".cpp" || ext == ".cu" || ext == ".c" || ext == ".cc";
    if (source && std::find(c.arguments.begin(), c.arguments.end(), "-c") != c.arguments.end())
      kept.commands.push_back(std::move(c));
  }
  return kept;
}

void expect_same_as_ninja(const std::string& dir, const std::string& manifest, const CompileDb& ours) {
  auto theirs = ninja_compdb(dir, manifest);
  if (!theirs) return;  // no ninja here: the explicit expectations stand alone
  ASSERT_EQ(theirs->commands.size(), ours.commands.size());
  for (size_t i = 0; i < ours.commands.size(); ++i) {
    SCOPED_TRACE(ours.commands[i].file);
    EXPECT_EQ(fs::weakly_canonical(theirs->commands[i].file), fs::weakly_canonical(ours.commands[i].file));
    EXPECT_EQ(fs::weakly_canonical(theirs->commands[i].directory), fs::weakly_canonical(ours.commands[i].directory));
    EXPECT_EQ(theirs->commands[i].arguments, ours.commands[i].arguments);
  }
}

// The shape BuildExtension gives build/temp.<plat>-<tag>/build.ninja:
// flags in top-level variables, one `compile` / `cuda_compile` edge per
// source with absolute paths, spaces escaped as `$ `.
const char* kSetuptoolsShaped = R"(ninja_required_version = 1.3
cxx = c++
nvcc = /opt/cuda/bin/nvcc

cflags = -pthread -fPIC -DSAMPLE_LEVEL=2 -I@P@/include '-I@P@/third party/include' -c
post_cflags = -O3 -DTORCH_TARGET_VERSION=0x020a000000000000 '-DSAMPLE_NAME="demo"' -DTORCH_EXTENSION_NAME=_C -std=c++17
cuda_cflags = -I@P@/include -c
cuda_post_cflags = -O3 --use_fast_math '--compiler-options' ''"'"'-fPIC'"'"'' -std=c++17
cuda_dlink_post_cflags = 
ldflags = 

rule compile
  command = $cxx -MMD -MF $out.d $cflags -c $in -o $out $post_cflags
  depfile = $out.d
  deps = gcc

rule cuda_compile
  depfile = $out.d
  deps = gcc
  command = $nvcc --generate-dependencies-with-compile --dependency-output $out.d $cuda_cflags -c $in -o $out $cuda_post_cflags

rule link
  command = $cxx $in $ldflags -o $out



build @P@/build/temp/csrc/ops.o: compile @P@/csrc/ops.cpp
build @P@/build/temp/csrc/kernels/scale.o: cuda_compile @P@/csrc/kernels/scale.cu
build @P@/build/temp/csrc/two$ words.o: compile @P@/csrc/two$ words.cpp

build demo.so: link @P@/build/temp/csrc/ops.o @P@/build/temp/csrc/kernels/scale.o

default demo.so
)";

TEST(BuildNinja, SetuptoolsShapedManifestGivesTheCompilerCommands) {
  const std::string p = temp_dir("setuptools");
  std::string text = kSetuptoolsShaped;
  replace_all(text, "@P@", p);
  write(p + "/build/temp/build.ninja", text);
  const CompileDb db = load_build_ninja(p + "/build/temp");
  EXPECT_EQ(db.path, p + "/build/temp/build.ninja");
  ASSERT_EQ(db.commands.size(), 3u);  // the link is not a compile
  const auto& ops = db.commands[0];
  EXPECT_EQ(ops.file, p + "/csrc/ops.cpp");
  EXPECT_EQ(ops.directory, p + "/build/temp");  // ninja runs there
  EXPECT_EQ(ops.arguments,
            words("c++ -MMD -MF " + p + "/build/temp/csrc/ops.o.d -pthread -fPIC -DSAMPLE_LEVEL=2 -I" + p +
                  "/include '-I" + p + "/third party/include' -c -c " + p + "/csrc/ops.cpp -o " + p +
                  "/build/temp/csrc/ops.o -O3 -DTORCH_TARGET_VERSION=0x020a000000000000 -DSAMPLE_NAME=\\\"demo\\\" "
                  "-DTORCH_EXTENSION_NAME=_C -std=c++17"));
  const auto& cu = db.commands[1];
  EXPECT_EQ(cu.file, p + "/csrc/kernels/scale.cu");
  EXPECT_EQ(cu.arguments.front(), "/opt/cuda/bin/nvcc");
  EXPECT_NE(std::find(cu.arguments.begin(), cu.arguments.end(), "'-fPIC'"), cu.arguments.end());
  // `$ ` in a path: one argument, quoted by $in as ninja quotes it.
  EXPECT_EQ(db.commands[2].file, p + "/csrc/two words.cpp");
  EXPECT_NE(std::find(db.commands[2].arguments.begin(), db.commands[2].arguments.end(), p + "/csrc/two words.cpp"),
            db.commands[2].arguments.end());
  expect_same_as_ninja(p + "/build/temp", "build.ninja", db);
}

// The shape of a CMake -G Ninja build directory: rules in an included
// CMakeFiles/rules.ninja, flags in build-level bindings, relative outputs,
// phony and order-only edges, a link rule with its own variables.
const char* kCMakeBuild = R"(# CMAKE generated file: DO NOT EDIT!
# Generated by "Ninja" Generator, CMake Version 3.25

ninja_required_version = 1.5

CONFIGURATION = Release
cmake_ninja_workdir = @P@/build/
include CMakeFiles/rules.ninja

#############################################
# Object build statements for SHARED_LIBRARY target demo

build cmake_object_order_depends_target_demo: phony || CMakeFiles/demo.dir

build CMakeFiles/demo.dir/csrc/ops.cpp.o: CXX_COMPILER__demo_unscanned_Release @P@/csrc/ops.cpp || cmake_object_order_depends_target_demo
  DEFINES = -DTORCH_TARGET_VERSION=0x020a000000000000 -Ddemo_EXPORTS
  DEP_FILE = CMakeFiles/demo.dir/csrc/ops.cpp.o.d
  FLAGS = -O3 -DNDEBUG -std=gnu++17 -fPIC
  INCLUDES = -I@P@/include -isystem /opt/torch/include
  OBJECT_DIR = CMakeFiles/demo.dir
  OBJECT_FILE_DIR = CMakeFiles/demo.dir/csrc

build CMakeFiles/demo.dir/csrc/scale.cu.o: CUDA_COMPILER__demo_unscanned_Release @P@/csrc/scale.cu || cmake_object_order_depends_target_demo
  DEFINES = -Ddemo_EXPORTS
  DEP_FILE = CMakeFiles/demo.dir/csrc/scale.cu.o.d
  FLAGS = -O3 -DNDEBUG -std=c++17 -Xcompiler=-fPIC
  INCLUDES = -I@P@/include
  OBJECT_DIR = CMakeFiles/demo.dir
  OBJECT_FILE_DIR = CMakeFiles/demo.dir/csrc

build libdemo.so: CXX_SHARED_LIBRARY_LINKER__demo_Release CMakeFiles/demo.dir/csrc/ops.cpp.o CMakeFiles/demo.dir/csrc/scale.cu.o
  LANGUAGE_COMPILE_FLAGS = -O3 -DNDEBUG
  LINK_LIBRARIES = -Wl,-rpath,/opt/torch/lib /opt/torch/lib/libtorch_cpu.so
  OBJECT_DIR = CMakeFiles/demo.dir
  POST_BUILD = :
  PRE_LINK = :
  SONAME = libdemo.so
  TARGET_FILE = libdemo.so

build demo: phony libdemo.so

build build.ninja: RERUN_CMAKE | ../CMakeLists.txt
  pool = console

build all: phony libdemo.so

default all
)";

const char* kCMakeRules = R"(# CMAKE generated file: DO NOT EDIT!
# This file contains all the rules used to get the outputs files built.

#############################################
# Rule for compiling CXX files.

rule CXX_COMPILER__demo_unscanned_Release
  depfile = $DEP_FILE
  deps = gcc
  command = ${LAUNCHER}${CODE_CHECK}/usr/bin/c++ $DEFINES $INCLUDES $FLAGS -MD -MT $out -MF $DEP_FILE -o $out -c $in
  description = Building CXX object $out

rule CUDA_COMPILER__demo_unscanned_Release
  depfile = $DEP_FILE
  deps = gcc
  command = ${LAUNCHER}${CODE_CHECK}/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler $DEFINES $INCLUDES $FLAGS -MD -MT $out -MF $DEP_FILE -x cu -c $in -o $out
  description = Building CUDA object $out

rule CXX_SHARED_LIBRARY_LINKER__demo_Release
  command = $PRE_LINK && /usr/bin/c++ -fPIC $LANGUAGE_COMPILE_FLAGS $ARCH_FLAGS $LINK_FLAGS -shared -Wl,-soname,$SONAME -o $TARGET_FILE $in $LINK_PATH $LINK_LIBRARIES && $POST_BUILD
  description = Linking CXX shared library $TARGET_FILE
  restat = $RESTAT

rule RERUN_CMAKE
  command = /usr/bin/cmake --regenerate-during-build -S@P@ -B@P@/build
  description = Re-running CMake...
  generator = 1
)";

TEST(BuildNinja, CMakeBuildDirectoryWithIncludedRules) {
  const std::string p = temp_dir("cmake");
  std::string build = kCMakeBuild, rules = kCMakeRules;
  replace_all(build, "@P@", p);
  replace_all(rules, "@P@", p);
  write(p + "/build/build.ninja", build);
  write(p + "/build/CMakeFiles/rules.ninja", rules);
  EXPECT_TRUE(has_build_ninja(p + "/build"));
  EXPECT_FALSE(has_compile_db(p + "/build"));
  const CompileDb db = load_build_commands(p + "/build");
  EXPECT_EQ(db.path, p + "/build/build.ninja");
  ASSERT_EQ(db.commands.size(), 2u);
  EXPECT_EQ(db.commands[0].file, p + "/csrc/ops.cpp");
  EXPECT_EQ(db.commands[0].directory, p + "/build");
  EXPECT_EQ(db.commands[0].arguments,
            words("/usr/bin/c++ -DTORCH_TARGET_VERSION=0x020a000000000000 -Ddemo_EXPORTS -I" + p +
                  "/include -isystem /opt/torch/include -O3 -DNDEBUG -std=gnu++17 -fPIC -MD -MT "
                  "CMakeFiles/demo.dir/csrc/ops.cpp.o -MF CMakeFiles/demo.dir/csrc/ops.cpp.o.d -o "
                  "CMakeFiles/demo.dir/csrc/ops.cpp.o -c " +
                  p + "/csrc/ops.cpp"));
  EXPECT_EQ(db.commands[1].file, p + "/csrc/scale.cu");
  EXPECT_EQ(db.commands[1].arguments.front(), "/usr/local/cuda/bin/nvcc");
  expect_same_as_ninja(p + "/build", "build.ninja", db);

  // A compile database next to it wins.
  write(p + "/build/compile_commands.json",
        "[{\"directory\": \"" + p + "/build\", \"command\": \"c++ -c ../csrc/ops.cpp\", \"file\": \"../csrc/ops.cpp\"}]");
  EXPECT_EQ(load_build_commands(p + "/build").path, p + "/build/compile_commands.json");
  EXPECT_EQ(load_build_commands(p + "/build/build.ninja").commands.size(), 2u);  // a file is read as what it is
}

// Escapes, continuations, ${braced} names, variable scopes and the order of
// lookup ninja documents (build block, rule, file, then subninja's parent).
TEST(BuildNinja, EscapesContinuationsAndScopes) {
  const std::string p = temp_dir("escapes");
  write(p + "/build.ninja", R"(# a comment
flags = -DA=1 $
    -DB=2
money = -DC=$$HOME
colon = -DD=x$:y
with_space = -DE=a$ b
braced = -DF
level = file

rule cc
  # comments inside a block do not end it
  command = cc ${flags} $extra $description $money $colon $with_space ${braced}.x $unknown $level -c $in -o $out
  description = CC $out

build a.o: cc a.cpp
  extra = -DEDGE
  level = edge-$level
build b.o: cc $
    sub/../b.cpp | implicit.h || order.stamp
build c.o | c.o.d: cc c.c
subninja sub.ninja
build d.o: cc d.cc
)");
  write(p + "/sub.ninja", "level = sub\nrule cc2\n  command = cc2 $level $flags -c $in\nbuild e.o: cc2 e.cpp\n");
  const CompileDb db = load_build_ninja(p + "/build.ninja");
  ASSERT_EQ(db.commands.size(), 5u);
  // The block's bindings are evaluated in the file's scope; the rule's
  // `description` sees the edge's $out. `$ ` in a value is a plain space.
  EXPECT_EQ(db.commands[0].arguments,
            words("cc -DA=1 -DB=2 -DEDGE CC a.o -DC=$HOME -DD=x:y -DE=a b -DF.x edge-file -c a.cpp -o a.o"));
  EXPECT_EQ(db.commands[1].arguments,
            words("cc -DA=1 -DB=2 CC b.o -DC=$HOME -DD=x:y -DE=a b -DF.x file -c b.cpp -o b.o"));
  EXPECT_EQ(db.commands[1].file, p + "/b.cpp");
  EXPECT_EQ(db.commands[2].file, p + "/c.c");
  EXPECT_EQ(db.commands[3].file, p + "/e.cpp");  // the subninja's scope: its own `level`, its parent's `flags`
  EXPECT_EQ(db.commands[3].arguments, words("cc2 sub -DA=1 -DB=2 -c e.cpp"));
  EXPECT_EQ(db.commands[4].file, p + "/d.cc");
  expect_same_as_ninja(p, "build.ninja", db);
}

// Rules are evaluated when ninja runs, with the file's last value of a
// variable; an edge without bindings sees the file's variables before the
// rule's (ninja's lookup); a response file is put in place, as it does not
// exist yet; $in quotes a path with a space.
TEST(BuildNinja, LateBindingShadowingAndResponseFiles) {
  const std::string p = temp_dir("late");
  write(p + "/build.ninja", R"(description = TOP
opt = -O1
rule cc
  command = cc $opt $description -c $in -o $out
  description = RULE
rule cc_rsp
  command = cc @$out.rsp -c $in -o $out
  rspfile = $out.rsp
  rspfile_content = -DFROM_RSP $
      -Iinc
build a.o: cc a.cpp
build b.o: cc b.cpp
  x = 1
build with$ space.o: cc with$ space.cpp
build r.o: cc_rsp r.cpp
opt = -O2
)");
  const CompileDb db = load_build_ninja(p);
  ASSERT_EQ(db.commands.size(), 4u);
  EXPECT_EQ(db.commands[0].arguments, words("cc -O2 TOP -c a.cpp -o a.o"));
  EXPECT_EQ(db.commands[1].arguments, words("cc -O2 RULE -c b.cpp -o b.o"));
  EXPECT_EQ(db.commands[2].arguments, words("cc -O2 TOP -c 'with space.cpp' -o 'with space.o'"));
  EXPECT_EQ(db.commands[2].file, p + "/with space.cpp");
  EXPECT_EQ(db.commands[3].arguments, words("cc -DFROM_RSP -Iinc -c r.cpp -o r.o"));
  expect_same_as_ninja(p, "build.ninja", db);
}

// Malformed or hostile manifests: one-line InputErrors naming the file.
TEST(BuildNinja, BadManifestsAreInputErrorsNamingTheFile) {
  const std::string p = temp_dir("bad");
  auto expect_error = [&](const std::string& name, const std::string& text, const std::string& says) {
    SCOPED_TRACE(name);
    write(p + "/" + name, text);
    try {
      load_build_ninja(p + "/" + name);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.input(), p + "/" + name);
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  expect_error("dollar.ninja", "rule cc\n  command = cc $", "bad $-escape");
  expect_error("escape.ninja", "x = a$!b\n", "line 1: bad $-escape");
  expect_error("brace.ninja", "x = ${oops\n", "bad ${variable}");
  expect_error("rule.ninja", "build a.o: nosuch a.cpp\n", "line 1: unknown build rule 'nosuch'");
  expect_error("indent.ninja", "  x = 1\n", "unexpected indent");
  expect_error("stmt.ninja", "frobnicate a b\n", "unknown statement");
  expect_error("colon.ninja", "rule cc\n  command = cc\nbuild a.o b.o\n", "expected ':'");
  expect_error("dup.ninja", "rule cc\n  command = a\nrule cc\n  command = b\n", "duplicate rule");
  expect_error("cycle.ninja", "rule cc\n  command = $description -c $in\n  description = $command\nbuild a.o: cc a.cpp\n",
               "cycle in rule variables");
  expect_error("self.ninja", "include self.ninja\n", "deeper than 16");
  std::string doubling = "a0 = xxxxxxxxxxxxxxxx\n";
  for (int i = 1; i < 40; ++i) doubling += "a" + std::to_string(i) + " = $a" + std::to_string(i - 1) + "$a" + std::to_string(i - 1) + "\n";
  expect_error("doubling.ninja", doubling, "more than 16 MiB");
  {
    write(p + "/huge/build.ninja", "");
    fs::resize_file(p + "/huge/build.ninja", (64u << 20) + 1);  // sparse: nothing is written
    try {
      load_build_ninja(p + "/huge");
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.input(), p + "/huge/build.ninja");
      EXPECT_NE(std::string(e.what()).find("64 MiB"), std::string::npos);
    }
  }
  write(p + "/inc.ninja", "include missing.ninja\n");
  try {
    load_build_ninja(p + "/inc.ninja");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), p + "/inc.ninja:1");
  }
  EXPECT_THROW(load_build_ninja(p + "/nowhere"), InputError);
  EXPECT_THROW(load_build_commands(p + "/huge/nowhere"), InputError);
  // An unknown variable is empty, as in ninja; a final line needs no newline.
  write(p + "/ok.ninja", "rule cc\n  command = cc $nothing -c $in\nbuild a.o: cc a.cpp");
  EXPECT_EQ(load_build_ninja(p + "/ok.ninja").commands.at(0).arguments, words("cc -c a.cpp"));
}

// Whatever the bytes, the reader answers or throws InputError.
TEST(BuildNinja, ArbitraryBytesNeverCrash) {
  const std::string p = temp_dir("fuzz");
  const std::string alphabet = "$ :|\n\r\t{}#=abc.-_@'\"";
  const std::vector<std::string> pieces = {"rule cc\n", "  command = cc $in -c\n", "build a.o: cc a.cpp\n", "x = $y\n",
                                           "include build.ninja\n", "subninja s.ninja\n", "pool p\n", "default a.o\n"};
  std::mt19937 rng(36);
  for (int i = 0; i < 400; ++i) {
    std::string text;
    const int n = rng() % 12;
    for (int k = 0; k < n; ++k) {
      if (rng() % 2) text += pieces[rng() % pieces.size()];
      else
        for (int j = rng() % 8; j > 0; --j) text += alphabet[rng() % alphabet.size()];
    }
    write(p + "/build.ninja", text);
    write(p + "/s.ninja", text);
    try {
      (void)load_build_ninja(p);
    } catch (const InputError&) {
    }
  }
}

TEST(BuildNinja, SetuptoolsBuildDirectoryIsTheNewestTempDirectory) {
  const std::string p = temp_dir("find");
  EXPECT_FALSE(find_setuptools_ninja(p));
  write(p + "/build/lib.linux-x86_64-cpython-311/x.so", "");
  write(p + "/build/temp.linux-x86_64-cpython-311/build.ninja", "");
  write(p + "/build/temp.linux-x86_64-cpython-312/build.ninja", "");
  fs::last_write_time(p + "/build/temp.linux-x86_64-cpython-311/build.ninja",
                      fs::last_write_time(p + "/build/temp.linux-x86_64-cpython-312/build.ninja") + std::chrono::hours(1));
  EXPECT_EQ(find_setuptools_ninja(p), p + "/build/temp.linux-x86_64-cpython-311/build.ninja");
  EXPECT_FALSE(find_setuptools_ninja(p + "/build"));
}

}  // namespace
}  // namespace torchabi::inputs
