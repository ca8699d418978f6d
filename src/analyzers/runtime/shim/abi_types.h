// The C types of LibTorch's stable ABI, defined by torchabi for its reference
// runtime. Only the facts matter to an extension (pointer-sized opaque
// handles, 64-bit stack slots, int32 error codes 0/1); the opaque structs are
// ours and never visible to the extension.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

struct AtenTensorOpaque;
using AtenTensorHandle = AtenTensorOpaque*;
struct AtenGeneratorOpaque;
using AtenGeneratorHandle = AtenGeneratorOpaque*;
struct AOTIProxyExecutorOpaque;
using AOTIProxyExecutorHandle = AOTIProxyExecutorOpaque*;
struct C10IValueOpaque;
using C10IValueHandle = C10IValueOpaque*;
struct AtenRecordFunctionOpaque;
using AtenRecordFunctionHandle = AtenRecordFunctionOpaque*;
struct IValueMapOpaque;
using IValueMapHandle = IValueMapOpaque*;
struct TorchLibraryOpaque;
using TorchLibraryHandle = TorchLibraryOpaque*;
struct DeviceGuardOpaque;
using DeviceGuardHandle = DeviceGuardOpaque*;
struct StreamOpaque;
using StreamHandle = StreamOpaque*;
struct StableListOpaque;
using StableListHandle = StableListOpaque*;
struct StringOpaque;
using StringHandle = StringOpaque*;
struct AOTIMetalKernelFunctionOpaque;
using AOTIMetalKernelFunctionHandle = AOTIMetalKernelFunctionOpaque*;
struct AOTIMetalShaderLibraryOpaque;
using AOTIMetalShaderLibraryHandle = AOTIMetalShaderLibraryOpaque*;

using AOTITorchError = int32_t;
using StableIValue = uint64_t;
using ParallelFunc = void (*)(int64_t begin, int64_t end, void* ctx);
using BoxedKernel = void (*)(StableIValue* stack, uint64_t num_args, uint64_t num_outputs);

}  // extern "C"

// Stand-ins with the size and alignment of c10's value types that some
// prototypes pass by value or pointer (c10::Half, c10::BFloat16, complex).
struct torchabi_half { uint16_t bits; };
struct torchabi_bfloat16 { uint16_t bits; };
struct torchabi_complex_float { float real, imag; };
struct torchabi_complex_double { double real, imag; };

namespace torchabi::runtime {
inline constexpr AOTITorchError kSuccess = 0;
inline constexpr AOTITorchError kFailure = 1;
}  // namespace torchabi::runtime
