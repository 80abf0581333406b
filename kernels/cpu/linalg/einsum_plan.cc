#include "kernels/cpu/linalg/einsum_plan.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"

namespace sluice {
namespace einsum {
namespace {

// Whether `subscript` holds an ellipsis; periods elsewhere are an error.
absl::Status FindEllipsis(absl::string_view subscript, bool* has_ellipsis) {
  const size_t periods = std::count(subscript.begin(), subscript.end(), '.');
  if (periods != 0 && periods != 3) {
    return errors::InvalidArgument("Expected at most one ellipsis (...), but found ", periods,
                                   " periods (.) in the subscript: ", subscript);
  }
  if (periods == 3 && subscript.find("...") == absl::string_view::npos) {
    return errors::InvalidArgument("Periods found outside of ellipsis in subscript: ", subscript);
  }
  *has_ellipsis = periods == 3;
  return absl::OkStatus();
}

// Appends the labels of `subscript` to `labels`, numbering new ones in `names` unless
// `output` (the output may only use the inputs' labels).
absl::Status ParseSubscript(absl::string_view subscript, const std::string& equation, bool output,
                            std::string* names, std::vector<int>* labels) {
  bool has_ellipsis = false;
  RETURN_IF_ERROR(FindEllipsis(subscript, &has_ellipsis));
  for (size_t i = 0; i < subscript.size(); ++i) {
    if (subscript[i] == '.') {
      labels->push_back(kEllipsis);
      i += 2;
      continue;
    }
    size_t id = names->find(subscript[i]);
    if (id == std::string::npos) {
      if (output) {
        return errors::InvalidArgument("Einsum output subscripts for equation '", equation,
                                       "' has label '", subscript.substr(i, 1),
                                       "' which is not present in the input subscripts");
      }
      id = names->size();
      names->push_back(subscript[i]);
    }
    labels->push_back(static_cast<int>(id));
  }
  return absl::OkStatus();
}

// Row-major strides of `dims`.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  // heap-ok: one per dim of an operand (rank <= 254)
  std::vector<int64_t> strides(dims.size());
  int64_t step = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    strides[d] = step;
    step *= dims[d];
  }
  return strides;
}

int64_t Product(const std::vector<int>& labels, const std::vector<int64_t>& sizes) {
  int64_t p = 1;
  for (int l : labels) p *= sizes[l];
  return p;
}

template <typename Pred>
std::vector<int> Filter(const std::vector<int>& labels, Pred keep) {
  std::vector<int> out;
  for (int l : labels) {
    if (keep(l)) out.push_back(l);
  }
  return out;
}

std::vector<int> Concat(std::initializer_list<const std::vector<int>*> parts) {
  std::vector<int> out;
  // heap-ok: the labels of the equation attr
  for (const std::vector<int>* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

// What MakePlan knows about one input once its axes are labelled.
struct InputLabels {
  std::vector<int> axes;        // the label of each axis
  std::vector<int64_t> size;    // per label: its size in this input (1 where absent)
  std::vector<int64_t> stride;  // per label: the sum of its axes' strides (0 where absent)
  std::vector<int> count;       // per label: how many axes carry it
};

// The labels of `in` in axis order, each once, leaving out those of size 1.
std::vector<int> AxisOrder(const InputLabels& in) {
  std::vector<int> order;
  for (int l : in.axes) {
    if (in.size[l] != 1 && std::find(order.begin(), order.end(), l) == order.end()) {
      order.push_back(l);
    }
  }
  return order;
}

// Whether `in`'s buffer is the row-major array of `layout`: no label repeats or is summed
// (beyond size 1), and the axes come in that order up to size-1 dims.
bool IsLaidOut(const InputLabels& in, const std::vector<int>& summed,
               const std::vector<int>& layout) {
  for (int l : summed) {
    if (in.size[l] != 1) return false;
  }
  for (size_t l = 0; l < in.count.size(); ++l) {
    if (in.count[l] > 1 && in.size[l] != 1) return false;
  }
  return AxisOrder(in) == Filter(layout, [&](int l) { return in.size[l] != 1; });
}

// The pass that gathers `in` into the row-major array of `layout`, summing `summed`.
StridedPass Gather(const InputLabels& in, const std::vector<int>& layout,
                   const std::vector<int>& summed) {
  StridedPass pass;
  for (int l : layout) {
    pass.dims.push_back(in.size[l]);
    pass.src_strides.push_back(in.stride[l]);
  }
  pass.dst_strides = RowMajorStrides(pass.dims);
  for (int l : summed) {
    pass.reduce_dims.push_back(in.size[l]);
    pass.reduce_strides.push_back(in.stride[l]);
  }
  return pass;
}

std::string LabelName(const Equation& eq, int label) {
  if (label < static_cast<int>(eq.names.size()))
    return absl::StrCat("'", eq.names.substr(label, 1), "'");
  return absl::StrCat("dim ", label - eq.names.size(), " of the ellipsis");
}

}  // namespace

int64_t StridedPass::NumKept() const {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<int64_t>());
}

int64_t StridedPass::NumReduced() const {
  return std::accumulate(reduce_dims.begin(), reduce_dims.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

bool StridedPass::IsGather() const {
  return reduce_dims.empty() && dst_strides == RowMajorStrides(dims);
}

void StridedPass::Simplify() {
  std::vector<int64_t> d, s, t;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!d.empty() && s.back() == src_strides[i] * dims[i] &&
        t.back() == dst_strides[i] * dims[i]) {
      d.back() *= dims[i];
      s.back() = src_strides[i];
      t.back() = dst_strides[i];
      continue;
    }
    d.push_back(dims[i]);
    s.push_back(src_strides[i]);
    t.push_back(dst_strides[i]);
  }
  dims = std::move(d);
  src_strides = std::move(s);
  dst_strides = std::move(t);
  std::vector<std::pair<int64_t, int64_t>> r;  // (stride, size)
  for (size_t i = 0; i < reduce_dims.size(); ++i) {
    if (reduce_dims[i] != 1) r.emplace_back(reduce_strides[i], reduce_dims[i]);
  }
  std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  reduce_dims.clear();
  reduce_strides.clear();
  for (const auto& [stride, size] : r) {
    if (!reduce_dims.empty() && reduce_strides.back() == stride * size) {
      reduce_dims.back() *= size;
      reduce_strides.back() = stride;
      continue;
    }
    reduce_dims.push_back(size);
    reduce_strides.push_back(stride);
  }
}

absl::Status ParseEquation(const std::string& text, int num_inputs, Equation* equation) {
  Equation eq;
  eq.text = text;
  const std::vector<absl::string_view> sides = absl::StrSplit(text, "->");
  if (sides.size() != 2) {
    return errors::InvalidArgument("Expecting exactly one '->' in einsum equation: ", text);
  }
  const std::vector<absl::string_view> inputs = absl::StrSplit(sides[0], ',');
  if (inputs.size() != 1 && inputs.size() != 2) {
    return errors::InvalidArgument("Expecting 1 or 2 input subscripts in equation '", text,
                                   "' but got: ", inputs.size());
  }
  if (static_cast<int>(inputs.size()) != num_inputs) {
    return errors::InvalidArgument("Expected ", inputs.size(), " inputs for equation ", text,
                                   " but got: ", num_inputs);
  }
  // heap-ok: one per input of the node
  eq.inputs.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    RETURN_IF_ERROR(ParseSubscript(inputs[i], text, false, &eq.names, &eq.inputs[i]));
  }
  RETURN_IF_ERROR(ParseSubscript(sides[1], text, true, &eq.names, &eq.output));
  eq.output_has_ellipsis =
      std::find(eq.output.begin(), eq.output.end(), kEllipsis) != eq.output.end();
  *equation = std::move(eq);
  return absl::OkStatus();
}

