#include "analyzers/runtime/driver/values.h"

#include <cstdint>
#include <random>

#include "common/input_error.h"

namespace torchabi::runtime_driver {
namespace {

using runtime::TypeKind;
namespace rt = torchabi::runtime;

[[noreturn]] void bad(const std::string& where, const std::string& what) { throw InputError(where, what); }

int64_t as_int(const YAML::Node& n, const std::string& where) {
  try {
    return n.as<int64_t>();
  } catch (const YAML::Exception&) {
    bad(where, "expected an integer, got '" + (n.IsScalar() ? n.Scalar() : std::string("a collection")) + "'");
  }
}

double as_double(const YAML::Node& n, const std::string& where) {
  try {
    return n.as<double>();
  } catch (const YAML::Exception&) {
    bad(where, "expected a number, got '" + (n.IsScalar() ? n.Scalar() : std::string("a collection")) + "'");
  }
}

// Flattens nested value lists, recording the shape they imply.
void flatten(const YAML::Node& n, size_t depth, std::vector<int64_t>& shape, std::vector<double>& out,
             const std::string& where) {
  if (!n.IsSequence()) {
    out.push_back(n.IsScalar() && (n.Scalar() == "true" || n.Scalar() == "false") ? (n.Scalar() == "true")
                                                                                   : as_double(n, where));
    return;
  }
  if (shape.size() <= depth) shape.push_back(static_cast<int64_t>(n.size()));
  else if (shape[depth] != static_cast<int64_t>(n.size())) bad(where, "nested 'values' lists are ragged");
  for (const auto& item : n) flatten(item, depth + 1, shape, out, where);
}

int32_t code_named(const YAML::Node& n, const TypeDesc& t, const std::string& where) {
  std::string s = n.IsScalar() ? n.Scalar() : "";
  if (t.kind == TypeKind::ScalarType) {
    int32_t code;
    if (rt::dtype_from_name(s, code)) return code;
    bad(where, "unknown dtype '" + s + "' (float32, float64, int64, bool, ...)");
  }
  static const std::pair<const char*, int32_t> kLayouts[] = {{"strided", 0}, {"sparse_coo", 1}, {"sparse_csr", 2}};
  static const std::pair<const char*, int32_t> kFormats[] = {
      {"contiguous_format", 0}, {"preserve_format", 1}, {"channels_last", 2}, {"channels_last_3d", 3}};
  if (t.kind == TypeKind::Layout) {
    for (const auto& [name, code] : kLayouts)
      if (s == name || s == std::string("torch.") + name) return code;
    bad(where, "unknown layout '" + s + "' (strided, sparse_coo, sparse_csr)");
  }
  for (const auto& [name, code] : kFormats)
    if (s == name || s == std::string("torch.") + name) return code;
  bad(where, "unknown memory format '" + s + "' (contiguous_format, preserve_format, channels_last, ...)");
}

Value device_named(const YAML::Node& n, const std::string& where) {
  std::string s = n.IsScalar() ? n.Scalar() : "";
  std::string type = s.substr(0, s.find(':'));
  static const std::pair<const char*, int32_t> kTypes[] = {{"cpu", 0}, {"cuda", 1}, {"xpu", 12}, {"mps", 13}, {"meta", 14}};
  for (const auto& [name, code] : kTypes) {
    if (type != name) continue;
    int32_t index = -1;
    if (auto colon = s.find(':'); colon != std::string::npos) {
      try {
        index = std::stoi(s.substr(colon + 1));
      } catch (const std::exception&) {
        bad(where, "bad device index in '" + s + "'");
      }
    }
    return Value::of_device(code, index);
  }
  bad(where, "unknown device '" + s + "' (cpu, meta, cuda:0, ...)");
}

void fill_tensor(const Tensor& t, const std::vector<double>& vals) {
  for (int64_t i = 0; i < t->numel(); ++i) rt::write_double(*t, i, vals[static_cast<size_t>(i)]);
}

}  // namespace

std::vector<double> flat_values(const YAML::Node& n, std::vector<int64_t>& implied_shape, const std::string& where) {
  std::vector<double> out;
  implied_shape.clear();
  flatten(n, 0, implied_shape, out, where);
  return out;
}

Tensor tensor_from_yaml(const YAML::Node& n, const std::string& where) {
  int32_t dtype = rt::dtype::kFloat32;
  std::vector<int64_t> shape;
  std::vector<double> vals;
  bool have_shape = false, have_values = false;
  bool contiguous = true;
  std::optional<double> fill;
  std::optional<double> arange_start;
  YAML::Node random;
  bool have_random = false;
  if (n.IsScalar()) {  // a number: a 0-dim tensor
    vals.push_back(as_double(n, where));
    have_shape = have_values = true;
  } else if (n.IsSequence()) {
    flatten(n, 0, shape, vals, where);
    have_shape = have_values = true;
  } else if (n.IsMap()) {
    for (const auto& kv : n) {
      std::string key = kv.first.as<std::string>();
      const YAML::Node& v = kv.second;
      if (key == "dtype") {
        if (!rt::dtype_from_name(v.Scalar(), dtype)) bad(where, "unknown dtype '" + v.Scalar() + "'");
      } else if (key == "shape") {
        if (!v.IsSequence()) bad(where, "'shape' must be a list of sizes");
        for (const auto& s : v) shape.push_back(as_int(s, where));
        have_shape = true;
      } else if (key == "values") {
        std::vector<int64_t> implied;
        flatten(v, 0, implied, vals, where);
        have_values = true;
        if (!have_shape && !n["shape"]) shape = implied, have_shape = true;
      } else if (key == "fill") {
        fill = as_double(v, where);
      } else if (key == "arange") {
        arange_start = v.IsScalar() && v.Scalar() == "true" ? 0.0 : as_double(v, where);
      } else if (key == "random") {
        random = v.IsNull() ? YAML::Node(YAML::NodeType::Map) : v;
        have_random = true;
      } else if (key == "contiguous") {
        contiguous = v.as<bool>();
      } else {
        bad(where, "unknown tensor key '" + key + "' (dtype, shape, values, fill, arange, random, contiguous)");
      }
    }
  } else {
    bad(where, "expected a tensor (a map with dtype/shape/values, a list of values, or a number)");
  }
  if (!have_shape) bad(where, "a tensor needs 'shape' (or nested 'values')");
  for (auto s : shape)
    if (s < 0) bad(where, "negative size in 'shape'");
  if (rt::dtype_info(dtype).size == 0 || !rt::is_computable(dtype))
    bad(where, std::string("case files describe real-valued tensors; ") + rt::dtype_info(dtype).name +
                   " values cannot be written in YAML");
  int64_t numel = 1;
  for (auto s : shape) numel *= s;
  int sources = have_values + fill.has_value() + arange_start.has_value() + have_random;
  if (sources > 1) bad(where, "give only one of 'values', 'fill', 'arange', 'random'");
  if (have_values && static_cast<int64_t>(vals.size()) != numel)
    bad(where, std::to_string(vals.size()) + " values do not fill a tensor of " + std::to_string(numel) + " elements");
  if (!have_values) {
    vals.assign(static_cast<size_t>(numel), fill.value_or(0.0));
    if (arange_start)
      for (int64_t i = 0; i < numel; ++i) vals[i] = *arange_start + static_cast<double>(i);
    if (have_random) {
      uint64_t seed = random["seed"] ? random["seed"].as<uint64_t>() : 0;
      double lo = random["low"] ? as_double(random["low"], where) : -1.0;
      double hi = random["high"] ? as_double(random["high"], where) : 1.0;
      std::mt19937_64 gen(seed);
      std::uniform_real_distribution<double> dist(lo, hi);
      for (auto& v : vals) v = rt::is_integral_kind(dtype) ? std::floor(dist(gen)) : dist(gen);
    }
  }
  if (contiguous || shape.size() < 2) {
    Tensor t = rt::make_tensor(shape, dtype);
    fill_tensor(t, vals);
    return t;
  }
  // Same values, transposed storage: the last two dimensions' strides swapped.
  std::vector<int64_t> swapped = shape;
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  Tensor base = rt::make_tensor(swapped, dtype);
  std::vector<int64_t> strides = base->strides;
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  Tensor t = rt::make_view(*base, shape, strides, 0);
  fill_tensor(t, vals);
  return t;
}

Value value_from_yaml(const YAML::Node& n, const TypeDesc& t, const std::string& where) {
  switch (t.kind) {
    case TypeKind::Tensor: return Value::of_tensor(tensor_from_yaml(n, where));
    case TypeKind::Int: return Value::of_int(as_int(n, where));
    case TypeKind::Float: return Value::of_double(as_double(n, where));
    case TypeKind::Bool:
      try {
        return Value::of_bool(n.as<bool>());
      } catch (const YAML::Exception&) {
        bad(where, "expected true or false");
      }
    case TypeKind::String:
      if (!n.IsScalar()) bad(where, "expected a string");
      return Value::of_string(n.Scalar());
    case TypeKind::ScalarType:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return Value::of_int(code_named(n, t, where));
    case TypeKind::Device: return device_named(n, where);
    case TypeKind::Optional:
      if (!n || n.IsNull()) return Value::none();
      return value_from_yaml(n, t.elem(), where);
    case TypeKind::List: {
      if (!n.IsSequence()) {
        // int[N] accepts a single int, as the schema language does.
        if (t.elem().kind == TypeKind::Int && n.IsScalar()) return Value::of_list({Value::of_int(as_int(n, where))});
        bad(where, "expected a list for " + t.spelling);
      }
      std::vector<Value> items;
      for (size_t i = 0; i < n.size(); ++i)
        items.push_back(value_from_yaml(n[i], t.elem(), where + "[" + std::to_string(i) + "]"));
      return Value::of_list(std::move(items));
    }
    case TypeKind::Unconvertible: bad(where, t.spelling + " values cannot be passed through the stable ABI");
  }
  bad(where, "unsupported type");
}

std::vector<Value> case_arguments(const YAML::Node& inputs, const OpSignature& sig, const std::string& where) {
  std::vector<Value> out;
  const size_t n = sig.args.size();
  if (inputs.IsSequence() && inputs.size() > n)
    bad(where, "gives " + std::to_string(inputs.size()) + " inputs, but " + sig.qualified() + " takes " +
                   std::to_string(n));
  if (inputs.IsMap()) {
    for (const auto& kv : inputs) {
      std::string key = kv.first.as<std::string>();
      bool known = false;
      for (const auto& a : sig.args) known |= a.name == key;
      if (!known) bad(where, sig.qualified() + " has no argument '" + key + "'");
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const auto& arg = sig.args[i];
    YAML::Node node;
    bool given = false;
    if (inputs.IsSequence() && i < inputs.size()) node = inputs[i], given = true;
    if (inputs.IsMap()) {
      for (const auto& kv : inputs)
        if (kv.first.as<std::string>() == arg.name) node = kv.second, given = true;
    }
    std::string at = where + ", argument '" + arg.name + "'";
    if (!given) {
      if (arg.default_value) {
        out.push_back(*arg.default_value);
        continue;
      }
      if (arg.type.kind == TypeKind::Optional) {
        out.push_back(Value::none());
        continue;
      }
      bad(where, "gives no value for argument '" + arg.name + "' (" + arg.type.spelling + "), which has no default");
    }
    out.push_back(value_from_yaml(node, arg.type, at));
  }
  return out;
}

namespace {

// `position` (the argument's index) shifts a tensor's values, so that no two
// tensor arguments are equal: a kernel that copies one into the other must
// change it, or the mutation checks could not see the write.
Value smoke_value(const TypeDesc& t, int32_t dtype, int position) {
  switch (t.kind) {
    case TypeKind::Tensor: {
      Tensor x = rt::make_tensor({2, 3}, dtype);
      for (int64_t i = 0; i < 6; ++i)
        rt::write_double(*x, i, dtype == rt::dtype::kBool ? ((i + position) % 2) : 0.5 * i - 1 + position);
      return Value::of_tensor(x);
    }
    case TypeKind::Int: return Value::of_int(1);
    case TypeKind::Float: return Value::of_double(0.5);
    case TypeKind::Bool: return Value::of_bool(false);
    case TypeKind::String: return Value::of_string("constant");
    case TypeKind::ScalarType: return Value::of_int(dtype);
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return Value::of_int(0);
    case TypeKind::Device: return Value::of_device(rt::device::kCPU, -1);
    case TypeKind::Optional: return Value::none();
    case TypeKind::List: return Value::of_list({smoke_value(t.elem(), dtype, position)});
    case TypeKind::Unconvertible: return Value::none();
  }
  return Value::none();
}

}  // namespace

std::vector<Value> smoke_arguments(const OpSignature& sig, int32_t dtype) {
  std::vector<Value> out;
  for (const auto& a : sig.args) {
    if (a.default_value) out.push_back(*a.default_value);
    else out.push_back(smoke_value(a.type, dtype, static_cast<int>(out.size())));
  }
  return out;
}

const std::vector<int32_t>& smoke_dtypes() {
  static const std::vector<int32_t> d = {rt::dtype::kFloat32, rt::dtype::kFloat64, rt::dtype::kInt64,
                                         rt::dtype::kInt32, rt::dtype::kBool};
  return d;
}

}  // namespace torchabi::runtime_driver
