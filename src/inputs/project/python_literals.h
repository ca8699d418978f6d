// Reads a setup.py without running it. Extension projects build with
// setuptools, and their flags are mostly literals: lists of sources, dicts of
// compiler arguments, tuples of macros, sometimes a version computed from two
// integers or a glob of csrc/. This follows exactly that much Python —
// assignments of such values, integer and string arithmetic, f-strings,
// os.path.join, glob.glob over the project directory — and marks anything
// else Unresolved with its line, so that the caller can say what it could
// not read instead of guessing.
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
  const Value* kwarg(const std::string& name) const;
};

struct Module {
  std::vector<Call> calls;  // in source order
};

// Every call whose callee's last component is in `callees`, with its arguments
// evaluated in the bindings visible at that line. `dir` is the directory of
// the file (for __file__ and globs). Throws InputError naming `path` and the
// line for text the tokenizer cannot read (an unterminated string, an
// unbalanced bracket).
Module read_module(const std::string& text, const std::string& path, const std::string& dir,
                   const std::set<std::string>& callees);

}  // namespace torchabi::inputs::py
