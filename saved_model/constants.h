// The names a SavedModel directory and its MetaGraphDefs use (TensorFlow's
// tensorflow/cc/saved_model/{constants,tag_constants,signature_constants}.h values): files
// and folders, tags, collection keys and signature keys.
#ifndef SLUICE_SAVED_MODEL_CONSTANTS_H_
#define SLUICE_SAVED_MODEL_CONSTANTS_H_

namespace sluice {

// Files and folders of an export directory.
inline constexpr char kSavedModelFilenamePb[] = "saved_model.pb";
inline constexpr char kSavedModelFilenamePbTxt[] = "saved_model.pbtxt";
inline constexpr char kSavedModelAssetsDirectory[] = "assets";
inline constexpr char kSavedModelAssetsExtraDirectory[] = "assets.extra";
inline constexpr char kSavedModelVariablesDirectory[] = "variables";
// The checkpoint prefix under variables/: variables.index and variables.data-*-of-*.
inline constexpr char kSavedModelVariablesFilename[] = "variables";

// Tags that select a MetaGraphDef.
inline constexpr char kSavedModelTagServe[] = "serve";
inline constexpr char kSavedModelTagTrain[] = "train";
inline constexpr char kSavedModelTagGpu[] = "gpu";
inline constexpr char kSavedModelTagTpu[] = "tpu";

// Collections of TF1 SavedModels: the initialisation op (main op, or the older legacy init
// op: a node_list of one name) and the assets (an any_list of AssetFileDefs).
inline constexpr char kSavedModelMainOpKey[] = "saved_model_main_op";
inline constexpr char kSavedModelLegacyInitOpKey[] = "legacy_init_op";
inline constexpr char kSavedModelAssetsKey[] = "saved_model_assets";

// TF2 SavedModels name their initialisation op as the one output of this signature.
inline constexpr char kSavedModelInitOpSignatureKey[] = "__saved_model_init_op";
inline constexpr char kSavedModelTrainOpSignatureKey[] = "__saved_model_train_op";

// Signature keys and method names of TensorFlow Serving.
inline constexpr char kDefaultServingSignatureDefKey[] = "serving_default";
inline constexpr char kClassifyInputs[] = "inputs";
inline constexpr char kClassifyMethodName[] = "tensorflow/serving/classify";
inline constexpr char kClassifyOutputClasses[] = "classes";
inline constexpr char kClassifyOutputScores[] = "scores";
inline constexpr char kPredictInputs[] = "inputs";
inline constexpr char kPredictMethodName[] = "tensorflow/serving/predict";
inline constexpr char kPredictOutputs[] = "outputs";
inline constexpr char kRegressInputs[] = "inputs";
inline constexpr char kRegressMethodName[] = "tensorflow/serving/regress";
inline constexpr char kRegressOutputs[] = "outputs";

}  // namespace sluice

#endif  // SLUICE_SAVED_MODEL_CONSTANTS_H_
