#include "analyzers/runtime/driver/schema_effects.h"

#include "analyzers/runtime/driver/compare.h"

#include <cstring>
#include <sstream>

namespace torchabi::runtime_driver {
namespace {

namespace rt = torchabi::runtime;

std::string number(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

// The tensors a value holds (a Tensor, or the items of a Tensor[]), labelled.
void tensors_of(const rt::Value& v, const std::string& label,
                std::vector<std::pair<std::string, rt::Tensor>>& out) {
  if (v.kind == rt::Value::Kind::Tensor && v.tensor && v.tensor->defined) out.emplace_back(label, v.tensor);
  if (v.kind == rt::Value::Kind::List)
    for (size_t k = 0; k < v.list.size(); ++k) tensors_of(v.list[k], label + " item " + std::to_string(k), out);
}

std::vector<std::byte> elements(const rt::TensorImpl& t) {
  std::vector<std::byte> out;
  if (!t.storage || !t.storage->data) return out;
  const size_t size = t.element_size();
  const int64_t n = t.numel();
  out.resize(static_cast<size_t>(n) * size);
  for (int64_t i = 0; i < n; ++i) std::memcpy(out.data() + i * size, t.element(i), size);
  return out;
}

// Storage an output can share with an input; empty tensors share nothing.
const rt::Storage* storage_of(const rt::Tensor& t) {
  return t && t->storage && t->numel() > 0 ? t->storage.get() : nullptr;
}

ProtoFinding finding(const char* rule, const rt::OpSignature& sig, std::string message, std::string help) {
  ProtoFinding f;
  f.rule = rule;
  f.op = sig.qualified();
  f.message = std::move(message);
  f.help = std::move(help);
  return f;
}

// "Tensor(a!) Dst": the argument as its schema would declare the mutation.
std::string declared_mutable(const rt::ArgDesc& a) {
  std::string set = a.alias_set.empty() ? "a" : a.alias_set;
  return a.type.spelling.find("Tensor") == 0 ? "Tensor(" + set + "!)" + a.type.spelling.substr(6) + " " + a.name
                                             : a.type.spelling + " " + a.name;
}

}  // namespace

InputSnapshot::InputSnapshot(const rt::OpSignature& sig, const std::vector<rt::Value>& args) {
  for (size_t i = 0; i < args.size() && i < sig.args.size(); ++i) {
    std::vector<std::pair<std::string, rt::Tensor>> ts;
    tensors_of(args[i], "argument '" + sig.args[i].name + "'", ts);
    for (auto& [label, t] : ts) entries_.push_back({i, label, t, elements(*t)});
  }
}

std::vector<InputSnapshot::Written> InputSnapshot::written() const {
  std::vector<Written> out;
  for (const Entry& e : entries_) {
    std::vector<std::byte> now = elements(*e.tensor);
    if (now == e.bytes) continue;
    Written w{e.arg, e.label, ""};
    const size_t size = e.tensor->element_size();
    if (now.size() != e.bytes.size() || size == 0) {
      w.change = "its shape is now " + shape_text(e.tensor->sizes);
    } else {
      size_t i = 0;
      while (std::memcmp(now.data() + i * size, e.bytes.data() + i * size, size) == 0) ++i;
      // The element's index in the tensor's shape, as torch prints one.
      std::vector<int64_t> index(e.tensor->sizes.size());
      int64_t linear = static_cast<int64_t>(i);
      for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
        index[d] = linear % e.tensor->sizes[d];
        linear /= e.tensor->sizes[d];
      }
      w.change = "element " + shape_text(index);
      if (rt::is_computable(e.tensor->dtype)) {
        rt::TensorImpl old = *e.tensor;
        old.storage = rt::Storage::borrow(const_cast<std::byte*>(e.bytes.data()), e.bytes.size(), nullptr);
        old.strides = rt::contiguous_strides(old.sizes);
        old.storage_offset = 0;
        w.change += " changed from " + number(rt::read_double(old, static_cast<int64_t>(i))) + " to " +
                    number(rt::read_double(*e.tensor, static_cast<int64_t>(i)));
      } else {
        w.change += " changed";
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

Effects schema_effects(const rt::OpSignature& sig, const std::vector<rt::Value>& args, const rt::CallOutcome& outcome,
                       const InputSnapshot& before, const std::string& context) {
  Effects fx;
  const std::string op = sig.qualified();
  for (const auto& a : sig.args)
    if (a.is_write) fx.mutable_args.push_back(a.name);

  for (const auto& w : before.written()) {
    const rt::ArgDesc& a = sig.args[w.arg];
    if (a.is_write) {
      fx.written_mutable.push_back(a.name);
      continue;
    }
    fx.findings.push_back(finding(
        "runtime-undeclared-mutation", sig,
        context + op + " wrote its input " + w.label + " (" + w.change + "), but the schema declares it `" +
            a.type.spelling + " " + a.name + "`, not mutable: torch.compile and autograd assume the input is unchanged",
        "declare the write in the schema (`" + declared_mutable(a) +
            "`, and `-> Tensor(a!)` if the op returns it), or write into a new tensor instead"));
  }

  if (!outcome.outputs_valid) return fx;
  std::vector<std::pair<std::string, rt::Tensor>> inputs;
  std::vector<size_t> input_arg;
  for (size_t i = 0; i < args.size() && i < sig.args.size(); ++i) {
    size_t first = inputs.size();
    tensors_of(args[i], "argument '" + sig.args[i].name + "'", inputs);
    input_arg.resize(inputs.size(), i);
    (void)first;
  }
  for (size_t j = 0; j < outcome.outputs.size() && j < sig.returns.size(); ++j) {
    const rt::ArgDesc& ret = sig.returns[j];
    std::vector<std::pair<std::string, rt::Tensor>> outs;
    tensors_of(outcome.outputs[j], "return " + std::to_string(j), outs);
    for (const auto& [out_label, out] : outs) {
      const rt::Storage* s = storage_of(out);
      if (!s) continue;
      bool declared_alias_seen = false;
      for (size_t k = 0; k < inputs.size(); ++k) {
        const rt::ArgDesc& a = sig.args[input_arg[k]];
        const bool annotated = !ret.alias_set.empty() && ret.alias_set == a.alias_set;
        const bool shares = storage_of(inputs[k].second) == s;
        if (annotated && shares) declared_alias_seen = true;
        if (annotated && out.get() == inputs[k].second.get() && !a.is_write)
          fx.findings.push_back(finding(
              "runtime-returns-input", sig,
              context + op + ": " + out_label + " is its input " + inputs[k].first +
                  " itself, not a view of it; only an in-place op (`Tensor(a!)`) may return an input directly",
              "return a view (e.g. torch::stable::view or alias semantics through as_strided), or a copy; keep "
              "returning the input itself only for an in-place op declared `Tensor(a!)`"));
        if (!shares || annotated) continue;
        fx.findings.push_back(finding(
            "runtime-undeclared-alias", sig,
            context + op + ": " + out_label + " shares storage with its input " + inputs[k].first +
                " (the kernel returned the input or a view of it), but the schema does not declare the alias",
            "annotate both sides with one alias set (`Tensor(a) " + a.name + "` and `-> Tensor(a)`; `(a!)` if the "
            "kernel also writes it), or return a copy (clone) instead"));
      }
      // `Tensor(a!)` returns are checked for identity by runtime-inplace-alias.
      if (!ret.alias_set.empty() && !ret.is_write && !declared_alias_seen) {
        for (size_t k = 0; k < inputs.size(); ++k) {
          const rt::ArgDesc& a = sig.args[input_arg[k]];
          if (a.alias_set != ret.alias_set || !storage_of(inputs[k].second)) continue;
          ProtoFinding f = finding(
              "runtime-alias-not-aliasing", sig,
              context + op + ": " + out_label + " is declared `Tensor(" + ret.alias_set + ")`, a view of " +
                  inputs[k].first + ", but this call returned new memory",
              "`Tensor(a)` lets an op alias its input only sometimes (as reshape and contiguous do); if this op "
              "never returns a view, drop the annotation so torch.compile need not assume one");
          f.severity = findings::Severity::Note;  // may-alias is legal; opcheck accepts it
          fx.findings.push_back(std::move(f));
          break;
        }
      }
    }
  }
  return fx;
}

void MutationTally::record(const std::string& op, const std::vector<std::string>& mutable_args,
                           const std::vector<std::string>& written) {
  Seen& s = ops_[op];
  s.declared = mutable_args;
  s.written.insert(written.begin(), written.end());
  ++s.calls;
}

std::vector<ProtoFinding> MutationTally::never_written() const {
  std::vector<ProtoFinding> out;
  for (const auto& [op, s] : ops_) {
    for (const auto& name : s.declared) {
      if (s.written.count(name)) continue;
      ProtoFinding f;
      f.rule = "runtime-mutation-never-seen";
      f.op = op;
      // "but its only completed call did not change it" / "but none of its 3 completed calls changed it"
      const std::string calls = s.calls == 1 ? std::string("its only completed call did not change it")
                                             : "none of its " + std::to_string(s.calls) + " completed calls changed it";
      f.message = op + " declares argument '" + name + "' mutable (`(a!)`), but " + calls;
      f.help = "drop the `!` if the kernel never writes the argument (torch.compile then needs no copy), or add a "
               "case whose inputs reach the write";
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace torchabi::runtime_driver
