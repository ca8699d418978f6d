// Reads a Python build file without running it, with the Python language's
// own parser: read_python_build.py (embedded, run by the interpreter torchabi
// uses for the project with -I -S and a time limit) parses the text with
// CPython's ast module and evaluates what the text determines — literals,
// names bound to them, if/else on what it can decide, loops over known lists,
// the file's own functions, + * % and f-strings, os.path and pathlib joins,
// glob over the project directory, calls through names bound to the wanted
// classes (`Extension = CUDAExtension if c else CppExtension`). Anything else
// is Unresolved with its line and why, so that the caller can say what it
// could not read instead of guessing. Nothing of the project is imported or
// executed, so no sandbox is needed.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace torchabi::inputs::py {

struct DictEntry;

struct Value {
  enum class Kind { None, Bool, Int, Str, List, Dict, Unresolved };
  Kind kind = Kind::Unresolved;
  bool b = false;
  long long i = 0;
  std::string s;                                 // Str
  std::vector<Value> items;                      // List (and tuple)
  std::vector<DictEntry> entries;                // Dict
  std::string why;                               // Unresolved: what could not be read
  int line = 0;                                  // where the value (or the unresolved part) is written

  static Value unresolved(std::string why, int line);
  bool resolved() const;  // false when it or anything inside it is Unresolved
  // The first unresolved part (itself or inside), or null.
  const Value* first_unresolved() const;
};

// A pair would need Value complete where Value declares its entries.
struct DictEntry {
  Value key;
  Value value;
};

struct Call {
  std::string callee;  // dotted, as written: "CUDAExtension", "cpp_extension.CppExtension"
  int line = 0;
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  // How the callee was chosen when the file decides it at run time
  // (`Extension = CUDAExtension if _HAS_CUDA else CppExtension`: the CUDA
  // one, as a build on a machine with CUDA); "" when it is written.
  std::string note;
  const Value* kwarg(const std::string& name) const;
};

struct Module {
  std::vector<Call> calls;  // in source order (a call in a loop followed: once per iteration)
  // What was taken as given of the machine, as torchabi's run of a setup.py
  // emulates it (CUDA available, an environment with only the CUDA
  // variables), each once, when the reading used it.
  std::vector<std::string> given;
};

// Every call whose callee's last component is in `callees` (or a name bound
// to one), with its arguments evaluated in the bindings visible there. `path`
// names the file (and is __file__), `dir` is where globs and relative paths
// are read. `python` is the interpreter that parses it (torchabi's for the
// project). Throws InputError naming `path` for text the interpreter cannot
// parse (with the line, and which Python it is, since a newer Python's
// syntax is an error to an older one), or when the interpreter cannot run.
Module read_module(const std::string& text, const std::string& path, const std::string& dir,
                   const std::set<std::string>& callees, const std::string& python = "python3");

}  // namespace torchabi::inputs::py
