// CMakeLists.txt read without running CMake: targets, sources, usage
// requirements, options and control flow, with notes for what only a
// configure knows.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/project/cmake_lists.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects/cmake_ext";

struct TempTree {
  static inline int count = 0;
  fs::path dir = fs::temp_directory_path() / ("torchabi-cmake-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
  TempTree() { fs::create_directories(dir); }
  ~TempTree() { fs::remove_all(dir); }
  TempTree& write(const std::string& rel, const std::string& text) {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
    return *this;
  }
  std::string p(const std::string& rel) const { return (dir / rel).string(); }
  CMakeProject read(const std::map<std::string, std::string>& cache = {}) const {
    return read_cmake_lists(p("CMakeLists.txt"), cache);
  }
};

TEST(CMakeLists, TheSampleAsAConfigureWouldSeeIt) {
  CMakeProject p = read_cmake_lists(kSample + "/CMakeLists.txt");
  EXPECT_TRUE(p.notes.empty()) << p.notes[0].message;
  ASSERT_EQ(p.targets.size(), 1u);  // the INTERFACE library has no sources of its own
  const CMakeTarget& t = p.targets[0];
  EXPECT_EQ(t.name, "cmake_ext");
  EXPECT_EQ(t.sources, (std::vector<std::string>{kSample + "/csrc/ops.cpp", kSample + "/csrc/shapes.cpp"}));
  EXPECT_EQ(t.definitions, (std::vector<std::string>{"TORCH_TARGET_VERSION=0x0209000000000000", "CMAKE_EXT_NAME=cmake_ext",
                                                     "CMAKE_EXT_HEADERS=1"}));
  EXPECT_EQ(t.include_dirs, (std::vector<std::string>{kSample + "/include"}));
  EXPECT_EQ(t.system_include_dirs, (std::vector<std::string>{"/usr/include"}));
  EXPECT_EQ(t.cxx_standard, "17");
  EXPECT_TRUE(t.cxx_extensions);
}

// vLLM's shape: USE_CUDA is defined under a branch on a value only the
// configure sets. The reader takes it as false, as CMake would an undefined
// variable, and says which names it could not know; the sample has none.
TEST(CMakeLists, ConditionsOnValuesOnlyAConfigureSetsAreNamed) {
  TempTree t;
  t.write("CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
          "option(BUILD_TESTS \"tests\" OFF)\n"
          "if(BUILD_TESTS OR WIN32)\n  message(STATUS tests)\nendif()\n"
          "if(NOT HIP_FOUND AND CUDA_FOUND)\n  set(GPU_LANG CUDA)\nendif()\n"
          "add_library(ops SHARED ops.cpp)\n"
          "if(GPU_LANG STREQUAL \"CUDA\")\n  target_compile_definitions(ops PRIVATE USE_CUDA)\nendif()\n")
      .write("ops.cpp", "");
  CMakeProject p = t.read();
  EXPECT_EQ(p.unknown_conditions, (std::vector<std::string>{"HIP_FOUND", "CUDA_FOUND", "GPU_LANG"}));
  // Given as the configure would have set it, nothing is unknown.
  CMakeProject given = t.read({{"HIP_FOUND", "OFF"}, {"CUDA_FOUND", "ON"}});
  EXPECT_TRUE(given.unknown_conditions.empty());
  ASSERT_EQ(given.targets.size(), 1u);
  EXPECT_EQ(given.targets[0].definitions, (std::vector<std::string>{"USE_CUDA"}));
  EXPECT_TRUE(read_cmake_lists(kSample + "/CMakeLists.txt").unknown_conditions.empty());
}

// What a CUDA build machine's configure sets, the reader sets too: Torch's
// config finds CUDA, and the CUDA compiler is the stand-in nvcc's release.
TEST(CMakeLists, ATorchBuildMachineHasCuda) {
  TempTree t;
  t.write("CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nfind_package(Torch REQUIRED)\n"
          "add_library(ops SHARED ops.cpp)\n"
          "if(NOT HIP_FOUND AND CUDA_FOUND)\n  set(GPU_LANG CUDA)\nendif()\n"
          "if(GPU_LANG STREQUAL \"CUDA\")\n  target_compile_definitions(ops PRIVATE USE_CUDA)\nendif()\n"
          "if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)\n  target_compile_definitions(ops PRIVATE SM100)\nendif()\n")
      .write("ops.cpp", "");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].definitions, (std::vector<std::string>{"USE_CUDA", "SM100"}));
  EXPECT_EQ(p.unknown_conditions, (std::vector<std::string>{"HIP_FOUND"}));  // a ROCm machine's, still unknown
  // The user's -D wins over the machine's.
  CMakeProject cpu = t.read({{"CUDA_FOUND", "OFF"}});
  ASSERT_EQ(cpu.targets.size(), 1u);
  EXPECT_EQ(cpu.targets[0].definitions, (std::vector<std::string>{"SM100"}));
}

