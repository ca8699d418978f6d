// A Python build file read by CPython's parser (read_python_build.py): what
// the text determines is followed; everything else is Unresolved with its
// line; text the interpreter cannot parse is an InputError naming the file,
// the line and the Python that read it.
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

// The message of the InputError reading `code` throws ("" when none).
std::string error_of(const std::string& code) {
  try {
    read_module(code, "/p/setup.py", "/p", {"f"});
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "/p/setup.py");
    return e.what();
  }
  return "";
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
      "else:\n"
      "    flags = ['-DNEVER']\n"
      "f(flags + [str(A), str(B)])\n");
  EXPECT_EQ(strings(v), (std::vector<std::string>{"-O3", "-g", "-DX", "2", "10"}));
}

TEST(PythonLiterals, TargetVersionComputedFromTwoIntegers) {
  const std::string pre = "MAJ, MIN = 2, 10\nV = (MAJ << 56) | (MIN << 48)\n";
  EXPECT_EQ(arg(pre + "f(hex(V))").s, "0x20a000000000000");
  EXPECT_EQ(arg(pre + "f(f'-DTORCH_TARGET_VERSION={V:#018x}')").s, "-DTORCH_TARGET_VERSION=0x020a000000000000");
  EXPECT_EQ(arg(pre + "f(f'{V:#x} {{braces}} {MIN}')").s, "0x20a000000000000 {braces} 10");
  EXPECT_EQ(arg(pre + "f('-DV=' + str(V))").s, "-DV=" + std::to_string((2ll << 56) | (10ll << 48)));
  EXPECT_EQ(arg(pre + "f('-DV=%d.%d' % (MAJ, MIN))").s, "-DV=2.10");
  EXPECT_EQ(arg(pre + "f('-DV={}.{}'.format(MAJ, MIN))").s, "-DV=2.10");
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

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("torchabi-pyglob-" + std::to_string(::getpid()));
  explicit TempDir(std::initializer_list<const char*> files) {
    for (const char* f : files) {
      fs::create_directories((dir / f).parent_path());
      std::ofstream(dir / f) << "";
    }
  }
  ~TempDir() { fs::remove_all(dir); }
};

TEST(PythonLiterals, GlobReadsTheProjectDirectory) {
  TempDir t({"csrc/b.cpp", "csrc/a.cpp", "csrc/x.h", "csrc/sub/c.cpp", "csrc/.hidden/d.cpp", "build/csrc/z.cpp"});
  const std::string dir = t.dir.string();
  Module m = read_module("import glob\nfrom pathlib import Path\n"
                         "f(sorted(glob.glob('csrc/*.cpp')), glob.glob('csrc/**/*.cpp', recursive=True),\n"
                         "  [str(p) for p in Path('csrc').rglob('*.cpp')], glob.glob('csrc/**/*.cpp'))",
                         dir + "/setup.py", dir, {"f"});
  ASSERT_EQ(m.calls.size(), 1u);
  EXPECT_EQ(strings(m.calls[0].args.at(0)), (std::vector<std::string>{"csrc/a.cpp", "csrc/b.cpp"}));
  const std::vector<std::string> all{"csrc/a.cpp", "csrc/b.cpp", "csrc/sub/c.cpp"};
  EXPECT_EQ(strings(m.calls[0].args.at(1)), all);
  EXPECT_EQ(strings(m.calls[0].args.at(2)), all);
  // Without recursive=True, '**' is one '*'.
  EXPECT_EQ(strings(m.calls[0].args.at(3)), (std::vector<std::string>{"csrc/sub/c.cpp"}));
}

