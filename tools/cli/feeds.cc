// Building feeds: parse each flag, resolve its name, then read or generate the value and check
// it against the input's declared dtype and shape.
#include "tools/cli/feeds.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "io/npy.h"
#include "tools/cli/graph_needs.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

absl::Status SplitAssignment(const std::string& flag, const std::string& text, std::string* name,
                             std::string* value) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return errors::InvalidArgument("--", flag, " expects NAME=VALUE, got '", text, "'");
  }
  *name = text.substr(0, eq);
  *value = text.substr(eq + 1);
  return absl::OkStatus();
}

absl::Status ParseDims(const std::string& name, const std::string& text, TensorShape* shape) {
  std::vector<int64_t> dims;
  if (text != "[]" && text != "scalar") {
    for (absl::string_view part : absl::StrSplit(text, ',')) {
      int64_t dim = 0;
      if (!absl::SimpleAtoi(part, &dim) || dim < 0) {
        return errors::InvalidArgument("--shape ", name, "=", text,
                                       ": dims must be non-negative integers, e.g. 1,224,224,3 "
                                       "(or [] for a scalar)");
      }
      dims.push_back(dim);
    }
  }
  return errors::PrependToMessage(TensorShape::BuildTensorShape(dims, shape), "--shape ", name,
                                  ": ");
}

