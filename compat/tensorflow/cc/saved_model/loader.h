// TensorFlow's SavedModel loader header: tensorflow::LoadSavedModel and SavedModelBundle
// (saved_model/loader.h), with Session, SessionOptions, RunOptions and MetaGraphDef, which
// TensorFlow's version also brings in.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_LOADER_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_LOADER_H_

#include "saved_model/loader.h"
#include "tensorflow/cc/saved_model/constants.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/protobuf/meta_graph.pb.h"
#include "tensorflow/core/public/session.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_LOADER_H_
