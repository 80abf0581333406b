// Philox4x32-10, the counter-based generator behind TensorFlow's random ops, and the ways
// TensorFlow turns its seeds into the generator's key and counter.
//
// One call maps a 128-bit counter and a 64-bit key to four uint32s and advances the counter
// by one, so a stream can jump ahead by any count (Skip) and blocks of a tensor can be filled
// independently of each other: every random kernel's output depends only on its key and
// counter, never on how the work was split over threads. The constants are those of Salmon
// et al., "Parallel Random Numbers: As Easy as 1, 2, 3" (SC'11), as TensorFlow uses them.
#ifndef SLUICE_KERNELS_CPU_RANDOM_PHILOX_H_
#define SLUICE_KERNELS_CPU_RANDOM_PHILOX_H_

#include <array>
#include <cstdint>

namespace sluice {
namespace random {

class Philox4x32 {
 public:
  using Block = std::array<uint32_t, 4>;
  using Key = std::array<uint32_t, 2>;
  static constexpr int kBlockSize = 4;

  Philox4x32() = default;
  Philox4x32(const Block& counter, const Key& key) : counter_(counter), key_(key) {}

  // TensorFlow's stateful ops: key from `seed`, counter words 2 and 3 from `seed2`.
  static Philox4x32 FromSeedPair(uint64_t seed, uint64_t seed2) {
    return Philox4x32({0, 0, static_cast<uint32_t>(seed2), static_cast<uint32_t>(seed2 >> 32)},
                      {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
  }

  // The V2 stateless ops' operands: a key of one uint64 and a counter of two, low word first.
  static Philox4x32 FromKeyCounter(uint64_t key, uint64_t counter_low, uint64_t counter_high) {
    return Philox4x32(
        {static_cast<uint32_t>(counter_low), static_cast<uint32_t>(counter_low >> 32),
         static_cast<uint32_t>(counter_high), static_cast<uint32_t>(counter_high >> 32)},
        {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
  }

  const Block& counter() const { return counter_; }
  const Key& key() const { return key_; }

  // The next block of four; the counter moves on by one.
  Block operator()() {
    Block block = counter_;
    Key key = key_;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        key[0] += 0x9E3779B9u;
        key[1] += 0xBB67AE85u;
      }
      block = Round(block, key);
    }
    Skip(1);
    return block;
  }

  // Moves the 128-bit counter on by `blocks`.
  void Skip(uint64_t blocks) {
    const uint64_t low = (uint64_t{counter_[1]} << 32 | counter_[0]);
    const uint64_t sum = low + blocks;
    counter_[0] = static_cast<uint32_t>(sum);
    counter_[1] = static_cast<uint32_t>(sum >> 32);
    if (sum < low && ++counter_[2] == 0) ++counter_[3];
  }

 private:
  static Block Round(const Block& c, const Key& key) {
    const uint64_t product0 = uint64_t{0xD2511F53u} * c[0];
    const uint64_t product1 = uint64_t{0xCD9E8D57u} * c[2];
    return {static_cast<uint32_t>(product1 >> 32) ^ c[1] ^ key[0], static_cast<uint32_t>(product1),
            static_cast<uint32_t>(product0 >> 32) ^ c[3] ^ key[1], static_cast<uint32_t>(product0)};
  }

  Block counter_ = {0, 0, 0, 0};
  Key key_ = {0, 0};
};

// A Philox stream read one uint32 at a time (for distributions that reject samples).
class SingleSamples {
 public:
  explicit SingleSamples(Philox4x32* generator) : generator_(generator) {}
  uint32_t operator()() {
    if (used_ == Philox4x32::kBlockSize) {
      block_ = (*generator_)();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  Philox4x32* generator_;
  Philox4x32::Block block_ = {};
  int used_ = Philox4x32::kBlockSize;
};

// The generator of the stateless ops for the seed pair (seed0, seed1), as TensorFlow derives
// it: the seeds, as a counter, are mixed once under a fixed key, and the mix gives the key and
// the upper half of the counter (StatelessRandomGetKeyCounter returns the same pair).
inline Philox4x32 StatelessGenerator(uint64_t seed0, uint64_t seed1) {
  Philox4x32 mixer({static_cast<uint32_t>(seed0), static_cast<uint32_t>(seed0 >> 32),
                    static_cast<uint32_t>(seed1), static_cast<uint32_t>(seed1 >> 32)},
                   {0x3ec8f720u, 0x02461e29u});
  const Philox4x32::Block mix = mixer();
  return Philox4x32({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
}

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_PHILOX_H_
