// What torch.library.opcheck's schema test checks in real PyTorch, checked
// here without it: a kernel may only write the inputs its schema marks
// mutable (`Tensor(a!)`), and may only return an input's storage where an
// alias annotation says so (`Tensor(a) x -> Tensor(a)`). torch.compile's
// functionalization trusts the schema; an undeclared write or alias gives
// silently wrong results there, so it is found by calling the op: the input
// tensors' elements are copied before the call and compared after it, and
// the outputs' storages are compared with the inputs'.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/runtime/driver/wire.h"
#include "analyzers/runtime/shim/invoke.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime_driver {

// The elements of every input tensor (list items included) before a call.
class InputSnapshot {
public:
  InputSnapshot(const runtime::OpSignature& sig, const std::vector<runtime::Value>& args);

  struct Written {
    size_t arg = 0;           // index into sig.args
    std::string label;        // "argument 'Dst'" or "argument 'xs' item 1"
    std::string change;       // "element [0, 1] changed from 1 to 3"
  };
  // The inputs whose elements differ now.
  std::vector<Written> written() const;

private:
  struct Entry {
    size_t arg;
    std::string label;
    runtime::Tensor tensor;
    std::vector<std::byte> bytes;
  };
  std::vector<Entry> entries_;
};

struct Effects {
  std::vector<ProtoFinding> findings;
  std::vector<std::string> mutable_args;   // names of the (a!) arguments
  std::vector<std::string> written_mutable;  // those the call wrote
};

// Findings for a call that returned normally (`outcome.outputs_valid`):
// undeclared writes (runtime-undeclared-mutation), outputs sharing an input's
// storage without a matching annotation (runtime-undeclared-alias), and
// `Tensor(a)` returns that share nothing with their input (runtime-alias-not-aliasing).
Effects schema_effects(const runtime::OpSignature& sig, const std::vector<runtime::Value>& args,
                       const runtime::CallOutcome& outcome, const InputSnapshot& before, const std::string& context);

// Across all calls of a run: the (a!) arguments no completed call wrote, as
// notes (runtime-mutation-never-seen) — a schema that declares more than the
// kernel does costs torch.compile copies, or the cases never reach the write.
class MutationTally {
public:
  void record(const std::string& op, const std::vector<std::string>& mutable_args,
              const std::vector<std::string>& written);
  std::vector<ProtoFinding> never_written() const;

private:
  struct Seen {
    std::vector<std::string> declared;
    std::set<std::string> written;
    size_t calls = 0;
  };
  std::map<std::string, Seen> ops_;
};

}  // namespace torchabi::runtime_driver
