#include "inputs/conda_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <cstring>
#include <memory>
#include <zip.h>

#include "common/input_error.h"
#include "inputs/archive_limits.h"
#include "inputs/wheel_archive.h"

namespace torchabi::inputs {

namespace {

// info/index.json is a few kilobytes; anything near this is not metadata.
constexpr uint64_t kMaxIndexJson = uint64_t(16) << 20;
constexpr size_t kChunk = size_t(1) << 16;

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

// A tar reader that accepts exactly one compression: a package's tar is
// never anything else, and probing every format would accept junk.
ArchivePtr tar_reader(bool zstd) {
  ArchivePtr a(archive_read_new());
  if (!a) throw std::bad_alloc();
  if (zstd) archive_read_support_filter_zstd(a.get());
  else archive_read_support_filter_bzip2(a.get());
  archive_read_support_format_tar(a.get());
  return a;
}

std::string archive_message(archive* a, const char* fallback) {
  const char* s = archive_error_string(a);
  return std::string("corrupt ") + fallback + ": " + (s && *s ? s : "unreadable");
}

// A member nobody reads is still decompressed (a tar is one stream, and
// libarchive would skip it by decompressing it): drained here in chunks under
// the compression-ratio cap, so a bomb in a member that is not a library costs
// no more time than one in a library.
void drain_tar_member(archive* a, const std::string& where) {
  const ArchiveLimits& limits = ArchiveLimits::current();
  std::vector<char> scratch(kChunk);
  while (true) {
    if (std::string why = limits.ratio_violation(uint64_t(archive_filter_bytes(a, 0)),
                                                 uint64_t(archive_filter_bytes(a, -1)));
        !why.empty())
      throw InputError(where, why);
    const la_ssize_t n = archive_read_data(a, scratch.data(), scratch.size());
    if (n < 0) throw InputError(where, archive_message(a, "member"));
    if (n == 0) return;
  }
}

// Walks one tar stream opened on `a`: captures info/index.json, hands wanted
// regular files to `visit`.
void walk_tar(archive* a, const std::string& label, const char* what,
              const std::function<bool(std::string_view)>& want,
              const std::function<void(const std::string&, std::vector<std::byte>)>& visit, uint64_t max_member,
              CondaContents& out) {
  archive_entry* entry = nullptr;
  while (true) {
    const int r = archive_read_next_header(a, &entry);
    if (r == ARCHIVE_EOF) return;
    if (r < ARCHIVE_WARN) throw InputError(label, archive_message(a, what));
    const char* raw = archive_entry_pathname(entry);
    std::string name = raw ? raw : "";
    while (name.starts_with("./")) name.erase(0, 2);
    if (name.empty() || name == ".") continue;
    if (!safe_member_path(name))
      throw InputError(label, "unsafe member path '" + name + "' (absolute or with '..'); not a valid conda package");
    if (archive_entry_filetype(entry) != AE_IFREG || archive_entry_hardlink(entry)) continue;
    const bool index = name == "info/index.json";
    if (!index && !want(name)) {
      drain_tar_member(a, label + "!" + name);
      continue;
    }
    const std::string where = label + "!" + name;
    const ArchiveLimits& limits = ArchiveLimits::current();
    const uint64_t limit = std::min(index ? kMaxIndexJson : max_member, limits.max_member_size);
    const la_int64_t declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    if (declared < 0 || uint64_t(declared) > limit)
      throw InputError(where, limits.size_violation(uint64_t(declared), limit));
    // Grow with what is actually decompressed, never with the size the header claims.
    std::vector<std::byte> data;
    data.reserve(size_t(std::min<uint64_t>(uint64_t(declared), uint64_t(kChunk) * 16)));
    while (true) {
      const size_t at = data.size();
      if (at > limit) throw InputError(where, limits.size_violation(at, limit));
      // The whole tar stream's ratio so far (a tar compresses as one stream):
      // a member of zeros drives it past the limit long before memory runs out.
      if (std::string why = limits.ratio_violation(uint64_t(archive_filter_bytes(a, 0)),
                                                   uint64_t(archive_filter_bytes(a, -1)));
          !why.empty())
        throw InputError(where, why);
      data.resize(at + kChunk);
      const la_ssize_t n = archive_read_data(a, data.data() + at, kChunk);
      if (n < 0) throw InputError(where, archive_message(a, "member"));
      data.resize(at + size_t(n));
      if (n == 0) break;
    }
    if (index) out.index_json.assign(reinterpret_cast<const char*>(data.data()), data.size());
    else visit(name, std::move(data));
  }
}

// A zip member streamed into libarchive: the compressed tar is never held whole.
struct ZipStream {
  zip_file_t* file = nullptr;
  std::vector<char> buffer = std::vector<char>(kChunk);
};

la_ssize_t zip_stream_read(archive* a, void* ctx, const void** buf) {
  auto* s = static_cast<ZipStream*>(ctx);
  const zip_int64_t n = zip_fread(s->file, s->buffer.data(), s->buffer.size());
  if (n < 0) {
    archive_set_error(a, EIO, "%s", zip_file_strerror(s->file));
    return -1;
  }
  *buf = s->buffer.data();
  return la_ssize_t(n);
}

struct ZipDeleter {
  void operator()(zip_t* z) const { zip_discard(z); }
};

void read_conda_zip(std::span<const std::byte> bytes, const std::string& name,
                    const std::function<bool(std::string_view)>& want,
                    const std::function<void(const std::string&, std::vector<std::byte>)>& visit, uint64_t max_member,
                    CondaContents& out) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
  std::unique_ptr<zip_t, ZipDeleter> zip(src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err) : nullptr);
  if (!zip) {
    if (src) zip_source_free(src);
    const bool nozip = zip_error_code_zip(&err) == ZIP_ER_NOZIP;
    std::string msg = nozip ? "not a zip archive (a .conda package is a zip file)"
                            : std::string("corrupt zip archive: ") + zip_error_strerror(&err);
    zip_error_fini(&err);
    throw InputError(name, msg);
  }
  zip_error_fini(&err);
  // The format keeps the metadata and the files in two tars at the root:
  // info-<dist>.tar.zst and pkg-<dist>.tar.zst. Metadata first.
  zip_int64_t info = -1, pkg = -1;
  const zip_int64_t n = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* m = zip_get_name(zip.get(), zip_uint64_t(i), 0);
    std::string_view member = m ? m : "";
    if (!member.ends_with(".tar.zst") || member.find('/') != std::string_view::npos) continue;
    if (member.starts_with("info-")) info = i;
    else if (member.starts_with("pkg-")) pkg = i;
  }
  if (info < 0) throw InputError(name, "no info-*.tar.zst member: not a .conda package");
  for (zip_int64_t index : {info, pkg}) {
    if (index < 0) continue;  // a metadata-only package has no files to audit
    const std::string member = zip_get_name(zip.get(), zip_uint64_t(index), 0);
    ZipStream stream;
    stream.file = zip_fopen_index(zip.get(), zip_uint64_t(index), 0);
    if (!stream.file) throw InputError(name + "!" + member, std::string("cannot read member: ") + zip_strerror(zip.get()));
    ArchivePtr a = tar_reader(true);
    const int r = archive_read_open(a.get(), &stream, nullptr, zip_stream_read, nullptr);
    try {
      if (r != ARCHIVE_OK) throw InputError(name + "!" + member, archive_message(a.get(), "zstd tar"));
      // The metadata tar's only wanted member is info/index.json, which walk_tar always takes.
      const std::function<bool(std::string_view)> none = [](std::string_view) { return false; };
      walk_tar(a.get(), name + "!" + member, "zstd tar", index == info ? none : want, visit, max_member, out);
    } catch (...) {
      a.reset();
      zip_fclose(stream.file);
      throw;
    }
    a.reset();
    zip_fclose(stream.file);
  }
}

}  // namespace

