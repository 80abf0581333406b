#!/usr/bin/env bash
# `sluice board` over HTTP, without a browser: every endpoint on the log folder of
# board_fixture.sh, the 404s for paths that try to leave the folder, the 400s for bad
# parameters and indices, and the slice size limit.
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/tests/board/board_fixture.sh"
http_get="$root/tests/board/http_get"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# get NAME PATH [HOST]: the response to GET PATH in $tmp/NAME (first line "STATUS TYPE").
get() {
  "$http_get" "$port" "$2" ${3:+"$3"} >"$tmp/$1" 2>&1 || fail "$1: no response: $(cat "$tmp/$1")"
}

# expect NAME STATUS TEXT: the response NAME has STATUS and contains TEXT (a fixed string).
expect() {
  local status
  status=$(head -n 1 "$tmp/$1" | cut -d' ' -f1)
  [ "$status" = "$2" ] || fail "$1: status $status, expected $2: $(cat "$tmp/$1")"
  grep -qF -- "$3" "$tmp/$1" || fail "$1: expected '$3' in: $(head -c 2000 "$tmp/$1")"
}

make_logdir || exit 1
start_board || exit 1

# The page and the runs: . holds no event files itself, escape/ leads outside and is no run.
get page /
expect page 200 "text/html; charset=utf-8"
expect page 200 "<title>sluice board</title>"
get runs /api/runs
expect runs 200 '{"runs":[{"name":"big","event_files":1},{"name":"capture","event_files":1},{"name":"train","event_files":1}]}'

# Tags, with kinds and what the capture says about each node.
get tags_capture "/api/tags?run=capture"
expect tags_capture 200 '{"tag":"log:0","kind":"tensor","steps":3,"first_step":0,"last_step":2,"plugin":"sluice.capture","dtype":"float","shape":[2,4,5,3],"node":"log","op":"Log","output":0}'
expect tags_capture 200 '"warnings":[]'
get tags_train "/api/tags?run=train"
expect tags_train 200 '{"tag":"loss","kind":"scalar","steps":3'
expect tags_train 200 '{"tag":"weights","kind":"histogram","steps":3'
expect tags_train 200 '{"tag":"pixels/image/0","kind":"image","steps":3'
expect tags_train 200 '{"tag":"accuracy","kind":"scalar","steps":3,"first_step":0,"last_step":2,"plugin":"scalars","dtype":"float","shape":[]}'
expect tags_train 200 '{"tag":"matrix","kind":"tensor","steps":3'
expect tags_train 200 '{"tag":"sound/audio","kind":"audio","steps":3'

# Steps, scalars, statistics (from index.json), histograms.
get steps "/api/steps?run=capture&tag=log:0"
expect steps 200 '"kind":"tensor","steps":[{"step":0,"wall_time":'
expect steps 200 '{"step":2,"wall_time":'
get scalars "/api/scalars?run=train&tag=loss"
expect scalars 200 '"value":1}'
expect scalars 200 '"value":0.5}'
get accuracy "/api/scalars?run=train&tag=accuracy"
expect accuracy 200 '"value":0.6000000238418579}'
# log(x) for x = (i % 7) - 2 at step 0: 35 negatives (NaN), 17 zeros (-Inf), 68 finite.
get statistics "/api/statistics?run=capture&tag=log:0&step=0"
expect statistics 200 '"source":"index.json","shape":[2,4,5,3],"elements":120,"finite":68,"nan":35,"pos_inf":0,"neg_inf":17,"zeros":17,"min":0,"max":1.38629436,'
get statistics_all "/api/statistics?run=train&tag=matrix"
expect statistics_all 200 '{"step":2,"source":"tensor","shape":[2,2],"elements":4,"finite":4,"nan":0,"pos_inf":0,"neg_inf":0,"zeros":0,"min":1,"max":3,"mean":2,'
get histograms "/api/histograms?run=capture&tag=log:0&buckets=4"
expect histograms 200 '"source":"values","edges":[0,0.4479398725,0.895879745,1.3438196175,1.79175949]'
# log 1, log 2, log 3 and log 4, 17 of each, one to a bucket.
expect histograms 200 '{"step":0,"counts":[17,17,17,17],"nan":35,"pos_inf":0,"neg_inf":17}'
get weights "/api/histograms?run=train&tag=weights&buckets=3"
expect weights 200 '"kind":"histogram","source":"histograms","edges":[-0.5,0.5,1.5,2.5]'
expect weights 200 '"steps":[{"step":0,"counts":[11,0,0]},{"step":1,"counts":[0,11,0]},{"step":2,"counts":[0,0,11]}]'
get image "/api/image?run=train&tag=pixels/image/0&step=1"
expect image 200 "image/png"

