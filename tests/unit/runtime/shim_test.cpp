// The reference runtime's C entry points, called directly as an extension
// would: handle semantics, constants, containers, the dispatcher, and the
// journal entries each misuse produces.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>

#include "analyzers/runtime/shim/control.h"
#include "analyzers/runtime/shim/shim_declarations.h"

extern "C" torchabi::runtime::Control* torchabi_runtime_control();

namespace {

namespace rt = torchabi::runtime;

rt::Control& control() { return *torchabi_runtime_control(); }

std::vector<rt::Event> events() { return control().drain_events(); }

bool has_event(const std::vector<rt::Event>& es, rt::EventKind k, const std::string& needle = "") {
  for (const auto& e : es)
    if (e.kind == k && e.detail.find(needle) != std::string::npos) return true;
  return false;
}

AtenTensorHandle make(std::vector<int64_t> sizes, int32_t dtype = 6) {
  std::vector<int64_t> strides = rt::contiguous_strides(sizes);
  AtenTensorHandle h = nullptr;
  EXPECT_EQ(aoti_torch_empty_strided(static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), dtype, 0, -1, &h),
            0);
  return h;
}

template <class T>
StableIValue slot(T v) {
  StableIValue s = 0;
  std::memcpy(&s, &v, sizeof v);
  return s;
}

class ShimTest : public ::testing::Test {
protected:
  void SetUp() override { events(); }
};

TEST_F(ShimTest, ConstantsAreTheC10Ordinals) {
  EXPECT_EQ(aoti_torch_dtype_float32(), 6);
  EXPECT_EQ(aoti_torch_dtype_int64(), 4);
  EXPECT_EQ(aoti_torch_dtype_bool(), 11);
  EXPECT_EQ(aoti_torch_dtype_bfloat16(), 15);
  EXPECT_EQ(aoti_torch_dtype_uint64(), 29);
  EXPECT_EQ(torch_dtype_float8_e8m0fnu(), 44);
  EXPECT_EQ(aoti_torch_device_type_cpu(), 0);
  EXPECT_EQ(aoti_torch_device_type_cuda(), 1);
  EXPECT_EQ(aoti_torch_device_type_meta(), 14);
  EXPECT_EQ(aoti_torch_layout_strided(), 0);
  EXPECT_EQ(aoti_torch_layout_jagged(), 7);
  EXPECT_EQ(aoti_torch_memory_format_channels_last(), 2);
  EXPECT_EQ(aoti_torch_dtype_element_size(aoti_torch_dtype_float64()), 8u);
  EXPECT_NE(torch_tag_pointwise(), torch_tag_core());
}

// As in ATen (measured on PyTorch 2.14): a tensor without elements has a null
// data pointer, also when it is a view into a non-empty storage.
TEST_F(ShimTest, TensorsWithoutElementsHaveANullDataPointer) {
  int64_t sizes[] = {3, 0}, strides[] = {1, 1};
  AtenTensorHandle empty, full, tail;
  ASSERT_EQ(aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(), 0, -1, &empty), 0);
  int64_t four = 4, one = 1;
  ASSERT_EQ(aoti_torch_empty_strided(1, &four, &one, aoti_torch_dtype_float32(), 0, -1, &full), 0);
  ASSERT_EQ(aoti_torch_aten_narrow(full, 0, 4, 0, &tail), 0);
  void* p = reinterpret_cast<void*>(1);
  EXPECT_EQ(aoti_torch_get_data_ptr(empty, &p), 0);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(aoti_torch_get_data_ptr(tail, &p), 0);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(aoti_torch_get_data_ptr(full, &p), 0);
  EXPECT_NE(p, nullptr);
  for (AtenTensorHandle h : {empty, full, tail}) EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
}

