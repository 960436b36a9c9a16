#!/bin/sh
# Builds and runs the runtime overhead benchmark; optional: a plan JSON to estimate the per-iteration sync share.
set -e
here=$(cd "$(dirname "$0")" && pwd)
lib="$here/../../runtime-c/lib"
out=${TMPDIR:-/tmp}/chainlab-overhead
gcc -std=c11 -O2 -Wall -Wextra -Werror -pthread -I "$lib/include" "$here/overhead.c" "$lib/src/rt.c" -o "$out"
"$out" "$(nproc)"
