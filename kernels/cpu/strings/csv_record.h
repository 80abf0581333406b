// The fields of one CSV record as TensorFlow's DecodeCSV reads them: fields end at `delim`;
// with use_quote, a field that starts with '"' runs to a '"' followed by the delimiter or the
// end, '""' inside it standing for one quote; an unquoted field may not hold a quote (with
// use_quote) or CR/LF; a CR or LF where a field would start is skipped; a record ending in the
// delimiter has an empty last field. With select_cols (strictly increasing column numbers),
// only those columns are reported, and the walk stops after the last of them.
#ifndef SLUICE_KERNELS_CPU_STRINGS_CSV_RECORD_H_
#define SLUICE_KERNELS_CPU_STRINGS_CSV_RECORD_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"

namespace sluice {
namespace strings {

struct CsvFormat {
  char delim = ',';
  bool use_quote = true;
  absl::Span<const int64_t> select_cols;  // empty: every column
};

// Calls on_field(const std::string&) for each reported field of `record`, in order, reusing one
// buffer; INVALID_ARGUMENT with TensorFlow's message for a malformed field.
template <typename OnField>
absl::Status ForEachCsvField(absl::string_view record, const CsvFormat& format,
                             OnField&& on_field) {
  if (record.empty()) return absl::OkStatus();
  const bool all = format.select_cols.empty();
  const size_t size = record.size();
  const char delim = format.delim;
  size_t i = 0;
  int64_t column = 0;
  size_t selected = 0;
  std::string field;
  while (i < size) {
    if (record[i] == '\n' || record[i] == '\r') {
      ++i;
      continue;
    }
    const bool include = all || format.select_cols[selected] == column;
    field.clear();
    if (format.use_quote && record[i] == '"') {
      ++i;
      while (i < size - 1 && (record[i] != '"' || record[i + 1] != delim)) {
        if (record[i] != '"') {
          if (include) field.push_back(record[i]);
          ++i;
        } else {
          if (record[i + 1] != '"') {
            return errors::InvalidArgument(
                "Quote inside a string has to be escaped by another quote");
          }
          if (include) field.push_back('"');
          i += 2;
        }
      }
      if (!(i < size && record[i] == '"' && (i == size - 1 || record[i + 1] == delim))) {
        return errors::InvalidArgument(
            "Quoted field has to end with quote followed by delim or end");
      }
      i += 2;
    } else {
      while (i < size && record[i] != delim) {
        const char c = record[i];
        if ((format.use_quote && c == '"') || c == '\n' || c == '\r') {
          return errors::InvalidArgument("Unquoted fields cannot have quotes/CRLFs inside");
        }
        if (include) field.push_back(c);
        ++i;
      }
      ++i;
    }
    ++column;
    if (include) {
      on_field(field);
      ++selected;
      if (!all && selected == format.select_cols.size()) return absl::OkStatus();
    }
  }
  if ((all || format.select_cols[selected] == column) && record[size - 1] == delim) {
    field.clear();
    on_field(field);
  }
  return absl::OkStatus();
}

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_CSV_RECORD_H_
