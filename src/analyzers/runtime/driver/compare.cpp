#include "analyzers/runtime/driver/compare.h"

#include <cmath>
#include <sstream>

#include "analyzers/runtime/driver/values.h"
#include "common/input_error.h"

namespace torchabi::runtime_driver {
namespace {

namespace rt = torchabi::runtime;
using rt::Value;

std::string num(double v) {
  std::ostringstream os;
  os.precision(8);
  os << v;
  return os.str();
}

std::string index_str(const std::vector<int64_t>& sizes, int64_t linear) {
  std::vector<int64_t> idx(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    idx[d] = linear % sizes[d];
    linear /= sizes[d];
  }
  return shape_text(idx);
}

bool within_tolerance(double got, double want, Tolerance tol) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want);
}

void compare_tensor(const std::string& label, const rt::Tensor& got, const YAML::Node& spec, const std::string& where,
                    std::vector<Mismatch>& out) {
  // A bare list or number stands for `values` (and the shape they imply).
  const bool bare = !spec.IsMap();
  if (!bare) {
    if (YAML::Node d = spec["dtype"]) {
      int32_t want;
      if (!rt::dtype_from_name(d.Scalar(), want)) throw InputError(where, "unknown dtype '" + d.Scalar() + "'");
      if (want != got->dtype) {
        out.push_back({label + " has dtype " + rt::dtype_info(got->dtype).name + ", expected " +
                           rt::dtype_info(want).name, {}});
        return;
      }
    }
  }
  // Copies, never assignments: assigning yaml-cpp nodes merges their documents' memory.
  const YAML::Node none(YAML::NodeType::Undefined);
  const YAML::Node values = bare ? spec : spec["values"];
  const YAML::Node shape_node = bare ? none : spec["shape"];
  const bool has_shape = !bare && shape_node;
  rt::Tensor want;
  if (has_shape || values) {
    // The expectation as a float64 tensor (values) or only a shape.
    std::vector<int64_t> shape;
    std::vector<double> vals;
    if (values) {
      if (values.IsScalar()) vals = {values.as<double>()};  // a number: a 0-dim tensor
      else vals = flat_values(values, shape, where + ", expected " + label);
    }
    if (has_shape) {
      if (!shape_node.IsSequence()) throw InputError(where, "'shape' of " + label + " must be a list of sizes");
      shape.clear();
      for (const auto& x : shape_node) shape.push_back(x.as<int64_t>());
    }
    int64_t numel = 1;
    for (auto d : shape) numel *= d;
    if (values && static_cast<int64_t>(vals.size()) != numel)
      throw InputError(where, "the expected " + label + " gives " + std::to_string(vals.size()) +
                                  " values for a shape of " + std::to_string(numel) + " elements");
    want = rt::make_tensor(shape, rt::dtype::kFloat64);
    for (int64_t i = 0; i < numel && values; ++i) rt::write_double(*want, i, vals[static_cast<size_t>(i)]);
    if (want->sizes != got->sizes) {
      out.push_back({label + " has shape " + shape_text(got->sizes) + ", expected " + shape_text(want->sizes), {}});
      return;
    }
  }
  if (const YAML::Node st = bare ? none : spec["strides"]) {
    // The layout the kernel gave its output (extensions walk data by strides).
    std::vector<int64_t> want_strides;
    if (!st.IsSequence()) throw InputError(where, "'strides' of " + label + " must be a list");
    for (const auto& x : st) want_strides.push_back(x.as<int64_t>());
    if (want_strides != got->strides) {
      out.push_back({label + " has strides " + shape_text(got->strides) + ", expected " + shape_text(want_strides), {}});
      return;
    }
  }
  if (want) {
    if (!values) return;
    if (!got->storage) {
      out.push_back({label + " is a meta tensor; it has no values to compare", {}});
      return;
    }
    Tolerance tol = default_tolerance(got->dtype);
    if (!bare && spec["rtol"]) tol.rtol = spec["rtol"].as<double>();
    if (!bare && spec["atol"]) tol.atol = spec["atol"].as<double>();
    int64_t bad = 0, worst = -1;
    double worst_diff = -1;
    for (int64_t i = 0; i < got->numel(); ++i) {
      double g = rt::read_double(*got, i), w = rt::read_double(*want, i);
      if (within_tolerance(g, w, tol)) continue;
      ++bad;
      double diff = std::isnan(g - w) ? INFINITY : std::fabs(g - w);
      if (diff > worst_diff) worst_diff = diff, worst = i;
    }
    if (bad) {
      double g = rt::read_double(*got, worst), w = rt::read_double(*want, worst);
      out.push_back({label + " differs from the expected values at " + std::to_string(bad) + " of " +
                         std::to_string(got->numel()) + " elements",
                     {"largest difference at index " + index_str(got->sizes, worst) + ": got " + num(g) +
                          ", expected " + num(w) + " (rtol " + num(tol.rtol) + ", atol " + num(tol.atol) + ")"}});
    }
  }
}

