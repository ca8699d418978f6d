#include "analyzers/binary/packaging_checks.h"

#include "analyzers/binary/platform_tag_check.h"
#include "common/input_error.h"
#include "common/text.h"
#include "inputs/wheel_archive.h"

namespace torchabi::binary {

namespace {

using text::join;

}  // namespace

PackagingContext packaging_context(const inputs::WheelArchive& wheel, const std::string& path) {
  PackagingContext c;
  inputs::WheelTags tags = inputs::tags_from_wheel_filename(path);
  if (const inputs::WheelMember* m = wheel.dist_info("WHEEL")) {
    inputs::WheelTags declared = inputs::tags_from_wheel_file(wheel.read_text(*m));
    // pip installs by the file name; a WHEEL file that says otherwise means
    // the wheel was renamed or built wrong, and neither can be trusted.
    if (!tags.empty() && !declared.empty() && declared.triples != tags.triples)
      throw InputError(path, "the file name's tags (" + join(tags.triples) + ") differ from " + m->name + " (" +
                                 join(declared.triples) + ")");
    if (tags.empty() && !declared.empty()) {
      tags = std::move(declared);
    }
  }
  c.wheel_claim = claim_from_wheel_tags(tags);
  c.platforms = std::move(tags.platforms);
  c.tags = join(tags.triples);
  return c;
}

void check_packaging(const LibraryScan& scan, std::string_view name, const PackagingContext& context,
                     const findings::Location& where, size_t subject, findings::Report& report) {
  check_cpython_abi(scan, name, context.wheel_claim, where, report.subjects[subject], report);
  check_platform_tags(scan, context.platforms, where, report);
}

}  // namespace torchabi::binary
