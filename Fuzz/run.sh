#!/usr/bin/env bash
# Runs each libFuzzer target (built by Fuzz/build.sh) for a bounded time, seeded from Schemas/
# (examples and regressions) and Fuzz/Regressions/ (inputs a fuzz run found, kept as seeds and
# replayed by QuotedUserTextBoundTests) with the GraphQL/Amplify dictionary. Exits non-zero on the
# first crash, timeout (one input over 5 s), leak or input over 2 GB resident; the input is saved under
# .build/fuzz/artifacts/. New corpus entries go to .build/fuzz/corpus/<target>/ (never to Schemas/).
# Targets: parser (lexer, parser, printer), analysis (parse + Amplify semantics, `modelgen validate`),
# generator (parse + analysis + templates + API schema + diagnostics printing, `modelgen generate`).
#   bash Fuzz/run.sh                 every target for 60 s (what .ci/run does)
#   bash Fuzz/run.sh 600 parser      one target for 600 s
#   bash Fuzz/run.sh 0 generator -runs=5000000   a fixed number of executions (0 = no time limit)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${FUZZ_BUILD:-.build/fuzz}"
seconds="${1:-60}"
targets="${2:-parser analysis generator}"
shift $(( $# > 2 ? 2 : $# ))
mkdir -p "$out/artifacts"
# libFuzzer and ASan report crashes themselves: Swift's backtracer would crash inside ASan.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# No allocation stacks (about 15 % faster); rerun an artifact with ASAN_OPTIONS= to get them.
# Free memory stays with ASan's allocator instead of going back to the kernel every 5 s (the
# default), which the next inputs then faulted in and the kernel zeroed again (`clear_page`, about
# 6 % of the CPU time). Checking is unchanged: the quarantine, leak detection and every ASan check
# stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0:allocator_release_to_os_interval_ms=-1}"
for target in $targets; do
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  echo "== $target-fuzz for ${seconds}s"
  # -reload=0: one fuzzer per corpus directory, so nothing else adds to it; libFuzzer's default
  # re-lists and stats every corpus file each second (about a tenth of the CPU time, in the kernel).
  "$out/$target-fuzz" -dict=Fuzz/graphql.dict -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -reload=0 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" "$@" "$corpus" Schemas Fuzz/Regressions </dev/null
done
