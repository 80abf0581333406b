#!/usr/bin/env bash
# `sluice board`'s page in headless Chromium, on the log folder of board_fixture.sh. For each
# view (a tensor with its statistics, table and histograms; a scalar chart; a histogram
# summary; a bad index; an index of too many dimensions; an image) it loads the page with the
# view in its URL fragment, lets the page's script run (--virtual-time-budget), and checks the
# DOM Chromium prints (--dump-dom): the tag list, the values of the table, the highlighted
# NaN/Inf counts, the histogram paths, the server's message for a bad index, and that the page
# caught no JavaScript error (#page-errors stays empty) and Chromium logged none. A screenshot
# of each view goes to $TEST_UNDECLARED_OUTPUTS_DIR (bazel-testlogs/tests/board/
# board_browser_test/test.outputs/) for a person to look at.
#
# Chromium is not a dependency of the suite: where neither $SLUICE_CHROMIUM nor `chromium` is
# found the test prints "SKIPPED: chromium not installed" and passes (Debian: apt-get install
# chromium).
set -uo pipefail
chromium="${SLUICE_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
  echo "SKIPPED: chromium not installed"
  exit 0
fi
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/tests/board/board_fixture.sh"
shots="${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp/screenshots}"
mkdir -p "$shots"
export HOME="$tmp/home"
mkdir -p "$HOME"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# browse NAME FRAGMENT: the page's DOM once its script ran, in $tmp/NAME.html (Chromium's log
# in $tmp/NAME.log), and a screenshot in $shots/NAME.png. A page still loading when the
# virtual time ran out (a slow machine) is loaded again with more time.
browse() {
  local name=$1 url="http://127.0.0.1:$port/#$2" budget
  for budget in 5000 20000; do
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
      --disable-extensions --disable-sync --disable-background-networking \
      --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
      --virtual-time-budget="$budget" --dump-dom "$url" >"$tmp/$name.html" 2>"$tmp/$name.log"
    grep -q 'data-state="ready"' "$tmp/$name.html" && break
  done
  grep -q 'data-state="ready"' "$tmp/$name.html" ||
    fail "$name: the page did not finish loading: $(head -c 3000 "$tmp/$name.html")"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-extensions --disable-sync --disable-background-networking \
    --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1280,1000 \
    --virtual-time-budget=5000 --screenshot="$shots/$name.png" "$url" >/dev/null 2>&1 ||
    fail "$name: no screenshot"
  # The page caught no error, and Chromium saw none (the 400s the page asks for on purpose
  # are logged as failed loads, which are expected).
  grep -qF '<pre id="page-errors" class="error" hidden=""></pre>' "$tmp/$name.html" ||
    fail "$name: the page reported errors: $(sed -n '/id="page-errors"/,/<\/pre>/p' "$tmp/$name.html" | head -c 2000)"
  grep -qF '<div id="view-error" class="error" hidden=""></div>' "$tmp/$name.html" ||
    fail "$name: the view failed: $(grep -o '<div id="view-error"[^<]*' "$tmp/$name.html")"
  if grep -E 'Uncaught|CONSOLE' "$tmp/$name.log" | grep -v 'Failed to load resource' | grep -q .; then
    fail "$name: JavaScript errors: $(grep -E 'Uncaught|CONSOLE' "$tmp/$name.log")"
  fi
}

# expect NAME TEXT: the DOM of view NAME contains TEXT (a fixed string).
expect() {
  grep -qF -- "$2" "$tmp/$1.html" || fail "$1: expected '$2' in the page"
}

# count NAME PATTERN N: PATTERN (an extended regex) occurs N times in the DOM of view NAME.
count() {
  local found
  found=$(grep -oE -- "$2" "$tmp/$1.html" | wc -l)
  [ "$found" -eq "$3" ] || fail "$1: '$2' occurs $found times, expected $3"
}

make_logdir || exit 1
start_board || exit 1

