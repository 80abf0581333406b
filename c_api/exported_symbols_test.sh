#!/usr/bin/env bash
# Fails unless libtensorflow.so.2 exports TF_ functions only (TensorFlow's C API, with its
# version node) and at least the functions a frozen-graph binding needs.
set -uo pipefail
lib="${TEST_SRCDIR}/${TEST_WORKSPACE}/c_api/libtensorflow.so.2"
[[ -f "$lib" ]] || { echo "missing $lib" >&2; exit 1; }
# Global and weak symbols (upper-case nm types, and 'u' for GNU unique ones), minus the version
# node itself ('A'). Lower-case entries are local: the dynamic table lists one thread-local
# object of Eigen's that no other module can bind to.
symbols=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[BCDGRSTVWiu]$/ {print $3}' | sed 's/@.*//' |
  sort -u)
others=$(grep -vE '^(TF_|TFE_)' <<<"$symbols")
if [[ -n "$others" ]]; then
  echo "exported symbols outside TF_/TFE_:" >&2
  head -20 <<<"$others" >&2
  exit 1
fi
for needed in TF_NewGraph TF_GraphImportGraphDef TF_NewSession TF_SessionRun TF_NewTensor \
  TF_DeleteTensor TF_NewStatus TF_Version TF_LoadLibrary TF_LoadSessionFromSavedModel \
  TFE_NewContext TFE_NewOp TFE_Execute TFE_TensorHandleResolve; do
  grep -qx "$needed" <<<"$symbols" || { echo "$needed is not exported" >&2; exit 1; }
done
versioned=$(nm -D --defined-only "$lib" | grep -c ' TF_NewGraph@@tensorflow$')
[[ "$versioned" == 1 ]] || { echo "TF_NewGraph lacks the 'tensorflow' version" >&2; exit 1; }
# Every function the public headers declare is defined.
declared=$(cat "${TEST_SRCDIR}/${TEST_WORKSPACE}"/c_api/include/tensorflow/c/*.h \
  "${TEST_SRCDIR}/${TEST_WORKSPACE}"/c_api/include/tensorflow/c/eager/*.h | tr '\n' ' ' |
  grep -oE 'TF_CAPI_EXPORT[^;(]*\(' | grep -oE 'TFE?_[A-Za-z0-9_]+ *\($' | tr -d ' (' | sort -u)
if (($(wc -l <<<"$declared") < 200)); then
  echo "found only $(wc -l <<<"$declared") declarations in the headers" >&2
  exit 1
fi
missing=$(comm -23 <(echo "$declared") <(echo "$symbols"))
if [[ -n "$missing" ]]; then
  echo "declared in the headers but not exported:" >&2
  echo "$missing" >&2
  exit 1
fi
echo "$(wc -l <<<"$symbols") exported symbols, all TF_ or TFE_; $(wc -l <<<"$declared") declared, all defined"
