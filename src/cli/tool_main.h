#pragma once

namespace torchabi::cli {

// The whole tool: main() is only a call of this.
int tool_main(int argc, char** argv);

}  // namespace torchabi::cli
