// `torchabi run EXT.so --torch PYTHON`: PyTorch's own torch.library.opcheck on
// every op of the extension, in the interpreter of a real torch, confined as
// a build script is (no network, read-only system, home directories hidden:
// inputs/project/environment/sandbox.h). Inputs are the reference runtime's
// smoke inputs, adjusted to what each kernel's own check message asks for
// (opcheck_run.py); every failing utility (test_schema,
// test_autograd_registration, test_faketensor, test_aot_dispatch_dynamic)
// becomes a finding with the op, the inputs and PyTorch's message.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::runtime_opcheck {

struct OpcheckOp {
  std::string op;
  std::string schema;
  bool accepted = false;              // some inputs ran through the kernel
  std::string inputs;                 // those inputs, "(float32[2, 3], 1)"
  std::vector<std::string> attempts;  // inputs tried before, each with the kernel's message
  std::map<std::string, std::string> results;  // utility -> "SUCCESS" or PyTorch's message
  std::string crash;                  // the op's child died
};

struct OpcheckRun {
  bool ran = false;
  std::string why_not;  // when !ran: why opcheck did not run (no torch, no sandbox, ...)
  std::string torch_version;
  std::vector<OpcheckOp> ops;
};

// Runs opcheck_run.py in `python`, confined, with `timeout_seconds` for the whole run.
OpcheckRun run_opcheck(const std::string& extension, const std::string& python, int timeout_seconds);

// The run from opcheck_run.py's JSON line (exposed for tests).
OpcheckRun opcheck_from_json(const std::string& json_line);

// Adds one finding per failing utility, a note for each op whose inputs no
// kernel accepted, and the run's facts to the extension's subject.
void add_opcheck_findings(const OpcheckRun& run, const std::string& extension, const std::string& python,
                          findings::Report& report);

}  // namespace torchabi::runtime_opcheck
