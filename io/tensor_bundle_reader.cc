#include "io/tensor_bundle_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "io/crc32c.h"
#include "io/table_format.h"
#include "io/tensor_bundle_files.h"

namespace sluice {

namespace {

// TensorFlow's CorruptFileError: the code of `status` (INTERNAL when it is OK) and its text.
absl::Status CorruptFileError(const absl::Status& status, const std::string& filename,
                              absl::string_view detail) {
  const std::string text =
      absl::StrCat("Unable to read file (", filename,
                   "). Perhaps the file is corrupt or was produced by a newer version of "
                   "TensorFlow with format changes (",
                   detail, ")");
  if (status.ok()) return absl::InternalError(text);
  return absl::Status(status.code(), absl::StrCat(text, ": ", status.message()));
}

// TensorFlow's CheckVersions for bundles.
absl::Status CheckVersions(const VersionDef& versions) {
  if (versions.producer() < kTensorBundleMinProducer) {
    return errors::InvalidArgument("Checkpoint producer version ", versions.producer(),
                                   " below min producer ", kTensorBundleMinProducer,
                                   " supported by TensorFlow.  Please regenerate your "
                                   "checkpoint.");
  }
  if (versions.min_consumer() > kTensorBundleVersion) {
    return errors::InvalidArgument("Checkpoint min consumer version ", versions.min_consumer(),
                                   " above current version ", kTensorBundleVersion,
                                   " for TensorFlow.  Please upgrade TensorFlow.");
  }
  for (const int bad : versions.bad_consumers()) {
    if (bad == kTensorBundleVersion) {
      return errors::InvalidArgument("Checkpoint disallows consumer version ", bad,
                                     ".  Please upgrade TensorFlow: this version is likely "
                                     "buggy.");
    }
  }
  return absl::OkStatus();
}

bool IsStorablePod(DataType dtype) {
  if (dtype == DT_STRING || dtype == DT_VARIANT || dtype == DT_RESOURCE) return false;
  if (!IsValidDataType(dtype) || IsRefType(dtype)) return false;
  return DataTypeCanUseMemcpy(dtype) && DataTypeSize(dtype) > 0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<BundleReader>> BundleReader::Open(const std::string& prefix) {
  absl::StatusOr<std::unique_ptr<table::TableReader>> table =
      table::TableReader::Open(MetaFilename(prefix));
  if (!table.ok()) return table.status();
  std::unique_ptr<BundleReader> reader(new BundleReader(prefix, *std::move(table)));
  RETURN_IF_ERROR(reader->ReadHeader());
  return reader;
}

BundleReader::~BundleReader() {
  for (auto& shard : data_files_) {
    if (shard.second.fd >= 0) close(shard.second.fd);
  }
}

absl::Status BundleReader::ReadHeader() {
  const std::string filename = MetaFilename(prefix_);
  // As TensorFlow, the first entry is the header, whatever its key.
  std::string key, value;
  absl::Status s = table_->Seek(kHeaderEntryKey, &key, &value);
  if (absl::IsNotFound(s)) {
    return CorruptFileError(absl::OkStatus(), filename, "failed to seek to header entry");
  }
  if (!s.ok()) return CorruptFileError(s, filename, "failed to seek to header entry");
  if (!header_.ParseFromString(value)) {
    return CorruptFileError(errors::DataLoss("Entry for key ", key, " not parseable."), filename,
                            "unable to parse header");
  }
  if (header_.endianness() != BundleHeaderProto::LITTLE) {
    return errors::Unimplemented("TensorBundle at ", prefix_,
                                 " is big-endian; Sluice reads little-endian bundles only");
  }
  return CheckVersions(header_.version());
}

absl::Status BundleReader::OpenDataFile(int shard, DataFile** file) {
  auto it = data_files_.find(shard);
  if (it == data_files_.end()) {
    const std::string path = DataFilename(prefix_, shard, header_.num_shards());
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(path, "; cannot open"));
    struct stat st;
    if (fstat(fd, &st) != 0) {
      const int error = errno;
      close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat(path, "; cannot stat"));
    }
    DataFile opened;
    opened.fd = fd;
    opened.size = static_cast<uint64_t>(st.st_size);
    it = data_files_.emplace(shard, opened).first;
  }
  *file = &it->second;
  return absl::OkStatus();
}

absl::Status BundleReader::ReadBytes(const DataFile& file, uint64_t offset, uint64_t n,
                                     char* out) const {
  uint64_t done = 0;
  while (done < n) {
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n - done, 1u << 30));
    const ssize_t got = pread(file.fd, out + done, chunk, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return absl::ErrnoToStatus(errno, absl::StrCat("reading ", prefix_));
    if (got == 0) {
      return errors::DataLoss("TensorBundle at ", prefix_, ": data file ended at ", offset + done,
                              " while reading ", n, " bytes at ", offset);
    }
    done += static_cast<uint64_t>(got);
  }
  return absl::OkStatus();
}

