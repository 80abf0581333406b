#include "io/tensor_bundle_merge.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "io/table_reader.h"
#include "io/tensor_bundle_files.h"
#include "io/tensor_bundle_writer.h"
#include "proto/tensor_bundle.pb.h"

namespace sluice {

namespace {

struct MergeState {
  int num_shards = 0;
  bool seen_first_bundle = false;
  BundleHeaderProto::Endianness endianness = BundleHeaderProto::LITTLE;
  VersionDef version;
  std::map<std::string, BundleEntryProto> entries;
  // Data file -> its shard id in the merged bundle, in the order first met.
  std::unordered_map<std::string, int> shard_ids;
  std::vector<std::string> shard_order;
};

absl::Status CorruptIndex(const std::string& filename, absl::string_view detail,
                          const absl::Status& status) {
  const std::string text =
      absl::StrCat("Unable to read file (", filename,
                   "). Perhaps the file is corrupt or was produced by a newer version of "
                   "TensorFlow with format changes (",
                   detail, ")");
  if (status.ok()) return absl::InternalError(text);
  return absl::Status(status.code(), absl::StrCat(text, ": ", status.message()));
}

absl::Status MergeOneBundle(const std::string& prefix, MergeState* merge) {
  const std::string filename = MetaFilename(prefix);
  ASSIGN_OR_RETURN(std::unique_ptr<table::TableReader> table, table::TableReader::Open(filename));
  bool header_seen = false;
  int num_shards = 0;
  absl::Status s = table->ForEach([&](absl::string_view key,
                                      absl::string_view value) -> absl::Status {
    if (!header_seen) {
      header_seen = true;
      BundleHeaderProto header;
      if (!header.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
        return CorruptIndex(filename, "unable to parse header",
                            errors::DataLoss("Entry for key ", key, " not parseable."));
      }
      if (header.num_shards() < 0 ||
          merge->num_shards > std::numeric_limits<int>::max() - header.num_shards()) {
        return CorruptIndex(filename, "invalid number of shards",
                            errors::DataLoss("num_shards ", header.num_shards()));
      }
      merge->num_shards += header.num_shards();
      if (!merge->seen_first_bundle) {
        merge->seen_first_bundle = true;
        merge->endianness = header.endianness();
        merge->version = header.version();
      } else {
        if (merge->endianness != header.endianness()) {
          return errors::InvalidArgument(
              "Merging bundles with conflicting endianness; inputs corrupted?");
        }
        const std::string current = header.version().SerializeAsString();
        const std::string merged = merge->version.SerializeAsString();
        if (current != merged) {
          return errors::InvalidArgument("Merging bundles with different format versions: merged ",
                                         merged, " vs. curr ", current);
        }
      }
      num_shards = header.num_shards();
      return absl::OkStatus();
    }
    const std::string key_string(key);
    auto existing = merge->entries.find(key_string);
    if (existing != merge->entries.end() && existing->second.slices().empty()) {
      return errors::InvalidArgument("Duplicate tensor keyed by ", key,
                                     " encountered, when merging prefix: ", prefix);
    }
    BundleEntryProto entry;
    if (!entry.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
      return errors::DataLoss("Entry for key ", key, " not parseable.");
    }
    if (existing != merge->entries.end()) {
      if (entry.slices().empty()) {
        return errors::Internal("Duplicate tensor keyed by ", key,
                                "; attempting to merge in a non-slice bundle entry");
      }
      if (existing->second.dtype() != entry.dtype() ||
          existing->second.shape().SerializeAsString() != entry.shape().SerializeAsString()) {
        return errors::InvalidArgument("Slices of ", key,
                                       " disagree on their full tensor's dtype or shape");
      }
      for (const TensorSliceProto& slice : entry.slices()) {
        *existing->second.add_slices() = slice;
      }
      return absl::OkStatus();
    }
    const std::string data_file = DataFilename(prefix, entry.shard_id(), num_shards);
    auto inserted = merge->shard_ids.emplace(data_file, static_cast<int>(merge->shard_ids.size()));
    if (inserted.second) merge->shard_order.push_back(data_file);
    entry.set_shard_id(inserted.first->second);
    merge->entries.emplace(key_string, std::move(entry));
    return absl::OkStatus();
  });
  if (!s.ok() && absl::IsDataLoss(s) && !header_seen) {
    return CorruptIndex(filename, "failed to seek to header entry", s);
  }
  RETURN_IF_ERROR(s);
  if (!header_seen) {
    return CorruptIndex(filename, "failed to seek to header entry", absl::OkStatus());
  }
  return absl::OkStatus();
}

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

absl::Status MergeBundles(absl::Span<const std::string> prefixes, const std::string& merged_prefix,
                          bool allow_missing_files) {
  MergeState merge;
  RETURN_IF_ERROR(CreateDir(std::string(Dirname(merged_prefix))));
  bool any_exists = false;
  for (const std::string& prefix : prefixes) {
    if (!FileExists(MetaFilename(prefix))) {
      if (allow_missing_files) continue;
      return errors::InvalidArgument("allow_missing_files was set to false and ", prefix,
                                     " did not exist.", FileExists(prefix) ? "OK" : "");
    }
    any_exists = true;
    RETURN_IF_ERROR(MergeOneBundle(prefix, &merge));
  }
  if (!any_exists) {
    return errors::InvalidArgument(
        "At least one prefix checkpoint file must exist, but none existed.");
  }
  const int num_data_files = static_cast<int>(merge.shard_order.size());
  for (int i = 0; i < num_data_files; ++i) {
    const std::string target = DataFilename(merged_prefix, i, num_data_files);
    if (rename(merge.shard_order[i].c_str(), target.c_str()) != 0) {
      return absl::ErrnoToStatus(
          errno, absl::StrCat("cannot rename ", merge.shard_order[i], " to ", target));
    }
  }
  BundleHeaderProto header;
  header.set_num_shards(merge.num_shards);
  header.set_endianness(merge.endianness);
  *header.mutable_version() = merge.version;
  RETURN_IF_ERROR(
      WriteFileBytes(MetaFilename(merged_prefix), BuildBundleIndex(header, merge.entries)));
  for (const std::string& prefix : prefixes) {
    if (MetaFilename(prefix) != MetaFilename(merged_prefix)) unlink(MetaFilename(prefix).c_str());
  }
  return absl::OkStatus();
}

}  // namespace sluice
