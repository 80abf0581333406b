"""Writes fixtures/detection.pbtxt: CropAndResize and its gradients, NonMaxSuppression,
NonMaxSuppressionV2, NonMaxSuppressionWithOverlaps and CombinedNonMaxSuppression in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_detection.py (needs TensorFlow 2.x and numpy).

Every case is exact (no tolerance): CropAndResize follows TensorFlow's float arithmetic
operation for operation, and the NMS forms its selection order, ties included; the gradients'
sums get rtol/atol 1e-5 (half images 1e-2).
Left out: CropAndResize boxes so far apart that a sample position is NaN (TensorFlow then
indexes the image with an undefined conversion), and CombinedNonMaxSuppression inputs of
rank 0 (TensorFlow reads their first dim before checking the rank).
Error cases record TensorFlow's code; error_substr must appear in Sluice's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("detection")


def f32(v):
  return np.array(v, np.float32)


def i32(v):
  return np.array(v, np.int32)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


# ---- CropAndResize -----------------------------------------------------------------------
def crop(method="bilinear", extrapolation=0.0):
  return lambda image, boxes, box_ind, size: R.CropAndResize(
      image=image, boxes=boxes, box_ind=box_ind, crop_size=size, method=method,
      extrapolation_value=extrapolation)


IMG = rng.uniform(-100, 100, (2, 9, 11, 2))
BOXES = f32([[0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], [0.8, 0.9, 0.2, 0.1], [-0.3, -0.2, 1.4, 1.1],
             [0.5, 0.5, 0.5, 0.5], [0.33, 0.1, 0.34, 0.95]])
IND = i32([0, 1, 0, 1, 1, 0])
for tag, dt in (("u8", np.uint8), ("u16", np.uint16), ("i8", np.int8), ("i16", np.int16),
                ("i32", np.int32), ("i64", np.int64), ("f16", np.float16), ("f32", np.float32),
                ("f64", np.float64)):
  if np.issubdtype(dt, np.unsignedinteger):
    image = rng.integers(0, 250, IMG.shape).astype(dt)
  elif np.issubdtype(dt, np.integer):
    image = rng.integers(-120, 120, IMG.shape).astype(dt)
  else:
    image = IMG.astype(dt)
  for method in ("bilinear", "nearest"):
    w.add("crop_%s_%s" % (tag, method), crop(method), [image, BOXES, IND, i32([4, 5])])
for method in ("bilinear", "nearest"):
  w.add("crop_f32_%s_extrapolate" % method, crop(method, -7.5),
        [IMG.astype(np.float32), BOXES, IND, i32([4, 6])])
  w.add("crop_f32_%s_one_pixel" % method, crop(method),
        [IMG.astype(np.float32), BOXES, IND, i32([1, 1])])
  w.add("crop_f32_%s_one_row" % method, crop(method, 3.0),
        [IMG.astype(np.float32), BOXES, IND, i32([1, 8])])
  w.add("crop_f32_%s_one_column" % method, crop(method),
        [IMG.astype(np.float32), BOXES, IND, i32([6, 1])])
  many = np.sort(rng.uniform(-0.2, 1.2, (24, 2, 2)), axis=1).reshape(24, 4)[:, [0, 2, 1, 3]]
  w.add("crop_f32_%s_random_large" % method, crop(method, 0.5),
        [rng.standard_normal((2, 21, 23, 2)).astype(np.float32), many.astype(np.float32),
         rng.integers(0, 2, 24).astype(np.int32), i32([7, 8])])
w.add("crop_f32_single_pixel_image", crop(), [IMG[:, :1, :1].astype(np.float32), BOXES, IND,
                                              i32([3, 3])])
w.add("crop_f32_nan_image", crop(), [np.where(IMG > 90, np.nan, IMG).astype(np.float32), BOXES,
                                     IND, i32([5, 5])])
w.add("crop_f32_no_boxes", crop(), [IMG.astype(np.float32), np.zeros((0, 4), np.float32),
                                    np.zeros((0,), np.int32), i32([3, 3])])
w.add("crop_f32_no_boxes_3_columns", crop(), [IMG.astype(np.float32), np.zeros((0, 3), np.float32),
                                              np.zeros((0,), np.int32), i32([3, 3])])
w.add("crop_f32_no_channels", crop(), [np.zeros((1, 3, 3, 0), np.float32), BOXES[:1], IND[:1],
                                       i32([2, 2])])
w.add("crop_f32_huge_boxes", crop(), [IMG.astype(np.float32),
                                      f32([[-1e30, -1e30, 1e30, 1e30], [1e20, 0, 1e20, 1]]),
                                      i32([0, 1]), i32([3, 3])])
ARGS = [IMG.astype(np.float32), BOXES, IND, i32([3, 3])]
add_error("err_crop_box_index_out_of_range", crop(), ARGS[:2] + [i32([0, 1, 2, 0, 0, 0])] + ARGS[3:],
          "box_index has values outside [0, batch_size)")
add_error("err_crop_box_index_negative", crop(), ARGS[:2] + [i32([0, 1, -1, 0, 0, 0])] + ARGS[3:],
          "box_index has values outside [0, batch_size)")
add_error("err_crop_box_not_finite", crop(),
          [ARGS[0], f32([[0, 0, np.nan, 1]]), i32([0]), ARGS[3]],
          "Boxes contains at least one element that is not finite")
add_error("err_crop_box_inf_and_bad_index", crop(),
          [ARGS[0], f32([[0, 0, np.inf, 1]]), i32([5]), ARGS[3]],
          "box_index has values outside [0, batch_size)")
add_error("err_crop_image_rank3", crop(), [ARGS[0][0]] + ARGS[1:], "input image must be 4-D[9,11,2]")
add_error("err_crop_image_empty", crop(), [np.zeros((1, 0, 3, 1), np.float32)] + ARGS[1:],
          "image dimensions must be positive")
add_error("err_crop_empty_batch", crop(), [np.zeros((0, 3, 3, 1), np.float32)] + ARGS[1:],
          "box_index has values outside [0, batch_size)")
add_error("err_crop_boxes_rank1", crop(), [ARGS[0], f32([0, 0, 1, 1]), i32([0]), ARGS[3]],
          "boxes must be 2-D, got: [4]")
add_error("err_crop_boxes_3_columns", crop(), [ARGS[0], BOXES[:, :3], IND, ARGS[3]],
          "boxes must have 4 columns")
add_error("err_crop_box_ind_rank2", crop(), [ARGS[0], BOXES, IND.reshape(6, 1), ARGS[3]],
          "box_indices must be rank 1 but is shape [6,1]")
add_error("err_crop_box_ind_length", crop(), [ARGS[0], BOXES, IND[:5], ARGS[3]],
          "box_index has incompatible shape")
add_error("err_crop_size_length", crop(), ARGS[:3] + [i32([3])], "crop_size must have two elements[1]")
add_error("err_crop_size_rank2", crop(), ARGS[:3] + [i32([[3, 3]])], "crop_size must be 1-D[1,2]")
add_error("err_crop_size_zero", crop(), ARGS[:3] + [i32([0, 3])], "crop dimensions must be positive")
add_error("err_crop_size_negative", crop(), ARGS[:3] + [i32([3, -2])],
          "crop dimensions must be positive")


# ---- NonMaxSuppression, V2, WithOverlaps --------------------------------------------------
def nms_v1(iou=0.5):
  return lambda b, s, m: R.NonMaxSuppression(boxes=b, scores=s, max_output_size=m,
                                             iou_threshold=iou)


def nms_v2(b, s, m, t):
  return R.NonMaxSuppressionV2(boxes=b, scores=s, max_output_size=m, iou_threshold=t)


def overlaps_nms(o, s, m, t, st):
  return R.NonMaxSuppressionWithOverlaps(overlaps=o, scores=s, max_output_size=m,
                                         overlap_threshold=t, score_threshold=st)


NB = f32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
          [0, 100, 1, 101]])
NS = f32([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])


def random_boxes(n):
  corner = rng.uniform(0, 10, (n, 2))
  size = rng.uniform(0.5, 3, (n, 2))
  boxes = np.concatenate([corner, corner + size], axis=1)
  flip = rng.random(n) < 0.3
  boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
  return boxes.astype(np.float32), (rng.integers(0, 40, n) / 40.0).astype(np.float32)


RB, RS = random_boxes(300)
for iou in (0.5, 0.0, 1.0):
  w.add("nms_v1_iou%g" % iou, nms_v1(iou), [NB, NS, i32(6)])
w.add("nms_v1_default_iou", lambda b, s, m: R.NonMaxSuppression(boxes=b, scores=s,
                                                                max_output_size=m),
      [NB, NS, i32(3)])
w.add("nms_v1_random", nms_v1(0.45), [RB, RS, i32(100)])
w.add("nms_v1_nonfinite_scores", nms_v1(),
      [NB, f32([np.inf, np.nan, -np.inf, 0.95, -1e30, 0.3]), i32(6)])
w.add("nms_v1_nan_box", nms_v1(), [f32([[0, 0, 1, 1], [np.nan, 0, 1, 1], [0, 0.1, 1, 1.1]]),
                                   f32([0.9, 0.8, 0.7]), i32(3)])
w.add("nms_v1_empty", nms_v1(), [np.zeros((0, 4), np.float32), f32([]), i32(3)])
w.add("nms_v1_max_zero", nms_v1(), [NB, NS, i32(0)])
w.add("nms_v2_f32", nms_v2, [NB, NS, i32(4), f32(0.5)])
w.add("nms_v2_random", nms_v2, [RB, RS, i32(300), f32(0.3)])
w.add("nms_v2_f16", nms_v2, [NB.astype(np.float16), NS.astype(np.float16), i32(6),
                             np.float16(0.5)])
w.add("nms_v2_f16_float_threshold", nms_v2, [NB.astype(np.float16), NS.astype(np.float16),
                                             i32(6), f32(0.5)])
w.add("nms_v2_f32_half_threshold", nms_v2, [NB, NS, i32(6), np.float16(0.9)])
w.add("nms_v2_f16_lowest_scores", nms_v2,
      [NB[:3].astype(np.float16), np.array([-np.inf, -60000, -65504], np.float16), i32(3),
       f32(0.5)])
OV = rng.random((30, 30)).astype(np.float32)
OV = (OV + OV.T) / 2
OS = (rng.integers(0, 10, 30) / 10.0).astype(np.float32)
w.add("nms_overlaps_basic", overlaps_nms, [OV, OS, i32(30), f32(0.5), f32(0.1)])
w.add("nms_overlaps_max", overlaps_nms, [OV, OS, i32(5), f32(0.7), f32(-np.inf)])
w.add("nms_overlaps_threshold_above_one", overlaps_nms, [OV, OS, i32(30), f32(2.0), f32(0.0)])
w.add("nms_overlaps_negative_threshold", overlaps_nms, [OV, OS, i32(30), f32(-1.0), f32(0.0)])
w.add("nms_overlaps_nan_requeued", overlaps_nms,
      [f32([[1, np.nan, 0], [np.nan, 1, 0.2], [0, 0.2, 1]]), f32([0.9, 0.8, 0.7]), i32(3),
       f32(0.5), f32(-1)])
w.add("nms_overlaps_nan_dropped", overlaps_nms,
      [f32([[1, np.nan, 0], [np.nan, 1, 0.2], [0, 0.2, 1]]), f32([0.9, 0.8, 0.7]), i32(3),
       f32(0.5), f32(0)])
w.add("nms_overlaps_empty", overlaps_nms, [np.zeros((0, 0), np.float32), f32([]), i32(3),
                                           f32(0.5), f32(0)])
add_error("err_nms_v1_iou_attr", nms_v1(1.5), [NB, NS, i32(3)], "iou_threshold must be in [0, 1]")
add_error("err_nms_v1_boxes_rank1", nms_v1(), [NB[0], NS, i32(3)],
          "boxes must be 2-D[4] (Shape must be rank 2 but is rank 1)")
add_error("err_nms_v1_boxes_columns", nms_v1(), [NB[:, :3], NS, i32(3)],
          "boxes must have 4 columns (Dimension must be 4 but is 3)")
add_error("err_nms_v1_scores_length", nms_v1(), [NB, NS[:2], i32(3)],
          "scores has incompatible shape (Dimensions must be equal, but are 6 and 2)")
add_error("err_nms_v1_scores_rank2", nms_v1(), [NB, NS.reshape(6, 1), i32(3)],
          "scores must be 1-D[6,1] (Shape must be rank 1 but is rank 2)")
add_error("err_nms_v1_max_vector", nms_v1(), [NB, NS, i32([3])],
          "max_output_size must be 0-D, got shape [1]")
add_error("err_nms_v1_max_negative", nms_v1(), [NB, NS, i32(-1)],
          "output size must be non-negative")
add_error("err_nms_v2_iou_vector", nms_v2, [NB, NS, i32(3), f32([0.5])],
          "iou_threshold must be 0-D, got shape [1]")
add_error("err_nms_v2_iou_negative", nms_v2, [NB, NS, i32(3), f32(-0.5)],
          "iou_threshold must be in [0, 1]")
add_error("err_nms_v2_iou_nan", nms_v2, [NB, NS, i32(3), f32(np.nan)],
          "iou_threshold must be in [0, 1]")
add_error("err_nms_overlaps_not_square", overlaps_nms, [OV[:, :5], OS, i32(3), f32(0.5), f32(0)],
          "overlaps must be square[30,5]")
add_error("err_nms_overlaps_rank1", overlaps_nms, [OV[0], OS, i32(3), f32(0.5), f32(0)],
          "overlaps must be 2-D[30]")
add_error("err_nms_overlaps_threshold_vector", overlaps_nms,
          [OV, OS, i32(3), f32([0.5]), f32(0)], "overlap_threshold must be 0-D, got shape [1]")
add_error("err_nms_overlaps_score_threshold_vector", overlaps_nms,
          [OV, OS, i32(3), f32(0.5), f32([0])], "score_threshold must be 0-D, got shape [1]")
add_error("err_nms_overlaps_scores_length", overlaps_nms, [OV, OS[:4], i32(3), f32(0.5), f32(0)],
          "scores has incompatible shape")
add_error("err_nms_overlaps_max_negative", overlaps_nms, [OV, OS, i32(-3), f32(0.5), f32(0)],
          "output size must be non-negative")


# ---- CombinedNonMaxSuppression ------------------------------------------------------------
def combined(pad=False, clip=True):
  return lambda b, s, m, t, iou, st: R.CombinedNonMaxSuppression(
      boxes=b, scores=s, max_output_size_per_class=m, max_total_size=t, iou_threshold=iou,
      score_threshold=st, pad_per_class=pad, clip_boxes=clip)


def anchor_boxes(batch, anchors, q):
  corner = rng.uniform(-0.2, 0.9, (batch, anchors, q, 2))
  size = rng.uniform(0.05, 0.4, (batch, anchors, q, 2))
  return np.concatenate([corner, corner + size], axis=-1).astype(np.float32)


CB1 = anchor_boxes(2, 50, 1)
CBQ = anchor_boxes(2, 50, 4)
CS = (rng.integers(0, 25, (2, 50, 4)) / 25.0).astype(np.float32)  # many ties
for pad in (False, True):
  for clip in (True, False):
    tag = "%s_%s" % ("pad" if pad else "nopad", "clip" if clip else "noclip")
    w.add("combined_q1_" + tag, combined(pad, clip), [CB1, CS, i32(5), i32(12), f32(0.5),
                                                       f32(0.2)])
    w.add("combined_q4_" + tag, combined(pad, clip), [CBQ, CS, i32(3), i32(30), f32(0.4),
                                                       f32(0.1)])
w.add("combined_total_small", combined(), [CBQ, CS, i32(10), i32(7), f32(0.5), f32(0.0)])
w.add("combined_per_class_large", combined(True), [CB1, CS, i32(100), i32(60), f32(0.6),
                                                    f32(0.3)])
w.add("combined_all_below_threshold", combined(), [CB1, CS, i32(5), i32(8), f32(0.5), f32(2.0)])
w.add("combined_low_threshold_placeholders", combined(),
      [CB1[:, :6], -2 - CS[:, :6], i32(2), i32(20), f32(0.5), f32(-10.0)])
w.add("combined_nan_scores", combined(),
      [CB1[:, :6], np.where(CS[:, :6] > 0.5, np.nan, CS[:, :6]), i32(3), i32(10), f32(0.5),
       f32(0.0)])
w.add("combined_no_anchors", combined(), [np.zeros((2, 0, 1, 4), np.float32),
                                          np.zeros((2, 0, 3), np.float32), i32(3), i32(4),
                                          f32(0.5), f32(0.0)])
w.add("combined_empty_batch", combined(), [np.zeros((0, 5, 1, 4), np.float32),
                                           np.zeros((0, 5, 3), np.float32), i32(3), i32(4),
                                           f32(0.5), f32(0.0)])
w.add("combined_large", combined(), [anchor_boxes(2, 200, 1),
                                     rng.random((2, 200, 6)).astype(np.float32), i32(20),
                                     i32(100), f32(0.5), f32(0.05)])
CARGS = [CB1, CS, i32(5), i32(12), f32(0.5), f32(0.2)]
add_error("err_combined_batch_mismatch", combined(), [CB1, CS[:1]] + CARGS[2:],
          "boxes and scores must have same batch size")
add_error("err_combined_per_class_zero", combined(), CARGS[:2] + [i32(0)] + CARGS[3:],
          "max_size_per_class must be positive")
add_error("err_combined_per_class_vector", combined(), CARGS[:2] + [i32([5])] + CARGS[3:],
          "max_size_per_class must be 0-D, got shape [1]")
add_error("err_combined_total_zero", combined(), CARGS[:3] + [i32(0)] + CARGS[4:],
          "max_total_size must be > 0")
add_error("err_combined_total_vector", combined(), CARGS[:3] + [i32([3])] + CARGS[4:],
          "max_total_size must be 0-D, got shape [1]")
add_error("err_combined_iou_vector", combined(), CARGS[:4] + [f32([0.5]), CARGS[5]],
          "iou_threshold must be 0-D, got shape [1]")
add_error("err_combined_score_vector", combined(), CARGS[:5] + [f32([0.5])],
          "score_threshold must be 0-D, got shape [1]")
add_error("err_combined_iou_range", combined(), CARGS[:4] + [f32(1.5), CARGS[5]],
          "iou_threshold must be in [0, 1]")
add_error("err_combined_q", combined(), [anchor_boxes(2, 50, 2)] + CARGS[1:],
          "third dimension of boxes must be either 1 or num classes")
add_error("err_combined_columns", combined(), [CB1[..., :3]] + CARGS[1:],
          "boxes must have 4 columns")
add_error("err_combined_boxes_rank3", combined(), [CB1[:, :, 0]] + CARGS[1:],
          "boxes must be 4-D[2,50,4]")
add_error("err_combined_scores_anchors", combined(), [CB1, CS[:, :10]] + CARGS[2:],
          "scores has incompatible shape")


# ---- CropAndResizeGradImage, CropAndResizeGradBoxes (a generator of their own: the cases
# above keep their values) ----
grng = np.random.default_rng(20261210)


def grad_image(t, method="bilinear"):
  return lambda grads, boxes, box_ind, size: R.CropAndResizeGradImage(
      grads=grads, boxes=boxes, box_ind=box_ind, image_size=size, T=t, method=method)


def grad_boxes():
  return lambda grads, image, boxes, box_ind: R.CropAndResizeGradBoxes(
      grads=grads, image=image, boxes=boxes, box_ind=box_ind)


SIZE = i32([2, 9, 11, 2])
for crop_size in ((4, 5), (1, 1), (1, 6), (5, 1)):
  g = grng.standard_normal((len(BOXES),) + crop_size + (2,)).astype(np.float32)
  tag = "%dx%d" % crop_size
  for method in ("bilinear", "nearest"):
    for t, tn, tol in ((tf.float32, "f32", 1e-5), (tf.float64, "f64", 1e-5),
                       (tf.float16, "f16", 1e-2)):
      if tn != "f32" and crop_size != (4, 5):
        continue
      w.add("crop_grad_image_%s_%s_%s" % (tn, method, tag), grad_image(t, method),
            [g, BOXES, IND, SIZE], rtol=tol, atol=tol)
  for tn, dt in (("u8", np.uint8), ("u16", np.uint16), ("i8", np.int8), ("i16", np.int16),
                 ("i32", np.int32), ("i64", np.int64), ("f16", np.float16), ("f32", np.float32),
                 ("f64", np.float64)):
    if tn not in ("f32", "u8") and crop_size != (4, 5):
      continue
    if np.issubdtype(dt, np.unsignedinteger):
      image = grng.integers(0, 250, IMG.shape).astype(dt)
    elif np.issubdtype(dt, np.integer):
      image = grng.integers(-120, 120, IMG.shape).astype(dt)
    else:
      image = IMG.astype(dt)
    w.add("crop_grad_boxes_%s_%s" % (tn, tag), grad_boxes(), [g, image, BOXES, IND],
          rtol=1e-5, atol=1e-3)
many = np.sort(grng.uniform(-0.2, 1.2, (24, 2, 2)), axis=1).reshape(24, 4)[:, [0, 2, 1, 3]]
many_ind = grng.integers(0, 2, 24).astype(np.int32)
many_g = grng.standard_normal((24, 7, 8, 2)).astype(np.float32)
w.add("crop_grad_image_f32_random_large", grad_image(tf.float32),
      [many_g, many.astype(np.float32), many_ind, i32([2, 21, 23, 2])], rtol=1e-5, atol=1e-5)
w.add("crop_grad_boxes_f32_random_large", grad_boxes(),
      [many_g, grng.standard_normal((2, 21, 23, 2)).astype(np.float32), many.astype(np.float32),
       many_ind], rtol=1e-5, atol=1e-4)
G = grng.standard_normal((len(BOXES), 3, 3, 2)).astype(np.float32)
NO_BOXES = [np.zeros((0, 3, 3, 2), np.float32), np.zeros((0, 4), np.float32),
            np.zeros((0,), np.int32)]
w.add("crop_grad_image_no_boxes", grad_image(tf.float32), NO_BOXES + [SIZE])
w.add("crop_grad_boxes_no_boxes", grad_boxes(),
      [NO_BOXES[0], IMG.astype(np.float32)] + NO_BOXES[1:])
w.add("crop_grad_image_empty_batch", grad_image(tf.float32), NO_BOXES + [i32([0, 3, 3, 2])])
# (A NaN box is left out: its NaN sample positions pass TensorFlow's range test and crash it;
# Sluice skips them as outside the image.)
# Errors, in TensorFlow's order of checks.
for name, args in [
    ("grads_rank3", [G[0], BOXES, IND, SIZE]),
    ("grads_no_rows", [np.zeros((6, 0, 3, 2), np.float32), BOXES, IND, SIZE]),
    ("boxes_rank1", [G, BOXES.reshape(-1), IND, SIZE]),
    ("boxes_3_columns", [G, BOXES[:, :3], IND, SIZE]),
    ("box_ind_rank2", [G, BOXES, IND.reshape(2, 3), SIZE]),
    ("box_ind_short", [G, BOXES, IND[:4], SIZE]),
    ("grads_boxes_differ", [G[:4], BOXES, IND, SIZE]),
    ("image_size_rank2", [G, BOXES, IND, SIZE.reshape(2, 2)]),
    ("image_size_3", [G, BOXES, IND, SIZE[:3]]),
    ("image_zero_height", [G, BOXES, IND, i32([2, 0, 11, 2])]),
    ("depth_differs", [G, BOXES, IND, i32([2, 9, 11, 3])]),
    ("negative_batch", [G, BOXES, IND, i32([-2, 9, 11, 2])]),
    ("box_index_out_of_range", [G, BOXES, i32([0, 1, 2, 0, 0, 0]), SIZE]),
    ("box_index_negative", [G, BOXES, i32([0, 1, -1, 0, 0, 0]), SIZE]),
]:
  w.add("err_crop_grad_image_" + name, grad_image(tf.float32), args)
IMG32 = IMG.astype(np.float32)
for name, args in [
    ("grads_rank3", [G[0], IMG32, BOXES, IND]),
    ("grads_no_columns", [np.zeros((6, 3, 0, 2), np.float32), IMG32, BOXES, IND]),
    ("image_rank3", [G, IMG32[0], BOXES, IND]),
    ("image_zero_width", [G, np.zeros((2, 9, 0, 2), np.float32), BOXES, IND]),
    ("depth_differs", [G, np.zeros((2, 9, 11, 3), np.float32), BOXES, IND]),
    ("boxes_3_columns", [G, IMG32, BOXES[:, :3], IND]),
    ("box_ind_short", [G, IMG32, BOXES, IND[:4]]),
    ("grads_boxes_differ", [G[:4], IMG32, BOXES, IND]),
    ("box_index_out_of_range", [G, IMG32, BOXES, i32([0, 1, 2, 0, 0, 0])]),
]:
  w.add("err_crop_grad_boxes_" + name, grad_boxes(), args)
w.write()
