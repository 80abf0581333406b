#include "kernels/cpu/linalg/onednn_args.h"

#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/linalg/onednn_util.h"

namespace sluice {
namespace {

using dnnl::memory;

TEST(OneDnnArgPoolTest, SetPointsTheArgumentAtTheBuffer) {
  OneDnnArgPool pool({{DNNL_ARG_SRC, memory::desc({4}, memory::data_type::f32, {1})}},
                     memory::desc());
  OneDnnArgPool::Lease args;
  ASSERT_TRUE(pool.Acquire(&args).ok());
  std::vector<float> buffer(4);
  args->Set(DNNL_ARG_SRC, buffer.data());
  EXPECT_EQ(args->map().at(DNNL_ARG_SRC).get_data_handle(), buffer.data());
  // The scratchpad is always an argument, empty here.
  ASSERT_EQ(args->map().count(DNNL_ARG_SCRATCHPAD), 1u);
  EXPECT_EQ(args->map().size(), 2u);
}

TEST(OneDnnArgPoolTest, ConcurrentLeasesGetDistinctSetsAndReturnedSetsAreReused) {
  OneDnnArgPool pool({{DNNL_ARG_SRC, memory::desc({4}, memory::data_type::f32, {1})},
                      {DNNL_ARG_DST, memory::desc({4}, memory::data_type::f32, {1})}},
                     memory::desc());
  OneDnnArgPool::Lease first, second;
  ASSERT_TRUE(pool.Acquire(&first).ok());
  ASSERT_TRUE(pool.Acquire(&second).ok());
  EXPECT_NE(first.get(), second.get());
  float a = 1, b = 2;
  first->Set(DNNL_ARG_SRC, &a);
  second->Set(DNNL_ARG_SRC, &b);
  EXPECT_EQ(first->map().at(DNNL_ARG_SRC).get_data_handle(), &a);
  EXPECT_EQ(second->map().at(DNNL_ARG_SRC).get_data_handle(), &b);

  const OneDnnArgs* returned = first.get();
  first.reset();
  OneDnnArgPool::Lease again;
  ASSERT_TRUE(pool.Acquire(&again).ok());
  EXPECT_EQ(again.get(), returned);
}

}  // namespace
}  // namespace sluice
