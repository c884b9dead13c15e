#!/usr/bin/env bash
# Parses one synthetic Amplify schema with GraphQLSDL (release build) and with graphql-core's
# `parse` (the Python reference implementation), in the same run, and prints both throughputs and
# their ratio. Targets (issue 2): GraphQLSDL >= 20x graphql-core, peak memory growth < 10x input.
#
#   Benchmarks/sdl-parse-vs-graphql-core.sh            # 3,000 chained models (3.5 MB)
#   MODELS=1000 ITERATIONS=10 PY_ITERATIONS=3 Benchmarks/sdl-parse-vs-graphql-core.sh
#
# graphql-core comes from .venv when it has it, else from the system python3, else it is installed
# into .venv with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

models="${MODELS:-3000}"
iterations="${ITERATIONS:-10}"
python_iterations="${PY_ITERATIONS:-3}"

swift build -c release --product SDLParseBenchmark >&2

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
schema="$workdir/schema.graphql"

.build/release/SDLParseBenchmark --models "$models" --iterations "$iterations" --schema-out "$schema" \
  | tee "$workdir/swift.txt"

if [ -x .venv/bin/python ] && .venv/bin/python -c 'import graphql' 2>/dev/null; then
  python=.venv/bin/python
elif python3 -c 'import graphql' 2>/dev/null; then
  python=python3
else
  echo "graphql-core not found; installing it into .venv" >&2
  python3 -m venv .venv
  .venv/bin/pip install --quiet graphql-core
  python=.venv/bin/python
fi

"$python" - "$schema" "$python_iterations" <<'PY' | tee "$workdir/python.txt"
import sys, time
import graphql

path, iterations = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as handle:
    text = handle.read()
size = len(text.encode("utf-8"))
durations = []  # no warm-up: CPython does not compile ahead, and each parse takes seconds
for _ in range(iterations):
    start = time.perf_counter()
    graphql.parse(text)
    durations.append(time.perf_counter() - start)
durations.sort()
median = durations[len(durations) // 2]
print()
print(f"graphql-core {graphql.__version__} parse(): median {median * 1000:.1f} ms over {iterations} runs, "
      f"{size / 1e6 / median:.2f} MB/s")
print(f"RESULT graphql_core_mb_per_s={size / 1e6 / median:.4f}")
PY

swift_rate="$(sed -n 's/^RESULT sdl_mb_per_s=\([0-9.]*\).*/\1/p' "$workdir/swift.txt")"
growth_ratio="$(sed -n 's/^RESULT .*peak_growth_ratio=\([0-9.]*\).*/\1/p' "$workdir/swift.txt")"
python_rate="$(sed -n 's/^RESULT graphql_core_mb_per_s=\([0-9.]*\).*/\1/p' "$workdir/python.txt")"
ratio="$(awk -v s="$swift_rate" -v p="$python_rate" 'BEGIN { printf "%.1f", s / p }')"

echo
echo "| parser | throughput (median) |"
echo "|---|---|"
echo "| GraphQLSDL (release) | ${swift_rate} MB/s |"
echo "| graphql-core parse() | ${python_rate} MB/s |"
echo "| ratio | ${ratio}x (target >= 20x) |"
echo "| GraphQLSDL peak memory growth | ${growth_ratio}x input (target < 10x) |"
