#!/usr/bin/env bash
# Builds the libFuzzer targets with `swiftc -sanitize=fuzzer,address`, outside SwiftPM (the normal
# `swift build` never sees them): GraphQLSDL and the generator's modules are compiled from Sources/,
# each target from Fuzz/<Target>/ is linked against them. Release optimisation (-O), ASan.
#   bash Fuzz/build.sh            -> .build/fuzz/{parser,analysis,generator}-fuzz
#   FUZZ_BUILD=DIR bash Fuzz/build.sh   to build elsewhere.
#   FUZZ_SANITIZE=none FUZZ_BUILD=.build/fuzz-plain bash Fuzz/build.sh
#       the same targets as plain -O programs (.build/fuzz-plain/<target>-replay FILE|DIR...) that run
#       each input once, with Fuzz/Replay/ standing in for libFuzzer: for profiling a corpus with
#       `valgrind --tool=callgrind` without the sanitizers' and the fuzzer's own costs.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${FUZZ_BUILD:-.build/fuzz}"
mkdir -p "$out"
flags=(-O -swift-version 6 -package-name modelgen -parse-as-library -g)
suffix=fuzz
driver=()
if [ "${FUZZ_SANITIZE:-fuzzer,address}" = none ]; then
  suffix=replay
  driver=(Fuzz/Replay/*.swift)
else
  flags+=(-sanitize="${FUZZ_SANITIZE:-fuzzer,address}")
  # Edge counters, indirect calls and the PC table, as `-sanitize=fuzzer` gives, but no comparison
  # hooks (`trace-cmp`): with `-use_value_profile=0` (libFuzzer's default) a hook on a 1- or 2-byte
  # comparison only writes the value-profile map, which nothing reads, and the 4- and 8-byte ones
  # feed `-use_cmp` with loop bounds and lengths; the lexer's byte comparisons made
  # `__sanitizer_cov_trace_const_cmp1` the top symbol of the parser's profile (README, "Fuzzing").
  # FUZZ_COVERAGE=edge,indirect-calls,trace-cmp,pc-table,inline-8bit-counters restores them.
  flags+=(-sanitize-coverage="${FUZZ_COVERAGE:-edge,indirect-calls,pc-table,inline-8bit-counters}")
fi
linker=()
# ld.gold warns about ASan's local symbols; lld from the Swift toolchain links cleanly.
if command -v ld.lld >/dev/null 2>&1; then linker=(-use-ld=lld); fi

# The built-in templates, embedded as SwiftPM's `.embedInCode` resources would be.
python3 - "$out/embedded_resources.swift" Sources/ModelGen/Templates/*.mustache <<'PY'
import os, sys
lines = ["struct PackageResources {"]
for path in sorted(sys.argv[2:]):
    name = os.path.basename(path).replace(".", "_")
    data = open(path, "rb").read()
    lines.append("static let %s: [UInt8] = [%s]" % (name, ",".join(str(b) for b in data)))
lines.append("}")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY

# The generator's modules in dependency order (Package.swift): each is compiled whole into one
# object; ModelGen (the pipeline) also gets the embedded templates.
modules=(ModelVocabulary GraphQLSDL ModelGenIR ModelGenAPISchema ModelGenTemplating ModelGenSwift ModelGen)
objects=()
for module in "${modules[@]}"; do
  echo "compiling $module"
  extra=()
  if [ "$module" = ModelGen ]; then extra=("$out/embedded_resources.swift"); fi
  swiftc "${flags[@]}" -wmo -module-name "$module" -I "$out" -emit-module \
    -emit-module-path "$out/$module.swiftmodule" -emit-object -o "$out/$module.o" \
    $(find "Sources/$module" -name '*.swift' | sort) "${extra[@]}"
  objects+=("$out/$module.o")
done
echo "linking parser-$suffix"
swiftc "${flags[@]}" "${linker[@]}" -module-name ParserFuzz -I "$out" Fuzz/ParserFuzz/*.swift "${driver[@]}" \
  "$out/ModelVocabulary.o" "$out/GraphQLSDL.o" -o "$out/parser-$suffix"
echo "linking analysis-$suffix"
swiftc "${flags[@]}" "${linker[@]}" -module-name AnalysisFuzz -I "$out" Fuzz/AnalysisFuzz/*.swift "${driver[@]}" \
  "${objects[@]}" -o "$out/analysis-$suffix"
echo "linking generator-$suffix"
swiftc "${flags[@]}" "${linker[@]}" -module-name GeneratorFuzz -I "$out" Fuzz/GeneratorFuzz/*.swift "${driver[@]}" \
  "${objects[@]}" -o "$out/generator-$suffix"
echo "built $out/parser-$suffix $out/analysis-$suffix $out/generator-$suffix"
