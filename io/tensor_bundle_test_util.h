// Helpers for tests of checkpoints (io/ and the checkpoint kernels) over the bundles
// io/testdata/gen_bundles.py wrote with TensorFlow.
#ifndef SLUICE_IO_TENSOR_BUNDLE_TEST_UTIL_H_
#define SLUICE_IO_TENSOR_BUNDLE_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "graph/core/tensor.h"

namespace sluice {
namespace test {

// "io/testdata/bundles/<name>" (relative to the runfiles root, the tests' working folder).
std::string BundleTestdata(const std::string& name);
// A fresh folder under the test's temporary folder.
std::string NewTempDir();
std::string ReadFileBytes(const std::string& path);  // fails the test when unreadable
void WriteBytes(const std::string& path, const std::string& bytes);
void CopyFile(const std::string& from, const std::string& to);
bool PathExists(const std::string& path);

// The "key<TAB>TensorProto text" lines of gen_bundles.py's expected values, in file order.
std::vector<std::pair<std::string, Tensor>> ReadExpectedTensors(const std::string& path);
// The "case<TAB>CODE" lines of errors.txt.
std::vector<std::pair<std::string, std::string>> ReadErrorCases(const std::string& path);

// many_keys: key i and the int32 it holds.
std::string ManyKeysKey(int i);
int32_t ManyKeysValue(int i);
constexpr int kManyKeysCount = 1300;

// Same dtype, shape and elements (POD bytes compared exactly, so NaNs and -0 too).
void ExpectIdentical(const Tensor& expected, const Tensor& actual, const std::string& what);

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_IO_TENSOR_BUNDLE_TEST_UTIL_H_