TEST(CMakeLists, CacheValuesWinOverOptionsAndCacheDefaults) {
  CMakeProject p = read_cmake_lists(kSample + "/CMakeLists.txt",
                                    {{"CMAKE_EXT_FOR_2_9", "OFF"}, {"TORCH_STABLE_INCLUDE", "/opt/torch/include"}});
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].definitions.at(0), "TORCH_TARGET_VERSION=0x020a000000000000");
  EXPECT_EQ(p.targets[0].system_include_dirs, (std::vector<std::string>{"/opt/torch/include"}));
}

// A project's helper in cmake/*.cmake, reached through include(), that
// takes its sources as keywords (cmake_parse_arguments, both forms), as
// vLLM-style define_gpu_extension_target(... SOURCES ... USE_SABI 3) does.
TEST(CMakeLists, HelpersFromIncludedFilesWithKeywordArguments) {
  TempTree t;
  t.write("cmake/ext_helpers.cmake", R"(
function(define_ext NAME)
  cmake_parse_arguments(PARSE_ARGV 1 EXT "WITH_SOABI" "USE_SABI;LANGUAGE" "SOURCES;INCLUDES")
  Python_add_library(${NAME} MODULE USE_SABI ${EXT_USE_SABI} "${EXT_SOURCES}")
  target_include_directories(${NAME} PRIVATE ${EXT_INCLUDES})
  if(EXT_WITH_SOABI)
    target_compile_definitions(${NAME} PRIVATE EXT_SOABI=1)
  endif()
endfunction()
macro(define_plain NAME)
  cmake_parse_arguments(PLAIN "" "" "SRCS" ${ARGN})
  add_library(${NAME} SHARED ${PLAIN_SRCS})
endmacro()
)")
      .write("CMakeLists.txt", R"(
project(p CXX)
include(${CMAKE_CURRENT_LIST_DIR}/cmake/ext_helpers.cmake)
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_SOURCE_DIR}/cmake)
include(ext_helpers)
include(CheckCXXCompilerFlag)
include(missing_optional OPTIONAL)
set(GEN_SRCS csrc/b.cu)
define_ext(_C LANGUAGE CUDA SOURCES csrc/a.cpp ${GEN_SRCS} INCLUDES csrc/include USE_SABI 3 WITH_SOABI)
define_plain(plain SRCS csrc/p.cpp)
)");
  CMakeProject p = t.read();
  for (const auto& n : p.notes) ADD_FAILURE() << n.message;
  ASSERT_EQ(p.targets.size(), 2u);
  EXPECT_EQ(p.targets[0].name, "_C");
  EXPECT_EQ(p.targets[0].type, "MODULE");
  EXPECT_EQ(p.targets[0].sources, (std::vector<std::string>{t.p("csrc/a.cpp"), t.p("csrc/b.cu")}));
  EXPECT_EQ(p.targets[0].include_dirs, (std::vector<std::string>{t.p("csrc/include")}));
  EXPECT_EQ(p.targets[0].definitions, (std::vector<std::string>{"EXT_SOABI=1"}));
  EXPECT_EQ(p.targets[1].name, "plain");
  EXPECT_EQ(p.targets[1].sources, (std::vector<std::string>{t.p("csrc/p.cpp")}));
}