absl::Status BundleReader::LookupEntry(absl::string_view key, BundleEntryProto* entry) {
  entry->Clear();
  std::string value;
  absl::Status s = table_->Get(key, &value);
  if (absl::IsNotFound(s)) return errors::NotFound("Key ", key, " not found in checkpoint");
  RETURN_IF_ERROR(s);
  if (key == kHeaderEntryKey || !entry->ParseFromString(value)) {
    entry->Clear();
    return errors::DataLoss("Entry for key ", key, " not parseable.");
  }
  if (!TensorShape::IsValid(entry->shape())) {
    return errors::DataLoss("Invalid tensor shape: ", key, " ", entry->shape().ShortDebugString());
  }
  if (entry->slices_size() > 0) return absl::OkStatus();  // no bytes of its own
  const DataType dtype = entry->dtype();
  if (dtype == DT_VARIANT) {
    return errors::Unimplemented("Key ", key, " of ", prefix_,
                                 " holds a DT_VARIANT tensor, which Sluice cannot restore");
  }
  if (dtype != DT_STRING && !IsStorablePod(dtype)) {
    return errors::DataLoss("Invalid dtype ", static_cast<int>(dtype), " in bundle entry: key ",
                            key);
  }
  if (entry->shard_id() < 0 || entry->shard_id() >= header_.num_shards()) {
    return errors::DataLoss("Invalid shard ", entry->shard_id(), " in bundle entry: key ", key,
                            "; the bundle has ", header_.num_shards(), " shards");
  }
  if (entry->offset() < 0 || entry->size() < 0) {
    return errors::DataLoss("Invalid offset or size in bundle entry: key ", key);
  }
  TensorShape shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShapeFromProto(entry->shape(), &shape));
  const uint64_t num_elements = static_cast<uint64_t>(shape.num_elements());
  const uint64_t size = static_cast<uint64_t>(entry->size());
  if (dtype == DT_STRING) {
    // One varint (at least a byte) per element and the length checksum; TensorFlow checks the
    // elements' part of that bound.
    if (size < num_elements) {
      return errors::DataLoss("Invalid size in bundle entry: key ", key, "; stored size ", size,
                              "; expected size is at least ", num_elements);
    }
  } else {
    const uint64_t element_size = static_cast<uint64_t>(DataTypeSize(dtype));
    if (num_elements > std::numeric_limits<uint64_t>::max() / element_size ||
        size != num_elements * element_size) {
      return errors::DataLoss("Invalid size in bundle entry: key ", key, "; stored size ", size,
                              "; expected size ", num_elements * element_size);
    }
  }
  DataFile* file = nullptr;
  RETURN_IF_ERROR(OpenDataFile(entry->shard_id(), &file));
  const uint64_t offset = static_cast<uint64_t>(entry->offset());
  if (offset > file->size || size > file->size - offset) {
    // TensorFlow's InputBuffer reports a short read as OUT_OF_RANGE.
    return errors::OutOfRange("Read less bytes than requested: TensorBundle at ", prefix_,
                              " shard ", entry->shard_id(), ", key ", key, " needs bytes [", offset,
                              ", ", offset + size, ") but the data file has ", file->size);
  }
  return absl::OkStatus();
}

bool BundleReader::Contains(absl::string_view key) {
  std::string value;
  return key != kHeaderEntryKey && table_->Get(key, &value).ok();
}

absl::Status BundleReader::LookupDtypeAndShape(absl::string_view key, DataType* dtype,
                                               TensorShape* shape) {
  BundleEntryProto entry;
  RETURN_IF_ERROR(LookupEntry(key, &entry));
  *dtype = entry.dtype();
  return TensorShape::BuildTensorShapeFromProto(entry.shape(), shape);
}

