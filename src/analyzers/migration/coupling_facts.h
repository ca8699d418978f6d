// Which project functions a file uses from another file: the front end's
// half of the plan's steps (steps.h). A helper whose signature names a legacy
// type (at::Tensor) cannot change without its callers, and a kernel cannot
// move to the stable ABI without its registration; lint's child processes
// record, per translation unit, the project's function declarations (with the
// span of their signature) and the references to them, and the plan joins
// them across translation units.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::migration {

struct FunctionFact {
  std::string usr;   // clang's unified symbol resolution: the same for every declaration
  std::string name;  // qualified
  std::string file;  // normal path
  bool definition = false;
  // The signature, from the declaration's start to its body (or its end).
  uint32_t begin_line = 0, begin_column = 0, end_line = 0, end_column = 0;
  bool covers(uint32_t line, uint32_t column) const {
    return (line > begin_line || (line == begin_line && column >= begin_column)) &&
           (line < end_line || (line == end_line && column < end_column));
  }
};

struct ReferenceFact {
  std::string file;  // normal path of the referring file
  uint32_t line = 0;
  std::string usr;
};

struct CouplingFacts {
  std::vector<FunctionFact> functions;
  std::vector<ReferenceFact> references;
};

// Adds the recording check to every lint run of this process (call before
// source::run_lint).
void register_coupling_check();

// Takes the recorded facts out of the report (they are not for users),
// merged over translation units and deduplicated.
CouplingFacts take_coupling_facts(findings::Report& report);

}  // namespace torchabi::migration
