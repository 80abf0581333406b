#include "io/table_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "io/crc32c.h"

namespace sluice {
namespace table {

namespace {

absl::Status ReadWholeFile(const std::string& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", path));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int error = errno;
    close(fd);
    return absl::ErrnoToStatus(error, absl::StrCat("cannot stat ", path));
  }
  out->clear();
  // A file that changes while it is read is read as far as it goes.
  out->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = pread(fd, &(*out)[done], out->size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat("cannot read ", path));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out->resize(done);
  close(fd);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<TableReader>> TableReader::Open(const std::string& path) {
  std::string bytes;
  absl::Status read = ReadWholeFile(path, &bytes);
  if (!read.ok()) return read;
  return FromBytes(std::move(bytes), path);
}

absl::StatusOr<std::unique_ptr<TableReader>> TableReader::FromBytes(std::string bytes,
                                                                    std::string name) {
  std::unique_ptr<TableReader> reader(new TableReader(std::move(bytes), std::move(name)));
  absl::Status init = reader->Init();
  if (!init.ok()) return init;
  return reader;
}

absl::Status TableReader::Corrupt(absl::string_view what) const {
  return absl::DataLossError(absl::StrCat(what, " in table ", name_));
}

absl::Status TableReader::Init() {
  if (bytes_.size() < kFooterLength) {
    return Corrupt("file is too short to be an sstable");
  }
  const char* footer = bytes_.data() + bytes_.size() - kFooterLength;
  if (DecodeFixed64(footer + 2 * kMaxEncodedHandleLength) != kTableMagicNumber) {
    return Corrupt("not an sstable (bad magic number)");
  }
  absl::string_view handles(footer, 2 * kMaxEncodedHandleLength);
  BlockHandle metaindex, index;
  if (!metaindex.DecodeFrom(&handles) || !index.DecodeFrom(&handles)) {
    return Corrupt("bad block handle");
  }
  absl::string_view contents;
  absl::Status s = ReadBlock(index, &contents);
  if (!s.ok()) return s;
  std::vector<Entry> entries;
  s = DecodeBlock(contents, &entries);
  if (!s.ok()) return s;
  index_.reserve(entries.size());
  for (Entry& entry : entries) {
    IndexEntry ie;
    ie.key = std::move(entry.key);
    absl::string_view value = entry.value;
    if (!ie.handle.DecodeFrom(&value)) return Corrupt("bad block handle in the index block");
    index_.push_back(std::move(ie));
  }
  return absl::OkStatus();
}

absl::Status TableReader::ReadBlock(const BlockHandle& handle, absl::string_view* contents) const {
  const uint64_t file_size = bytes_.size();
  if (handle.offset > file_size || handle.size > file_size - handle.offset ||
      kBlockTrailerSize > file_size - handle.offset - handle.size) {
    return Corrupt(absl::StrCat("truncated block read (block at ", handle.offset, " of ",
                                handle.size, " bytes)"));
  }
  const char* data = bytes_.data() + handle.offset;
  const size_t n = static_cast<size_t>(handle.size);
  const uint32_t stored = crc32c::Unmask(DecodeFixed32(data + n + 1));
  const uint32_t actual = crc32c::Value(data, n + 1);
  if (stored != actual) {
    return Corrupt(absl::StrCat("block checksum mismatch (block at ", handle.offset, ")"));
  }
  switch (static_cast<uint8_t>(data[n])) {
    case kNoCompression:
      *contents = absl::string_view(data, n);
      return absl::OkStatus();
    case kSnappyCompression:
      return absl::UnimplementedError(
          absl::StrCat("table ", name_, " has a Snappy-compressed block (at ", handle.offset,
                       "); Sluice reads uncompressed tables only, as TensorFlow writes them"));
    default:
      return Corrupt(absl::StrCat("bad block type ", static_cast<int>(data[n] & 0xff)));
  }
}

absl::Status TableReader::DecodeBlock(absl::string_view contents,
                                      std::vector<Entry>* entries) const {
  entries->clear();
  if (contents.size() < sizeof(uint32_t)) return Corrupt("bad block contents");
  const uint32_t num_restarts = DecodeFixed32(contents.data() + contents.size() - 4);
  const uint64_t max_restarts = (contents.size() - sizeof(uint32_t)) / sizeof(uint32_t);
  if (num_restarts > max_restarts) return Corrupt("bad block contents");
  const size_t restarts_offset = contents.size() - (1 + num_restarts) * sizeof(uint32_t);
  // Every restart point must start an entry that shares nothing; they are checked against
  // the entries' offsets as the entries are decoded.
  size_t next_restart = 0;
  absl::string_view rest = contents.substr(0, restarts_offset);
  std::string key;
  while (!rest.empty()) {
    const size_t offset = restarts_offset - rest.size();
    uint32_t shared = 0, non_shared = 0, value_size = 0;
    if (!GetVarint32(&rest, &shared) || !GetVarint32(&rest, &non_shared) ||
        !GetVarint32(&rest, &value_size) || shared > key.size() || non_shared > rest.size() ||
        value_size > rest.size() - non_shared) {
      return Corrupt("bad entry in block");
    }
    while (next_restart < num_restarts &&
           DecodeFixed32(contents.data() + restarts_offset + 4 * next_restart) < offset) {
      // A restart point inside an entry.
      return Corrupt("bad entry in block");
    }
    if (next_restart < num_restarts &&
        DecodeFixed32(contents.data() + restarts_offset + 4 * next_restart) == offset) {
      if (shared != 0) return Corrupt("bad entry in block");
      ++next_restart;
    }
    key.resize(shared);
    key.append(rest.data(), non_shared);
    if (!entries->empty() && !(entries->back().key < key)) {
      return Corrupt("keys out of order in block");
    }
    Entry entry;
    entry.key = key;
    entry.value = rest.substr(non_shared, value_size);
    entries->push_back(std::move(entry));
    rest.remove_prefix(non_shared + value_size);
  }
  if (next_restart < num_restarts && !entries->empty()) {
    return Corrupt("bad restart point in block");
  }
  return absl::OkStatus();
}

absl::Status TableReader::Get(absl::string_view key, std::string* value) const {
  std::string found_key;
  absl::Status s = Seek(key, &found_key, value);
  if (s.ok() && found_key != key) s = absl::NotFoundError("");
  if (absl::IsNotFound(s)) {
    return absl::NotFoundError(absl::StrCat("key not found in table ", name_));
  }
  return s;
}

absl::Status TableReader::Seek(absl::string_view key, std::string* found_key,
                               std::string* value) const {
  // The first block whose index key is >= key; later ones if it holds no key >= key.
  auto it = std::lower_bound(index_.begin(), index_.end(), key,
                             [](const IndexEntry& e, absl::string_view k) { return e.key < k; });
  std::vector<Entry> entries;
  for (; it != index_.end(); ++it) {
    absl::string_view contents;
    absl::Status s = ReadBlock(it->handle, &contents);
    if (!s.ok()) return s;
    s = DecodeBlock(contents, &entries);
    if (!s.ok()) return s;
    auto found = std::lower_bound(entries.begin(), entries.end(), key,
                                  [](const Entry& e, absl::string_view k) { return e.key < k; });
    if (found == entries.end()) continue;
    *found_key = found->key;
    value->assign(found->value.data(), found->value.size());
    return absl::OkStatus();
  }
  return absl::NotFoundError(absl::StrCat("no key at or after the one sought in table ", name_));
}

absl::Status TableReader::ForEach(
    const std::function<absl::Status(absl::string_view, absl::string_view)>& fn) const {
  std::vector<Entry> entries;
  std::string last_key;
  bool first = true;
  for (const IndexEntry& ie : index_) {
    absl::string_view contents;
    absl::Status s = ReadBlock(ie.handle, &contents);
    if (!s.ok()) return s;
    s = DecodeBlock(contents, &entries);
    if (!s.ok()) return s;
    for (const Entry& e : entries) {
      if (!first && !(last_key < e.key)) return Corrupt("keys out of order across blocks");
      first = false;
      last_key = e.key;
      s = fn(e.key, e.value);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace table
}  // namespace sluice
