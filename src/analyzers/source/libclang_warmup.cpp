#include "analyzers/source/libclang_warmup.h"

#include "analyzers/source/front_end.h"
#include "analyzers/source/tu_runner.h"

namespace torchabi::source {

LibclangWarmup::LibclangWarmup()
    : thread_([] {
        try {
          prepare_libclang();
        } catch (...) {
        }
      }) {
  set_fork_barrier([this] { wait(); });
}

LibclangWarmup::~LibclangWarmup() {
  wait();
  set_fork_barrier({});
}

void LibclangWarmup::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace torchabi::source
