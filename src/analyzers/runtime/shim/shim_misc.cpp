// Process-wide services: parallel_for (one thread, as libtorch with
// OMP_NUM_THREADS=1), error messages, checks and warnings, grad mode, the
// ABI version the runtime claims, and device-string parsing.
#include <atomic>
#include <cstring>

#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/runtime_config.h"
#include "analyzers/runtime/shim/shim_util.h"

using namespace torchabi::runtime;

namespace {
thread_local bool t_in_parallel = false;
std::atomic<bool> g_grad_mode{true};
}  // namespace

TORCHABI_SHIM AOTITorchError torch_parallel_for(int64_t begin, int64_t end, int64_t grain_size, ParallelFunc func,
                                                 void* ctx) {
  return guarded("torch_parallel_for", [&] {
    if (!func) throw std::invalid_argument("null function");
    if (grain_size < 0) throw std::invalid_argument("grain_size must be non-negative");
    if (begin >= end) return;
    struct Reset {
      bool prev;
      ~Reset() { t_in_parallel = prev; }
    } reset{t_in_parallel};
    t_in_parallel = true;
    func(begin, end, ctx);
  });
}

TORCHABI_SHIM AOTITorchError torch_get_thread_idx(uint32_t* out_thread_idx) {
  if (!out_thread_idx) return kFailure;
  *out_thread_idx = 0;
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError torch_get_num_threads(uint32_t* out_num_threads) {
  if (!out_num_threads) return kFailure;
  *out_num_threads = 1;
  return kSuccess;
}

TORCHABI_SHIM const char* torch_exception_get_what() { return last_error().c_str(); }

TORCHABI_SHIM const char* torch_exception_get_what_without_backtrace() { return last_error().c_str(); }

TORCHABI_SHIM void aoti_torch_check(bool cond, const char* func, const char* file, uint32_t line, const char* msg) {
  if (cond) return;
  std::string m = msg && *msg ? msg : "Expected condition to be true";
  set_last_error(m);
  throw std::runtime_error(m + " (" + (func ? func : "?") + " at " + (file ? file : "?") + ":" +
                           std::to_string(line) + ")");
}

TORCHABI_SHIM void aoti_torch_warn(const char* func, const char* file, uint32_t line, const char* msg) {
  record(EventKind::Warning, func ? func : "aoti_torch_warn",
         std::string(msg ? msg : "") + " (" + (file ? file : "?") + ":" + std::to_string(line) + ")");
}

TORCHABI_SHIM bool aoti_torch_grad_mode_is_enabled() { return g_grad_mode.load(); }

TORCHABI_SHIM void aoti_torch_grad_mode_set_enabled(bool enabled) { g_grad_mode.store(enabled); }

TORCHABI_SHIM uint64_t aoti_torch_abi_version() { return config().abi_version; }

TORCHABI_SHIM AOTITorchError torch_parse_device_string(const char* device_string, uint32_t* out_device_type,
                                                        int32_t* out_device_index) {
  return guarded("torch_parse_device_string", [&] {
    require_out(out_device_type);
    require_out(out_device_index);
    std::string s = device_string ? device_string : "";
    std::string type = s.substr(0, s.find(':'));
    static const std::pair<const char*, uint32_t> kTypes[] = {
        {"cpu", 0}, {"cuda", 1}, {"xpu", 12}, {"mps", 13}, {"meta", 14}, {"privateuseone", 20}};
    const std::pair<const char*, uint32_t>* found = nullptr;
    for (const auto& t : kTypes)
      if (type == t.first) found = &t;
    if (!found) throw std::invalid_argument("Expected one of cpu, cuda, ... device type at start of device string: " + s);
    int32_t index = -1;
    if (auto colon = s.find(':'); colon != std::string::npos) {
      std::string digits = s.substr(colon + 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 3)
        throw std::invalid_argument("Invalid device string: '" + s + "'");
      index = std::stoi(digits);
    }
    *out_device_type = found->second;
    *out_device_index = index;
  });
}

TORCHABI_SHIM AOTITorchError aoti_torch_get_current_device_index(int32_t* ret_device_index) {
  if (!ret_device_index) return kFailure;
  *ret_device_index = -1;  // no accelerator: the CPU has no device index
  return kSuccess;
}
