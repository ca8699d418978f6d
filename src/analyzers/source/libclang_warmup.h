// Loading libclang (relocating it and libLLVM, then creating its index: see
// prepare_libclang) takes 50-80 ms, as long as everything else lint does
// before parsing. This runs it on a thread of its own meanwhile. A fork must
// not happen while that thread is inside the dynamic loader (the child would
// inherit its lock, held by a thread it does not have), so while one exists
// every run_isolated waits for it before forking (set_fork_barrier), and a run
// whose results all come from the cache never does.
#pragma once

#include <thread>

namespace torchabi::source {

class LibclangWarmup {
public:
  LibclangWarmup();
  ~LibclangWarmup();
  LibclangWarmup(const LibclangWarmup&) = delete;
  LibclangWarmup& operator=(const LibclangWarmup&) = delete;

  // Returns when the thread has finished (call from the thread that made
  // this). A libclang that cannot be loaded is not reported here: the first
  // parse loads it again and reports that.
  void wait();

private:
  std::thread thread_;
};

}  // namespace torchabi::source
