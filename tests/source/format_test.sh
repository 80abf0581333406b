#!/usr/bin/env bash
# Fails on any C++ file of the tree that clang-format (with the tree's .clang-format: Google
# style, 100 columns) would change, and names each. Fix with: clang-format -i FILE.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}" || exit 1

if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (scripts/setup.sh installs Debian's clang-format)" >&2
  exit 1
fi

checked=0
unformatted=()
while IFS= read -r -d '' file; do
  checked=$((checked + 1))
  if ! clang-format --style=file:.clang-format --dry-run -Werror "$file" >/dev/null 2>&1; then
    unformatted+=("$file")
  fi
done < <(find -L . -path ./external -prune -o \( -name '*.h' -o -name '*.cc' -o -name '*.cu' \) \
  -type f -print0)

echo "checked ${checked} files with $(clang-format --version)"
if ((checked < 100)); then
  echo "expected the tree's sources in the runfiles, found ${checked} files" >&2
  exit 1
fi
if ((${#unformatted[@]})); then
  printf 'not formatted (clang-format -i FILE): %s\n' "${unformatted[@]}" >&2
  exit 1
fi
