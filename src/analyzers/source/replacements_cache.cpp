#include "analyzers/source/replacements_cache.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzers/source/lint_env.h"
#include "common/atomic_file.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

namespace {

namespace fs = std::filesystem;

// Bump when Replacement gains a field or the layout below changes.
constexpr std::string_view kMagic = "torchabi-replacements-v1\n";

class Writer {
public:
  void u32(uint32_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void opt(const std::optional<std::string>& s) {
    u32(s ? 1 : 0);
    if (s) str(*s);
  }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

// Every read is bounds-checked: a truncated or foreign file fails cleanly.
class CacheReader {
public:
  explicit CacheReader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return ok_ && in_.empty(); }
  uint32_t u32() {
    uint32_t v = 0;
    if (in_.size() < sizeof v) return fail();
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return v;
  }
  std::string str() {
    uint32_t n = u32();
    if (!ok_ || in_.size() < n) return fail(), std::string();
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  std::optional<std::string> opt() {
    uint32_t has = u32();
    if (has > 1) return fail(), std::nullopt;
    if (!has) return std::nullopt;
    return str();
  }
  uint32_t fail() {
    ok_ = false;
    return 0;
  }

private:
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

std::string encode_replacements(const Replacements& r, const std::string& yaml_digest) {
  Writer w;
  w.str(kMagic);
  w.str(yaml_digest);
  w.u32(static_cast<uint32_t>(r.entries().size()));
  for (const auto& e : r.entries()) {
    w.u32(static_cast<uint32_t>(e.legacy.size()));
    for (const auto& l : e.legacy) w.str(l);
    w.str(e.kind);
    w.opt(e.replacement);
    w.str(e.header);
    w.u32(e.since ? 1 : 0);
    if (e.since) {
      w.u32(static_cast<uint32_t>(e.since->major));
      w.u32(static_cast<uint32_t>(e.since->minor));
      w.u32(static_cast<uint32_t>(e.since->patch));
    }
    w.u32(static_cast<uint32_t>(e.fix));
    w.u32(static_cast<uint32_t>(e.style));
    w.str(e.note);
  }
  return w.take();
}

std::optional<Replacements> decode_replacements(std::string_view bytes, const std::string& yaml_digest) {
  CacheReader r(bytes);
  if (r.str() != kMagic || r.str() != yaml_digest) return std::nullopt;
  const uint32_t count = r.u32();
  // Each entry takes at least 40 bytes: a count this large is corruption.
  if (!r.ok() || count > bytes.size() / 40) return std::nullopt;
  std::vector<Replacement> entries(count);
  for (auto& e : entries) {
    const uint32_t legacy = r.u32();
    if (!r.ok() || legacy == 0 || legacy > bytes.size() / 4) return std::nullopt;
    for (uint32_t i = 0; i < legacy; ++i) e.legacy.push_back(r.str());
    e.kind = r.str();
    e.replacement = r.opt();
    e.header = r.str();
    const uint32_t has_since = r.u32();
    if (has_since > 1) return std::nullopt;
    if (has_since) {
      TorchVersion v;
      v.major = static_cast<int>(r.u32());
      v.minor = static_cast<int>(r.u32());
      v.patch = static_cast<int>(r.u32());
      e.since = v;
    }
    const uint32_t fix = r.u32(), style = r.u32();
    if (fix > static_cast<uint32_t>(ReplacementFix::No) || style > static_cast<uint32_t>(ReplacementStyle::CallTemplate))
      return std::nullopt;
    e.fix = static_cast<ReplacementFix>(fix);
    e.style = static_cast<ReplacementStyle>(style);
    e.note = r.str();
    if (!r.ok()) return std::nullopt;
  }
  if (!r.at_end()) return std::nullopt;
  return Replacements::from_entries(std::move(entries));
}

std::string replacements_digest(const inputs::RulesSource& src) {
  return digest_hex(src.require(Replacements::kHandWritten) + '\0' + src.read(Replacements::kDerived).value_or(""));
}

Replacements load_replacements_cached(const inputs::RulesSource& src, const std::string& cache_dir) {
  if (cache_dir.empty()) return Replacements::load(src);
  const std::string digest = replacements_digest(src);
  const fs::path path = fs::path(cache_dir) / ("replacements-" + digest + ".bin");
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream buf;
      buf << in.rdbuf();
      if (auto cached = decode_replacements(buf.str(), digest)) return std::move(*cached);
    }
  }
  Replacements parsed = Replacements::load(src);
  try {
    std::error_code ec;
    fs::create_directories(cache_dir, ec);
    write_file_atomically(path.string(), encode_replacements(parsed, digest));
  } catch (const std::exception&) {
    // An unwritable cache directory costs the parse next time, nothing else.
  }
  return parsed;
}

}  // namespace torchabi::source
