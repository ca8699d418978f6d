#include "analyzers/runtime/driver/fault_handler.h"

#include <csignal>
#include <cstring>
#include <ucontext.h>
#include <unistd.h>

namespace torchabi::runtime_driver {
namespace {

int g_fd = -1;
runtime::ActiveStacks* g_stacks = nullptr;
volatile long g_case = -1;
char g_altstack[64 * 1024];

struct Buf {
  char data[1024];
  size_t len = 0;
  void put(const char* s) {
    while (*s && len < sizeof data - 2) data[len++] = *s++;
  }
  void put_json(const char* s) {  // op names: quote-safe subset
    while (*s && len < sizeof data - 2) {
      char c = *s++;
      data[len++] = (c == '"' || c == '\\' || c < 0x20) ? '_' : c;
    }
  }
  void num(unsigned long long v, int base = 10) {
    char tmp[24];
    int n = 0;
    do {
      int d = static_cast<int>(v % base);
      tmp[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
      v /= base;
    } while (v && n < 23);
    while (n && len < sizeof data - 2) data[len++] = tmp[--n];
  }
};

void on_fault(int sig, siginfo_t* info, void* uctx) {
  Buf b;
  auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  b.put("{\"t\":\"fault\",\"signal\":");
  b.num(static_cast<unsigned>(sig));
  b.put(",\"case\":");
  if (g_case < 0) b.put("-1");
  else b.num(static_cast<unsigned long long>(g_case));
  b.put(",\"addr\":\"0x");
  b.num(addr, 16);
  b.put("\"");
  if (g_stacks && (sig == SIGSEGV || sig == SIGBUS)) {
    for (size_t i = 0; i < g_stacks->depth && i < runtime::kMaxStackFrames; ++i) {
      const auto& f = g_stacks->frames[i];
      if (addr < f.guard_begin || addr >= f.guard_end) continue;
      b.put(",\"stack_slot\":");
      b.num((addr - f.stack) / sizeof(uint64_t));
      b.put(",\"num_args\":");
      b.num(f.num_args);
      b.put(",\"num_outputs\":");
      b.num(f.num_outputs);
      b.put(",\"op\":\"");
      b.put_json(f.op);
      b.put("\"");
#if defined(__x86_64__)
      // Page-fault error code bit 1: the access was a write.
      auto* uc = static_cast<ucontext_t*>(uctx);
      b.put((uc->uc_mcontext.gregs[REG_ERR] & 2) ? ",\"access\":\"write\"" : ",\"access\":\"read\"");
#endif
      break;
    }
  }
  b.put("}\n");
  if (g_fd >= 0) (void)!write(g_fd, b.data, b.len);
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void install_fault_handlers(int event_fd, runtime::ActiveStacks* stacks) {
  g_fd = event_fd;
  g_stacks = stacks;
  stack_t ss{};
  ss.ss_sp = g_altstack;
  ss.ss_size = sizeof g_altstack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
}

void set_current_case(long index) { g_case = index; }

}  // namespace torchabi::runtime_driver
