// InitializeTableFromTextFileV2's reading of a vocabulary file (TensorFlow's
// InitializeTableFromTextFile): one entry per line, its key and value each the whole line
// (index -2), the line's number plus `offset` (index -1, int64 only), or a column of the
// line split at `delimiter`, parsed as the table's dtype (int32 values get `offset` added,
// as TensorFlow's do). With vocab_size >= 0 exactly that many lines are read (fewer is
// INVALID_ARGUMENT). Lines end at '\n', a '\r' before it dropped; an empty line is
// INVALID_ARGUMENT; an empty file OUT_OF_RANGE "Read less bytes than requested"; a missing
// file NOT_FOUND "<name>; No such file or directory". An initialized table stays as it is.
#ifndef SLUICE_KERNELS_CPU_LOOKUP_TEXT_FILE_INIT_H_
#define SLUICE_KERNELS_CPU_LOOKUP_TEXT_FILE_INIT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "kernels/cpu/lookup/lookup_table.h"

namespace sluice {
namespace lookup {

absl::Status InitializeTableFromTextFile(const std::string& filename, int64_t vocab_size,
                                         char delimiter, int64_t key_index, int64_t value_index,
                                         int64_t offset, InitializableTable* table);

}  // namespace lookup
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LOOKUP_TEXT_FILE_INIT_H_