TEST(PythonLiterals, WhatRunsIsUnresolvedWithItsLine) {
  Call c = call_in(
      "import os, sys\n"
      "def flags():\n"
      "    return ['-O3', detect()]\n"
      "f(flags(),\n"
      "  [x for x in sys.argv],\n"
      "  os.cpu_count(),\n"
      "  ['ok', compute()],\n"
      "  'a' if debug else 'b')\n");
  ASSERT_EQ(c.args.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_FALSE(c.args[i].resolved()) << i;
  // A function's value keeps what it could read; the rest has the line where it runs.
  EXPECT_EQ(c.args[0].items.at(0).s, "-O3");
  EXPECT_EQ(c.args[0].first_unresolved()->line, 3);
  EXPECT_NE(c.args[0].first_unresolved()->why.find("detect"), std::string::npos);
  EXPECT_EQ(c.args[1].first_unresolved()->why, "a comprehension");
  EXPECT_EQ(c.args[1].first_unresolved()->line, 5);
  EXPECT_EQ(c.args[2].first_unresolved()->line, 6);
  // A list keeps what it could read next to what it could not.
  EXPECT_EQ(c.args[3].items.at(0).s, "ok");
  EXPECT_EQ(c.args[3].first_unresolved()->line, 7);
  EXPECT_EQ(c.args[4].first_unresolved()->why, "a conditional expression");
}

// What the CPython reader follows that the hand-written one did not.
TEST(PythonLiterals, FunctionsLoopsAppendsAndDecidableConditions) {
  Value v = arg(
      "USE_FAST = True\n"
      "def common(extra=None):\n"
      "    out = ['-O3']\n"
      "    if extra:\n"
      "        out.append(extra)\n"
      "    return out\n"
      "srcs = []\n"
      "for name in ['a', 'b']:\n"
      "    srcs.append(name + '.cpp')\n"
      "srcs.extend([s.replace('.cpp', '.cu') for s in srcs if s != 'b.cpp'])\n"
      "flags = common('-DFAST' if USE_FAST else '-DSLOW')\n"
      "flags += common()\n"
      "f(srcs + flags)\n");
  EXPECT_EQ(strings(v), (std::vector<std::string>{"a.cpp", "b.cpp", "a.cu", "-O3", "-DFAST", "-O3"}));
}

// A branch decided when the file runs: what the branches agree on is kept,
// the rest is unresolved at the condition's line.
TEST(PythonLiterals, BranchesDecidedAtRunTimeKeepWhatTheyShare) {
  Value v = arg(
      "import platform\n"
      "flags = ['-O3']\n"
      "same = 'x'\n"
      "if platform.machine() == 'aarch64':\n"
      "    flags += ['-march=armv8']\n"
      "    same = 'x'\n"
      "f(flags + [same])\n");
  ASSERT_EQ(v.items.size(), 3u);
  EXPECT_EQ(v.items[0].s, "-O3");
  EXPECT_EQ(v.items[1].kind, Value::Kind::Unresolved);
  EXPECT_EQ(v.items[1].line, 4);
  EXPECT_EQ(v.items[2].s, "x");
}

// The example of issue 49: the class is a name bound to a conditional expression.
TEST(PythonLiterals, CallsThroughNamesBoundToTheExtensionClasses) {
  const std::set<std::string> classes{"CppExtension", "CUDAExtension"};
  Module m = read_module(
      "from torch.utils.cpp_extension import CppExtension, CUDAExtension as CE\n"
      "try:\n"
      "    import torch\n"
      "    _HAS_CUDA = torch.version.cuda is not None\n"
      "except ImportError:\n"
      "    _HAS_CUDA = False\n"
      "Extension = CE if _HAS_CUDA else CppExtension\n"
      "_ext = Extension(name='pkg._C', sources=['a.cpp', 'k.cu'])\n"
      "Plain = CppExtension\n"
      "_cpu = Plain('pkg._cpu', ['b.cpp'])\n",
      "/p/setup.py", "/p", classes);
  ASSERT_EQ(m.calls.size(), 2u);
  // Imported under another name: the qualified name says whose class it is.
  EXPECT_EQ(m.calls[0].callee, "torch.utils.cpp_extension.CUDAExtension");
  EXPECT_EQ(m.calls[0].line, 8);
  EXPECT_EQ(strings(*m.calls[0].kwarg("sources")), (std::vector<std::string>{"a.cpp", "k.cu"}));
  EXPECT_NE(m.calls[0].note.find("CppExtension or torch.utils.cpp_extension.CUDAExtension"), std::string::npos)
      << m.calls[0].note;
  EXPECT_NE(m.calls[0].note.find("_HAS_CUDA"), std::string::npos) << m.calls[0].note;
  EXPECT_NE(m.calls[0].note.find("line 7"), std::string::npos) << m.calls[0].note;
  EXPECT_EQ(m.calls[1].callee, "CppExtension");
  EXPECT_TRUE(m.calls[1].note.empty());
  // The same choice made by an if statement.
  Module s = read_module(
      "import os\nfrom torch.utils import cpp_extension\n"
      "if os.path.exists('/opt/rocm'):\n"
      "    Ext = cpp_extension.CppExtension\n"
      "else:\n"
      "    Ext = cpp_extension.CUDAExtension\n"
      "ext = Ext('x', ['x.cu'])\n",
      "/p/setup.py", "/p", classes);
  ASSERT_EQ(s.calls.size(), 1u);
  EXPECT_EQ(s.calls[0].callee, "cpp_extension.CUDAExtension");
  EXPECT_NE(s.calls[0].note.find("line 3"), std::string::npos) << s.calls[0].note;
}

// As torchabi runs a setup.py: CUDA available, the environment cleared but
// for the CUDA variables; the reading says when it took that as given.
TEST(PythonLiterals, TheMachineIsTheOneARunWouldEmulate) {
  Module m = read_module(
      "import os, torch\n"
      "from torch.utils.cpp_extension import CUDA_HOME\n"
      "jobs = os.environ.get('MAX_JOBS', '4')\n"
      "f(torch.cuda.is_available(), os.path.join(CUDA_HOME, 'include'), jobs, os.getenv('FORCE_CUDA'))\n",
      "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(m.calls.size(), 1u);
  const auto& a = m.calls[0].args;
  ASSERT_EQ(a.size(), 4u);
  EXPECT_TRUE(a[0].kind == Value::Kind::Bool && a[0].b);
  EXPECT_EQ(a[1].s, "/usr/local/cuda/include");
  EXPECT_EQ(a[2].s, "4");
  EXPECT_EQ(a[3].s, "1");
  ASSERT_EQ(m.given.size(), 2u);
  EXPECT_NE(m.given[0].find("CUDA is available"), std::string::npos) << m.given[0];
  EXPECT_NE(m.given[1].find("environment"), std::string::npos) << m.given[1];
  EXPECT_TRUE(read_module("f(1)\n", "/p/setup.py", "/p", {"f"}).given.empty());
}

TEST(PythonLiterals, CallsAreFoundAnywhereUnderAnyQualifier) {
  Module m = read_module(
      "from torch.utils import cpp_extension\n"
      "setup(ext_modules=[cpp_extension.CppExtension('a', ['a.cpp']),\n"
      "                   torch.utils.cpp_extension.CUDAExtension(name='b', sources=['b.cu'])])\n"
      "def build(n):\n"
      "    return cpp_extension.CppExtension(n, [n + '.cpp'])\n"
      "def CppExtension(*args): pass\n",
      "/p/setup.py", "/p", {"CppExtension", "CUDAExtension"});
  ASSERT_EQ(m.calls.size(), 3u);
  EXPECT_EQ(m.calls[0].callee, "cpp_extension.CppExtension");
  EXPECT_EQ(m.calls[0].line, 2);
  EXPECT_EQ(m.calls[1].callee, "torch.utils.cpp_extension.CUDAExtension");
  EXPECT_EQ(m.calls[1].line, 3);
  ASSERT_NE(m.calls[1].kwarg("sources"), nullptr);
  EXPECT_EQ(m.calls[1].kwarg("name")->s, "b");
  // In a function nobody calls: found, its parameters unresolved.
  EXPECT_EQ(m.calls[2].line, 5);
  EXPECT_FALSE(m.calls[2].args.at(0).resolved());
  // Called once per item of a list: one call each.
  Module loop = read_module(
      "from torch.utils.cpp_extension import CppExtension\n"
      "def ext(n):\n"
      "    return CppExtension('pkg.' + n, [n + '.cpp'])\n"
      "exts = [ext(n) for n in ('a', 'b')]\n",
      "/p/setup.py", "/p", {"CppExtension"});
  ASSERT_EQ(loop.calls.size(), 2u);
  EXPECT_EQ(loop.calls[0].args.at(0).s, "pkg.a");
  EXPECT_EQ(loop.calls[1].args.at(0).s, "pkg.b");
}

TEST(PythonLiterals, TextPythonCannotParseIsAnErrorWithTheLine) {
  const std::string unterminated = error_of("a = 1\nb = 'unterminated\n");
  EXPECT_NE(unterminated.find("line 2"), std::string::npos) << unterminated;
  // Which Python read it: a file written for a newer one says so.
  EXPECT_NE(unterminated.find("Python 3."), std::string::npos) << unterminated;
  EXPECT_NE(unterminated.find("--python"), std::string::npos) << unterminated;
  EXPECT_EQ(unterminated.find('\n'), std::string::npos) << unterminated;
  EXPECT_NE(error_of("f(['a', 'b'\n"), "");
  EXPECT_NE(error_of("f(])\n"), "");
  EXPECT_NE(error_of("def f(:\n  pass\n"), "");
}

// Syntax of 3.10 (match) parses with the machine's 3.11; syntax of 3.12
// (type parameters) either parses or names the Python that could not.
TEST(PythonLiterals, NewerSyntaxParsesOrSaysWhichPythonCouldNot) {
  Module m = read_module(
      "import sys\n"
      "match sys.platform:\n"
      "    case 'win32':\n"
      "        f(['win.cpp'])\n"
      "    case _:\n"
      "        f(['linux.cpp'])\n",
      "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(strings(m.calls[1].args.at(0)), (std::vector<std::string>{"linux.cpp"}));
  const std::string pep695 = error_of("def first[T](xs: list[T]) -> T:\n    return xs[0]\nf(first(['a']))\n");
  if (!pep695.empty()) {
    EXPECT_NE(pep695.find("line 1"), std::string::npos) << pep695;
    EXPECT_NE(pep695.find("Python 3.1"), std::string::npos) << pep695;
    EXPECT_NE(pep695.find("newer Python"), std::string::npos) << pep695;
  }
}

// The project's interpreter missing: python3 parses it, and the reading says so.
TEST(PythonLiterals, AMissingInterpreterGivesWayToPython3) {
  Module m = read_module("f(1)\n", "/p/setup.py", "/p", {"f"}, "/nonexistent/python3");
  ASSERT_EQ(m.calls.size(), 1u);
  EXPECT_EQ(m.calls[0].args.at(0).i, 1);
  ASSERT_EQ(m.given.size(), 1u);
  EXPECT_NE(m.given[0].find("/nonexistent/python3 could not be started"), std::string::npos) << m.given[0];
}

TEST(PythonLiterals, DeepNestingAndForeignGlobsStayUnresolved) {
  // CPython's own parser refuses what nests deeper than it can.
  EXPECT_NE(error_of("f(" + std::string(5000, '[') + std::string(5000, ']') + ")\n"), "");
  const std::string deep = "f(" + std::string(90, '[') + "'x'" + std::string(90, ']') + ")\n";
  Module d = read_module(deep, "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(d.calls.size(), 1u);
  EXPECT_TRUE(d.calls[0].args.at(0).resolved());
  // Arithmetic that would make a huge value is not carried out.
  Module big = read_module("f(2 ** 100000, 'x' * (1 << 40), '%0999999999d' % 1)\n", "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(big.calls.size(), 1u);
  for (const auto& a : big.calls[0].args) EXPECT_FALSE(a.resolved());
  Module g = read_module("import glob\nf(glob.glob('/usr/**/*.h', recursive=True))\n", "/p/setup.py", "/p", {"f"});
  ASSERT_EQ(g.calls.size(), 1u);
  ASSERT_FALSE(g.calls[0].args.at(0).resolved());
  EXPECT_EQ(g.calls[0].args[0].first_unresolved()->why, "a glob outside the project directory");
}

}  // namespace
}  // namespace torchabi::inputs::py
