"""Compiler options of the kernel libraries."""

# Kernels are loops over tensors. Optimised builds compile them at -O3: GCC's -O2 vectorizes
# only loops that need no runtime alias check and no remainder loop, which left loops such as
# AvgPool's window sums scalar (five times slower). -O3 reorders no floating-point
# arithmetic (reductions stay in order without -ffast-math), so results do not change.
KERNEL_COPTS = select({
    "//kernels:optimized_build": ["-O3"],
    "//conditions:default": [],
})
