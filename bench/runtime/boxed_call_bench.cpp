// One boxed kernel call through the reference runtime, the way `torchabi run`
// makes every call: encode the arguments as StableIValues (new tensor
// handles), call the kernel on a guard-paged stack, decode and type-check the
// returns, and audit every handle the call touched. Compared with a bare call
// of the same kernel on a plain array (what libtorch's boxing costs at least),
// and with one dispatcher round trip from inside an extension.
#include <benchmark/benchmark.h>

#include <cstring>

#include "analyzers/runtime/shim/control.h"
#include "analyzers/runtime/shim/shim_declarations.h"

extern "C" torchabi::runtime::Control* torchabi_runtime_control();

namespace {

namespace rt = torchabi::runtime;

// add(Tensor a, Tensor b) -> Tensor on 16 floats: steals both inputs, returns a new tensor.
void add_kernel(StableIValue* stack, uint64_t, uint64_t) {
  auto a = reinterpret_cast<AtenTensorHandle>(stack[0]);
  auto b = reinterpret_cast<AtenTensorHandle>(stack[1]);
  int64_t n = 16, s = 1;
  AtenTensorHandle out;
  aoti_torch_empty_strided(1, &n, &s, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(), -1, &out);
  float *pa, *pb, *po;
  aoti_torch_get_data_ptr(a, reinterpret_cast<void**>(&pa));
  aoti_torch_get_data_ptr(b, reinterpret_cast<void**>(&pb));
  aoti_torch_get_data_ptr(out, reinterpret_cast<void**>(&po));
  for (int i = 0; i < 16; ++i) po[i] = pa[i] + pb[i];
  aoti_torch_delete_tensor_object(a);
  aoti_torch_delete_tensor_object(b);
  std::memcpy(&stack[0], &out, sizeof out);
}

rt::OpSignature add_signature() {
  rt::TypeDesc tensor{rt::TypeKind::Tensor, {}, "Tensor"};
  rt::OpSignature s;
  s.ns = "bench";
  s.name = "add";
  s.args = {{"a", tensor}, {"b", tensor}};
  s.returns = {{"", tensor}};
  return s;
}

void BM_BoxedCallThroughRuntime(benchmark::State& state) {
  rt::Control& control = *torchabi_runtime_control();
  rt::OpSignature sig = add_signature();
  std::vector<rt::Value> args = {rt::Value::of_tensor(rt::make_tensor({16}, rt::dtype::kFloat32)),
                                 rt::Value::of_tensor(rt::make_tensor({16}, rt::dtype::kFloat32))};
  for (auto _ : state) {
    rt::CallOutcome out = control.invoke(add_kernel, sig, args);
    benchmark::DoNotOptimize(out.outputs);
  }
  if (!control.drain_events().empty()) state.SkipWithError("the benchmark kernel broke the protocol");
}
BENCHMARK(BM_BoxedCallThroughRuntime);

void BM_DispatcherTranspose(benchmark::State& state) {
  rt::Control& control = *torchabi_runtime_control();
  rt::TypeDesc tensor{rt::TypeKind::Tensor, {}, "Tensor"}, integer{rt::TypeKind::Int, {}, "int"};
  rt::OpSignature t;
  t.ns = "aten";
  t.name = "transpose";
  t.overload = "int";
  t.args = {{"self", tensor}, {"dim0", integer}, {"dim1", integer}};
  t.returns = {{"", tensor}};
  control.set_aten_signatures({t});
  int64_t sizes[] = {4, 4}, strides[] = {4, 1};
  AtenTensorHandle x;
  aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(), 0, -1, &x);
  for (auto _ : state) {
    AtenTensorHandle arg;
    aoti_torch_new_tensor_handle(x, &arg);
    StableIValue stack[3] = {reinterpret_cast<StableIValue>(arg), 0, 1};
    torch_call_dispatcher("aten::transpose", "int", stack, 0);
    aoti_torch_delete_tensor_object(reinterpret_cast<AtenTensorHandle>(stack[0]));
  }
  aoti_torch_delete_tensor_object(x);
}
BENCHMARK(BM_DispatcherTranspose);

// The same kernel called directly on a plain array with handles made by hand:
// the floor any runtime pays (tensor creation and the kernel's own work).
void BM_BareKernelCall(benchmark::State& state) {
  int64_t n = 16, s = 1;
  AtenTensorHandle a0, b0;
  aoti_torch_empty_strided(1, &n, &s, 6, 0, -1, &a0);
  aoti_torch_empty_strided(1, &n, &s, 6, 0, -1, &b0);
  for (auto _ : state) {
    AtenTensorHandle a, b;
    aoti_torch_new_tensor_handle(a0, &a);
    aoti_torch_new_tensor_handle(b0, &b);
    StableIValue stack[2] = {reinterpret_cast<StableIValue>(a), reinterpret_cast<StableIValue>(b)};
    add_kernel(stack, 2, 1);
    aoti_torch_delete_tensor_object(reinterpret_cast<AtenTensorHandle>(stack[0]));
  }
}
BENCHMARK(BM_BareKernelCall);

}  // namespace

BENCHMARK_MAIN();
