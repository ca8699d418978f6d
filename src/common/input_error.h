// An input the user named could not be used (missing, unreadable, malformed).
// Such errors end up as one line on stderr naming the input and exit code 2;
// they never abort the analysis of the other inputs.
#pragma once

#include <stdexcept>
#include <string>

namespace torchabi {

class InputError : public std::runtime_error {
public:
  InputError(std::string input, const std::string& what)
      : std::runtime_error(what), input_(std::move(input)) {}
  const std::string& input() const { return input_; }
  // "INPUT: what" — the one-line form printed to the user.
  std::string line() const { return input_.empty() ? what() : input_ + ": " + what(); }

private:
  std::string input_;
};

}  // namespace torchabi
