// The Python setup.py files are written in, followed exactly as far as it is
// literal; everything else is Unresolved with its line.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/input_error.h"
#include "inputs/project/python_literals.h"

namespace torchabi::inputs::py {
namespace {

namespace fs = std::filesystem;

// The arguments of the one call to `f` in `code`.
Call call_in(const std::string& code, const std::string& dir = "/proj") {
  Module m = read_module(code, dir + "/setup.py", dir, {"f"});
  EXPECT_EQ(m.calls.size(), 1u) << code;
  return m.calls.empty() ? Call{} : m.calls[0];
}

Value arg(const std::string& code) {
  Call c = call_in(code);
  return c.args.empty() ? Value{} : c.args[0];
}

std::vector<std::string> strings(const Value& v) {
  std::vector<std::string> out;
  for (const auto& i : v.items) out.push_back(i.kind == Value::Kind::Str ? i.s : "<" + i.why + ">");
  return out;
}

TEST(PythonLiterals, LiteralsOfEveryKind) {
  Value v = arg("f(['a', \"b\", r'c\\d', '''e\nf''', 'g' 'h'], {'k': (1, 0x10, True, None)})");
  ASSERT_EQ(v.kind, Value::Kind::List);
  EXPECT_EQ(strings(v), (std::vector<std::string>{"a", "b", "c\\d", "e\nf", "gh"}));
  Call c = call_in("f([], {'k': (1, 0x10, True, None)})");
  const Value& d = c.args.at(1);
  ASSERT_EQ(d.kind, Value::Kind::Dict);
  ASSERT_EQ(d.entries.size(), 1u);
  const Value& t = d.entries[0].value;
  ASSERT_EQ(t.items.size(), 4u);
  EXPECT_EQ(t.items[0].i, 1);
  EXPECT_EQ(t.items[1].i, 16);
  EXPECT_TRUE(t.items[2].b);
  EXPECT_EQ(t.items[3].kind, Value::Kind::None);
}

TEST(PythonLiterals, AssignmentsTupleUnpackingAndAugmentedLists) {
  Value v = arg(
      "A, B = 2, 10\n"
      "flags = ['-O3']\n"
      "flags += ['-g']\n"
      "if A > 1:\n"
      "    flags = flags + ['-DX']\n"
      "f(flags + [str(A), str(B)])\n");
  EXPECT_EQ(strings(v), (std::vector<std::string>{"-O3", "-g", "-DX", "2", "10"}));
}

TEST(PythonLiterals, TargetVersionComputedFromTwoIntegers) {
  const std::string pre = "MAJ, MIN = 2, 10\nV = (MAJ << 56) | (MIN << 48)\n";
  EXPECT_EQ(arg(pre + "f(hex(V))").s, "0x20a000000000000");
  EXPECT_EQ(arg(pre + "f(f'-DTORCH_TARGET_VERSION={V:#018x}')").s, "-DTORCH_TARGET_VERSION=0x020a000000000000");
  EXPECT_EQ(arg(pre + "f(f'{V:#x} {{braces}} {MIN}')").s, "0x20a000000000000 {braces} 10");
  EXPECT_EQ(arg(pre + "f('-DV=' + str(V))").s, "-DV=" + std::to_string((2ll << 56) | (10ll << 48)));
}

TEST(PythonLiterals, PathsRelativeToTheFile) {
  EXPECT_EQ(arg("import os\nhere = os.path.dirname(os.path.abspath(__file__))\nf(os.path.join(here, 'include'))").s,
            "/proj/include");
}

// torchmatch's setup.py: CSRC = Path("sources/x"); str(CSRC / "cpu" / "a.cpp").
TEST(PythonLiterals, PathlibJoinsOfLiteralsAreTheirStrings) {
  Value v = arg("from pathlib import Path\nimport pathlib\nCSRC = Path('sources/x')\nCPU = CSRC / 'cpu'\n"
                "f([str(CPU / 'a.cpp'), (pathlib.Path('inc') / 'y').as_posix(), str(Path('a', 'b.cpp')),\n"
                "   str(Path(__file__).resolve().parent / 'z.cpp')])");
  ASSERT_EQ(v.kind, Value::Kind::List);
  EXPECT_EQ(strings(v), (std::vector<std::string>{"sources/x/cpu/a.cpp", "inc/y", "a/b.cpp", "/proj/z.cpp"}));
  // An attribute of something else is unresolved, never the thing itself.
  EXPECT_EQ(arg("import sys\nf(sys.version_info.major)").kind, Value::Kind::Unresolved);
  EXPECT_EQ(arg("x = {'a': 1}\nf(x.real)").kind, Value::Kind::Unresolved);
  // A string divided by a number is still not a path.
  EXPECT_EQ(arg("f('a' / 2)").kind, Value::Kind::Unresolved);
}

TEST(PythonLiterals, GlobReadsTheProjectDirectory) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-pyglob-" + std::to_string(::getpid()));
  fs::create_directories(dir / "csrc/sub");
  fs::create_directories(dir / "build/csrc");
  for (const char* f : {"csrc/b.cpp", "csrc/a.cpp", "csrc/x.h", "csrc/sub/c.cpp", "build/csrc/z.cpp"})
    std::ofstream(dir / f) << "";
  Module m = read_module("import glob\nf(sorted(glob.glob('csrc/*.cpp')), glob.glob('csrc/**/*.cpp', recursive=True))",
                         (dir / "setup.py").string(), dir.string(), {"f"});
  fs::remove_all(dir);
  ASSERT_EQ(m.calls.size(), 1u);
  EXPECT_EQ(strings(m.calls[0].args.at(0)), (std::vector<std::string>{"csrc/a.cpp", "csrc/b.cpp"}));
  EXPECT_EQ(strings(m.calls[0].args.at(1)), (std::vector<std::string>{"csrc/a.cpp", "csrc/b.cpp", "csrc/sub/c.cpp"}));
}

TEST(PythonLiterals, WhatRunsIsUnresolvedWithItsLine) {
  Call c = call_in(
      "import os\n"
      "def flags():\n"
      "    return ['-O3']\n"
      "f(flags(),\n"
      "  [x for x in ('a', 'b')],\n"
      "  os.environ.get('CUDA_HOME'),\n"
      "  ['ok', compute()],\n"
      "  'a' if debug else 'b')\n");
  ASSERT_EQ(c.args.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(c.args[i].resolved()) << i;
  EXPECT_EQ(c.args[0].first_unresolved()->line, 4);
  EXPECT_NE(c.args[0].first_unresolved()->why.find("flags"), std::string::npos);
  EXPECT_EQ(c.args[1].first_unresolved()->why, "a comprehension");
  EXPECT_EQ(c.args[1].first_unresolved()->line, 5);
  EXPECT_EQ(c.args[2].first_unresolved()->line, 6);
  // A list keeps what it could read next to what it could not.
  EXPECT_EQ(c.args[3].items.at(0).s, "ok");
  EXPECT_EQ(c.args[3].first_unresolved()->line, 7);
  EXPECT_EQ(c.args[4].first_unresolved()->why, "a conditional expression");
}

TEST(PythonLiterals, CallsAreFoundAnywhereUnderAnyQualifier) {
  Module m = read_module(
      "from torch.utils import cpp_extension\n"
      "setup(ext_modules=[cpp_extension.CppExtension('a', ['a.cpp']),\n"
      "                   torch.utils.cpp_extension.CUDAExtension(name='b', sources=['b.cu'])])\n"
      "def CppExtension(*args): pass\n",
      "/p/setup.py", "/p", {"CppExtension", "CUDAExtension"});
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(m.calls[0].callee, "cpp_extension.CppExtension");
  EXPECT_EQ(m.calls[0].line, 2);
  EXPECT_EQ(m.calls[1].callee, "torch.utils.cpp_extension.CUDAExtension");
  EXPECT_EQ(m.calls[1].line, 3);
  ASSERT_NE(m.calls[1].kwarg("sources"), nullptr);
  EXPECT_EQ(m.calls[1].kwarg("name")->s, "b");
}

TEST(PythonLiterals, TextItCannotTokenizeIsAnErrorWithTheLine) {
  try {
    read_module("a = 1\nb = 'unterminated\n", "/p/setup.py", "/p", {"f"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "/p/setup.py");
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_module("f(['a', 'b'\n", "/p/setup.py", "/p", {"f"}), InputError);
  EXPECT_THROW(read_module("f(])\n", "/p/setup.py", "/p", {"f"}), InputError);
}

}  // namespace
}  // namespace torchabi::inputs::py

namespace torchabi::inputs::py {
namespace {

TEST(PythonLiterals, DeepNestingAndForeignGlobsStayUnresolved) {
  const std::string deep = "f(" + std::string(5000, '[') + std::string(5000, ']') + ")\n";
  Module m = read_module(deep, "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(m.calls.size(), 1u);
  EXPECT_FALSE(m.calls[0].args.at(0).resolved());
  Module g = read_module("import glob\nf(glob.glob('/usr/**/*.h', recursive=True))\n", "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(g.calls.size(), 1u);
  ASSERT_FALSE(g.calls[0].args.at(0).resolved());
  EXPECT_EQ(g.calls[0].args[0].first_unresolved()->why, "a glob outside the project directory");
}

}  // namespace
}  // namespace torchabi::inputs::py