TEST_F(ShimTest, TensorMetadataFollowsEmptyStrided) {
  int64_t sizes[] = {2, 3}, strides[] = {1, 2};
  AtenTensorHandle h;
  ASSERT_EQ(aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(), 0, -1, &h), 0);
  int64_t dim, numel, s1, st0, *szp;
  int32_t dtype, dev, idx;
  bool contig;
  EXPECT_EQ(aoti_torch_get_dim(h, &dim), 0);
  EXPECT_EQ(dim, 2);
  EXPECT_EQ(aoti_torch_get_numel(h, &numel), 0);
  EXPECT_EQ(numel, 6);
  EXPECT_EQ(aoti_torch_get_size(h, -1, &s1), 0);
  EXPECT_EQ(s1, 3);
  EXPECT_EQ(aoti_torch_get_stride(h, 0, &st0), 0);
  EXPECT_EQ(st0, 1);
  EXPECT_EQ(aoti_torch_get_sizes(h, &szp), 0);
  EXPECT_EQ(szp[1], 3);
  EXPECT_EQ(aoti_torch_get_dtype(h, &dtype), 0);
  EXPECT_EQ(dtype, 6);
  EXPECT_EQ(aoti_torch_get_device_type(h, &dev), 0);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(aoti_torch_get_device_index(h, &idx), 0);
  EXPECT_EQ(idx, -1);
  EXPECT_EQ(aoti_torch_is_contiguous(h, &contig), 0);
  EXPECT_FALSE(contig);
  EXPECT_EQ(aoti_torch_get_size(h, 2, &s1), 1) << "dimension 2 is out of range";
  EXPECT_TRUE(has_event(events(), rt::EventKind::ShimError, "Dimension out of range"));
  EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
  EXPECT_TRUE(events().empty());
}

TEST_F(ShimTest, NewHandleSharesTheTensor) {
  AtenTensorHandle a = make({4});
  AtenTensorHandle b;
  ASSERT_EQ(aoti_torch_new_tensor_handle(a, &b), 0);
  void *pa, *pb;
  aoti_torch_get_data_ptr(a, &pa);
  aoti_torch_get_data_ptr(b, &pb);
  EXPECT_EQ(pa, pb);
  EXPECT_EQ(aoti_torch_delete_tensor_object(a), 0);
  int64_t n;
  EXPECT_EQ(aoti_torch_get_numel(b, &n), 0) << "b keeps the tensor alive";
  EXPECT_EQ(aoti_torch_delete_tensor_object(b), 0);
}

TEST_F(ShimTest, DoubleReleaseAndUseAfterReleaseAreJournalled) {
  AtenTensorHandle h = make({2});
  EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
  EXPECT_EQ(aoti_torch_delete_tensor_object(h), 1);
  int64_t dim;
  EXPECT_EQ(aoti_torch_get_dim(h, &dim), 1);
  auto es = events();
  EXPECT_TRUE(has_event(es, rt::EventKind::DoubleRelease, "a second time"));
  EXPECT_TRUE(has_event(es, rt::EventKind::UseAfterRelease, "after aoti_torch_delete_tensor_object released it"));
  EXPECT_STREQ(torch_exception_get_what(), "aoti_torch_get_dim: tensor handle used after release");
}

TEST_F(ShimTest, ForeignPointerIsAnInvalidHandle) {
  int not_a_tensor = 0;
  int64_t dim;
  EXPECT_EQ(aoti_torch_get_dim(reinterpret_cast<AtenTensorHandle>(&not_a_tensor), &dim), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::InvalidHandle, "which is not a tensor handle"));
}

TEST_F(ShimTest, FromBlobBorrowsTheCallersMemoryAndCallsTheDeleter) {
  static float data[6] = {0, 1, 2, 3, 4, 5};
  static int deleted = 0;
  int64_t sizes[] = {2, 2}, strides[] = {2, 1};
  AtenTensorHandle h;
  ASSERT_EQ(torch_from_blob(data, 2, sizes, strides, 2, aoti_torch_dtype_float32(), 0, -1, &h, 0, nullptr, 0,
                            [](void*, void* ctx) { ++*static_cast<int*>(ctx); }, &deleted),
            0);
  void* p;
  aoti_torch_get_data_ptr(h, &p);
  EXPECT_EQ(p, &data[2]);
  EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
  EXPECT_EQ(deleted, 1);
}

TEST_F(ShimTest, CudaTensorsAreReportedAsUnavailable) {
  int64_t n = 2, s = 1;
  AtenTensorHandle h;
  EXPECT_EQ(aoti_torch_empty_strided(1, &n, &s, 6, aoti_torch_device_type_cuda(), 0, &h), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::Unimplemented, "cuda tensor"));
}