TEST(CMakeLists, AnIncludedFileThatIsMissingIsANote) {
  TempTree t;
  t.write("CMakeLists.txt", "include(cmake/absent.cmake)\nadd_library(x SHARED a.cpp)\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 1u);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].message.find("include(cmake/absent.cmake): no such file"), std::string::npos) << p.notes[0].message;
}

TEST(CMakeLists, ControlFlowFunctionsAndSubdirectories) {
  TempTree t;
  t.write("CMakeLists.txt",
          "project(p)\n"
          "set(MODE fast)\n"
          "include_directories(inc)\n"
          "function(make_ext name)\n"
          "  add_library(${name} MODULE ${ARGN})\n"
          "  target_compile_definitions(${name} PRIVATE EXT_${name})\n"
          "endfunction()\n"
          "if(MODE STREQUAL \"slow\")\n"
          "  make_ext(slow a.cpp)\n"
          "elseif(NOT DEFINED NOPE AND MODE MATCHES \"^fa\")\n"
          "  make_ext(fast a.cpp b.cu notes.md)\n"
          "else()\n"
          "  make_ext(other a.cpp)\n"
          "endif()\n"
          "foreach(v IN ITEMS 1 2)\n"
          "  list(APPEND FLAGS -DV${v})\n"
          "endforeach()\n"
          "target_compile_options(fast PRIVATE ${FLAGS})\n"
          "add_compile_options(-Wlate)  # after the target: not its option\n"
          "add_subdirectory(sub)\n")
      .write("sub/CMakeLists.txt", "add_executable(tool main.cc)\nset_target_properties(tool PROPERTIES CXX_STANDARD 20 CXX_EXTENSIONS OFF)\n");
  CMakeProject p = t.read();
  EXPECT_TRUE(p.notes.empty()) << p.notes[0].message;
  ASSERT_EQ(p.targets.size(), 2u);
  const CMakeTarget& fast = p.targets[0];
  EXPECT_EQ(fast.name, "fast");
  EXPECT_EQ(fast.sources, (std::vector<std::string>{t.p("a.cpp"), t.p("b.cu")}));
  EXPECT_EQ(fast.include_dirs, (std::vector<std::string>{t.p("inc")}));
  EXPECT_EQ(fast.definitions, (std::vector<std::string>{"EXT_fast"}));
  EXPECT_EQ(fast.options, (std::vector<std::string>{"-DV1", "-DV2"}));
  const CMakeTarget& tool = p.targets[1];
  EXPECT_EQ(tool.sources, (std::vector<std::string>{t.p("sub/main.cc")}));
  EXPECT_EQ(tool.options, (std::vector<std::string>{"-Wlate"}));  // created after add_compile_options
  EXPECT_EQ(tool.cxx_standard, "20");
  EXPECT_FALSE(tool.cxx_extensions);
}

TEST(CMakeLists, WhatOnlyAConfigureKnowsIsANoteWithItsLine) {
  TempTree t;
  t.write("CMakeLists.txt",
          "add_library(x SHARED x.cpp $<$<CONFIG:Debug>:debug.cpp>)\n"
          "target_compile_definitions(x PRIVATE HOME=$ENV{HOME})\n"
          "execute_process(COMMAND python3 -c \"print(1)\" OUTPUT_VARIABLE V)\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.notes.size(), 3u);
  EXPECT_EQ(p.notes[0].line, 1);
  EXPECT_NE(p.notes[0].message.find("generator expression"), std::string::npos);
  EXPECT_EQ(p.notes[1].line, 2);
  EXPECT_NE(p.notes[1].message.find("$ENV{HOME}"), std::string::npos);
  EXPECT_EQ(p.notes[2].line, 3);
  EXPECT_EQ(p.notes[2].file, t.p("CMakeLists.txt"));
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].sources, (std::vector<std::string>{t.p("x.cpp")}));
}

