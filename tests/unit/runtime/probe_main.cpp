// Prints what the driver reports for one fixture (a development aid for
// writing exact expectations; not a test).
#include <iostream>

#include "driver_test_support.h"

#include "common/input_error.h"

int main(int argc, char** argv) try {
  auto r = runtime_test::run(argv[1], argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "", argc > 4 ? std::stod(argv[4]) : 10.0);
  for (const auto& [k, v] : r.subject().facts) std::cout << "fact " << k << " = " << v << "\n";
  std::cout << "verdict " << r.subject().verdict << "\n";
  for (const auto& f : r.report.findings) {
    std::cout << f.rule << " | " << f.location.symbol << " | " << f.message << "\n";
    for (const auto& n : f.notes) std::cout << "    note: " << n << "\n";
  }
} catch (const torchabi::InputError& e) {
  std::cout << "input error: " << e.line() << "\n";
  return 2;
}
