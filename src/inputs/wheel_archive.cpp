#include "inputs/wheel_archive.h"

#include <algorithm>
#include <zip.h>

#include "common/input_error.h"
#include "inputs/archive_limits.h"

namespace torchabi::inputs {

namespace {

std::string zip_message(zip_error_t* e) {
  const int code = zip_error_code_zip(e);
  if (code == ZIP_ER_NOZIP) return "not a zip archive (a wheel is a zip file)";
  if (code == ZIP_ER_INCONS) return "corrupt zip archive: its directory is inconsistent";
  return std::string("corrupt zip archive: ") + zip_error_strerror(e);
}

}  // namespace

bool safe_member_path(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.find('\\') != std::string_view::npos ||
      p.find('\0') != std::string_view::npos)
    return false;
  size_t start = 0;
  while (start <= p.size()) {
    size_t slash = p.find('/', start);
    std::string_view part = p.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part == "..") return false;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return true;
}

WheelArchive::WheelArchive(std::span<const std::byte> bytes, std::string name) : name_(std::move(name)) {
  if (bytes.empty()) throw InputError(name_, "not a zip archive (empty file)");
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
  if (!src) {
    std::string msg = zip_message(&err);
    zip_error_fini(&err);
    throw InputError(name_, msg);
  }
  zip_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!zip_) {
    zip_source_free(src);
    std::string msg = zip_message(&err);
    zip_error_fini(&err);
    throw InputError(name_, msg);
  }
  zip_error_fini(&err);

  const zip_int64_t n = zip_get_num_entries(zip_, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip_, zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME)) {
      std::string msg = std::string("corrupt zip archive: ") + zip_strerror(zip_);
      zip_discard(zip_);
      throw InputError(name_, msg);
    }
    std::string member = st.name;
    if (!safe_member_path(member)) {
      zip_discard(zip_);
      throw InputError(name_, "unsafe member path '" + member + "' (absolute or with '..'); not a valid wheel");
    }
    if (member.back() == '/') continue;  // a directory entry
    members_.push_back({std::move(member), (st.valid & ZIP_STAT_SIZE) ? st.size : 0, zip_uint64_t(i),
                        (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0});
  }
}

WheelArchive::~WheelArchive() {
  if (zip_) zip_discard(zip_);
}

const WheelMember* WheelArchive::dist_info(std::string_view file) const {
  // The .dist-info directory sits at the archive root: "<name>-<version>.dist-info/METADATA".
  for (const auto& m : members_) {
    const size_t slash = m.name.find('/');
    if (slash == std::string::npos || !std::string_view(m.name).substr(0, slash).ends_with(".dist-info")) continue;
    if (std::string_view(m.name).substr(slash + 1) == file) return &m;
  }
  return nullptr;
}

const WheelMember* WheelArchive::metadata() const { return dist_info("METADATA"); }

std::vector<std::byte> WheelArchive::read(const WheelMember& m, uint64_t max_size) const {
  const std::string where = name_ + "!" + m.name;
  const ArchiveLimits& limits = ArchiveLimits::current();
  // Refused before anything is decompressed; the loop below never reads past
  // the declared size, so a directory that understates it cannot get more.
  const uint64_t limit = std::min(max_size, limits.max_member_size);
  if (m.size > limit) throw InputError(where, limits.size_violation(m.size, limit));
  if (std::string why = limits.ratio_violation(m.size, m.compressed_size); !why.empty())
    throw InputError(where, "member " + why);
  zip_file_t* f = zip_fopen_index(zip_, m.index, 0);
  if (!f) throw InputError(where, std::string("cannot read member: ") + zip_strerror(zip_));
  // Grow with the data actually decompressed, never with the size the
  // directory claims: a forged size must not allocate gigabytes up front.
  constexpr uint64_t kChunk = uint64_t(1) << 20;
  std::vector<std::byte> out;
  uint64_t got = 0;
  zip_int64_t n = 0;
  try {
    out.reserve(size_t(std::min(m.size, kChunk * 8)));
    while (got < m.size) {
      const uint64_t want = std::min(kChunk, m.size - got);
      out.resize(size_t(got + want));
      n = zip_fread(f, out.data() + got, want);
      if (n <= 0) break;
      got += uint64_t(n);
    }
  } catch (const std::bad_alloc&) {
    zip_fclose(f);
    throw InputError(where, out_of_memory_reason(got));
  }
  out.resize(size_t(got));
  // One more read reaches the end of the stream, where libzip checks the CRC.
  std::byte extra{};
  const zip_int64_t tail = got == m.size && n >= 0 ? zip_fread(f, &extra, 1) : -1;
  std::string msg;
  if (tail != 0) {
    zip_error_t* e = zip_file_get_error(f);
    msg = zip_error_code_zip(e) != ZIP_ER_OK ? std::string("corrupt member: ") + zip_error_strerror(e)
                                             : "corrupt member: its size does not match the zip directory";
  }
  zip_fclose(f);
  if (!msg.empty()) throw InputError(where, msg);
  return out;
}

std::string WheelArchive::read_text(const WheelMember& m) const {
  auto bytes = read(m, uint64_t(64) << 20);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace torchabi::inputs
