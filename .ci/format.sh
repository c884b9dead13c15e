#!/usr/bin/env bash
# The project's Swift formatting: `swift format` (the toolchain's swift-format) with `.swift-format`
# (swift-format's defaults at 120 columns, 2-space indentation) over every tracked Swift file:
# Sources/, Tests/, Plugins/, Benchmarks/, Generated/, Examples/, Fuzz/ and Package.swift.
#   bash .ci/format.sh         lint, --strict: any finding fails (what CI runs)
#   bash .ci/format.sh --fix   reformat those files in place
# Generated/ is written by modelgen already in this layout (Sources/ModelGenSwift/SwiftLayout.swift),
# so `--fix` never changes it and `modelgen generate --check` and this lint agree.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -- '*.swift')
if [[ "${1:-}" == "--fix" ]]; then
  swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
else
  swift format lint --strict --parallel --configuration .swift-format "${files[@]}"
  echo "swift format lint --strict: ${#files[@]} files, no findings"
fi
