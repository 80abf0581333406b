// The string hashes of TensorFlow's hashing ops, bit for bit:
//  - Fingerprint64: FarmHash's Fingerprint64 (its "na" Hash64), which StringToHashBucketFast
//    and the hashed crosses use. Stable across platforms and releases.
//  - SipHash24: SipHash-2-4 under a 128-bit key given as two little-endian uint64 words, which
//    StringToHashBucketStrong and SparseCrossHashed's strong hash use.
//  - LegacyHash64: TensorFlow's Hash64 (a MurmurHash64A variant seeded with 0xDECAFCAFFE),
//    which the deprecated StringToHashBucket uses.
//  - FingerprintCat64: TensorFlow's combination of two fingerprints into one, order-sensitive.
// All are pure functions of their arguments, safe from any thread. Strings are byte strings;
// the input is read as little-endian words regardless of the host.
#ifndef SLUICE_KERNELS_CPU_STRINGS_STRING_HASH_H_
#define SLUICE_KERNELS_CPU_STRINGS_STRING_HASH_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sluice {

uint64_t Fingerprint64(absl::string_view s);

uint64_t SipHash24(const uint64_t key[2], absl::string_view s);

uint64_t LegacyHash64(absl::string_view s);

uint64_t FingerprintCat64(uint64_t first, uint64_t second);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_STRING_HASH_H_