std::string PartialShapeString(const PartialTensorShape& shape) {
  if (shape.unknown_rank()) return "<unknown shape>";
  std::vector<std::string> dims;
  for (int64_t dim : shape.dim_sizes()) dims.push_back(dim < 0 ? "?" : absl::StrCat(dim));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// The shape of a generated input when no --shape is given.
absl::Status DefaultShape(const ModelInput& input, int64_t batch, TensorShape* shape) {
  if (input.shape.unknown_rank()) {
    return errors::InvalidArgument("input '", input.name,
                                   "' has an unknown shape; give one with --shape ", input.name,
                                   "=D0,D1,...");
  }
  std::vector<int64_t> dims;
  for (int d = 0; d < input.shape.dims(); ++d) {
    const int64_t dim = input.shape.dim_size(d);
    dims.push_back(dim >= 0 ? dim : (d == 0 ? batch : 1));
  }
  return TensorShape::BuildTensorShape(dims, shape);
}

template <typename T, typename Draw>
void Fill(Tensor* t, Draw draw) {
  T* data = t->base<T>();
  for (int64_t i = 0; i < t->NumElements(); ++i) data[i] = static_cast<T>(draw());
}

absl::Status Generate(DataType dtype, const TensorShape& shape, bool zeros, std::mt19937_64* rng,
                      Tensor* out) {
  ASSIGN_OR_RETURN(*out, Tensor::Allocate(DefaultCpuAllocator(), dtype, shape));
  std::uniform_real_distribution<double> real(0.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  auto number = [&]() { return zeros ? 0.0 : real(*rng); };
  auto integer = [&]() { return zeros ? 0 : small(*rng); };
  switch (dtype) {
    case DT_FLOAT:
      Fill<float>(out, number);
      break;
    case DT_DOUBLE:
      Fill<double>(out, number);
      break;
    case DT_HALF:
      Fill<half>(out, [&] { return static_cast<float>(number()); });
      break;
    case DT_BFLOAT16:
      Fill<bfloat16>(out, [&] { return static_cast<float>(number()); });
      break;
    case DT_COMPLEX64:
      Fill<complex64>(out, [&] { return complex64(number(), 0); });
      break;
    case DT_COMPLEX128:
      Fill<complex128>(out, [&] { return complex128(number(), 0); });
      break;
    case DT_INT8:
      Fill<int8_t>(out, integer);
      break;
    case DT_INT16:
      Fill<int16_t>(out, integer);
      break;
    case DT_INT32:
      Fill<int32_t>(out, integer);
      break;
    case DT_INT64:
      Fill<int64_t>(out, integer);
      break;
    case DT_UINT8:
      Fill<uint8_t>(out, integer);
      break;
    case DT_UINT16:
      Fill<uint16_t>(out, integer);
      break;
    case DT_UINT32:
      Fill<uint32_t>(out, integer);
      break;
    case DT_UINT64:
      Fill<uint64_t>(out, integer);
      break;
    case DT_BOOL:
      Fill<bool>(out, [&] { return integer() % 2 == 1; });
      break;
    default:
      return errors::Unimplemented("cannot generate values of dtype ", DataTypeString(dtype),
                                   "; feed this input from a .npy file");
  }
  return absl::OkStatus();
}

absl::Status CheckFits(const ModelInput& input, const std::string& what, const Tensor& value) {
  const bool dtype_ok = input.dtype == DT_INVALID || value.dtype() == input.dtype;
  const bool shape_ok = input.shape.IsCompatibleWith(PartialTensorShape(value.shape()));
  if (dtype_ok && shape_ok) return absl::OkStatus();
  return errors::InvalidArgument("input '", input.name, "': ", what, " is ",
                                 DataTypeString(value.dtype()), " ", ShapeString(value.shape()),
                                 " but the model expects ", DataTypeString(input.dtype), " ",
                                 PartialShapeString(input.shape));
}

struct Request {
  std::string spec;  // file, "random" or "zeros"
  ModelInput input;
  bool has_shape = false;
  TensorShape shape;
};

// A folder's .npy files in name order, one value per step, each checked as a file would be.
absl::Status MakeFolderFeed(const Request& request, const std::string& path, Feed* feed) {
  std::vector<std::string> files;
  std::error_code error;
  for (std::filesystem::directory_iterator it(path, error), end; !error && it != end;
       it.increment(error)) {
    std::error_code type_error;
    if (absl::EndsWith(it->path().filename().string(), ".npy") && it->is_regular_file(type_error)) {
      files.push_back(it->path().string());
    }
  }
  if (error) {
    return errors::InvalidArgument("input '", request.input.name, "': cannot list ",
                                   Printable(path), ": ", error.message());
  }
  if (files.empty()) {
    return errors::InvalidArgument("input '", request.input.name, "': the folder ", Printable(path),
                                   " holds no .npy files");
  }
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    Tensor value;
    RETURN_IF_ERROR(ReadNpyFile(file, &value));
    if (request.has_shape && request.shape != value.shape()) {
      return errors::InvalidArgument("input '", request.input.name, "': ", Printable(file),
                                     " holds ", ShapeString(value.shape()), ", not the --shape ",
                                     ShapeString(request.shape));
    }
    RETURN_IF_ERROR(CheckFits(request.input, Printable(file), value));
    feed->step_values.push_back(std::move(value));
  }
  feed->value = feed->step_values[0];
  feed->description =
      absl::StrCat(request.spec, " (", files.size(), " files) ",
                   DataTypeString(feed->value.dtype()), " ", ShapeString(feed->value.shape()));
  if (feed->step_values.size() == 1) feed->step_values.clear();
  return absl::OkStatus();
}

absl::Status MakeFeed(const Request& request, const FeedOptions& options, std::mt19937_64* rng,
                      Feed* feed) {
  const ModelInput& input = request.input;
  if (request.spec == "random" || request.spec == "zeros") {
    TensorShape shape = request.shape;
    if (!request.has_shape) RETURN_IF_ERROR(DefaultShape(input, options.batch, &shape));
    if (!input.shape.IsCompatibleWith(PartialTensorShape(shape))) {
      return errors::InvalidArgument("input '", input.name, "': --shape ", ShapeString(shape),
                                     " does not fit the model's ", PartialShapeString(input.shape));
    }
    if (input.dtype == DT_INVALID) {
      return errors::InvalidArgument("input '", input.name, "': its dtype is unknown");
    }
    RETURN_IF_ERROR(Generate(input.dtype, shape, request.spec == "zeros", rng, &feed->value));
    feed->description =
        absl::StrCat(request.spec, " ", DataTypeString(input.dtype), " ", ShapeString(shape));
    return absl::OkStatus();
  }
  const std::string path = UserPath(request.spec);
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return MakeFolderFeed(request, path, feed);
  RETURN_IF_ERROR(ReadNpyFile(path, &feed->value));
  if (request.has_shape && request.shape != feed->value.shape()) {
    return errors::InvalidArgument("input '", input.name, "': ", request.spec, " holds ",
                                   ShapeString(feed->value.shape()), ", not the --shape ",
                                   ShapeString(request.shape));
  }
  RETURN_IF_ERROR(CheckFits(input, request.spec, feed->value));
  feed->description = absl::StrCat(request.spec, " ", DataTypeString(feed->value.dtype()), " ",
                                   ShapeString(feed->value.shape()));
  return absl::OkStatus();
}

// Cuts every file-read value of `feed` along dim 0 into batches of `rows`, one per step.
absl::Status SplitIntoBatches(const std::string& name, int64_t rows, int64_t max_steps,
                              Feed* feed) {
  std::vector<Tensor> values =
      feed->step_values.empty() ? std::vector<Tensor>{feed->value} : feed->step_values;
  // Counted first: a file of many rows cut into single rows would otherwise make millions of
  // tensors before the run's step limit refused them.
  int64_t count = 0;
  for (const Tensor& value : values) {
    if (value.dims() == 0) {
      return errors::InvalidArgument("input '", name, "': --step-batch cuts dim 0, but ",
                                     "the value is a scalar");
    }
    count += (value.dim_size(0) + rows - 1) / rows;
    if (count > max_steps) {
      return errors::InvalidArgument("input '", name, "': --step-batch ", rows, " makes more than ",
                                     max_steps, " steps");
    }
  }
  std::vector<Tensor> batches;
  for (const Tensor& value : values) {
    const int64_t n = value.dim_size(0);
    for (int64_t start = 0; start < n; start += rows) {
      // A copy: a slice's rows may start off the alignment kernels require.
      batches.push_back(value.Slice(start, start + std::min(rows, n - start)).DeepCopy());
    }
  }
  if (batches.empty()) {
    return errors::InvalidArgument("input '", name, "': --step-batch: the value has no rows");
  }
  absl::StrAppend(&feed->description, ", ", batches.size(), " steps of up to ", rows, " rows");
  feed->value = batches[0];
  feed->step_values = batches.size() > 1 ? std::move(batches) : std::vector<Tensor>{};
  return absl::OkStatus();
}

// ResolveInput's NOT_FOUND for a name the graph lacks, listing first the inputs the fetches
// need, then the first few of the other Placeholders (a frozen LSTM has dozens).
absl::Status UnknownInput(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                          const std::string& flag, const std::string& name) {
  const FetchNeeds needs = FindFetchNeeds(graph_def, fetches, {});
  const std::set<std::string> needed(needs.placeholders.begin(), needs.placeholders.end());
  std::vector<std::string> listed, others;
  for (const ModelInput& input : ModelInputs(graph_def)) {
    if (needed.count(input.name) > 0) {
      listed.push_back(absl::StrCat(input.name, " (", DescribeInput(input), ")"));
    } else {
      others.push_back(input.name);
    }
  }
  std::string inputs =
      listed.empty() ? (others.empty() ? "none (no Placeholders)" : "none that the outputs need")
                     : absl::StrJoin(listed, ", ");
  if (!others.empty()) {
    absl::StrAppend(&inputs, "; besides ", others.size(),
                    " Placeholder(s) the outputs do not need: ", FirstNames(others, 5));
  }
  return errors::NotFound("--", flag, ": unknown input '", name,
                          "'; the model's inputs are: ", inputs);
}

}  // namespace

