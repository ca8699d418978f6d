// Which PyTorch headers a repository's file reaches, through the #include
// lines of the project's own headers too. A stable port usually includes the
// stable ABI once, in a compatibility header ("StableABICompat.h", "ops.h"),
// and its sources only that header; judging a source by its own #include
// lines alone sees no PyTorch at all in most of them.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace torchabi::inputs {

// stable: a header of the stable ABI and no other PyTorch header; legacy: an
// ATen, c10 or torch/extension.h header; none: no PyTorch header at all.
enum class TorchIncludeKind { None, Stable, Legacy };

class TorchIncludeGraph {
 public:
  // `headers`: every project header the walk found (absolute paths); an
  // #include resolves against the including file's directory first, then
  // against any of these whose path ends with the included name.
  explicit TorchIncludeGraph(const std::vector<std::string>& headers);

  // What `file` reaches. A file whose own #include lines say stable or legacy
  // is that (its own lines are the strongest evidence); otherwise it is what
  // the project headers it includes reach, legacy winning over stable.
  TorchIncludeKind kind(const std::string& file);

  // Whether `file` reaches, by its own lines or through any project header,
  // the stable ABI beyond header-only C++: torch/csrc/stable/** or the C
  // shim. Header-only C++ (torch/headeronly/**) serves legacy code as well
  // (a helper shared by both of a project's libraries), so it alone does not
  // make a source part of a stable port.
  bool reaches_stable_api(const std::string& file);

  // Whether `file`, or a project header it reaches, names both a stable API
  // header (beyond header-only C++) and a legacy one in its own #include
  // lines: a port in progress, whose legacy include is a defect to report,
  // not the mark of a legacy library (kind() says Legacy for it).
  bool mixes_stable_and_legacy(const std::string& file);

 private:
  struct Own {
    TorchIncludeKind kind = TorchIncludeKind::None;
    bool api = false;                 // a stable header other than torch/headeronly
    bool legacy = false;              // an ATen, c10 or torch/extension.h header
    std::vector<std::string> quoted;  // included names that may be the project's
  };
  Own own_includes(const std::string& file) const;
  std::string resolve(const std::string& from, const std::string& name) const;
  TorchIncludeKind reach(const std::string& file, int depth);
  bool reach_api(const std::string& file, int depth);
  bool reach_mixed(const std::string& file, int depth);

  std::map<std::string, std::vector<std::string>> by_basename_;
  std::map<std::string, TorchIncludeKind> memo_;
  std::map<std::string, bool> api_memo_;
  std::map<std::string, bool> mixed_memo_;
};

}  // namespace torchabi::inputs
