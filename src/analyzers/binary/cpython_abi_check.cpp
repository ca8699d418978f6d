#include "analyzers/binary/cpython_abi_check.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "analyzers/binary/library_scan.h"
#include "inputs/python/wheel_tags.h"

namespace torchabi::binary {

namespace {

using inputs::PythonVersion;

std::string_view basename(std::string_view p) {
  const size_t slash = p.find_last_of("/\\");
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

// "cp311" -> 3.11; "cp3" or "py3" -> nullopt.
std::optional<PythonVersion> cpython_tag_version(std::string_view tag) {
  if (!tag.starts_with("cp3") || tag.size() < 4) return std::nullopt;
  return PythonVersion::parse("3." + std::string(tag.substr(3)));
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "python311.dll": the version-specific import library of CPython 3.11 on
// Windows. An abi3 module links python3.dll instead.
// (Matched by hand, as the patterns below: compiling a std::regex cost every
// audit process more than reading the library did; bench/audit.)
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// python3[0-9]+(_d)?\.dll, the whole name.
bool is_version_specific_python_dll(std::string_view n) {
  if (!n.starts_with("python3") || !n.ends_with(".dll")) return false;
  n = n.substr(7, n.size() - 11);  // "python3" and ".dll" cannot overlap
  if (n.ends_with("_d")) n.remove_suffix(2);
  return !n.empty() && std::all_of(n.begin(), n.end(), is_digit);
}

std::optional<std::string> version_specific_python_dll(const LibraryScan& scan) {
  for (const auto& n : scan.needed)
    if (is_version_specific_python_dll(lower(n))) return n;
  return std::nullopt;
}

// .*\.(cpython-3|cp3)([0-9]+)[-_a-z0-9]*\.(so|pyd), the whole name: the
// digits after the last such "." (the greedy .* backtracks from the end),
// or nothing. "." matches no line break.
std::optional<std::string> tagged_module_minor(std::string_view base) {
  const auto in_tail = [](char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '-' || c == '_'; };
  std::string_view ext;
  if (base.ends_with(".so")) ext = ".so";
  else if (base.ends_with(".pyd")) ext = ".pyd";
  else return std::nullopt;
  if (base.size() <= ext.size()) return std::nullopt;
  for (size_t dot = base.rfind('.', base.size() - ext.size() - 1); dot != std::string_view::npos;
       dot = dot == 0 ? std::string_view::npos : base.rfind('.', dot - 1)) {
    if (base.substr(0, dot).find_first_of("\n\r") != std::string_view::npos) return std::nullopt;
    std::string_view rest = base.substr(dot + 1, base.size() - ext.size() - dot - 1);
    if (rest.starts_with("cpython-3")) rest.remove_prefix(9);
    else if (rest.starts_with("cp3")) rest.remove_prefix(3);
    else continue;
    size_t digits = 0;
    while (digits < rest.size() && is_digit(rest[digits])) ++digits;
    if (digits == 0 || !std::all_of(rest.begin() + digits, rest.end(), in_tail)) continue;
    return std::string(rest.substr(0, digits));
  }
  return std::nullopt;
}

std::string list_some(const std::vector<std::string>& names, size_t shown = 6) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

// The Py_LIMITED_API value of a release: 3.9 -> "0x03090000".
std::string limited_api_hex(PythonVersion v) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%02X%02X0000", v.major, v.minor);
  return hex;
}

struct Usage {
  std::vector<std::string> outside;  // not in the stable ABI at all
  std::vector<std::string> newer;    // joined after the claimed minimum, for certain
  PythonVersion needs{3, 2};         // the oldest CPython whose stable ABI has them all (lower bound)
  std::string needs_set_by;
};

Usage classify(const LibraryScan& scan, std::optional<PythonVersion> min) {
  Usage u;
  const auto& abi = inputs::CPythonStableAbi::current();
  for (const auto& name : scan.python_imports) {
    const inputs::StableAbiSymbol* s = abi.find(name);
    if (!s) {
      u.outside.push_back(name);
      continue;
    }
    if (s->added_min > u.needs) {
      u.needs = s->added_min;
      u.needs_set_by = name;
    }
    if (min && s->added_min > *min) u.newer.push_back(name + " (" + s->added_min.str() + ")");
  }
  return u;
}

}  // namespace

PythonAbiClaim claim_from_module_name(std::string_view member) {
  const std::string_view base = basename(member);
  PythonAbiClaim c;
  c.source = "the file name " + std::string(base);
  if (base.ends_with(".abi3.so")) {
    c.kind = PythonAbiClaim::Kind::Abi3;
    return c;
  }
  // PEP 3149 / the Windows equivalent: ".cpython-311-<platform>.so", ".cp311-win_amd64.pyd"
  if (auto minor = tagged_module_minor(base)) {
    c.kind = PythonAbiClaim::Kind::VersionSpecific;
    c.cpython = "3." + *minor;
  }
  return c;
}

PythonAbiClaim claim_from_wheel_tags(const inputs::WheelTags& tags) {
  PythonAbiClaim c;
  const bool abi3 = std::find(tags.abi.begin(), tags.abi.end(), "abi3") != tags.abi.end();
  for (const auto& py : tags.python) {
    const auto v = cpython_tag_version(py);
    if (!v) continue;
    if (abi3) {
      // "cp39.cp310-abi3": the oldest one is the promise.
      if (!c.min || *v < *c.min) c.min = v;
      c.kind = PythonAbiClaim::Kind::Abi3;
      c.source = "the wheel tag " + py + "-abi3";
    } else if (std::find(tags.abi.begin(), tags.abi.end(), py) != tags.abi.end()) {
      c.kind = PythonAbiClaim::Kind::VersionSpecific;
      c.cpython = v->str();
      c.source = "the wheel tag " + py + "-" + py;
    }
  }
  if (c.kind == PythonAbiClaim::Kind::Abi3 && c.min) c.source = "the wheel tag cp3" + std::to_string(c.min->minor) + "-abi3";
  return c;
}

void check_cpython_abi(const LibraryScan& scan, std::string_view member, const PythonAbiClaim& wheel,
                       const findings::Location& where, findings::Subject& subject, findings::Report& report) {
  const PythonAbiClaim file = claim_from_module_name(member);
  const auto dll = version_specific_python_dll(scan);
  if (scan.python_imports.empty() && file.kind == PythonAbiClaim::Kind::None && !dll) return;

  // The wheel's tag promises more than a file name: it carries the minimum.
  const bool abi3 = file.kind == PythonAbiClaim::Kind::Abi3 || wheel.kind == PythonAbiClaim::Kind::Abi3;
  const PythonAbiClaim& claim = wheel.kind == PythonAbiClaim::Kind::Abi3 ? wheel : file;
  const Usage u = classify(scan, abi3 ? claim.min : std::nullopt);

  std::string fact;
  if (abi3) fact = "abi3" + (claim.min ? " (CPython >= " + claim.min->str() + ", " + claim.source + ")" : " (" + claim.source + ")");
  else if (file.kind == PythonAbiClaim::Kind::VersionSpecific) fact = "CPython " + file.cpython + " only (" + file.source + ")";
  else fact = "no claim in the file name";
  if (!scan.python_imports.empty()) {
    fact += "; imports " + std::to_string(scan.python_imports.size()) + " C API symbols";
    if (u.outside.empty()) fact += ", all in the stable ABI of CPython >= " + u.needs.str();
    else fact += ", " + std::to_string(u.outside.size()) + " outside the stable ABI";
  }
  subject.facts.emplace_back("CPython ABI", fact);
  if (!abi3) return;

  auto finding = [&](const char* rule, std::string message, std::string help) {
    return findings::make_finding(rule, where, std::move(message), std::move(help));
  };
  if (file.kind == PythonAbiClaim::Kind::VersionSpecific) {
    report.add(finding("binary-abi3-non-limited-api",
                       claim.source + " promises abi3, but " + std::string(basename(member)) +
                           " is named for CPython " + file.cpython + " only",
                       "build it with py_limited_api=True (setuptools) or Py_LIMITED_API, which names it *.abi3.so"));
  }
  if (dll) {
    report.add(finding("binary-abi3-non-limited-api",
                       claim.source + " promises abi3, but the module links " + *dll +
                           ", the import library of one CPython release",
                       "define Py_LIMITED_API when compiling: the module then links python3.dll"));
  }
  if (!u.outside.empty()) {
    findings::Finding f = finding(
        "binary-abi3-non-limited-api",
        claim.source + " promises abi3, but the module imports " + std::to_string(u.outside.size()) +
            " C API symbol" + (u.outside.size() == 1 ? "" : "s") + " outside CPython's stable ABI: " +
            list_some(u.outside),
        "compile with Py_LIMITED_API set to the oldest CPython supported (e.g. -DPy_LIMITED_API=0x03090000) and "
        "replace what no longer compiles; or drop the abi3 tag and build one wheel per CPython");
    for (const auto& n : u.outside) f.notes.push_back("not in the stable ABI: " + n);
    report.add(std::move(f));
  }
  if (!u.newer.empty()) {
    findings::Finding f = finding(
        "binary-abi3-newer-than-tag",
        claim.source + " promises CPython >= " + claim.min->str() + ", but the module imports " +
            list_some(u.newer) + ", which joined the stable ABI later",
        "tag the wheel cp3" + std::to_string(u.needs.minor) + "-abi3 (it needs CPython >= " + u.needs.str() +
            ", set by " + u.needs_set_by + "), or define Py_LIMITED_API=" + limited_api_hex(*claim.min) +
            " and replace what no longer compiles");
    for (const auto& n : u.newer) f.notes.push_back("joined later: " + n);
    report.add(std::move(f));
  }
}

}  // namespace torchabi::binary