# A captured tensor at step 1: log(x) with x = (i % 7) - 1 for i = 15 h + 3 w + c, shown as
# [0, :, 2:5, 1] (rows h = 0..3, columns w = 2..4).
browse tensor 'run=capture&tag=log%3A0&step=1&index=%5B0%2C%20%3A%2C%202%3A5%2C%201%5D'
expect tensor '<button type="button" data-run="big"'
expect tensor '<button type="button" data-run="capture" class="selected">'
expect tensor '<button type="button" data-run="train"'
expect tensor 'data-tag="log:0" data-kind="tensor" class="selected">'
expect tensor 'data-tag="scaled:0" data-kind="tensor">'
expect tensor 'data-tag="half:0" data-kind="tensor">'
expect tensor '<span class="badge">Log</span><span class="badge">float [2,4,5,3]</span>'
expect tensor 'id="step-label" class="tag-name">1 (2 of 3)</span>'
expect tensor '[0, :, 2:5, 1] of [2, 4, 5, 3] → shape [4, 3]; rows: dimension 1 (positions 0 to 3), columns: dimension 2 (positions 2 to 4)'
expect tensor '<tr><th></th><th>2</th><th>3</th><th>4</th></tr>'
expect tensor '<tr data-row="0"><th>0</th><td class="nonfinite">NaN</td><td>0.693147</td><td>1.60944</td></tr>'
expect tensor '<tr data-row="1"><th>1</th><td class="nonfinite">-Infinity</td><td>1.09861</td><td class="nonfinite">NaN</td></tr>'
expect tensor '<tr data-row="3"><th>3</th>'
count tensor '<tr data-row=' 4
# Statistics of step 1: 18 NaN and 17 -Inf, highlighted; +Inf 0 is not.
expect tensor '<tr data-stat="NaN" class="bad"><th>NaN</th><td>18</td></tr>'
expect tensor '<tr data-stat="-Inf" class="bad"><th>-Inf</th><td>17</td></tr>'
expect tensor '<tr data-stat="+Inf"><th>+Inf</th><td>0</td></tr>'
expect tensor '<tr data-stat="from"><th>from</th><td>index.json</td></tr>'
# Histograms of the three steps, offset, the shown step marked.
count tensor '<path class="ridge[ a-z]*" d="M[^"]*" data-step="[0-9]+"' 3
expect tensor '<path class="ridge current" d="'
expect tensor '3 steps, 30 buckets from 0 to 1.79176 (finite values counted)'
expect tensor '>35 NaN 17 -Inf</text>'

browse scalars 'run=train&tag=loss'
count scalars '<circle class="point"' 3
expect scalars 'data-step="1" data-value="0.5"'
expect scalars 'data-tag="weights" data-kind="histogram">'
expect scalars 'data-tag="pixels/image/0" data-kind="image">'

browse histogram 'run=train&tag=weights'
count histogram '<path class="ridge" d="M[^"]*" data-step="[0-9]+"' 3
expect histogram '3 steps, 30 buckets from -0.5 to 2.5 (summaries re-bucketed)'

browse bad_index 'run=capture&tag=log%3A0&step=0&index=%5B0%2C%20x%5D'
expect bad_index '<div id="slice-error" class="error" role="alert">'"'x'"' is not an index: expected an integer, a slice such as 2:5 or ::2, or '"'...'"'</div>'

browse too_many_dims 'run=capture&tag=log%3A0&step=0&index=0'
expect too_many_dims 'the selection [0, :, :, :] has 3 dimensions (shape [4,5,3]); the table shows at most 2'

browse image 'run=train&tag=pixels%2Fimage%2F0&step=1'
expect image 'src="/api/image?run=train&amp;tag=pixels%2Fimage%2F0&amp;step=1" data-loaded="5x4"'

stop_board
if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "PASSED: tags, table, statistics, histograms, scalars, errors in the page; screenshots in $shots"
