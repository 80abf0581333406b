"""Writes fixtures/nms.pbtxt: NonMaxSuppressionV3, V4 and V5 in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_nms.py (needs TensorFlow 2.x and numpy).

Selected indices and valid_outputs are exact: the selection order, ties (equal scores go by
lower index) and the boxes dropped must all match. V5's selected_scores are compared with
rtol 1e-6 (float) and atol 1e-3 (half): soft-NMS multiplies by exp(), whose last bit may
differ between math libraries. Error cases record TensorFlow's code; error_substr (checked
here against TensorFlow's own message) must appear in Sluice's.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261203)
w = CaseWriter("nms")

F32 = dict(rtol=1e-6)
F16 = dict(atol=1e-3)


def v3(x_boxes, x_scores, x_max, x_iou, x_score):
  return R.NonMaxSuppressionV3(boxes=x_boxes, scores=x_scores, max_output_size=x_max,
                               iou_threshold=x_iou, score_threshold=x_score)


def v4(pad):
  return lambda b, s, m, i, t: R.NonMaxSuppressionV4(
      boxes=b, scores=s, max_output_size=m, iou_threshold=i, score_threshold=t,
      pad_to_max_output_size=pad)


def v5(pad):
  return lambda b, s, m, i, t, sigma: R.NonMaxSuppressionV5(
      boxes=b, scores=s, max_output_size=m, iou_threshold=i, score_threshold=t,
      soft_nms_sigma=sigma, pad_to_max_output_size=pad)


def f32(v):
  return np.array(v, np.float32)


def f16(v):
  return np.array(v, np.float16)


def i32(v):
  return np.array(v, np.int32)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


# TensorFlow's own test boxes: two clusters of three and two, and a lone box.
BOXES = f32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
             [0, 10.1, 1, 11.1], [0, 100, 1, 101]])
SCORES = f32([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])
NEG_INF = f32(-np.inf)

# ---- V3 -------------------------------------------------------------------------------
w.add("v3_basic", v3, [BOXES, SCORES, i32(3), f32(0.5), NEG_INF])
w.add("v3_all", v3, [BOXES, SCORES, i32(10), f32(0.5), NEG_INF])
w.add("v3_score_threshold", v3, [BOXES, SCORES, i32(6), f32(0.5), f32(0.4)])
w.add("v3_score_threshold_equal_excluded", v3, [BOXES, SCORES, i32(6), f32(0.5), f32(0.5)])
w.add("v3_iou_zero", v3, [BOXES, SCORES, i32(6), f32(0.0), NEG_INF])
w.add("v3_iou_one", v3, [BOXES, SCORES, i32(6), f32(1.0), NEG_INF])
w.add("v3_max_zero", v3, [BOXES, SCORES, i32(0), f32(0.5), NEG_INF])
w.add("v3_flipped_corners", v3,
      [f32([[1, 1, 0, 0], [0, 0.1, 1, 1.1], [0, 0.9, 1, -0.1], [1, 11, 0, 10]]),
       f32([0.9, 0.75, 0.6, 0.95]), i32(4), f32(0.5), NEG_INF])
w.add("v3_ties_lower_index_first", v3,
      [f32([[0, 0, 1, 1], [0, 5, 1, 6], [0, 0.05, 1, 1.05], [0, 10, 1, 11], [0, 5, 1, 6]]),
       f32([0.5, 0.5, 0.5, 0.7, 0.5]), i32(5), f32(0.5), NEG_INF])
w.add("v3_zero_area_boxes", v3,
      [f32([[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1, 1], [0, 0, 1, 1]]),
       f32([0.9, 0.8, 0.7, 0.6]), i32(4), f32(0.1), NEG_INF])
w.add("v3_nan_scores_dropped", v3,
      [BOXES, f32([0.9, np.nan, 0.6, np.nan, 0.5, 0.3]), i32(6), f32(0.5), NEG_INF])
w.add("v3_inf_scores", v3,
      [BOXES, f32([np.inf, 0.75, -np.inf, 0.95, np.inf, 0.3]), i32(6), f32(0.5), NEG_INF])
w.add("v3_nan_box", v3,
      [f32([[0, 0, 1, 1], [np.nan, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 0, np.nan, 1]]),
       f32([0.9, 0.8, 0.7, 0.6]), i32(4), f32(0.5), NEG_INF])
w.add("v3_empty", v3, [np.zeros((0, 4), np.float32), f32([]), i32(3), f32(0.5), NEG_INF])
w.add("v3_half", v3, [BOXES.astype(np.float16), SCORES.astype(np.float16), i32(4),
                      f16(0.5), f16(0.0)])
w.add("v3_half_boxes_float_thresholds", v3,
      [BOXES.astype(np.float16), SCORES.astype(np.float16), i32(6), f32(0.5), f32(0.55)])
w.add("v3_float_boxes_half_thresholds", v3, [BOXES, SCORES, i32(6), f16(0.5), f16(0.55)])


def random_boxes(n, dtype=np.float32):
  corner = rng.uniform(0, 10, (n, 2))
  size = rng.uniform(0.5, 3, (n, 2))
  boxes = np.concatenate([corner, corner + size], axis=1)
  flip = rng.random(n) < 0.3
  boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
  scores = rng.integers(0, 40, n) / 40.0  # many ties
  return boxes.astype(dtype), scores.astype(dtype)


RB, RS = random_boxes(300)
w.add("v3_random_300", v3, [RB, RS, i32(100), f32(0.45), f32(0.1)])
w.add("v3_random_300_iou_high", v3, [RB, RS, i32(300), f32(0.9), NEG_INF])
RBH, RSH = random_boxes(120, np.float16)
w.add("v3_random_half", v3, [RBH, RSH, i32(50), f16(0.3), f16(0.2)])

# ---- V4 -------------------------------------------------------------------------------
for pad in (False, True):
  tag = "_pad" if pad else ""
  w.add("v4_basic" + tag, v4(pad), [BOXES, SCORES, i32(5), f32(0.5), NEG_INF])
  w.add("v4_threshold" + tag, v4(pad), [BOXES, SCORES, i32(5), f32(0.5), f32(0.55)])
  w.add("v4_max_zero" + tag, v4(pad), [BOXES, SCORES, i32(0), f32(0.5), NEG_INF])
  w.add("v4_empty" + tag, v4(pad),
        [np.zeros((0, 4), np.float32), f32([]), i32(2), f32(0.5), NEG_INF])
  w.add("v4_half" + tag, v4(pad), [BOXES.astype(np.float16), SCORES.astype(np.float16),
                                   i32(5), f32(0.5), f32(0.0)])
  w.add("v4_random" + tag, v4(pad), [RB, RS, i32(80), f32(0.5), f32(0.3)])

# ---- V5 -------------------------------------------------------------------------------
for pad in (False, True):
  tag = "_pad" if pad else ""
  w.add("v5_hard" + tag, v5(pad), [BOXES, SCORES, i32(5), f32(0.5), NEG_INF, f32(0.0)], **F32)
  w.add("v5_soft" + tag, v5(pad), [BOXES, SCORES, i32(6), f32(1.0), f32(0.0), f32(0.5)], **F32)
  w.add("v5_soft_threshold" + tag, v5(pad),
        [BOXES, SCORES, i32(6), f32(0.5), f32(0.4), f32(0.5)], **F32)
  w.add("v5_soft_max" + tag, v5(pad),
        [BOXES, SCORES, i32(3), f32(0.5), f32(0.0), f32(1.0)], **F32)
  w.add("v5_half_soft" + tag, v5(pad), [BOXES.astype(np.float16), SCORES.astype(np.float16),
                                        i32(6), f16(0.5), f16(0.0), f16(0.5)], **F16)
  w.add("v5_random_soft" + tag, v5(pad), [RB, RS, i32(60), f32(0.5), f32(0.05), f32(0.3)],
        **F32)
w.add("v5_empty", v5(True),
      [np.zeros((0, 4), np.float32), f32([]), i32(2), f32(0.5), NEG_INF, f32(0.5)], **F32)
w.add("v5_tiny_sigma", v5(False), [BOXES, SCORES, i32(6), f32(0.5), f32(0.0), f32(1e-30)],
      **F32)

# ---- Errors ---------------------------------------------------------------------------
ARGS = [BOXES, SCORES, i32(3), f32(0.5), NEG_INF]
add_error("err_v3_boxes_rank1", v3, [f32([0, 0, 1, 1])] + ARGS[1:],
          "boxes must be 2-D[4] (Shape must be rank 2 but is rank 1)")
add_error("err_v3_boxes_3_columns", v3, [BOXES[:, :3]] + ARGS[1:],
          "boxes must have 4 columns (Dimension must be 4 but is 3)")
add_error("err_v3_scores_rank2", v3, [BOXES, SCORES.reshape(6, 1)] + ARGS[2:],
          "scores must be 1-D[6,1] (Shape must be rank 1 but is rank 2)")
add_error("err_v3_scores_length", v3, [BOXES, SCORES[:5]] + ARGS[2:],
          "scores has incompatible shape (Dimensions must be equal, but are 6 and 5)")
add_error("err_v3_max_output_vector", v3, ARGS[:2] + [i32([3])] + ARGS[3:],
          "max_output_size must be 0-D, got shape [1] (Shape must be rank 0 but is rank 1)")
add_error("err_v3_max_output_negative", v3, ARGS[:2] + [i32(-1)] + ARGS[3:],
          "output size must be non-negative")
add_error("err_v3_iou_vector", v3, ARGS[:3] + [f32([0.5])] + ARGS[4:],
          "iou_threshold must be 0-D, got shape [1] (Shape must be rank 0 but is rank 1)")
add_error("err_v3_iou_above_one", v3, ARGS[:3] + [f32(1.5)] + ARGS[4:],
          "iou_threshold must be in [0, 1]")
add_error("err_v3_iou_negative", v3, ARGS[:3] + [f32(-0.1)] + ARGS[4:],
          "iou_threshold must be in [0, 1]")
add_error("err_v3_iou_nan", v3, ARGS[:3] + [f32(np.nan)] + ARGS[4:],
          "iou_threshold must be in [0, 1]")
add_error("err_v3_score_threshold_vector", v3, ARGS[:4] + [f32([0.0])],
          "score_threshold must be 0-D, got shape [1]")
add_error("err_v3_iou_checked_before_boxes", v3, [f32([0, 0, 1, 1]), SCORES, i32(3),
                                                  f32(2.0), NEG_INF],
          "iou_threshold must be in [0, 1]")
add_error("err_v3_boxes_checked_before_max_output", v3,
          [BOXES[:, :3], SCORES, i32(-1), f32(0.5), NEG_INF], "boxes must have 4 columns")
add_error("err_v4_max_output_vector", v4(True), ARGS[:2] + [i32([3])] + ARGS[3:],
          "max_output_size must be 0-D, got shape [1]")
add_error("err_v4_max_output_negative", v4(True), ARGS[:2] + [i32(-2)] + ARGS[3:],
          "output size must be non-negative")
add_error("err_v4_boxes_rank3", v4(False), [BOXES.reshape(1, 6, 4)] + ARGS[1:],
          "boxes must be 2-D[1,6,4] (Shape must be rank 2 but is rank 3)")
add_error("err_v5_sigma_negative", v5(False), ARGS + [f32(-0.5)],
          "soft_nms_sigma_val must be >= 0")
add_error("err_v5_sigma_vector", v5(False), ARGS + [f32([0.5])],
          "soft_nms_sigma must be 0-D, got shape [1]")
add_error("err_v5_iou_above_one", v5(False), ARGS[:3] + [f32(1.01), NEG_INF, f32(0.5)],
          "iou_threshold must be in [0, 1]")
add_error("err_v5_scores_length", v5(True), [BOXES, SCORES[:4]] + ARGS[2:] + [f32(0.5)],
          "scores has incompatible shape (Dimensions must be equal, but are 6 and 4)")

w.write()