absl::Status BundleReader::ReadStrings(absl::string_view key, const BundleEntryProto& entry,
                                       const DataFile& file, Tensor* out, uint32_t* crc) {
  const uint64_t size = static_cast<uint64_t>(entry.size());
  if (size == 0) return absl::OkStatus();  // as TensorFlow: nothing read, checksum of nothing
  // LookupEntry checked that the bytes lie inside the file.
  std::string bytes(static_cast<size_t>(size), '\0');
  RETURN_IF_ERROR(ReadBytes(file, static_cast<uint64_t>(entry.offset()), size, &bytes[0]));
  absl::string_view rest(bytes);
  const int64_t n = out->NumElements();
  std::string* strings = out->base<std::string>();
  // At most one length per byte of the entry, which lies inside the data file.
  std::vector<uint64_t> lengths(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t length = 0;
    if (!table::GetVarint64(&rest, &length)) {
      return errors::DataLoss("String lengths longer than expected offset ",
                              entry.offset() + entry.size(), " (key ", key, ")");
    }
    if (length <= 0xffffffffu) {
      char le[4];
      for (int b = 0; b < 4; ++b) le[b] = static_cast<char>((length >> (8 * b)) & 0xff);
      *crc = crc32c::Extend(*crc, le, 4);
    } else {
      char le[8];
      for (int b = 0; b < 8; ++b) le[b] = static_cast<char>((length >> (8 * b)) & 0xff);
      *crc = crc32c::Extend(*crc, le, 8);
    }
    if (length > size) {
      return errors::DataLoss("TensorBundle at ", prefix_, ": string ", i, " of key ", key,
                              " is longer (", length, " bytes) than its entry");
    }
    lengths[i] = length;
  }
  if (rest.size() < 4) {
    return errors::DataLoss("TensorBundle at ", prefix_, ": key ", key,
                            " ends before its length checksum");
  }
  const uint32_t raw_checksum = table::DecodeFixed32(rest.data());
  if (crc32c::Unmask(raw_checksum) != *crc) {
    return errors::DataLoss("The length checksum does not match: expected ",
                            absl::StrFormat("%08u", crc32c::Unmask(raw_checksum)),
                            " but actual is ", absl::StrFormat("%08u", *crc));
  }
  *crc = crc32c::Extend(*crc, rest.data(), 4);
  rest.remove_prefix(4);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t length = lengths[i];
    if (length > rest.size()) {
      return errors::DataLoss("TensorBundle at ", prefix_, ": key ", key, " string ", i,
                              " runs past the end of its entry");
    }
    strings[i].assign(rest.data(), static_cast<size_t>(length));
    *crc = crc32c::Extend(*crc, rest.data(), static_cast<size_t>(length));
    rest.remove_prefix(static_cast<size_t>(length));
  }
  return absl::OkStatus();
}

absl::Status BundleReader::ReadInto(absl::string_view key, Tensor* out) {
  BundleEntryProto entry;
  RETURN_IF_ERROR(LookupEntry(key, &entry));
  if (entry.slices_size() > 0) {
    return errors::Unimplemented("Key ", key, " of ", prefix_,
                                 " is a partitioned tensor (saved in slices); Sluice restores "
                                 "whole tensors only");
  }
  TensorShape shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShapeFromProto(entry.shape(), &shape));
  if (out->dtype() != entry.dtype() || out->shape() != shape) {
    return errors::InvalidArgument("Key ", key, " holds ", DataTypeString(entry.dtype()), " ",
                                   shape.DebugString(), ", not ", DataTypeString(out->dtype()), " ",
                                   out->shape().DebugString());
  }
  DataFile* file = nullptr;
  RETURN_IF_ERROR(OpenDataFile(entry.shard_id(), &file));
  uint32_t crc = 0;
  if (entry.dtype() == DT_STRING) {
    RETURN_IF_ERROR(ReadStrings(key, entry, *file, out, &crc));
  } else if (entry.size() > 0) {
    char* data = static_cast<char*>(out->raw_data());
    RETURN_IF_ERROR(ReadBytes(*file, static_cast<uint64_t>(entry.offset()),
                              static_cast<uint64_t>(entry.size()), data));
    crc = crc32c::Value(data, static_cast<size_t>(entry.size()));
  }
  if (crc32c::Unmask(entry.crc32c()) != crc) {
    return errors::DataLoss("TensorBundle at ", prefix_, " shard ", entry.shard_id(), " (",
                            entry.size(), " bytes): Checksum does not match: stored ",
                            absl::StrFormat("%08u", crc32c::Unmask(entry.crc32c())),
                            " vs. calculated on the restored bytes ", crc);
  }
  return absl::OkStatus();
}

absl::StatusOr<Tensor> BundleReader::Lookup(absl::string_view key, Allocator* allocator) {
  DataType dtype;
  TensorShape shape;
  RETURN_IF_ERROR(LookupDtypeAndShape(key, &dtype, &shape));
  ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(allocator, dtype, shape));
  RETURN_IF_ERROR(ReadInto(key, &t));
  return t;
}

absl::Status BundleReader::ForEachEntry(
    const std::function<absl::Status(absl::string_view, const BundleEntryProto&)>& fn) const {
  bool first = true;
  return table_->ForEach([&](absl::string_view key, absl::string_view value) -> absl::Status {
    if (first) {  // the header
      first = false;
      return absl::OkStatus();
    }
    BundleEntryProto entry;
    if (!entry.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
      return errors::DataLoss("Entry for key ", key, " not parseable.");
    }
    return fn(key, entry);
  });
}

absl::StatusOr<std::vector<std::string>> BundleReader::ListKeys() const {
  std::vector<std::string> keys;
  RETURN_IF_ERROR(ForEachEntry([&](absl::string_view key, const BundleEntryProto&) {
    keys.emplace_back(key);
    return absl::OkStatus();
  }));
  return keys;
}

}  // namespace sluice