// gffx's shape: a core library exports its include directory for the build
// and for the install; the torch adapter linking it needs the build one.
// Those two generator expressions are evaluated, others still noted.
// A GLOB narrowed with list(FILTER ... REGEX) and completed with
// list(TRANSFORM ...): the build's sources, not the glob's.
TEST(CMakeLists, ListFilterAndTransformNarrowAndCompleteSources) {
  TempTree t;
  t.write("src/ops.cu", "").write("src/legacy/old.cu", "").write("src/scaled_mm_kernels/k.cu", "").write("src/b.cpp", "");
  t.write("CMakeLists.txt",
          "file(GLOB_RECURSE SRCS src/*.cu src/*.cpp)\n"
          "list(FILTER SRCS EXCLUDE REGEX \"legacy|scaled_mm_kernels\")\n"
          "set(EXTRA a.cpp)\n"
          "list(TRANSFORM EXTRA PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/src/)\n"
          "list(TRANSFORM EXTRA REPLACE \"a\\\\.cpp$\" \"b.cpp\")\n"
          "set(ONLY_CU ${SRCS})\n"
          "list(FILTER ONLY_CU INCLUDE REGEX \"\\\\.cu$\")\n"
          "add_library(ops MODULE ${ONLY_CU} ${EXTRA})\n"
          "list(TRANSFORM SRCS APPEND .o AT 0)\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].sources, (std::vector<std::string>{t.p("src/ops.cu"), t.p("src/b.cpp")}));
  // A selector (AT) is not followed, and says so.
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].message.find("list(TRANSFORM) is not followed"), std::string::npos) << p.notes[0].message;
}

