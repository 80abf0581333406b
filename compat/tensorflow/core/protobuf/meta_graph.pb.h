// TensorFlow's generated MetaGraphDef header: tensorflow::MetaGraphDef, SignatureDef,
// TensorInfo, CollectionDef, AssetFileDef (Sluice's proto/meta_graph.proto, same fields).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PROTOBUF_META_GRAPH_PB_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PROTOBUF_META_GRAPH_PB_H_

#include "proto/meta_graph.pb.h"
#include "proto/saver.pb.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PROTOBUF_META_GRAPH_PB_H_
