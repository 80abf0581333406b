// Merges tensor bundles (io/tensor_bundle_files.h) into one, as TensorFlow's MergeBundles
// (the MergeV2Checkpoints op, after a sharded save): the data files are renamed, not copied,
// to MERGED.data-IIIII-of-NNNNN (in the order their tensors are first met) and one index
// MERGED.index is written with every entry's shard_id renumbered; the inputs' index files are
// then deleted (errors ignored). The header is the first input's, with num_shards the sum.
//
// Errors, with TensorFlow's codes and texts: INVALID_ARGUMENT for a missing input while
// `allow_missing_files` is false, for no input at all existing, for a key in two inputs (unless
// both are slice entries, whose slices are merged), for different endianness or versions;
// the reader's errors (io/tensor_bundle_reader.h) for corrupt indexes; the errno's status
// when a file cannot be renamed or written.
#ifndef SLUICE_IO_TENSOR_BUNDLE_MERGE_H_
#define SLUICE_IO_TENSOR_BUNDLE_MERGE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace sluice {

absl::Status MergeBundles(absl::Span<const std::string> prefixes, const std::string& merged_prefix,
                          bool allow_missing_files);

}  // namespace sluice

#endif  // SLUICE_IO_TENSOR_BUNDLE_MERGE_H_