absl::Status MakePlan(const Equation& eq, absl::Span<const TensorShape> shapes, Plan* plan) {
  *plan = Plan();
  const int num_inputs = static_cast<int>(eq.inputs.size());
  if (static_cast<int>(shapes.size()) != num_inputs) {
    return errors::InvalidArgument("Expected ", num_inputs, " inputs but got: ", shapes.size());
  }
  plan->num_inputs = num_inputs;
  const int named = static_cast<int>(eq.names.size());

  // The ellipsis of each input covers the dims its named labels leave over; these become
  // labels named + 0 ... named + max_bcast - 1, right-aligned across the inputs.
  // heap-ok: one per input of the node
  std::vector<int> num_bcast(num_inputs, 0);
  int max_bcast = 0;
  for (int i = 0; i < num_inputs; ++i) {
    const std::vector<int>& sub = eq.inputs[i];
    const bool has_ellipsis = std::find(sub.begin(), sub.end(), kEllipsis) != sub.end();
    const int num_named = static_cast<int>(sub.size()) - (has_ellipsis ? 1 : 0);
    const int rank = shapes[i].dims();
    if (!has_ellipsis && rank != num_named) {
      return errors::InvalidArgument("Expected input ", i, " to have rank ", num_named,
                                     " but got: ", rank, " (equation ", eq.text, ")");
    }
    if (has_ellipsis && rank < num_named) {
      return errors::InvalidArgument("Expected input ", i, " to have rank at least ", num_named,
                                     " but got: ", rank, " (equation ", eq.text, ")");
    }
    num_bcast[i] = rank - num_named;
    max_bcast = std::max(max_bcast, num_bcast[i]);
  }
  if (max_bcast > 0 && !eq.output_has_ellipsis) {
    return errors::InvalidArgument("Output contains ", max_bcast,
                                   " broadcasting dimension(s) but no ellipsis (...) was found "
                                   "in the output subscripts.");
  }
  const int num_labels = named + max_bcast;
  const auto expand = [&](const std::vector<int>& sub, int nb) {
    std::vector<int> axes;
    for (int l : sub) {
      if (l != kEllipsis) {
        axes.push_back(l);
        continue;
      }
      for (int q = 0; q < nb; ++q) axes.push_back(named + max_bcast - nb + q);
    }
    return axes;
  };

  // Sizes: a named label's must agree everywhere; an ellipsis dim broadcasts (1 against n).
  // heap-ok: one per label of the equation attr
  std::vector<int64_t> size(num_labels, -1);
  // heap-ok: one per input of the node
  std::vector<InputLabels> in(num_inputs);
  for (int i = 0; i < num_inputs; ++i) {
    InputLabels& li = in[i];
    li.axes = expand(eq.inputs[i], num_bcast[i]);
    // heap-ok: one per label of the equation attr
    li.size.assign(num_labels, 1);
    // heap-ok: one per label of the equation attr
    li.stride.assign(num_labels, 0);
    // heap-ok: one per label of the equation attr
    li.count.assign(num_labels, 0);
    const std::vector<int64_t> strides = RowMajorStrides(shapes[i].dim_sizes());
    for (int a = 0; a < shapes[i].dims(); ++a) {
      const int l = li.axes[a];
      const int64_t d = shapes[i].dim_size(a);
      const int64_t expected = li.count[l] > 0 ? li.size[l] : (l < named ? size[l] : -1);
      if (expected >= 0 && expected != d) {
        return errors::InvalidArgument("Expected dimension ", expected, " at axis ", a,
                                       " of the input shaped ", shapes[i].DebugString(),
                                       " but got dimension ", d, " (label ", LabelName(eq, l),
                                       " of input ", i, " in equation ", eq.text, ")");
      }
      if (l < named) size[l] = d;
      li.size[l] = d;
      li.stride[l] += strides[a];
      ++li.count[l];
    }
  }
  for (int l = named; l < num_labels; ++l) {
    size[l] = 1;
    for (int i = 0; i < num_inputs; ++i) {
      const int64_t d = in[i].size[l];
      if (d == 1) continue;
      if (size[l] != 1 && size[l] != d) {
        // Only two inputs can disagree.
        return errors::InvalidArgument(
            "Invalid broadcasting dimensions: the dims under the ellipsis (...) of input 0 "
            "shaped ",
            shapes[0].DebugString(), " and input 1 shaped ", shapes[1].DebugString(),
            " do not broadcast (", size[l], " vs. ", d, ") in equation ", eq.text);
      }
      size[l] = d;
    }
  }

  // The output.
  const std::vector<int> out_axes = expand(eq.output, max_bcast);
  std::vector<int64_t> out_dims;
  // heap-ok: one per label of the equation attr
  std::vector<int> out_count(num_labels, 0);
  std::vector<int> out_order;  // labels in order of first appearance in the output
  for (int l : out_axes) {
    out_dims.push_back(size[l]);
    if (out_count[l]++ == 0) out_order.push_back(l);
    if (out_count[l] > 1 && size[l] > 1) plan->inflate = true;
  }
  RETURN_IF_ERROR(TensorShape::BuildTensorShape(out_dims, &plan->output_shape));
  if (plan->output_shape.num_elements() == 0) {
    plan->output_empty = true;
    return absl::OkStatus();
  }
  for (int i = 0; i < num_inputs; ++i) {
    if (shapes[i].num_elements() == 0) {
      plan->zeros = true;
      return absl::OkStatus();
    }
  }
  // Where each label lands in the output: the sum of the strides of the axes it labels.
  // heap-ok: one per label of the equation attr
  std::vector<int64_t> out_stride(num_labels, 0);
  const std::vector<int64_t> out_strides = RowMajorStrides(out_dims);
  for (size_t a = 0; a < out_axes.size(); ++a) out_stride[out_axes[a]] += out_strides[a];

  if (num_inputs == 1) {
    const InputLabels& li = in[0];
    const std::vector<int> summed = Filter(
        AxisOrder(li), [&](int l) { return out_count[l] == 0; });  // size-1 ones sum to themselves
    plan->x.input = 0;
    plan->x.prepare = Gather(li, out_order, summed);
    plan->x.prepare.dst_strides.clear();
    for (int l : out_order) plan->x.prepare.dst_strides.push_back(out_stride[l]);
    plan->forward = !plan->inflate && IsLaidOut(li, summed, out_order);
    plan->x.direct = plan->forward;
    plan->x.prepare.Simplify();
    plan->x.num_elements = plan->output_shape.num_elements();
    return absl::OkStatus();
  }

  // Two inputs: classify the labels. An ellipsis dim is a batch dim even where one input's
  // ellipsis does not reach it: that input is broadcast along it (size 1).
  std::vector<int> batch, free0, free1, summed0, summed1;
  for (int l : out_order) {
    const bool in0 = in[0].count[l] > 0 || l >= named, in1 = in[1].count[l] > 0 || l >= named;
    if (in0 && in1) batch.push_back(l);
    if (in0 && !in1) free0.push_back(l);
    if (!in0 && in1) free1.push_back(l);
  }
  for (int l = 0; l < num_labels; ++l) {
    if (out_count[l] > 0) continue;
    const bool in0 = in[0].count[l] > 0, in1 = in[1].count[l] > 0;
    if (in0 && !in1) summed0.push_back(l);
    if (!in0 && in1) summed1.push_back(l);
  }
  // X is the input whose free labels come first in the output.
  const auto first_position = [&](const std::vector<int>& labels) {
    return std::find(out_order.begin(), out_order.end(), labels.front()) - out_order.begin();
  };
  const bool swap =
      !free0.empty() && !free1.empty() && first_position(free1) < first_position(free0);
  const int xi = swap ? 1 : 0, yi = 1 - xi;
  const InputLabels& lx = in[xi];
  const InputLabels& ly = in[yi];
  const std::vector<int>& free_x = swap ? free1 : free0;
  const std::vector<int>& free_y = swap ? free0 : free1;
  const std::vector<int>& summed_x = swap ? summed1 : summed0;
  const std::vector<int>& summed_y = swap ? summed0 : summed1;

  // Lays out one operand: as is when it already has one of its two layouts, else gathered
  // into the natural one.
  const auto lay_out = [&](const InputLabels& li, int input, const std::vector<int>& natural,
                           const std::vector<int>& transposed, const std::vector<int>& summed,
                           Operand* op) {
    op->input = input;
    op->direct = true;
    op->transposed = false;
    const std::vector<int>* layout = &natural;
    if (!IsLaidOut(li, summed, natural)) {
      if (IsLaidOut(li, summed, transposed)) {
        op->transposed = true;
        layout = &transposed;
      } else {
        op->direct = false;
      }
    }
    op->prepare = Gather(li, *layout, summed);
    op->num_elements = op->prepare.NumKept();
    op->prepare.Simplify();
  };
  // The contracted labels in the order of X or of Y, whichever leaves more inputs as they are.
  const auto contracted_in = [&](const InputLabels& li) {
    return Filter(li.axes,
                  [&](int l) { return out_count[l] == 0 && lx.count[l] > 0 && ly.count[l] > 0; });
  };
  std::vector<int> best_contracted;
  int best_direct = -1;
  for (const InputLabels* order_of : {&lx, &ly}) {
    std::vector<int> c;
    for (int l : contracted_in(*order_of)) {
      if (std::find(c.begin(), c.end(), l) == c.end()) c.push_back(l);
    }
    Operand ox, oy;
    lay_out(lx, xi, Concat({&batch, &free_x, &c}), Concat({&batch, &c, &free_x}), summed_x, &ox);
    lay_out(ly, yi, Concat({&batch, &c, &free_y}), Concat({&batch, &free_y, &c}), summed_y, &oy);
    const int direct = (ox.direct ? 1 : 0) + (oy.direct ? 1 : 0);
    if (direct > best_direct) {
      best_direct = direct;
      best_contracted = c;
      plan->x = std::move(ox);
      plan->y = std::move(oy);
    }
  }
  plan->m = Product(free_x, size);
  plan->n = Product(free_y, size);
  plan->k = Product(best_contracted, size);

  // Batch dims: drop size 1, merge neighbours that broadcast alike.
  char last = 0;  // 'b': both inputs have the dim, 'x' / 'y': only that one
  for (int l : batch) {
    if (size[l] == 1) continue;
    const int64_t xs = lx.size[l], ys = ly.size[l];
    const char kind = xs == ys ? 'b' : (xs == 1 ? 'y' : 'x');
    if (kind == last) {
      plan->batch.back() *= size[l];
      plan->x_batch.back() *= xs;
      plan->y_batch.back() *= ys;
    } else {
      plan->batch.push_back(size[l]);
      plan->x_batch.push_back(xs);
      plan->y_batch.push_back(ys);
    }
    last = kind;
  }
  // Y shared by every batch entry and X stored row by row: the batches are rows of one
  // taller product.
  const bool y_shared =
      std::all_of(plan->y_batch.begin(), plan->y_batch.end(), [](int64_t d) { return d == 1; });
  if (!plan->x.transposed && y_shared && !plan->batch.empty()) {
    for (int64_t d : plan->batch) plan->m *= d;
    plan->batch.clear();
    plan->x_batch.clear();
    plan->y_batch.clear();
  }

  // The result [batch, free X, free Y] into the output: gathered in the output's order, or
  // scattered in the result's order onto the diagonals of an inflated output.
  const std::vector<int> result = Concat({&batch, &free_x, &free_y});
  std::vector<int64_t> result_dims;
  for (int l : result) result_dims.push_back(size[l]);
  const std::vector<int64_t> result_strides = RowMajorStrides(result_dims);
  if (plan->inflate) {
    plan->finish.dims = result_dims;
    plan->finish.src_strides = result_strides;
    for (int l : result) plan->finish.dst_strides.push_back(out_stride[l]);
  } else {
    // heap-ok: one per label of the equation attr
    std::vector<int64_t> result_stride(num_labels, 0);
    for (size_t r = 0; r < result.size(); ++r) result_stride[result[r]] = result_strides[r];
    plan->finish.dims = out_dims;
    plan->finish.dst_strides = out_strides;
    for (int l : out_axes) plan->finish.src_strides.push_back(result_stride[l]);
  }
  const auto big = [&](int l) { return size[l] != 1; };
  plan->result_is_output = !plan->inflate && Filter(result, big) == Filter(out_axes, big);
  plan->finish.Simplify();
  return absl::OkStatus();
}

}  // namespace einsum
}  // namespace sluice
