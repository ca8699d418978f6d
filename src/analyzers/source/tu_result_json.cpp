#include "analyzers/source/tu_result_json.h"

#include "common/json_io.h"

#include <nlohmann/json.hpp>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace torchabi::source {

using nlohmann::json;

namespace {

// File names are bytes, and JSON text holds only UTF-8: a name with a byte
// that is not UTF-8 (0xff) would be replaced (U+FFFD) or refused by the
// serializer, and the parent would report a file that does not exist. This
// transport is private to the child and its parent (and the result cache), so
// such strings travel hex-encoded behind a marker no real text starts with
// (a marker-led string is encoded too, so decoding is exact).
constexpr char kTuBytesMarker = '\x01';

bool tu_json_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

void tu_json_encode_bytes(json& j) {
  if (j.is_structured()) {
    for (auto& v : j) tu_json_encode_bytes(v);
    return;
  }
  if (!j.is_string()) return;
  const std::string& s = j.get_ref<const std::string&>();
  if (tu_json_valid_utf8(s) && (s.empty() || s.front() != kTuBytesMarker)) return;
  static const char* hex = "0123456789abcdef";
  std::string out(1, kTuBytesMarker);
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  j = std::move(out);
}

void tu_json_decode_bytes(json& j) {
  if (j.is_structured()) {
    for (auto& v : j) tu_json_decode_bytes(v);
    return;
  }
  if (!j.is_string()) return;
  const std::string& s = j.get_ref<const std::string&>();
  if (s.empty() || s.front() != kTuBytesMarker) return;
  const auto nibble = [](char h) { return h <= '9' ? h - '0' : h - 'a' + 10; };
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); i += 2) out += char(nibble(s[i]) << 4 | nibble(s[i + 1]));
  j = std::move(out);
}

json location_to(const findings::Location& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}, {"member", l.member}, {"symbol", l.symbol}};
}
findings::Location location_from(const json& j) {
  findings::Location l;
  l.file = j.at("file");
  l.line = j.at("line");
  l.column = j.at("column");
  l.member = j.at("member");
  l.symbol = j.at("symbol");
  return l;
}

json fix_to(const findings::FixIt& f) {
  json o = {{"file", f.file},          {"begin", f.begin_offset},
            {"end", f.end_offset},     {"replacement", f.replacement},
            {"safe", f.safety == findings::FixSafety::Safe}, {"description", f.description}};
  o["needs"] = f.needs ? json(f.needs->encoded()) : json(nullptr);
  o["kept"] = json::array();
  for (const auto& k : f.kept) o["kept"].push_back({k.begin_offset, k.end_offset, k.at});
  return o;
}
findings::FixIt fix_from(const json& x) {
  findings::FixIt f;
  f.file = x.at("file");
  f.begin_offset = x.at("begin");
  f.end_offset = x.at("end");
  f.replacement = x.at("replacement");
  f.safety = x.at("safe").get<bool>() ? findings::FixSafety::Safe : findings::FixSafety::Unsafe;
  f.description = x.at("description");
  if (!x.at("needs").is_null()) f.needs = TorchVersion::decode(x.at("needs").get<uint64_t>());
  for (const auto& k : x.at("kept")) f.kept.push_back({k.at(0), k.at(1), k.at(2)});
  return f;
}

}  // namespace

std::string serialize_tu_result(const TuResult& r) {
  json j;
  const auto& s = r.subject;
  j["subject"] = {{"kind", s.kind},       {"path", s.path},   {"verdict", s.verdict},
                  {"floor_is_baseline", s.floor_is_baseline}, {"loads_on", s.loads_on},
                  {"floor_set_by", s.floor_set_by}};
  j["subject"]["floor"] = s.floor ? json(s.floor->encoded()) : json(nullptr);
  j["subject"]["facts"] = json::array();
  for (const auto& [k, v] : s.facts) j["subject"]["facts"].push_back({k, v});
  j["findings"] = json::array();
  for (const auto& f : r.findings) {
    json o = {{"rule", f.rule}, {"location", location_to(f.location)}, {"message", f.message},
              {"help", f.help}, {"notes", f.notes}};
    o["severity"] = f.severity ? json(int(*f.severity)) : json(nullptr);
    if (f.fix) o["fix"] = fix_to(*f.fix);
    if (f.fallback_fix) o["fallback_fix"] = fix_to(*f.fallback_fix);
    j["findings"].push_back(std::move(o));
  }
  j["suppressions"] = json::array();
  for (const auto& s2 : r.suppressions)
    j["suppressions"].push_back({{"file", s2.file}, {"line", s2.line}, {"column", s2.column}, {"rules", s2.rules},
                                 {"reason", s2.reason}});
  j["files_read"] = r.files_read;
  j["files_missing"] = r.files_missing;
  j["failure"] = r.failure;
  j["crashed"] = r.crashed;
  tu_json_encode_bytes(j);
  return json_io::dump(j);
}

TuResult deserialize_tu_result(const std::string& text) {
  try {
    json j = json_io::parse(text);
    tu_json_decode_bytes(j);
    TuResult r;
    const json& s = j.at("subject");
    r.subject.kind = s.at("kind");
    r.subject.path = s.at("path");
    r.subject.verdict = s.at("verdict");
    r.subject.floor_is_baseline = s.at("floor_is_baseline");
    r.subject.loads_on = s.at("loads_on");
    r.subject.floor_set_by = s.at("floor_set_by").get<std::vector<std::string>>();
    if (!s.at("floor").is_null()) r.subject.floor = TorchVersion::decode(s.at("floor").get<uint64_t>());
    for (const auto& kv : s.at("facts")) r.subject.facts.emplace_back(kv.at(0), kv.at(1));
    for (const auto& o : j.at("findings")) {
      findings::Finding f;
      f.rule = o.at("rule");
      f.location = location_from(o.at("location"));
      f.message = o.at("message");
      f.help = o.at("help");
      f.notes = o.at("notes").get<std::vector<std::string>>();
      if (!o.at("severity").is_null()) f.severity = static_cast<findings::Severity>(o.at("severity").get<int>());
      if (o.contains("fix")) f.fix = fix_from(o.at("fix"));
      if (o.contains("fallback_fix")) f.fallback_fix = fix_from(o.at("fallback_fix"));
      r.findings.push_back(std::move(f));
    }
    for (const auto& o : j.at("suppressions")) {
      InlineSuppression s2;
      s2.file = o.at("file");
      s2.line = o.at("line");
      s2.column = o.at("column");
      s2.rules = o.at("rules").get<std::vector<std::string>>();
      s2.reason = o.at("reason");
      r.suppressions.push_back(std::move(s2));
    }
    r.files_read = j.at("files_read").get<std::vector<std::string>>();
    r.files_missing = j.at("files_missing").get<std::vector<std::string>>();
    r.failure = j.at("failure");
    r.crashed = j.at("crashed");
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed TU result: ") + e.what());
  }
}

}  // namespace torchabi::source
