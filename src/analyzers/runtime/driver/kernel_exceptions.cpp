#include "analyzers/runtime/driver/kernel_exceptions.h"
#include "common/text.h"

namespace torchabi::runtime_driver {

using text::one_line;

Thrown describe_thrown(const runtime::CallOutcome& o, const ExceptionContext& ex) {
  const std::string type = o.thrown.name.empty() ? "an exception" : o.thrown.name;
  const std::string what = o.exception.value_or("");
  return {o.thrown_is_std ? type + ": " + one_line(what) : type, python_error_for(o.thrown, what, *ex.rules)};
}

std::string python_caller_gets(const Thrown& t, const ExceptionContext& ex) {
  return "a Python caller of torch " + ex.release + " gets " + one_line(t.python.str());
}

ProtoFinding non_std_exception_finding(const Thrown& t, const std::string& op, const std::string& context,
                                       const ExceptionContext& ex) {
  ProtoFinding f;
  f.rule = "runtime-non-std-exception";
  f.op = op;
  f.message = context + "the kernel of " + op + " threw " + t.cxx + ", which is not a std::exception: " +
              python_caller_gets(t, ex) + ", without the kernel's message";
  f.help = "throw std::runtime_error (STD_TORCH_CHECK) or another std::exception subclass, so Python gets the message";
  return f;
}

}  // namespace torchabi::runtime_driver