// "cuda:1", or "cpu" without an index, as torch prints a device.
std::string device_text(const Value& d) {
  std::string s = rt::device_name(d.device_type);
  return d.device_index < 0 ? s : s + ":" + std::to_string(d.device_index);
}

}  // namespace

std::string shape_text(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

Tolerance default_tolerance(int32_t dtype) {
  switch (dtype) {
    case rt::dtype::kFloat16: return {1e-3, 1e-5};
    case rt::dtype::kBFloat16: return {1.6e-2, 1e-5};
    case rt::dtype::kFloat32: return {1.3e-6, 1e-5};
    case rt::dtype::kFloat64: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

std::vector<Mismatch> compare_outputs(const std::vector<Value>& actual, const YAML::Node& expected,
                                      const rt::OpSignature& sig, const std::string& where) {
  std::vector<Mismatch> out;
  if (expected.size() != sig.returns.size())
    throw InputError(where, "expects " + std::to_string(expected.size()) + " outputs, but " + sig.qualified() +
                                " returns " + std::to_string(sig.returns.size()));
  for (size_t j = 0; j < actual.size() && j < expected.size(); ++j) {
    const YAML::Node& spec = expected[j];
    if (!spec || spec.IsNull()) continue;
    const Value& got = actual[j];
    const std::string label = "output " + std::to_string(j);
    switch (got.kind) {
      case Value::Kind::Tensor: compare_tensor(label, got.tensor, spec, where, out); break;
      case Value::Kind::Int:
      case Value::Kind::Double:
      case Value::Kind::Bool: {
        Value want = value_from_yaml(spec, sig.returns[j].type, where + ", expected " + label);
        double g = got.kind == Value::Kind::Int ? static_cast<double>(got.i) : got.kind == Value::Kind::Bool ? got.b : got.d;
        double w = want.kind == Value::Kind::Int ? static_cast<double>(want.i) : want.kind == Value::Kind::Bool ? want.b : want.d;
        Tolerance tol = got.kind == Value::Kind::Double ? default_tolerance(rt::dtype::kFloat64) : Tolerance{};
        if (!within_tolerance(g, w, tol)) out.push_back({label + " is " + num(g) + ", expected " + num(w), {}});
        break;
      }
      case Value::Kind::String:
        if (spec.Scalar() != got.s) out.push_back({label + " is \"" + got.s + "\", expected \"" + spec.Scalar() + "\"", {}});
        break;
      case Value::Kind::None:
        out.push_back({label + " is None, expected a value", {}});
        break;
      case Value::Kind::Device: {
        Value want = value_from_yaml(spec, sig.returns[j].type, where + ", expected " + label);
        if (want.device_type != got.device_type || want.device_index != got.device_index)
          out.push_back({label + " is " + device_text(got) + ", expected " + device_text(want), {}});
        break;
      }
      case Value::Kind::List: {
        if (sig.returns[j].type.elem().kind == rt::TypeKind::Tensor) {  // Tensor[]: each item as a tensor
          if (!spec.IsSequence()) throw InputError(where, "the expected " + label + " must be a list of tensors");
          if (spec.size() != got.list.size()) {
            out.push_back({label + " has " + std::to_string(got.list.size()) + " items, expected " +
                               std::to_string(spec.size()), {}});
            break;
          }
          for (size_t k = 0; k < got.list.size(); ++k)
            if (spec[k] && !spec[k].IsNull())
              compare_tensor(label + "[" + std::to_string(k) + "]", got.list[k].tensor, spec[k], where, out);
          break;
        }
        Value want = value_from_yaml(spec, sig.returns[j].type, where + ", expected " + label);
        if (want.list.size() != got.list.size()) {
          out.push_back({label + " has " + std::to_string(got.list.size()) + " items, expected " +
                             std::to_string(want.list.size()), {}});
          break;
        }
        for (size_t k = 0; k < got.list.size(); ++k) {
          const Value &g = got.list[k], &w = want.list[k];
          bool same = g.kind == w.kind && (g.kind == Value::Kind::Int    ? g.i == w.i
                                           : g.kind == Value::Kind::Double ? within_tolerance(g.d, w.d, default_tolerance(rt::dtype::kFloat64))
                                           : g.kind == Value::Kind::Bool   ? g.b == w.b
                                                                           : true);
          if (!same) {
            out.push_back({label + " differs from the expected list at item " + std::to_string(k), {}});
            break;
          }
        }
        break;
      }
      default: break;
    }
  }
  return out;
}

}  // namespace torchabi::runtime_driver
