// The boxed entry of each reference ATen op the dispatcher can run: decoded
// arguments in, returns out, in the order of the op's schema (the newest
// schemas are in rules/runtime/aten_ops.tsv, which lists every entry here).
// The binding is by qualified name; an ATen op without an entry fails as
// "not implemented by the reference runtime" (runtime-unimplemented-shim).
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
std::vector<Tensor> tensors(const Value& v) {
  std::vector<Tensor> out;
  for (const auto& x : v.list) out.push_back(tensor(x));
  return out;
}
std::optional<int64_t> opt_int(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return v.i;
}
std::optional<int32_t> opt_code(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return static_cast<int32_t>(v.i);
}
std::vector<int64_t> ints(const Value& v) {
  std::vector<int64_t> out;
  for (const auto& x : v.list) out.push_back(x.i);
  return out;
}
std::optional<std::vector<int64_t>> opt_ints(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return ints(v);
}
bool flag(const Value& v, bool dflt = false) { return v.is_none() ? dflt : v.b; }

// (dtype, layout, device, pin_memory) starting at args[i].
Options options(const Args& a, size_t i) {
  Options o;
  o.dtype = opt_code(a[i]);
  o.layout = opt_code(a[i + 1]);
  if (!a[i + 2].is_none()) {
    o.device_type = a[i + 2].device_type;
    o.device_index = a[i + 2].device_index;
  }
  if (flag(a[i + 3]))
    throw std::invalid_argument("pin_memory=True needs an accelerator; the reference runtime has none");
  return o;
}

// Options with the memory_format at args[i + 4].
Options options_mf(const Args& a, size_t i) {
  Options o = options(a, i);
  o.memory_format = opt_code(a[i + 4]);
  return o;
}

Value t(Tensor x) { return Value::of_tensor(std::move(x)); }
Value list(const std::vector<Tensor>& xs) {
  std::vector<Value> out;
  for (const auto& x : xs) out.push_back(t(x));
  return Value::of_list(std::move(out));
}

Tensor filled_like(const Args& a, double value) {
  Tensor r = empty_like(tensor(a[0]), options_mf(a, 1));
  fill(r, value);
  return r;
}

