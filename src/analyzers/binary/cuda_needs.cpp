#include "analyzers/binary/cuda_needs.h"

#include <map>
#include <mutex>

#include "common/input_error.h"
#include "inputs/torch_install.h"

namespace torchabi::binary {

void CudaNeeds::add(const inputs::CudaLibraryNeed& need) {
  for (const auto& l : libraries)
    if (l.needed == need.needed) return;
  libraries.push_back(need);
  if (need.majors.empty()) return;  // names no CUDA major
  if (!constrained) {
    constrained = true;
    majors = need.majors;
    return;
  }
  std::vector<int> kept;
  for (int m : majors)
    if (std::find(need.majors.begin(), need.majors.end(), m) != need.majors.end()) kept.push_back(m);
  majors = std::move(kept);
}

void CudaNeeds::merge(const CudaNeeds& other) {
  for (const auto& l : other.libraries) add(l);
}

std::string CudaNeeds::majors_text() const {
  if (!constrained) return "any";
  if (majors.empty()) return "none (its CUDA libraries come from different CUDA releases)";
  std::string out;
  for (size_t i = 0; i < majors.size(); ++i)
    out += (i == 0 ? "" : i + 1 == majors.size() ? " or " : ", ") + std::to_string(majors[i]);
  return out;
}

std::string CudaNeeds::libraries_text() const {
  std::string out;
  for (const auto& l : libraries) out += (out.empty() ? "" : ", ") + l.needed + " (" + l.component + ")";
  return out;
}

CudaNeeds cuda_needs(const std::vector<std::string>& needed) {
  CudaNeeds out;
  const auto& table = inputs::CudaLibraries::current();
  for (const auto& n : needed)
    if (auto need = table.classify(n)) out.add(*need);
  return out;
}

void describe_cuda(const CudaNeeds& needs, findings::Subject& s) {
  if (needs.empty()) return;
  s.facts.emplace_back("cuda", "CUDA " + needs.majors_text() + ": " + needs.libraries_text());
  s.facts.emplace_back("cuda majors", needs.constrained ? needs.majors_text() : "any");
  if (needs.constrained) s.loads_on += (s.loads_on.empty() ? "" : ", ") + std::string("with CUDA ") + needs.majors_text();
}

namespace {

std::optional<int> major_of(const std::string& cuda_version) {
  if (cuda_version.empty() || cuda_version == "none") return std::nullopt;
  const auto v = TorchVersion::parse_dotted(cuda_version);
  if (!v) return std::nullopt;
  return v->major;
}

TorchCuda read_torch_cuda(inputs::TorchInstall& t) {
  TorchCuda out{t.cuda(), t.cuda_source(), major_of(t.cuda())};
  if (!out.version.empty()) return out;
  // Nothing states it: the CUDA build's own libraries say what they need.
  bool has_cuda_library = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& stem = t.library(i).stem;
    if (!stem.ends_with("_cuda")) continue;  // libtorch_cuda, libc10_cuda
    has_cuda_library = true;
    try {
      const auto& lib = t.load(i);
      const CudaNeeds needs = cuda_needs(lib.needed);
      if (needs.constrained && needs.majors.size() == 1) {
        out.version = std::to_string(needs.majors.front());
        out.major = needs.majors.front();
        out.source = lib.names.front() + " needs " + needs.libraries.front().needed;
        return out;
      }
    } catch (const InputError&) {
      // Unreadable: the resolution reports it; the CUDA stays unknown.
    }
  }
  // A shared library directory may hold only part of a build; a package or
  // wheel without a *_cuda library is a CPU build.
  if (!has_cuda_library && t.kind() != inputs::TorchInstall::Kind::LibraryDirectory) {
    out.version = "none";
    out.source = "no libtorch_cuda or libc10_cuda in the install";
  }
  return out;
}

}  // namespace

TorchCuda torch_cuda(inputs::TorchInstall& t) {
  // Keyed by path and release: an install is read once however many libraries are resolved on it.
  static std::mutex mu;
  static std::map<std::string, TorchCuda> cache;
  const std::string key = t.path() + "\n" + t.version();
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  TorchCuda c = read_torch_cuda(t);
  std::lock_guard<std::mutex> lock(mu);
  return cache.emplace(key, c).first->second;
}

void check_cuda_on_torches(const CudaNeeds& needs, const findings::Location& where, const AuditOptions& options,
                           findings::Report& report, size_t subject) {
  if (needs.empty() || !needs.constrained) return;
  for (auto* torch : options.torches) {
    const TorchCuda c = torch_cuda(*torch);
    const std::string name = torch->display_name() + " (" + torch->path() + ")";
    std::string fact;
    if (c.version.empty()) fact = "unknown: the install does not say which CUDA it was built for";
    else if (c.version == "none") fact = "mismatch: CPU-only build (" + c.source + ")";
    else if (c.major && needs.allows(*c.major)) fact = "matches: CUDA " + c.version + " (" + c.source + ")";
    else fact = "mismatch: CUDA " + c.version + " (" + c.source + ")";
    report.subjects.at(subject).facts.emplace_back("cuda on " + torch->path(), fact);
    if (!fact.starts_with("mismatch")) continue;
    findings::Finding f;
    f.rule = "binary-cuda-mismatch";
    f.location = where;
    const std::string need = "CUDA " + needs.majors_text();
    f.message = c.version == "none"
                    ? "needs " + need + " (" + needs.libraries_text() + "), but " + name + " is a CPU-only build"
                    : "needs " + need + " (" + needs.libraries_text() + "), but " + name + " is built for CUDA " +
                          c.version;
    f.help = "install the torch build for " + need + " (e.g. the +cu" + std::to_string(needs.majors.empty() ? 0 : needs.majors.front()) +
             "x wheels), or rebuild the extension against the CUDA that torch uses";
    f.notes.push_back("torch's CUDA from " + c.source);
    for (const auto& l : needs.libraries)
      f.notes.push_back(l.needed + ": " + l.component + ", CUDA " +
                        (l.majors.empty() ? std::string("any") : [&] {
                          std::string m;
                          for (int x : l.majors) m += (m.empty() ? "" : ",") + std::to_string(x);
                          return m;
                        }()) + " (" + l.source + ")");
    report.add(std::move(f));
  }
}

}  // namespace torchabi::binary
