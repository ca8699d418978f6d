#include "cli/source_inputs.h"

#include <algorithm>
#include <filesystem>

#include "common/input_error.h"

namespace torchabi::cli {

void SourceInputs::finish_parse(const CLI::App& cmd) {
  if (split != SIZE_MAX) return;
  auto rem = cmd.remaining();
  if (std::find(rem.begin(), rem.end(), "--") != rem.end()) split = positionals.size();
}

source::LintRequest SourceInputs::request() const {
  source::LintRequest req;
  req.build_dir = build_dir;
  req.cwd = std::filesystem::current_path().string();
  const size_t at = std::min(split, positionals.size());
  req.files.assign(positionals.begin(), positionals.begin() + long(at));
  if (split != SIZE_MAX) req.flags = std::vector<std::string>(positionals.begin() + long(at), positionals.end());
  return req;
}

std::vector<std::string> SourceInputs::report_inputs(const source::LintRequest& req) const {
  std::vector<std::string> inputs = req.files;
  if (inputs.empty()) inputs.push_back(build_dir.empty() ? req.cwd : build_dir);
  return inputs;
}

void add_source_inputs(CLI::App& cmd, const std::shared_ptr<SourceInputs>& in, const std::string& file_help) {
  cmd.add_option("-p,--build-dir", in->build_dir, "Directory holding compile_commands.json (CMake, bear, ninja -t compdb), or else a build.ninja (CMake -G Ninja, setup.py build_ext's build/temp.*)");
  cmd.allow_extras();
  cmd.validate_positionals();
  CLI::App* raw = &cmd;
  // A validator runs as each positional is read: the first time `--` is among
  // the arguments CLI11 has not consumed yet, the FILEs end here.
  cmd.add_option("FILE", in->positionals, file_help)
      ->check(CLI::Validator(
          [in, raw](std::string&) {
            if (in->split == SIZE_MAX) {
              auto rem = raw->remaining();
              if (std::find(rem.begin(), rem.end(), "--") != rem.end()) in->split = in->seen;
            }
            ++in->seen;
            return std::string();
          },
          ""))
      ->allow_extra_args();
  // Keeps a positional slot open so that `--` after FILEs is seen (the
  // arguments themselves arrive in FILE's list, after the split).
  cmd.add_option("COMPILER_ARGS", in->dashdash_marker, "Compiler arguments for the FILEs, after --");
}

void reject_unknown_options(const CLI::App& cmd, const std::string& command) {
  for (const auto& extra : cmd.remaining())
    if (extra != "--") throw InputError(extra, "unknown option for " + command + " (compiler flags go after --)");
}

}  // namespace torchabi::cli