const std::map<std::string, BoxedAten>& table() {
  static const std::map<std::string, BoxedAten> m = {
      // Factories.
      {"aten::empty.memory_format", [](Args& a) -> Args { return {t(empty(ints(a[0]), options_mf(a, 1)))}; }},
      {"aten::empty_strided", [](Args& a) -> Args { return {t(empty_strided(ints(a[0]), ints(a[1]), options(a, 2)))}; }},
      {"aten::empty_like", [](Args& a) -> Args { return {t(empty_like(tensor(a[0]), options_mf(a, 1)))}; }},
      {"aten::zeros_like", [](Args& a) -> Args { return {t(filled_like(a, 0))}; }},
      {"aten::ones_like", [](Args& a) -> Args { return {t(filled_like(a, 1))}; }},
      {"aten::new_empty", [](Args& a) -> Args { return {t(new_empty(tensor(a[0]), ints(a[1]), options(a, 2)))}; }},
      {"aten::new_zeros", [](Args& a) -> Args {
         Tensor r = new_empty(tensor(a[0]), ints(a[1]), options(a, 2));
         fill(r, 0);
         return {t(r)};
       }},
      // In place (the return is the argument itself).
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
      {"aten::sum.IntList_out", [](Args& a) -> Args {
         sum_out(tensor(a[4]), tensor(a[0]), opt_ints(a[1]), a[2].b, opt_code(a[3]));
         return {a[4]};
       }},
      {"aten::_foreach_mul_.List", [](Args& a) -> Args {
         foreach_mul_(tensors(a[0]), tensors(a[1]));
         return {};
       }},
      // Copies and conversions.
      {"aten::clone", [](Args& a) -> Args { return {t(clone(tensor(a[0]), opt_code(a[1])))}; }},
      {"aten::contiguous", [](Args& a) -> Args { return {t(contiguous(tensor(a[0]), static_cast<int32_t>(a[1].i)))}; }},
      {"aten::to.dtype_layout", [](Args& a) -> Args {
         Options o = options(a, 1);
         o.memory_format = opt_code(a[7]);
         return {t(to(tensor(a[0]), o, flag(a[6])))};
       }},
      // Views.
      {"aten::transpose.int", [](Args& a) -> Args { return {t(transpose(tensor(a[0]), a[1].i, a[2].i))}; }},
      {"aten::t", [](Args& a) -> Args {
         const Tensor& x = tensor(a[0]);
         if (x->dim() > 2)
           throw std::invalid_argument("t() expects a tensor with <= 2 dimensions, but self is " +
                                       std::to_string(x->dim()) + "D");
         return {t(x->dim() < 2 ? alias(x) : transpose(x, 0, 1))};
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
      {"aten::view.dtype", [](Args& a) -> Args { return {t(view_dtype(tensor(a[0]), static_cast<int32_t>(a[1].i)))}; }},
      {"aten::reshape", [](Args& a) -> Args { return {t(reshape(tensor(a[0]), ints(a[1])))}; }},
      {"aten::expand", [](Args& a) -> Args { return {t(expand(tensor(a[0]), ints(a[1])))}; }},
      // Math.
      {"aten::pad", [](Args& a) -> Args {
         std::optional<double> value;
         if (!a[3].is_none()) value = a[3].d;
         return {t(pad(tensor(a[0]), ints(a[1]), a[2].s, value))};
       }},
      {"aten::amax", [](Args& a) -> Args { return {t(amax(tensor(a[0]), ints(a[1]), a[2].b))}; }},
      {"aten::sum.dim_IntList", [](Args& a) -> Args {
         return {t(sum(tensor(a[0]), opt_ints(a[1]), a[2].b, opt_code(a[3])))};
       }},
      {"aten::neg", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "neg"))}; }},
      {"aten::abs", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "abs"))}; }},
      {"aten::exp", [](Args& a) -> Args { return {t(unary(tensor(a[0]), "exp"))}; }},
      {"aten::mul.Tensor", [](Args& a) -> Args { return {t(binary(tensor(a[0]), tensor(a[1]), '*'))}; }},
      {"aten::div.Tensor", [](Args& a) -> Args { return {t(binary(tensor(a[0]), tensor(a[1]), '/'))}; }},
      {"aten::bitwise_and.Tensor", [](Args& a) -> Args { return {t(bitwise(tensor(a[0]), tensor(a[1]), '&'))}; }},
      {"aten::bitwise_or.Tensor", [](Args& a) -> Args { return {t(bitwise(tensor(a[0]), tensor(a[1]), '|'))}; }},
      {"aten::bitwise_left_shift.Tensor", [](Args& a) -> Args { return {t(bitwise(tensor(a[0]), tensor(a[1]), '<'))}; }},
      {"aten::bitwise_right_shift.Tensor", [](Args& a) -> Args { return {t(bitwise(tensor(a[0]), tensor(a[1]), '>'))}; }},
      {"aten::floor_divide", [](Args& a) -> Args { return {t(floor_divide(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::_foreach_mul.List", [](Args& a) -> Args { return {list(foreach_mul(tensors(a[0]), tensors(a[1])))}; }},
      {"aten::index_select", [](Args& a) -> Args { return {t(index_select(tensor(a[0]), a[1].i, tensor(a[2])))}; }},
      {"aten::is_pinned", [](Args& a) -> Args {
         tensor(a[0]);
         return {Value::of_bool(false)};  // CPU memory is never pinned without an accelerator
       }},
      {"aten::mm", [](Args& a) -> Args { return {t(mm(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::bmm", [](Args& a) -> Args { return {t(bmm(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::matmul", [](Args& a) -> Args { return {t(matmul(tensor(a[0]), tensor(a[1])))}; }},
      {"aten::cat", [](Args& a) -> Args { return {t(cat(tensors(a[0]), a[1].i))}; }},
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
