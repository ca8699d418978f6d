// Where a file registers operators or binds Python: the TORCH_LIBRARY* /
// STABLE_TORCH_LIBRARY* blocks and PYBIND11_MODULE bodies, read from the text.
// The steps of the plan (steps.h) need their line spans to tell a kernel that
// is registered (it moves with its registration) from a helper that is called
// (its callers move with it). A textual scan, like the include graph's: the
// macros are always spelled at file scope, and a project wrapper macro that
// hides them only costs the plan that distinction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::migration {

struct CodeBlock {
  enum class Kind { LibraryDef, LibraryFragment, LibraryImpl, PybindModule };
  Kind kind = Kind::LibraryDef;
  bool stable = false;         // STABLE_TORCH_LIBRARY*
  std::string macro;           // as written: "TORCH_LIBRARY_IMPL"
  std::string ns;              // library namespace, or the pybind module's name
  std::string dispatch_key;    // LibraryImpl only
  uint32_t begin_line = 0;     // the macro's line
  uint32_t end_line = 0;       // the closing brace's line
  bool contains(uint32_t line) const { return line >= begin_line && line <= end_line; }
  bool is_library() const { return kind != Kind::PybindModule; }
  // "TORCH_LIBRARY_IMPL(ext, CPU)"
  std::string label() const;
};

// Blocks in file order. Comments and string literals are skipped.
std::vector<CodeBlock> scan_code_blocks(std::string_view text);

}  // namespace torchabi::migration