TEST_F(ShimTest, ListsAndStrings) {
  StableListHandle l;
  ASSERT_EQ(torch_new_list_reserve_size(2, &l), 0);
  EXPECT_EQ(torch_list_push_back(l, 7), 0);
  EXPECT_EQ(torch_list_push_back(l, 8), 0);
  size_t size;
  EXPECT_EQ(torch_list_size(l, &size), 0);
  EXPECT_EQ(size, 2u);
  StableIValue v;
  EXPECT_EQ(torch_list_get_item(l, 1, &v), 0);
  EXPECT_EQ(v, 8u);
  EXPECT_EQ(torch_list_get_item(l, 2, &v), 1);
  EXPECT_EQ(torch_delete_list(l), 0);
  EXPECT_EQ(torch_delete_list(l), 1);
  auto es = events();
  EXPECT_TRUE(has_event(es, rt::EventKind::ShimError, "out of range"));
  EXPECT_TRUE(has_event(es, rt::EventKind::DoubleRelease, "list handle"));

  StringHandle s;
  ASSERT_EQ(torch_new_string_handle("abc", 2, &s), 0);
  const char* text;
  EXPECT_EQ(torch_string_c_str(s, &text), 0);
  EXPECT_STREQ(text, "ab");
  EXPECT_EQ(torch_delete_string(s), 0);
}

TEST_F(ShimTest, ParseDeviceString) {
  uint32_t type;
  int32_t index;
  EXPECT_EQ(torch_parse_device_string("cuda:1", &type, &index), 0);
  EXPECT_EQ(type, 1u);
  EXPECT_EQ(index, 1);
  EXPECT_EQ(torch_parse_device_string("cpu", &type, &index), 0);
  EXPECT_EQ(index, -1);
  EXPECT_EQ(torch_parse_device_string("gpu:0", &type, &index), 1);
}

TEST_F(ShimTest, ParallelForRunsTheWholeRange) {
  int64_t covered = 0;
  EXPECT_EQ(torch_parallel_for(3, 10, 1,
                               [](int64_t b, int64_t e, void* ctx) { *static_cast<int64_t*>(ctx) += e - b; }, &covered),
            0);
  EXPECT_EQ(covered, 7);
  uint32_t n;
  EXPECT_EQ(torch_get_num_threads(&n), 0);
  EXPECT_EQ(n, 1u);
}

TEST_F(ShimTest, UnimplementedEntryPointsFailAndSayWhich) {
  AtenTensorHandle out = nullptr;
  EXPECT_EQ(aoti_torch_nonzero(make({2}), &out), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::Unimplemented,
                        "called aoti_torch_nonzero, which the reference runtime does not implement"));
}

// Arguments and returns by name and type only (no alias sets, no defaults).
using NamedTypes = std::vector<std::pair<std::string, rt::TypeDesc>>;

rt::OpSignature sig(std::string name, std::string overload, const NamedTypes& args, const NamedTypes& rets) {
  auto descs = [](const NamedTypes& in) {
    std::vector<rt::ArgDesc> out;
    for (const auto& [n, t] : in) {
      rt::ArgDesc d;
      d.name = n;
      d.type = t;
      out.push_back(std::move(d));
    }
    return out;
  };
  rt::OpSignature s;
  s.ns = "aten";
  s.name = std::move(name);
  s.overload = std::move(overload);
  s.args = descs(args);
  s.returns = descs(rets);
  return s;
}
rt::TypeDesc type(rt::TypeKind k, std::string spelling) { return {k, {}, spelling}; }
rt::TypeDesc wrap(rt::TypeKind k, rt::TypeDesc e, std::string spelling) { return {k, {std::move(e)}, spelling}; }

