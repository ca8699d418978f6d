// What one translation unit registers with PyTorch's dispatcher, as plain
// values: library blocks, m.def / m.impl calls, the C++ kernels they name,
// hand-written boxed kernels and TorchBind classes. The extractor fills it in
// a child process from the libclang AST; the checks combine the values of
// every TU of the project, so a def in one file meets its impl in another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analyzers/schema/compile_readiness/kernel_flow.h"
#include "analyzers/source/boxable_types.h"
#include "findings/finding.h"

namespace torchabi::schema {

enum class BlockKind { Def, Impl, Fragment };

// One STABLE_TORCH_LIBRARY* / TORCH_LIBRARY* block.
struct LibraryBlock {
  BlockKind kind = BlockKind::Def;
  bool stable = false;       // STABLE_TORCH_LIBRARY*; false: the legacy TORCH_LIBRARY*
  std::string ns;
  std::string dispatch_key;  // Impl blocks, as written ("CPU", "PrivateUse1")
  std::string macro;         // the macro written there (a project wrapper or the torch one)
  findings::Location where;
  // Some of its m.def / m.impl could not be read (a schema or name built at
  // run time, the library handed to a function whose body is not here):
  // what it registers is not all known.
  bool opaque = false;

  // An aten impl block for an out-of-tree device (PrivateUse1): a backend.
  bool is_device_backend() const {
    return ns == "aten" && kind == BlockKind::Impl && dispatch_key.find("PrivateUse") != std::string::npos;
  }
};

// A string literal's value and where each of its bytes was written, so that
// a column inside a schema maps back to the source even through escapes.
struct LiteralText {
  std::string text;
  findings::Location start;                             // the first byte inside the quotes
  std::vector<std::pair<uint32_t, uint32_t>> positions;  // (line, column) per byte; empty: unknown
};

// A C++ type as a kernel declares it.
struct CppType {
  std::string spelled;     // as written ("const Tensor &")
  std::string normalized;  // canonical, without cv/ref ("torch::stable::Tensor", "std::optional<int64_t>")
  bool is_const = false;   // of the referred-to type when a reference
  bool lvalue_ref = false;
  bool rvalue_ref = false;
};

struct CppSignature {
  CppType result;
  std::vector<CppType> params;
  std::vector<std::string> param_names;
  bool result_known = true;  // false for lambdas, whose return type is not read
  // Per parameter, the first write through it in the body ("out.fill_() at
  // file:line"), empty when none; unset when the body is not in the TU.
  std::optional<std::vector<std::string>> param_writes;
  // What the body does with each parameter (compile readiness); unset when
  // the body is not in the TU.
  std::optional<KernelFlow> flow;
};

// The second argument of m.impl (or of a legacy m.def).
struct KernelRef {
  enum class Form {
    TorchBox,  // TORCH_BOX(&fn): fn is unboxed, boxed by the macro
    Boxed,     // a void(StableIValue*, uint64_t, uint64_t) function
    Unboxed,   // a legacy C++ function (&fn, TORCH_FN(fn))
    Lambda,    // a legacy lambda
    Unknown,   // something else (a variable, a factory call)
  };
  Form form = Form::Unknown;
  std::string function;  // qualified name of the C++ function; empty for lambdas/unknown
  std::string written;   // the argument as written
  std::optional<CppSignature> signature;
  findings::Location where;      // the argument
  findings::Location declared;   // the function's declaration
};

struct OpDef {
  size_t block = 0;  // index into TuRegistrations::blocks
  LiteralText schema;
  std::optional<KernelRef> kernel;  // legacy m.def(schema, fn)
  findings::Location where;         // the call
};

struct OpImpl {
  size_t block = 0;
  LiteralText name;  // "op" or "op.overload", maybe "ns::op"
  KernelRef kernel;
  findings::Location where;
};

// `to<T>(stack[i])` or `stack[j] = from(x)` in a hand-written boxed kernel.
struct StackAccess {
  int64_t index = -1;  // -1: not a constant
  CppType type;        // T; empty `normalized` when the value is not from(...)
  findings::Location where;
};

struct BoxedKernelBody {
  std::string function;  // qualified name
  findings::Location where;
  std::vector<StackAccess> reads;
  std::vector<StackAccess> writes;
  // The stack is used in ways the counts cannot follow (a computed index, a
  // helper taking the stack): reads and writes are then not counted.
  bool opaque = false;
};

struct TorchBindClass {
  std::string ns;
  std::string name;      // as registered: m.class_<T>("Name")
  std::string cpp_type;  // T
  std::vector<std::string> methods;  // .def("name", ...) names (not torch::init)
  findings::Location where;
};

struct TuRegistrations {
  std::string tu;  // main file, absolute
  std::vector<LibraryBlock> blocks;
  std::vector<OpDef> defs;
  std::vector<OpImpl> impls;
  std::vector<BoxedKernelBody> boxed_kernels;
  std::vector<TorchBindClass> classes;
  std::string target_version;  // "2.10" when the TU sets TORCH_TARGET_VERSION; empty otherwise
  // The StableIValue conversions the TU's headers declare (read when it
  // registers something); unset or not `found`: rules/schema/kernel_types.yaml.
  std::optional<source::BoxableTypes> boxable;

  bool empty() const { return blocks.empty() && boxed_kernels.empty(); }
};

void to_json(nlohmann::json& j, const TuRegistrations& r);
void from_json(const nlohmann::json& j, TuRegistrations& r);

}  // namespace torchabi::schema
