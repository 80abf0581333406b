// TTypes: the Eigen TensorMap types through which kernels view Tensor buffers, and the
// definitions of Tensor's typed views that build them (tensor.h declares both).
//
// Every view is row-major (TensorFlow's layout) and maps memory it does not own. The aligned
// variants promise Eigen that the data pointer is aligned to EIGEN_MAX_ALIGN_BYTES, which
// holds for every whole Tensor buffer (kAllocatorAlignment is larger); the Unaligned*
// variants make no promise and serve slices that start mid-buffer.
//
// This is the only graph/ header that includes Eigen's Tensor module; include it only where
// views are used (kernels, their tests), since the module is slow to compile.
#ifndef SLUICE_GRAPH_CORE_TENSOR_TYPES_H_
#define SLUICE_GRAPH_CORE_TENSOR_TYPES_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "glog/logging.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// Declared, with its defaults (NDIMS 1, Eigen::DenseIndex), in tensor.h.
template <typename T, int NDIMS, typename IndexType>
struct TTypes {
  using Tensor =
      Eigen::TensorMap<Eigen::Tensor<T, NDIMS, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using ConstTensor =
      Eigen::TensorMap<Eigen::Tensor<const T, NDIMS, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using UnalignedTensor = Eigen::TensorMap<Eigen::Tensor<T, NDIMS, Eigen::RowMajor, IndexType>>;
  using UnalignedConstTensor =
      Eigen::TensorMap<Eigen::Tensor<const T, NDIMS, Eigen::RowMajor, IndexType>>;

  using Scalar =
      Eigen::TensorMap<Eigen::TensorFixedSize<T, Eigen::Sizes<>, Eigen::RowMajor, IndexType>,
                       Eigen::Aligned>;
  using ConstScalar =
      Eigen::TensorMap<Eigen::TensorFixedSize<const T, Eigen::Sizes<>, Eigen::RowMajor, IndexType>,
                       Eigen::Aligned>;
  using UnalignedScalar =
      Eigen::TensorMap<Eigen::TensorFixedSize<T, Eigen::Sizes<>, Eigen::RowMajor, IndexType>>;
  using UnalignedConstScalar =
      Eigen::TensorMap<Eigen::TensorFixedSize<const T, Eigen::Sizes<>, Eigen::RowMajor, IndexType>>;

  using Flat = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using ConstFlat =
      Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using UnalignedFlat = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, IndexType>>;
  using UnalignedConstFlat =
      Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, IndexType>>;

  using Vec = Flat;
  using ConstVec = ConstFlat;
  using UnalignedVec = UnalignedFlat;
  using UnalignedConstVec = UnalignedConstFlat;

  using Matrix = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using ConstMatrix =
      Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor, IndexType>, Eigen::Aligned>;
  using UnalignedMatrix = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, IndexType>>;
  using UnalignedConstMatrix =
      Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor, IndexType>>;
};

// The shape as Eigen dimensions. REQUIRES (CHECKed): shape.dims() == NDIMS.
template <int NDIMS, typename IndexType = Eigen::DenseIndex>
Eigen::DSizes<IndexType, NDIMS> AsEigenDSizes(const TensorShape& shape) {
  CHECK_EQ(shape.dims(), NDIMS) << "Asked for an Eigen view of rank " << NDIMS << " on shape "
                                << shape.DebugString();
  Eigen::DSizes<IndexType, NDIMS> dsizes;
  for (int d = 0; d < NDIMS; ++d) dsizes[d] = static_cast<IndexType>(shape.dim_size(d));
  return dsizes;
}

// As AsEigenDSizes, but pads with trailing 1s when shape.dims() < NDIMS (CHECKs <=).
template <int NDIMS, typename IndexType = Eigen::DenseIndex>
Eigen::DSizes<IndexType, NDIMS> AsEigenDSizesWithPadding(const TensorShape& shape) {
  CHECK_LE(shape.dims(), NDIMS) << "Shape " << shape.DebugString() << " has more than " << NDIMS
                                << " dims";
  Eigen::DSizes<IndexType, NDIMS> dsizes;
  for (int d = 0; d < NDIMS; ++d) {
    dsizes[d] = d < shape.dims() ? static_cast<IndexType>(shape.dim_size(d)) : 1;
  }
  return dsizes;
}

// `sizes` (NDIMS of them, checked by the caller) as Eigen dimensions.
template <int NDIMS>
Eigen::DSizes<Eigen::DenseIndex, NDIMS> SizesAsEigenDSizes(absl::Span<const int64_t> sizes) {
  Eigen::DSizes<Eigen::DenseIndex, NDIMS> dsizes;
  for (int d = 0; d < NDIMS; ++d) dsizes[d] = static_cast<Eigen::DenseIndex>(sizes[d]);
  return dsizes;
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::Tensor Tensor::tensor() {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  return
      typename TTypes<T, NDIMS>::Tensor(reinterpret_cast<T*>(data_), AsEigenDSizes<NDIMS>(shape_));
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::ConstTensor Tensor::tensor() const {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  return typename TTypes<T, NDIMS>::ConstTensor(reinterpret_cast<const T*>(data_),
                                                AsEigenDSizes<NDIMS>(shape_));
}

template <typename T>
typename TTypes<T>::Scalar Tensor::scalar() {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  CHECK_EQ(NumElements(), 1) << "Must have a one element tensor, got " << shape_;
  return typename TTypes<T>::Scalar(reinterpret_cast<T*>(data_));
}

template <typename T>
typename TTypes<T>::ConstScalar Tensor::scalar() const {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  CHECK_EQ(NumElements(), 1) << "Must have a one element tensor, got " << shape_;
  return typename TTypes<T>::ConstScalar(reinterpret_cast<const T*>(data_));
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::Tensor Tensor::shaped(absl::Span<const int64_t> new_sizes) {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  CheckReshape(new_sizes, NDIMS);
  return typename TTypes<T, NDIMS>::Tensor(reinterpret_cast<T*>(data_),
                                           SizesAsEigenDSizes<NDIMS>(new_sizes));
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::ConstTensor Tensor::shaped(absl::Span<const int64_t> new_sizes) const {
  CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
  CheckReshape(new_sizes, NDIMS);
  return typename TTypes<T, NDIMS>::ConstTensor(reinterpret_cast<const T*>(data_),
                                                SizesAsEigenDSizes<NDIMS>(new_sizes));
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::UnalignedTensor Tensor::unaligned_shaped(
    absl::Span<const int64_t> new_sizes) {
  CheckType(DataTypeToEnum<T>::value);
  CheckReshape(new_sizes, NDIMS);
  return typename TTypes<T, NDIMS>::UnalignedTensor(reinterpret_cast<T*>(data_),
                                                    SizesAsEigenDSizes<NDIMS>(new_sizes));
}

template <typename T, size_t NDIMS>
typename TTypes<T, NDIMS>::UnalignedConstTensor Tensor::unaligned_shaped(
    absl::Span<const int64_t> new_sizes) const {
  CheckType(DataTypeToEnum<T>::value);
  CheckReshape(new_sizes, NDIMS);
  return typename TTypes<T, NDIMS>::UnalignedConstTensor(reinterpret_cast<const T*>(data_),
                                                         SizesAsEigenDSizes<NDIMS>(new_sizes));
}

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TENSOR_TYPES_H_