bool is_conda_package_name(std::string_view path) { return path.ends_with(".conda") || path.ends_with(".tar.bz2"); }

CondaContents read_conda_package(std::span<const std::byte> bytes, const std::string& name,
                                 const std::function<bool(std::string_view)>& want,
                                 const std::function<void(const std::string&, std::vector<std::byte>)>& visit,
                                 uint64_t max_member) {
  CondaContents out;
  if (bytes.empty()) throw InputError(name, "empty file: not a conda package");
  static constexpr unsigned char kZip[4] = {'P', 'K', 3, 4};
  static constexpr unsigned char kBzip2[3] = {'B', 'Z', 'h'};
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), kZip, 4) == 0) {
    out.format = CondaFormat::Conda;
    read_conda_zip(bytes, name, want, visit, max_member, out);
  } else if (bytes.size() >= 3 && std::memcmp(bytes.data(), kBzip2, 3) == 0) {
    out.format = CondaFormat::TarBz2;
    ArchivePtr a = tar_reader(false);
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
      throw InputError(name, archive_message(a.get(), "bzip2 tar"));
    walk_tar(a.get(), name, "bzip2 tar", want, visit, max_member, out);
  } else {
    throw InputError(name, "not a conda package (neither a .conda zip nor a bzip2-compressed tar)");
  }
  if (out.index_json.empty()) throw InputError(name, "no info/index.json: not a conda package");
  return out;
}

}  // namespace torchabi::inputs
