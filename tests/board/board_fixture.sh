# Sourced by tests/board's tests: writes the log folder they look at and starts `sluice board`
# on it.
#
#   make_logdir      $logdir/capture  `sluice run --capture` of testdata/board_model.pbtxt, three
#                                     steps of a float [2, 4, 5, 3] batch (make_board_inputs):
#                                     log:0 (NaN and -Inf), scaled:0, half:0, and index.json
#                    $logdir/big      a capture of tools/testdata/add.pbtxt's twice:0 for a
#                                     [400000, 3] input: 1,200,000 values, past the slice limit
#                    $logdir/train    //tests/summary:write_summary_events: loss (scalar),
#                                     weights (histogram), pixels/image/0 and 1, accuracy
#                                     (a "scalars" tensor), matrix (int32 tensor), sound/audio
#                    $outside         a run beside the log folder, and $logdir/escape a link to
#                                     it, which the board must not serve
#   start_board      serves $logdir on a free port: sets $port and $board_pid
#   stop_board       ends that server (also on exit)
set -uo pipefail

root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
sluice="$root/tools/sluice"
tmp="${TEST_TMPDIR}"
logdir="$tmp/logs"
outside="$tmp/outside"
board_pid=""
port=""

make_logdir() {
  rm -rf "$logdir" "$outside" "$tmp/inputs"
  "$root/tests/board/make_board_inputs" "$tmp/inputs" || return 1
  "$sluice" run "$root/tests/board/testdata/board_model.pbtxt" --input "x=$tmp/inputs" \
    --capture "$logdir/capture" >"$tmp/capture.out" 2>&1 || { cat "$tmp/capture.out"; return 1; }
  "$sluice" run "$root/tools/testdata/add.pbtxt" --input x=random --shape x=400000,3 \
    --output twice --capture "$logdir/big" >"$tmp/big.out" 2>&1 || { cat "$tmp/big.out"; return 1; }
  "$root/tests/summary/write_summary_events" "$logdir/train" >/dev/null || return 1
  "$root/tests/summary/write_summary_events" "$outside" >/dev/null || return 1
  ln -s "$outside" "$logdir/escape"
  echo "not for the board" >"$logdir/secret.txt"
}

start_board() {
  "$sluice" board --logdir "$logdir" --port 0 >"$tmp/board.out" 2>"$tmp/board.err" &
  board_pid=$!
  trap stop_board EXIT
  for _ in $(seq 1 100); do
    port=$(sed -n 's|^Serving .* at http://127\.0\.0\.1:\([0-9]*\)/ .*|\1|p' "$tmp/board.out")
    [ -n "$port" ] && return 0
    kill -0 "$board_pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "sluice board did not start:" >&2
  cat "$tmp/board.out" "$tmp/board.err" >&2
  return 1
}

stop_board() {
  if [ -n "$board_pid" ]; then
    kill "$board_pid" 2>/dev/null
    wait "$board_pid" 2>/dev/null
    board_pid=""
  fi
}
