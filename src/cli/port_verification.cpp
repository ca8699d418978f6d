#include "cli/port_verification.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "cli/report_options.h"
#include "common/input_error.h"
#include "common/report_output.h"
#include "common/text.h"
#include "reporters/port_verify_reporter.h"

namespace torchabi::cli {

namespace fs = std::filesystem;

namespace {

// As exec would find it: a path, or a name on PATH.
bool executable_on_path(const std::string& command) {
  if (command.find('/') != std::string::npos) return ::access(command.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  for (const auto& dir : text::split(path ? path : "/usr/bin:/bin", ':'))
    if (!dir.empty() && ::access((std::string(dir) + "/" + command).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

void add_verify_options(CLI::App& cmd, VerifyOptions& o, const std::string& group) {
  cmd.add_option("--torch", o.python,
                 "The python of the torch to build and run the original and the port with (default: python3)")
      ->group(group);
  cmd.add_option("--inputs", o.inputs,
                 "A Python file whose inputs(op) returns the argument tuples to call OP with (\"ns::name\"), or "
                 "None for generated ones")
      ->group(group);
  cmd.add_option("--verify-timeout", o.timeout, "Seconds for the whole verification (default 1800)")->group(group);
}

void validate_verify_options(const VerifyOptions& o) {
  if (o.python.empty()) throw InputError("--torch", "names no interpreter");
  if (!executable_on_path(o.python)) throw InputError(o.python, "is not an executable interpreter (--torch)");
  if (!o.inputs.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(o.inputs, ec)) throw InputError(o.inputs, "is not a file (--inputs takes a Python file)");
  }
  if (o.timeout <= 0) throw InputError("--verify-timeout", "must be a positive number of seconds");
  if (o.format != "text" && o.format != "json")
    throw InputError("--format", "unknown format '" + o.format + "' (text, json)");
}

int finish_verification(const migration::VerifyRun& run, const VerifyOptions& o) {
  const std::string text = o.format == "json" ? reporters::render_verify_json(run) : reporters::render_verify_text(run);
  write_output(o.output, text);
  return run.verified() ? kExitClean : kExitFindings;
}

}  // namespace torchabi::cli
