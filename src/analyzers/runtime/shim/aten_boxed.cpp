// The boxed entry of each reference ATen op: decoded arguments in, returns
// out, in the order of the op's schema (rules/runtime/aten_ops.tsv). The
// binding is by qualified name; calling a schema row without a binding here
// records a runtime-unimplemented-shim finding (the call fails as it would
// on a release without the op).
#include <map>
#include <stdexcept>

#include "analyzers/runtime/shim/aten_ops.h"

namespace torchabi::runtime::aten {
namespace {

using Args = std::vector<Value>;

const Tensor& tensor(const Value& v) {
  if (v.kind != Value::Kind::Tensor) throw std::invalid_argument("expected a Tensor argument");
  return v.tensor;
}
std::optional<int64_t> opt_int(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return v.i;
}
std::vector<int64_t> ints(const Value& v) {
  std::vector<int64_t> out;
  for (const auto& x : v.list) out.push_back(x.i);
  return out;
}
bool flag(const Value& v, bool dflt = false) { return v.is_none() ? dflt : v.b; }

// (dtype, layout, device, pin_memory) starting at args[i].
Options options(const Args& a, size_t i) {
  Options o;
  if (auto d = opt_int(a[i])) o.dtype = static_cast<int32_t>(*d);
  if (auto l = opt_int(a[i + 1])) o.layout = static_cast<int32_t>(*l);
  if (!a[i + 2].is_none()) {
    o.device_type = a[i + 2].device_type;
    o.device_index = a[i + 2].device_index;
  }
  return o;
}

Value t(Tensor x) { return Value::of_tensor(std::move(x)); }

const std::map<std::string, BoxedAten>& table() {
  static const std::map<std::string, BoxedAten> m = {
      {"aten::empty_like", [](Args& a) -> Args {
         Options o = options(a, 1);
         if (auto mf = opt_int(a[5])) o.memory_format = static_cast<int32_t>(*mf);
         return {t(empty_like(tensor(a[0]), o))};
       }},
      {"aten::empty.memory_format", [](Args& a) -> Args {
         Options o = options(a, 1);
         if (auto mf = opt_int(a[5])) o.memory_format = static_cast<int32_t>(*mf);
         return {t(empty(ints(a[0]), o))};
       }},
      {"aten::empty_strided", [](Args& a) -> Args { return {t(empty_strided(ints(a[0]), ints(a[1]), options(a, 2)))}; }},
      {"aten::new_empty", [](Args& a) -> Args { return {t(new_empty(tensor(a[0]), ints(a[1]), options(a, 2)))}; }},
      {"aten::new_zeros", [](Args& a) -> Args {
         Tensor r = new_empty(tensor(a[0]), ints(a[1]), options(a, 2));
         fill(r, 0);
         return {t(r)};
       }},
      {"aten::zeros_like", [](Args& a) -> Args {
         Options o = options(a, 1);
         if (auto mf = opt_int(a[5])) o.memory_format = static_cast<int32_t>(*mf);
         Tensor r = empty_like(tensor(a[0]), o);
         fill(r, 0);
         return {t(r)};
       }},
      {"aten::ones_like", [](Args& a) -> Args {
         Options o = options(a, 1);
         if (auto mf = opt_int(a[5])) o.memory_format = static_cast<int32_t>(*mf);
         Tensor r = empty_like(tensor(a[0]), o);
         fill(r, 1);
         return {t(r)};
       }},
      {"aten::zero_", [](Args& a) -> Args {
         fill(tensor(a[0]), 0);
         return {a[0]};
       }},
      {"aten::fill_.Tensor", [](Args& a) -> Args {
         const Tensor& v = tensor(a[1]);
         if (v->dim() != 0)
           throw std::invalid_argument("fill_ only supports 0-dimension value tensor but got tensor with " +
                                       std::to_string(v->dim()) + " dimensions.");
         fill(tensor(a[0]), read_double(*v, 0));
         return {a[0]};
       }},
      {"aten::copy_", [](Args& a) -> Args {
         copy(tensor(a[0]), tensor(a[1]));
         return {a[0]};
       }},
      {"aten::clone", [](Args& a) -> Args {
         std::optional<int32_t> mf;
         if (auto v = opt_int(a[1])) mf = static_cast<int32_t>(*v);
         return {t(clone(tensor(a[0]), mf))};
       }},
      {"aten::contiguous", [](Args& a) -> Args { return {t(contiguous(tensor(a[0])))}; }},
      {"aten::to.dtype_layout", [](Args& a) -> Args {
         Options o = options(a, 1);
         if (auto mf = opt_int(a[7])) o.memory_format = static_cast<int32_t>(*mf);
         return {t(to(tensor(a[0]), o, flag(a[6])))};
       }},
      {"aten::transpose.int", [](Args& a) -> Args { return {t(transpose(tensor(a[0]), a[1].i, a[2].i))}; }},
      {"aten::t", [](Args& a) -> Args {
         const Tensor& x = tensor(a[0]);
         if (x->dim() > 2) throw std::invalid_argument("t() expects a tensor with <= 2 dimensions");
         return {t(x->dim() < 2 ? make_view(*x, x->sizes, x->strides, x->storage_offset) : transpose(x, 0, 1))};
       }},
      {"aten::permute", [](Args& a) -> Args { return {t(permute(tensor(a[0]), ints(a[1])))}; }},
      {"aten::flatten.using_ints", [](Args& a) -> Args { return {t(flatten(tensor(a[0]), a[1].i, a[2].i))}; }},
      {"aten::unsqueeze", [](Args& a) -> Args { return {t(unsqueeze(tensor(a[0]), a[1].i))}; }},
      {"aten::squeeze.dim", [](Args& a) -> Args { return {t(squeeze_dim(tensor(a[0]), a[1].i))}; }},
      {"aten::select.int", [](Args& a) -> Args { return {t(select(tensor(a[0]), a[1].i, a[2].i))}; }},
      {"aten::narrow", [](Args& a) -> Args { return {t(narrow(tensor(a[0]), a[1].i, a[2].i, a[3].i))}; }},
      {"aten::slice.Tensor", [](Args& a) -> Args {
         return {t(slice(tensor(a[0]), a[1].i, opt_int(a[2]), opt_int(a[3]), a[4].i))};
       }},
      {"aten::view", [](Args& a) -> Args { return {t(view(tensor(a[0]), ints(a[1])))}; }},
      {"aten::reshape", [](Args& a) -> Args { return {t(reshape(tensor(a[0]), ints(a[1])))}; }},
      {"aten::expand", [](Args& a) -> Args { return {t(expand(tensor(a[0]), ints(a[1])))}; }},
      {"aten::pad", [](Args& a) -> Args {
         double value = a[3].is_none() ? 0.0 : a[3].d;
         return {t(pad(tensor(a[0]), ints(a[1]), a[2].s, value))};
       }},
      {"aten::amax", [](Args& a) -> Args { return {t(amax(tensor(a[0]), ints(a[1]), a[2].b))}; }},
      {"aten::sum.dim_IntList", [](Args& a) -> Args {
         std::optional<std::vector<int64_t>> dims;
         if (!a[1].is_none()) dims = ints(a[1]);
         std::optional<int32_t> dt;
         if (auto d = opt_int(a[3])) dt = static_cast<int32_t>(*d);
         return {t(sum(tensor(a[0]), dims, a[2].b, dt))};
       }},
      {"aten::sum.IntList_out", [](Args& a) -> Args {
         std::optional<std::vector<int64_t>> dims;
         if (!a[1].is_none()) dims = ints(a[1]);
         std::optional<int32_t> dt;
         if (auto d = opt_int(a[3])) dt = static_cast<int32_t>(*d);
         Tensor r = sum(tensor(a[0]), dims, a[2].b, dt);
         const Tensor& out = tensor(a[4]);
         if (out->sizes != r->sizes) {
           *out = *empty(r->sizes, Options{out->dtype, std::nullopt, out->device_type, out->device_index, {}});
         }
         copy(out, r);
         return {a[4]};
       }},
      {"aten::neg", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "neg"))}; }},
      {"aten::abs", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "abs"))}; }},
      {"aten::exp", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "exp"))}; }},
      {"aten::mul.Tensor", [](Args& a) -> Args { return {t(binary(tensor(a[0]), tensor(a[1]), '*'))}; }},
      {"aten::div.Tensor", [](Args& a) -> Args { return {t(binary(tensor(a[0]), tensor(a[1]), '/'))}; }},
      {"aten::mm", [](Args& a) -> Args { return {t(mm(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::bmm", [](Args& a) -> Args { return {t(bmm(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::matmul", [](Args& a) -> Args { return {t(matmul(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::cat", [](Args& a) -> Args {
         std::vector<Tensor> ts;
         for (const auto& v : a[0].list) ts.push_back(tensor(v));
         return {t(cat(ts, a[1].i))};
       }},
  };
  return m;
}

}  // namespace

BoxedAten find_boxed(const std::string& qualified) {
  auto it = table().find(qualified);
  return it == table().end() ? nullptr : it->second;
}

std::vector<std::string> boxed_names() {
  std::vector<std::string> out;
  for (const auto& [k, _] : table()) out.push_back(k);
  return out;
}

}  // namespace torchabi::runtime::aten