TEST_F(ShimTest, DispatcherRunsReferenceAtenOps) {
  auto tensor = type(rt::TypeKind::Tensor, "Tensor");
  auto integer = type(rt::TypeKind::Int, "int");
  control().set_aten_signatures({
      sig("transpose", "int", {{"self", tensor}, {"dim0", integer}, {"dim1", integer}}, {{"", tensor}}),
      sig("sum", "dim_IntList",
          {{"self", tensor},
           {"dim", wrap(rt::TypeKind::Optional, wrap(rt::TypeKind::List, integer, "int[1]"), "int[1]?")},
           {"keepdim", type(rt::TypeKind::Bool, "bool")},
           {"dtype", wrap(rt::TypeKind::Optional, type(rt::TypeKind::ScalarType, "ScalarType"), "ScalarType?")}},
          {{"", tensor}}),
  });
  AtenTensorHandle x = make({2, 3});
  float* p;
  aoti_torch_get_data_ptr(x, reinterpret_cast<void**>(&p));
  for (int i = 0; i < 6; ++i) p[i] = static_cast<float>(i);

  AtenTensorHandle arg;
  aoti_torch_new_tensor_handle(x, &arg);
  StableIValue st[3] = {slot(arg), slot<int64_t>(0), slot<int64_t>(1)};
  ASSERT_EQ(torch_call_dispatcher("aten::transpose", "int", st, 0), 0);
  AtenTensorHandle t = reinterpret_cast<AtenTensorHandle>(st[0]);
  int64_t stride0;
  aoti_torch_get_stride(t, 0, &stride0);
  EXPECT_EQ(stride0, 1) << "transpose is a view with swapped strides";
  void* tp;
  aoti_torch_get_data_ptr(t, &tp);
  EXPECT_EQ(tp, p);
  int64_t n;
  EXPECT_EQ(aoti_torch_get_numel(arg, &n), 1) << "the dispatcher took ownership of its argument";
  events();

  StableListHandle dims;
  torch_new_list_reserve_size(1, &dims);
  torch_list_push_back(dims, slot<int64_t>(1));
  AtenTensorHandle arg2;
  aoti_torch_new_tensor_handle(x, &arg2);
  StableIValue st2[4] = {slot(arg2), slot(new StableIValue(slot(dims))), slot(false), 0};
  ASSERT_EQ(torch_call_dispatcher("aten::sum", "dim_IntList", st2, 0), 0);
  AtenTensorHandle s = reinterpret_cast<AtenTensorHandle>(st2[0]);
  float* sp;
  aoti_torch_get_data_ptr(s, reinterpret_cast<void**>(&sp));
  EXPECT_FLOAT_EQ(sp[0], 3.0f);
  EXPECT_FLOAT_EQ(sp[1], 12.0f);
  for (AtenTensorHandle h : {x, t, s}) EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
  EXPECT_TRUE(events().empty());

}

// libtorch's ownership rules on the dispatcher's failure paths: an unknown op
// fails before reading the stack (the caller keeps its handles); an op that
// exists takes over every argument it converted, even when it then fails; a
// failed call writes no return.
TEST_F(ShimTest, FailedDispatcherCallsTakeOverExactlyTheArgumentsLibtorchTakesOver) {
  auto tensor = type(rt::TypeKind::Tensor, "Tensor");
  auto integer = type(rt::TypeKind::Int, "int");
  control().set_aten_signatures(
      {sig("transpose", "int", {{"self", tensor}, {"dim0", integer}, {"dim1", integer}}, {{"", tensor}})});
  // PyTorch knows lgamma and add.Tensor; the runtime implements neither.
  control().set_schema_lookup([&](const std::string& name, const std::string& overload) -> std::optional<rt::OpSignature> {
    if (name == "aten::lgamma" && overload.empty()) return sig("lgamma", "", {{"self", tensor}}, {{"", tensor}});
    if (name == "aten::add" && overload == "Tensor")
      return sig("add", "Tensor",
                 {{"self", tensor}, {"other", tensor}, {"alpha", type(rt::TypeKind::Unconvertible, "Scalar")}},
                 {{"", tensor}});
    return std::nullopt;
  });
  int64_t n;
  events();

  AtenTensorHandle a = make({2});
  StableIValue unknown[1] = {slot(a)};
  EXPECT_EQ(torch_call_dispatcher("aten::no_such_op", "", unknown, 0), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::ShimError, "PyTorch has no such operator"));
  EXPECT_EQ(aoti_torch_get_numel(a, &n), 0) << "an unknown op leaves the stack to its caller";
  EXPECT_EQ(unknown[0], slot(a)) << "and writes nothing";

  StableIValue unimplemented[1] = {slot(a)};
  EXPECT_EQ(torch_call_dispatcher("aten::lgamma", "", unimplemented, 0), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::Unimplemented, "called aten::lgamma"));
  EXPECT_EQ(aoti_torch_get_numel(a, &n), 1) << "libtorch would have taken the argument over";
  EXPECT_TRUE(has_event(events(), rt::EventKind::UseAfterRelease, "torch_call_dispatcher(aten::lgamma)"));

  AtenTensorHandle b = make({2, 3});
  StableIValue failing[3] = {slot(b), slot<int64_t>(0), slot<int64_t>(5)};
  EXPECT_EQ(torch_call_dispatcher("aten::transpose", "int", failing, 0), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::ShimError, "Dimension out of range"));
  EXPECT_EQ(failing[0], slot(b)) << "a failed call writes no return";
  EXPECT_EQ(aoti_torch_get_numel(b, &n), 1) << "the op took its argument over before it failed";
  events();

  // Conversion stops at the first argument libtorch cannot convert: the ones
  // before it are taken over, the ones after it are not.
  AtenTensorHandle c = make({2}), d = make({2});
  StableIValue partial[3] = {slot(c), slot(d), slot<double>(1.0)};
  EXPECT_EQ(torch_call_dispatcher("aten::add", "Tensor", partial, 0), 1);
  EXPECT_TRUE(has_event(events(), rt::EventKind::ShimError, "cannot convert from a StableIValue"));
  EXPECT_EQ(aoti_torch_get_numel(c, &n), 1);
  EXPECT_EQ(aoti_torch_get_numel(d, &n), 1);
  events();
  control().set_schema_lookup(nullptr);
}

