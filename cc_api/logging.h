// Logging and status checks for client programs and examples.
//
// LOG(INFO|WARNING|ERROR|FATAL) << ... and CHECK(cond) are glog's (to stderr unless glog is
// configured otherwise). SLUICE_CHECK_OK(expr) evaluates an absl::Status expression once and,
// if it is not OK, logs the expression and the status and aborts: for examples and tests,
// where an error is a bug. SLUICE_QCHECK_OK does the same without a stack trace
// (LOG(QFATAL)-style exit). Library code returns its Status instead.
#ifndef SLUICE_CC_API_LOGGING_H_
#define SLUICE_CC_API_LOGGING_H_

#include <cstdlib>
#include <ostream>

#include "absl/status/status.h"
#include "glog/logging.h"

#define SLUICE_CHECK_OK(expr)                                 \
  do {                                                        \
    const ::absl::Status sluice_check_ok_status_ = (expr);    \
    LOG_IF(FATAL, !sluice_check_ok_status_.ok())              \
        << "'" #expr "' failed: " << sluice_check_ok_status_; \
  } while (false)

#define SLUICE_QCHECK_OK(expr)                                         \
  do {                                                                 \
    const ::absl::Status sluice_check_ok_status_ = (expr);             \
    if (!sluice_check_ok_status_.ok()) {                               \
      LOG(ERROR) << "'" #expr "' failed: " << sluice_check_ok_status_; \
      ::google::FlushLogFiles(::google::GLOG_INFO);                    \
      ::std::_Exit(1);                                                 \
    }                                                                  \
  } while (false)

#endif  // SLUICE_CC_API_LOGGING_H_
