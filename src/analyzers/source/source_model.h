// Plain data the libclang front end extracts from one translation unit.
// Checks (lint, schema, migrate) work on these values instead of on libclang
// cursors, so they can be unit-tested, cached and sent between processes.
// Every range is a byte range [begin, end) in a file, the unit clang fix-its
// and findings::FixIt use; line/column (1-based) are those of `begin`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace torchabi::source {

// Where a header sits with respect to the LibTorch stable ABI.
enum class HeaderKind {
  Stable,    // torch/csrc/stable/**, torch/headeronly/**, the C shim headers
  Unstable,  // torch/extension.h, ATen/**, c10/**, other torch/** ...
  Other,     // the project's own headers, the standard library, pybind11, CUDA, ...
};
const char* to_string(HeaderKind k);

struct Range {
  std::string file;  // absolute path
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  bool valid() const { return !file.empty(); }
};

// One `#include` directive, in any file of the TU.
struct IncludeDirective {
  std::string includer;     // absolute path of the file holding the directive
  Range range;              // the whole directive line's header name token, e.g. `<torch/extension.h>`
  std::string spelled;      // the name as written, without <> or ""
  bool angled = false;
  std::string resolved;     // absolute path; empty when the header was not found
  std::string header_name;  // include-relative torch name (torch/csrc/stable/ops.h); empty if not torch
  HeaderKind kind = HeaderKind::Other;
};

enum class EntityKind { Type, Template, Function, Method, Field, Variable, EnumConstant, Namespace, Macro, Other };
const char* to_string(EntityKind k);

// How a reference reached the project's code.
enum class Via {
  Spelled,         // the name is written in the project file (possibly as a macro argument)
  MacroBody,       // produced by expanding a macro; `macro` names it, `range` is the macro's name
  DeducedType,     // an `auto` variable whose deduced type is the declaration
  UsingDirective,  // `using namespace X;` / namespace alias naming the namespace
};

// A use, in a project file, of something declared elsewhere (or in the project).
struct Reference {
  EntityKind kind = EntityKind::Other;
  Via via = Via::Spelled;
  Range range;             // the name as spelled (unqualified identifier)
  Range qualified_range;   // the name with any written qualifier (`at::Tensor`, `::c10::kFloat`)
  std::string name;        // unqualified declaration name
  std::string qualified;   // fully qualified declaration name: at::Tensor::add, c10::kFloat
  std::string decl_file;   // absolute path of the declaring file
  uint32_t decl_line = 0;
  std::string decl_header; // include-relative torch header name of the declaration; empty if not torch
  HeaderKind decl_kind = HeaderKind::Other;
  std::string macro;       // Via::MacroBody: the macro expanded at `range`
  // Via::MacroBody, when the name is written in the #define of a macro of the
  // translation unit's own source file (CHECK_CUDA's `x.type().is_cuda()`):
  // the name there with its written qualifier, and for a member call the end
  // of the call there. Such a
  // macro expands only in this translation unit, so its body is code to port.
  Range spelled;
  uint32_t spelled_call_end = 0;
  std::string variable;    // Via::DeducedType: the variable's name

  // Member calls `recv.method(args)`: the whole call, the receiver and each
  // argument, so a rewrite to `op(recv, args)` can be built from the text.
  Range call_range;
  Range receiver_range;
  std::vector<Range> argument_ranges;
  // Calls: each argument's type as libclang
  // spells it (`const at::Tensor`, `int`), so a rewrite can tell a number operand from a tensor.
  std::vector<std::string> argument_types;
};

// A macro expanded in a project file (top-level expansions, not nested ones).
struct MacroUse {
  std::string name;
  Range range;             // the macro name token
  Range invocation_range;  // name through the closing parenthesis of its arguments, if any
  std::string def_file;    // absolute path; empty for builtins or unknown definitions
  uint32_t def_line = 0;
  std::string def_header;  // include-relative torch header name; empty if not torch
  HeaderKind def_kind = HeaderKind::Other;
};

// A `#define NAME ...` in a project file.
struct MacroDefinition {
  std::string name;
  Range range;             // the name token
  Range body_range;        // the replacement list as written (empty range when the body is empty)
  std::string body;        // replacement text (tokens joined by single spaces)
  std::vector<std::pair<std::string, Range>> body_identifiers;  // identifiers of the body
};

// A token of a project file, as clang lexes it.
struct Token {
  enum class Kind { Punctuation, Keyword, Identifier, Literal, Comment };
  Kind kind = Kind::Punctuation;
  std::string text;
  Range range;
};

struct Diagnostic {
  enum class Severity { Note, Warning, Error, Fatal };
  Severity severity = Severity::Error;
  std::string message;
  std::string file;  // absolute; empty when the diagnostic has no location
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t offset = 0;
  // Locations of the attached notes ("in instantiation of ... requested here"),
  // so an error inside a header can be traced to the project line that caused it.
  std::vector<Diagnostic> notes;
};

}  // namespace torchabi::source