// A C shim function that fails leaves its output untouched.
TEST_F(ShimTest, FailedShimFunctionsLeaveTheirOutputsUnset) {
  AtenTensorHandle x = make({2, 3});
  AtenTensorHandle sentinel = reinterpret_cast<AtenTensorHandle>(0x1234);
  AtenTensorHandle out = sentinel;
  EXPECT_EQ(aoti_torch_aten_narrow(x, 0, 1, 5, &out), 1);
  EXPECT_EQ(out, sentinel);
  int64_t pad[1] = {1};
  EXPECT_EQ(aoti_torch_aten_pad(x, pad, 1, "constant", nullptr, &out), 1);
  EXPECT_EQ(out, sentinel);
  AtenTensorHandle i = make({2}, 4);  // int64: a floating alpha is refused
  EXPECT_EQ(aoti_torch_aten_subtract_Tensor(i, i, 1.0, &out), 1);
  EXPECT_EQ(out, sentinel);
  for (AtenTensorHandle h : {x, i}) EXPECT_EQ(aoti_torch_delete_tensor_object(h), 0);
  events();
}

// Kernels with one protocol mistake each, called through the runtime as
// libtorch's boxed kernel wrapper would call them.
void identity(StableIValue* s, uint64_t, uint64_t) {}
void leaks(StableIValue* s, uint64_t, uint64_t) {
  AtenTensorHandle extra = make({1});
  (void)extra;
}
void returns_int_for_tensor(StableIValue* s, uint64_t, uint64_t) {
  aoti_torch_delete_tensor_object(reinterpret_cast<AtenTensorHandle>(s[0]));
  s[0] = 42;
}
void ignores_its_input(StableIValue* s, uint64_t, uint64_t) { s[0] = slot(make({1})); }
void returns_new_for_inplace(StableIValue* s, uint64_t, uint64_t) {
  aoti_torch_delete_tensor_object(reinterpret_cast<AtenTensorHandle>(s[0]));
  s[0] = slot(make({2}));
}

rt::OpSignature unary(std::string name, bool inplace) {
  rt::ArgDesc a{"x", type(rt::TypeKind::Tensor, "Tensor"), inplace ? "a" : "", inplace, false, {}};
  rt::ArgDesc r{"", type(rt::TypeKind::Tensor, "Tensor"), inplace ? "a" : "", inplace, false, {}};
  rt::OpSignature s = sig(std::move(name), "", {}, {});
  s.args = {a};
  s.returns = {r};
  s.ns = "test";
  return s;
}

TEST_F(ShimTest, InvokeAcceptsAPassThroughTensor) {
  auto x = rt::make_tensor({2}, 6);
  auto out = control().invoke(identity, unary("identity", false), {rt::Value::of_tensor(x)});
  ASSERT_TRUE(out.outputs_valid);
  EXPECT_EQ(out.outputs[0].tensor, x);
  EXPECT_TRUE(events().empty());
}

TEST_F(ShimTest, InvokeReportsProtocolMistakes) {
  auto x = rt::make_tensor({2}, 6);
  control().invoke(leaks, unary("leaks", false), {rt::Value::of_tensor(x)});
  EXPECT_TRUE(has_event(events(), rt::EventKind::Leak, "was neither released nor returned"));

  control().invoke(ignores_its_input, unary("ignores", false), {rt::Value::of_tensor(x)});
  EXPECT_TRUE(has_event(events(), rt::EventKind::Leak,
                        "the kernel never released tensor handle #")) << "an input that is not stolen leaks";

  auto out = control().invoke(returns_int_for_tensor, unary("bad", false), {rt::Value::of_tensor(x)});
  EXPECT_FALSE(out.outputs_valid);
  EXPECT_TRUE(has_event(events(), rt::EventKind::ReturnType, "holds 0x2a, which is not a tensor handle"));

  control().invoke(returns_new_for_inplace, unary("inplace_", true), {rt::Value::of_tensor(x)});
  EXPECT_TRUE(has_event(events(), rt::EventKind::InplaceAlias, "must be argument 'x' itself"));
}

}  // namespace