absl::Status StepCount(const std::vector<Feed>& feeds, int64_t* steps) {
  *steps = 1;
  const Feed* first = nullptr;
  for (const Feed& feed : feeds) {
    if (feed.step_values.empty()) continue;
    const int64_t count = static_cast<int64_t>(feed.step_values.size());
    if (first != nullptr && count != *steps) {
      return errors::InvalidArgument(
          "inputs make different numbers of steps: ", Printable(first->tensor), " makes ", *steps,
          ", ", Printable(feed.tensor), " makes ", count);
    }
    first = &feed;
    *steps = count;
  }
  return absl::OkStatus();
}

std::string ShapeString(const TensorShape& shape) {
  return absl::StrCat("[", absl::StrJoin(shape.dim_sizes(), ","), "]");
}

absl::Status BuildFeeds(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                        const FeedOptions& options, std::vector<Feed>* feeds,
                        std::vector<std::string>* unneeded) {
  std::map<std::string, Request> requests;  // by canonical tensor name
  std::vector<std::string> order;
  auto request_for = [&](const std::string& flag, const std::string& name,
                         Request** request) -> absl::Status {
    std::string tensor;
    ModelInput input;
    const absl::Status resolved = ResolveInput(graph_def, name, &tensor, &input);
    if (absl::IsNotFound(resolved)) return UnknownInput(graph_def, fetches, flag, name);
    RETURN_IF_ERROR(errors::PrependToMessage(resolved, "--", flag, ": "));
    auto [it, added] = requests.try_emplace(tensor);
    if (added) {
      it->second.input = std::move(input);
      order.push_back(tensor);
    }
    *request = &it->second;
    return absl::OkStatus();
  };
  for (const std::string& text : options.inputs) {
    std::string name, spec;
    RETURN_IF_ERROR(SplitAssignment("input", text, &name, &spec));
    Request* request = nullptr;
    RETURN_IF_ERROR(request_for("input", name, &request));
    if (!request->spec.empty()) {
      return errors::InvalidArgument("--input: '", name, "' is given twice");
    }
    request->spec = spec;
  }
  for (const std::string& text : options.shapes) {
    std::string name, dims;
    RETURN_IF_ERROR(SplitAssignment("shape", text, &name, &dims));
    Request* request = nullptr;
    RETURN_IF_ERROR(request_for("shape", name, &request));
    if (request->has_shape) return errors::InvalidArgument("--shape: '", name, "' is given twice");
    RETURN_IF_ERROR(ParseDims(name, dims, &request->shape));
    request->has_shape = true;
  }
  // What the fetches need, given every tensor the flags name as fed.
  const FetchNeeds needs = FindFetchNeeds(graph_def, fetches, order);
  const std::set<std::string> needed_placeholders(needs.placeholders.begin(),
                                                  needs.placeholders.end());
  const size_t named = order.size();
  for (const ModelInput& input : ModelInputs(graph_def)) {
    if (input.has_default || requests.count(input.name) > 0 ||
        needed_placeholders.count(input.name) == 0) {
      continue;
    }
    requests[input.name].input = input;
    order.push_back(input.name);
  }
  std::mt19937_64 rng(options.seed);
  feeds->clear();
  if (unneeded != nullptr) unneeded->clear();
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string& tensor = order[i];
    Request& request = requests[tensor];
    const bool needed = i >= named || needs.fed_tensors.count(FedTensorKey(tensor)) > 0;
    if (request.spec.empty()) {
      if (!needed) {
        if (unneeded != nullptr) unneeded->push_back(tensor);
        continue;
      }
      request.spec = "random";
    }
    Feed feed;
    feed.tensor = tensor;
    RETURN_IF_ERROR(MakeFeed(request, options, &rng, &feed));
    const bool from_files = request.spec != "random" && request.spec != "zeros";
    if (options.step_batch > 0 && from_files) {
      RETURN_IF_ERROR(
          SplitIntoBatches(request.input.name, options.step_batch, options.max_steps, &feed));
    }
    if (!needed) feed.description += " (not needed by the outputs)";
    feeds->push_back(std::move(feed));
  }
  return absl::OkStatus();
}

}  // namespace cli
}  // namespace sluice
