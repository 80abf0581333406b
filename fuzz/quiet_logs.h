// QuietLogs: keeps the warnings a fuzz target provokes on purpose off stderr.
//
// The pipeline and the importer log (glog) what they tolerate: a failed constant folding,
// an attr the OpDef does not declare. A fuzzer provokes these on most inputs, and writing
// them costs more than running the input; errors and crashes still print.
#ifndef SLUICE_FUZZ_QUIET_LOGS_H_
#define SLUICE_FUZZ_QUIET_LOGS_H_

#include "glog/logging.h"

namespace sluice {
namespace fuzz {

inline void QuietLogs() { FLAGS_minloglevel = google::GLOG_ERROR; }

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_QUIET_LOGS_H_
