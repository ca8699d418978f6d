#include "analyzers/schema/registrations/registration_model.h"

#include <nlohmann/json.hpp>

namespace torchabi::schema {

namespace {

using nlohmann::json;

json loc(const findings::Location& l) { return json::array({l.file, l.line, l.column}); }
findings::Location loc(const json& j) {
  findings::Location l;
  if (!j.is_array() || j.size() != 3) return l;
  l.file = j[0].get<std::string>();
  l.line = j[1].get<uint32_t>();
  l.column = j[2].get<uint32_t>();
  return l;
}

json type(const CppType& t) {
  return {{"s", t.spelled}, {"n", t.normalized}, {"c", t.is_const}, {"l", t.lvalue_ref}, {"r", t.rvalue_ref}};
}
CppType type(const json& j) {
  CppType t;
  t.spelled = j.at("s");
  t.normalized = j.at("n");
  t.is_const = j.at("c");
  t.lvalue_ref = j.at("l");
  t.rvalue_ref = j.at("r");
  return t;
}

json literal(const LiteralText& l) { return {{"text", l.text}, {"start", loc(l.start)}, {"pos", l.positions}}; }
LiteralText literal(const json& j) {
  LiteralText l;
  l.text = j.at("text");
  l.start = loc(j.at("start"));
  l.positions = j.at("pos").get<std::vector<std::pair<uint32_t, uint32_t>>>();
  return l;
}

json signature(const CppSignature& s) {
  json params = json::array();
  for (const auto& p : s.params) params.push_back(type(p));
  json j = {{"result", type(s.result)}, {"params", params}, {"names", s.param_names}, {"result_known", s.result_known}};
  if (s.param_writes) j["writes"] = *s.param_writes;
  if (s.flow) j["flow"] = *s.flow;
  return j;
}
CppSignature signature(const json& j) {
  CppSignature s;
  s.result = type(j.at("result"));
  for (const auto& p : j.at("params")) s.params.push_back(type(p));
  s.param_names = j.at("names").get<std::vector<std::string>>();
  s.result_known = j.at("result_known");
  if (j.contains("writes")) s.param_writes = j.at("writes").get<std::vector<std::string>>();
  if (j.contains("flow")) s.flow = j.at("flow").get<KernelFlow>();
  return s;
}

json kernel(const KernelRef& k) {
  json j = {{"form", static_cast<int>(k.form)}, {"function", k.function}, {"written", k.written},
            {"where", loc(k.where)}, {"declared", loc(k.declared)}};
  if (k.signature) j["signature"] = signature(*k.signature);
  return j;
}
KernelRef kernel(const json& j) {
  KernelRef k;
  k.form = static_cast<KernelRef::Form>(j.at("form").get<int>());
  k.function = j.at("function");
  k.written = j.at("written");
  k.where = loc(j.at("where"));
  k.declared = loc(j.at("declared"));
  if (j.contains("signature")) k.signature = signature(j.at("signature"));
  return k;
}

json accesses(const std::vector<StackAccess>& v) {
  json out = json::array();
  for (const auto& a : v) out.push_back({{"i", a.index}, {"t", type(a.type)}, {"at", loc(a.where)}});
  return out;
}
std::vector<StackAccess> accesses(const json& j) {
  std::vector<StackAccess> out;
  for (const auto& a : j) out.push_back({a.at("i").get<int64_t>(), type(a.at("t")), loc(a.at("at"))});
  return out;
}

}  // namespace

void to_json(nlohmann::json& j, const TuRegistrations& r) {
  json blocks = json::array(), defs = json::array(), impls = json::array(), kernels = json::array(),
       classes = json::array();
  for (const auto& b : r.blocks)
    blocks.push_back({{"kind", static_cast<int>(b.kind)}, {"stable", b.stable}, {"ns", b.ns},
                      {"key", b.dispatch_key}, {"macro", b.macro}, {"where", loc(b.where)}, {"opaque", b.opaque}});
  for (const auto& d : r.defs) {
    json x = {{"block", d.block}, {"schema", literal(d.schema)}, {"where", loc(d.where)}};
    if (d.kernel) x["kernel"] = kernel(*d.kernel);
    defs.push_back(std::move(x));
  }
  for (const auto& i : r.impls)
    impls.push_back({{"block", i.block}, {"name", literal(i.name)}, {"kernel", kernel(i.kernel)}, {"where", loc(i.where)}});
  for (const auto& k : r.boxed_kernels)
    kernels.push_back({{"function", k.function}, {"where", loc(k.where)}, {"reads", accesses(k.reads)},
                       {"writes", accesses(k.writes)}, {"opaque", k.opaque}});
  for (const auto& c : r.classes)
    classes.push_back({{"ns", c.ns}, {"name", c.name}, {"cpp", c.cpp_type}, {"methods", c.methods}, {"where", loc(c.where)}});
  j = {{"tu", r.tu},       {"blocks", blocks},   {"defs", defs},
       {"impls", impls},   {"kernels", kernels}, {"classes", classes},
       {"target", r.target_version}};
  if (r.boxable) j["boxable"] = *r.boxable;
}

void from_json(const nlohmann::json& j, TuRegistrations& r) {
  r = {};
  r.tu = j.at("tu");
  r.target_version = j.at("target");
  if (j.contains("boxable")) r.boxable = j.at("boxable").get<source::BoxableTypes>();
  for (const auto& b : j.at("blocks"))
    r.blocks.push_back({static_cast<BlockKind>(b.at("kind").get<int>()), b.at("stable"), b.at("ns"), b.at("key"),
                        b.at("macro"), loc(b.at("where")), b.value("opaque", false)});
  for (const auto& d : j.at("defs")) {
    OpDef x;
    x.block = d.at("block");
    x.schema = literal(d.at("schema"));
    x.where = loc(d.at("where"));
    if (d.contains("kernel")) x.kernel = kernel(d.at("kernel"));
    r.defs.push_back(std::move(x));
  }
  for (const auto& i : j.at("impls"))
    r.impls.push_back({i.at("block"), literal(i.at("name")), kernel(i.at("kernel")), loc(i.at("where"))});
  for (const auto& k : j.at("kernels"))
    r.boxed_kernels.push_back({k.at("function"), loc(k.at("where")), accesses(k.at("reads")),
                               accesses(k.at("writes")), k.at("opaque")});
  for (const auto& c : j.at("classes"))
    r.classes.push_back({c.at("ns"), c.at("name"), c.at("cpp"), c.at("methods").get<std::vector<std::string>>(),
                         loc(c.at("where"))});
}

}  // namespace torchabi::schema
