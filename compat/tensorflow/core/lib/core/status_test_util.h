// TensorFlow's GoogleTest helpers for Status: TF_ASSERT_OK and TF_EXPECT_OK.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_TEST_UTIL_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_TEST_UTIL_H_

#include "gtest/gtest.h"
#include "tensorflow/core/lib/core/status.h"

#define TF_ASSERT_OK(statement) ASSERT_EQ(::absl::OkStatus(), (statement))
#define TF_EXPECT_OK(statement) EXPECT_EQ(::absl::OkStatus(), (statement))

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_TEST_UTIL_H_
