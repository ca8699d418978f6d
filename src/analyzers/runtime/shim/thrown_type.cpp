#include "analyzers/runtime/shim/thrown_type.h"

#include <cstdlib>
#include <cxxabi.h>
#include <deque>
#include <typeinfo>

namespace torchabi::runtime {
namespace {

std::string demangled(const std::type_info& t) {
  int status = 0;
  char* s = abi::__cxa_demangle(t.name(), nullptr, nullptr, &status);
  std::string out = status == 0 && s ? s : t.name();
  std::free(s);
  return out;
}

// The Itanium C++ ABI describes class hierarchies in the type_info objects
// themselves: single public non-virtual inheritance (__si_class_type_info)
// or anything else (__vmi_class_type_info, with flags per base).
void push_public_bases(const std::type_info* t, std::deque<const std::type_info*>& queue) {
  if (auto* si = dynamic_cast<const abi::__si_class_type_info*>(t)) {
    queue.push_back(si->__base_type);
  } else if (auto* vmi = dynamic_cast<const abi::__vmi_class_type_info*>(t)) {
    for (unsigned i = 0; i < vmi->__base_count; ++i)
      if (vmi->__base_info[i].__offset_flags & abi::__base_class_type_info::__public_mask)
        queue.push_back(vmi->__base_info[i].__base_type);
  }
}

}  // namespace

ThrownType current_thrown_type() {
  ThrownType out;
  const std::type_info* t = abi::__cxa_current_exception_type();
  if (!t) return out;
  out.name = demangled(*t);
  std::deque<const std::type_info*> queue{t};
  while (!queue.empty()) {
    const std::type_info* cur = queue.front();
    queue.pop_front();
    std::string n = demangled(*cur);
    bool seen = false;
    for (const auto& s : out.catchable_as) seen |= s == n;
    if (!seen) out.catchable_as.push_back(std::move(n));
    push_public_bases(cur, queue);
  }
  return out;
}

}  // namespace torchabi::runtime
