#include "io/tensor_bundle_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "io/crc32c.h"
#include "io/table_builder.h"
#include "io/table_format.h"
#include "io/tensor_bundle_files.h"

namespace sluice {

absl::string_view Dirname(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == absl::string_view::npos) return absl::string_view();
  if (slash == 0) return path.substr(0, 1);
  return path.substr(0, slash);
}

absl::Status CreateDir(const std::string& dir) {
  if (dir.empty()) return absl::OkStatus();
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::ErrnoToStatus(errno, absl::StrCat(dir, "; cannot create directory"));
  }
  return absl::OkStatus();
}

absl::Status WriteFileBytes(const std::string& path, absl::string_view bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot create ", path));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", path));
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot close ", path));
  return absl::OkStatus();
}

namespace {

std::string TempSuffix() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  return absl::StrCat(".tempstate", rng());
}

void AppendLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<char>((value >> (8 * b)) & 0xff));
}

}  // namespace

std::string EncodeStringTensor(const Tensor& tensor, uint32_t* crc) {
  const int64_t n = tensor.NumElements();
  const std::string* strings = n > 0 ? tensor.base<std::string>() : nullptr;
  std::string out;
  *crc = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t size = strings[i].size();
    table::PutVarint64(&out, size);
    std::string le;
    AppendLittleEndian(size, size <= 0xffffffffu ? 4 : 8, &le);
    *crc = crc32c::Extend(*crc, le.data(), le.size());
  }
  std::string checksum;
  table::PutFixed32(&checksum, crc32c::Mask(*crc));
  out += checksum;
  *crc = crc32c::Extend(*crc, checksum.data(), checksum.size());
  for (int64_t i = 0; i < n; ++i) {
    out += strings[i];
    *crc = crc32c::Extend(*crc, strings[i].data(), strings[i].size());
  }
  return out;
}

std::string BuildBundleIndex(const BundleHeaderProto& header,
                             const std::map<std::string, BundleEntryProto>& entries) {
  table::TableBuilder builder;
  builder.Add(kHeaderEntryKey, header.SerializeAsString());
  for (const auto& entry : entries) builder.Add(entry.first, entry.second.SerializeAsString());
  return builder.Finish();
}

BundleWriter::BundleWriter(std::string prefix) : prefix_(std::move(prefix)) {
  data_path_ = DataFilename(prefix_, 0, 1) + TempSuffix();
  index_path_ = MetaFilename(prefix_) + TempSuffix();
  status_ = CreateDir(std::string(Dirname(prefix_)));
  if (!status_.ok()) return;
  fd_ = open(data_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) status_ = absl::ErrnoToStatus(errno, absl::StrCat("cannot create ", data_path_));
}

BundleWriter::~BundleWriter() {
  if (fd_ >= 0) close(fd_);
  if (!finished_) {
    unlink(data_path_.c_str());
    unlink(index_path_.c_str());
  }
}

absl::Status BundleWriter::Append(absl::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", data_path_));
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status BundleWriter::Add(absl::string_view key, const Tensor& tensor) {
  if (!status_.ok()) return status_;
  if (key == kHeaderEntryKey) {
    return errors::InvalidArgument("A tensor's key may not be empty (the header's)");
  }
  const std::string key_string(key);
  if (entries_.count(key_string) > 0) {
    status_ = errors::InvalidArgument("Adding duplicate key: ", key);
    return status_;
  }
  const DataType dtype = tensor.dtype();
  uint32_t crc = 0;
  std::string encoded;
  absl::string_view bytes;
  if (dtype == DT_STRING) {
    encoded = EncodeStringTensor(tensor, &crc);
    bytes = encoded;
  } else if (DataTypeCanUseMemcpy(dtype) && dtype != DT_RESOURCE && dtype != DT_VARIANT) {
    bytes = tensor.tensor_data();
    crc = crc32c::Value(bytes.data(), bytes.size());
  } else {
    return errors::Unimplemented("Cannot save a ", DataTypeString(dtype),
                                 " tensor in a checkpoint: key ", key);
  }
  BundleEntryProto entry;
  entry.set_dtype(dtype);
  tensor.shape().AsProto(entry.mutable_shape());
  entry.set_shard_id(0);
  entry.set_offset(static_cast<int64_t>(size_));
  entry.set_size(static_cast<int64_t>(bytes.size()));
  entry.set_crc32c(crc32c::Mask(crc));
  status_ = Append(bytes);
  if (!status_.ok()) return status_;
  size_ += bytes.size();
  entries_.emplace(key_string, std::move(entry));
  return absl::OkStatus();
}

absl::Status BundleWriter::Finish() {
  if (!status_.ok()) return status_;
  if (fd_ >= 0) {
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) {
      status_ = absl::ErrnoToStatus(errno, absl::StrCat("cannot close ", data_path_));
      return status_;
    }
  }
  if (rename(data_path_.c_str(), DataFilename(prefix_, 0, 1).c_str()) != 0) {
    status_ = absl::ErrnoToStatus(errno, absl::StrCat("cannot rename ", data_path_));
    return status_;
  }
  BundleHeaderProto header;
  header.set_num_shards(1);
  header.set_endianness(BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(kTensorBundleVersion);
  header.mutable_version()->set_min_consumer(kTensorBundleMinConsumer);
  status_ = WriteFileBytes(index_path_, BuildBundleIndex(header, entries_));
  if (status_.ok() && rename(index_path_.c_str(), MetaFilename(prefix_).c_str()) != 0) {
    status_ = absl::ErrnoToStatus(errno, absl::StrCat("cannot rename ", index_path_));
  }
  if (!status_.ok()) return status_;
  finished_ = true;
  status_ = errors::Internal("BundleWriter is closed");
  return absl::OkStatus();
}

}  // namespace sluice