# Slices: Python-style indices, integers dropping dimensions, negative ones, steps.
get slice "/api/slice?run=capture&tag=log:0&step=0&index=%5B0,%20:,%202:5,%201%5D"
expect slice 200 '"selection":"[0, :, 2:5, 1]","shape":[4,3],"dims":[1,2],"rows":[0,1,2,3],"columns":[2,3,4],"values":[["NaN",0,1.3862944],["NaN",0.6931472,"NaN"],["-Infinity",1.0986123,"NaN"],[0,1.3862944,"-Infinity"]]'
get slice_negative "/api/slice?run=capture&tag=scaled:0&step=2&index=-1,-1,::2,-1"
# scaled = x / 2 with x = i % 7 at step 2: i = 107, 113, 119.
expect slice_negative 200 '"selection":"[1, 3, 0:5:2, 2]","shape":[3],"dims":[2],"rows":[],"columns":[0,2,4],"values":[1,0.5,0]'
get slice_all "/api/slice?run=train&tag=matrix&step=2&index=:"
expect slice_all 200 '"values":[[2,1],[2,3]]'

# 400: bad indices and parameters, each with a message the page shows.
get bad_index "/api/slice?run=capture&tag=log:0&step=0&index=%5B0,x%5D"
expect bad_index 400 '{"error":"'"'"'x'"'"' is not an index: expected an integer, a slice such as 2:5 or ::2, or '"'"'...'"'"'"}'
get out_of_range "/api/slice?run=capture&tag=log:0&step=0&index=0,4"
expect out_of_range 400 '"index 4 is out of range for dimension 1 of size 4"'
get rank "/api/slice?run=capture&tag=log:0&step=0&index=0"
expect rank 400 '"the selection [0, :, :, :] has 3 dimensions (shape [4,5,3]); the table shows at most 2'
get bad_step "/api/slice?run=capture&tag=log:0&step=abc"
expect bad_step 400 "step='abc' is not an integer"
get no_step "/api/slice?run=capture&tag=log:0"
expect no_step 400 "step= is required"
get wrong_kind "/api/histograms?run=train&tag=loss"
expect wrong_kind 400 "tag 'loss' is a scalar, which has no histograms"

# The size limit, named.
get too_big "/api/slice?run=big&tag=twice:0&step=0"
expect too_big 400 '"the selection [:, :] holds 1200000 values; the board sends at most 1000000 at once: narrow it with integers or shorter slices"'
get big_enough "/api/slice?run=big&tag=twice:0&step=0&index=:300000"
expect big_enough 200 '"shape":[300000,3]'

# 404: nothing outside the log folder, whatever the spelling.
get escape_dotdot "/api/tags?run=../outside"
expect escape_dotdot 404 "no run '../outside' in the log folder"
get escape_encoded "/api/tags?run=..%2Foutside"
expect escape_encoded 404 "no run '../outside' in the log folder"
get escape_absolute "/api/tags?run=$outside"
expect escape_absolute 404 "in the log folder"
get escape_root "/api/tags?run=%2Fetc"
expect escape_root 404 "no run '/etc' in the log folder"
get escape_link "/api/steps?run=escape&tag=loss"
expect escape_link 404 "no run 'escape' in the log folder"
get escape_path "/../../etc/passwd"
expect escape_path 404 '"error"'
get escape_api_path "/api/../../etc/passwd"
expect escape_api_path 404 '"error"'
get encoded_path "/%2e%2e/%2e%2e/etc/passwd"
expect encoded_path 404 '"error"'
get secret "/secret.txt"
expect secret 404 "nothing at /secret.txt"
get no_run "/api/tags?run=nope"
expect no_run 404 "no run 'nope' in the log folder"
get no_tag "/api/steps?run=train&tag=nope"
expect no_tag 404 "no tag 'nope' in run 'train'"
get no_step_there "/api/slice?run=capture&tag=log:0&step=9"
expect no_step_there 404 "tag 'log:0' has no step 9 (its steps run from 0 to 2)"

# Another host name reaching the loopback address (DNS rebinding) is refused.
get rebinding /api/runs "evil.example:$port"
expect rebinding 403 "only requests for localhost"

# The server is still there after all of it, and said nothing alarming.
get still_up /api/runs
expect still_up 200 '"runs"'
if grep -qiE 'terminate|abort|segmentation|sanitizer' "$tmp/board.err"; then
  fail "the server's stderr: $(cat "$tmp/board.err")"
fi

stop_board
if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "PASSED: every endpoint, 404s outside the folder, 400s for bad input, the size limit"