TEST(CMakeLists, BuildAndInstallInterfacesAreWhatABuildSees) {
  TempTree t;
  t.write("CMakeLists.txt",
          "add_library(core STATIC core.cpp)\n"
          "target_include_directories(core PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>\n"
          "                                        $<INSTALL_INTERFACE:include>)\n"
          "target_compile_definitions(core PUBLIC $<BUILD_LOCAL_INTERFACE:CORE_LOCAL=1> $<$<CONFIG:Debug>:CORE_DEBUG>)\n"
          "add_library(adapter MODULE register.cpp)\n"
          "target_link_libraries(adapter PRIVATE core)\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].message.find("$<$<CONFIG:Debug>:CORE_DEBUG>"), std::string::npos) << p.notes[0].message;
  ASSERT_EQ(p.targets.size(), 2u);
  const CMakeTarget& adapter = p.targets[1];
  EXPECT_EQ(adapter.name, "adapter");
  EXPECT_EQ(adapter.include_dirs, (std::vector<std::string>{t.p("include")}));
  EXPECT_EQ(adapter.definitions, (std::vector<std::string>{"CORE_LOCAL=1"}));
}

// torchcodec reads each of its 12 source lists through one helper that runs
// execute_process: the line is noted once, not once per call.
TEST(CMakeLists, AHelperCalledManyTimesIsNotedOnce) {
  TempTree t;
  t.write("CMakeLists.txt",
          "function(read_list out name)\n"
          "  execute_process(COMMAND python3 -c \"print(1)\" OUTPUT_VARIABLE v)\n"
          "  set(${out} ${v} PARENT_SCOPE)\n"
          "endfunction()\n"
          "read_list(A a)\nread_list(B b)\nread_list(C c)\n"
          "add_library(x SHARED x.cpp ${A} ${B} ${C})\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0].line, 2);
  ASSERT_EQ(p.targets.size(), 1u);
}

TEST(CMakeLists, TorchFromFindPackageIsMarked) {
  TempTree t;
  t.write("CMakeLists.txt",
          "find_package(Torch REQUIRED)\n"
          "add_library(e SHARED e.cpp)\n"
          "target_link_libraries(e PRIVATE \"${TORCH_LIBRARIES}\")\n"
          "add_library(f SHARED f.cpp)\n"
          "target_include_directories(f PRIVATE ${TORCH_INCLUDE_DIRS})\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 2u);
  EXPECT_TRUE(p.targets[0].links_torch);
  EXPECT_EQ(p.targets[1].include_dirs, (std::vector<std::string>{kTorchIncludes}));
}

TEST(CMakeLists, SyntaxErrorsNameTheFileAndLine) {
  TempTree t;
  t.write("CMakeLists.txt", "project(p)\nadd_library(x SHARED\n  x.cpp\n");
  try {
    t.read();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), t.p("CMakeLists.txt"));
    EXPECT_NE(std::string(e.what()).find("add_library"), std::string::npos) << e.what();
  }
  TempTree u;
  u.write("CMakeLists.txt", "if(A)\nadd_library(x SHARED x.cpp)\n");
  EXPECT_THROW(u.read(), InputError);
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

TEST(CMakeLists, CyclesAndDeepNestingEndWithANote) {
  TempTree t;
  std::string deep;
  for (int i = 0; i < 2000; ++i) deep += "if(TRUE)\n";
  deep += "add_library(x SHARED x.cpp)\n";
  for (int i = 0; i < 2000; ++i) deep += "endif()\n";
  t.write("CMakeLists.txt", "add_subdirectory(sub)\n" + deep).write("sub/CMakeLists.txt", "add_subdirectory(..)\n");
  CMakeProject p = t.read();
  EXPECT_TRUE(std::any_of(p.notes.begin(), p.notes.end(),
                          [](const ProjectNote& n) { return n.message.find("again") != std::string::npos; }));
  EXPECT_TRUE(std::any_of(p.notes.begin(), p.notes.end(),
                          [](const ProjectNote& n) { return n.message.find("nested too deeply") != std::string::npos; }));
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

TEST(CMakeLists, RunawayLoopsStopWithANote) {
  TempTree t;
  t.write("CMakeLists.txt",
          "foreach(a RANGE 9999)\n  foreach(b RANGE 9999)\n    set(X ${a}${b})\n  endforeach()\nendforeach()\n"
          "file(GLOB_RECURSE ALL /*)\n");
  CMakeProject p = t.read();
  EXPECT_TRUE(std::any_of(p.notes.begin(), p.notes.end(),
                          [](const ProjectNote& n) { return n.message.find("too long") != std::string::npos; }));
}

TEST(CMakeLists, GlobsOutsideTheSourceTreeAreNotWalked) {
  TempTree t;
  t.write("CMakeLists.txt", "file(GLOB_RECURSE ALL /usr/*.h)\nadd_library(x SHARED ${ALL} x.cpp)\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].sources, (std::vector<std::string>{t.p("x.cpp")}));
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].message.find("outside the source tree"), std::string::npos);
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

// Found by tests/fuzz/cmake_lists_fuzzer: a vertical tab between arguments
// once made the parser loop in place, and a doubling value ran out of memory.
TEST(CMakeLists, OddWhitespaceAndDoublingValuesEnd) {
  TempTree t;
  t.write("CMakeLists.txt", "add_library(x\vSHARED\fx.cpp)\nset(X a)\nforeach(i RANGE 40)\n  set(X ${X}${X})\nendforeach()\n");
  CMakeProject p = t.read();
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].sources, (std::vector<std::string>{t.p("x.cpp")}));
  EXPECT_TRUE(std::any_of(p.notes.begin(), p.notes.end(),
                          [](const ProjectNote& n) { return n.message.find("1 MB") != std::string::npos; }));
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

// Every seed of the fuzzer, the inputs it found included, is read to the end.
TEST(CMakeLists, FuzzCorpusIsReadWithoutCrashing) {
  const fs::path corpus = std::string(TORCHABI_SOURCE_DIR) + "/tests/fuzz/corpus/cmake_lists_fuzzer";
  size_t seeds = 0;
  for (const auto& e : fs::directory_iterator(corpus)) {
    TempTree t;
    fs::copy_file(e.path(), t.dir / "CMakeLists.txt", fs::copy_options::overwrite_existing);
    try {
      (void)t.read();
    } catch (const InputError&) {
    }
    ++seeds;
  }
  EXPECT_GE(seeds, 1u);
}

}  // namespace
}  // namespace torchabi::inputs
