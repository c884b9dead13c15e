#!/usr/bin/env bash
# Builds the libFuzzer targets with `swiftc -sanitize=fuzzer,address`, outside SwiftPM (the normal
# `swift build` never sees them): GraphQLSDL and ModelGen are compiled from Sources/ as modules,
# each target from Fuzz/<Target>/ is linked against them. Release optimisation (-O), ASan.
#   bash Fuzz/build.sh            -> .build/fuzz/parser-fuzz, .build/fuzz/generator-fuzz
#   FUZZ_BUILD=DIR bash Fuzz/build.sh   to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${FUZZ_BUILD:-.build/fuzz}"
mkdir -p "$out"
flags=(-O -sanitize=fuzzer,address -swift-version 6 -package-name modelgen -parse-as-library -g)
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

echo "compiling GraphQLSDL"
swiftc "${flags[@]}" -wmo -module-name GraphQLSDL -emit-module -emit-module-path "$out/GraphQLSDL.swiftmodule" \
  -emit-object -o "$out/GraphQLSDL.o" Sources/GraphQLSDL/*.swift
echo "compiling ModelGen"
swiftc "${flags[@]}" -wmo -module-name ModelGen -I "$out" -emit-module -emit-module-path "$out/ModelGen.swiftmodule" \
  -emit-object -o "$out/ModelGen.o" $(find Sources/ModelGen -name '*.swift' | sort) "$out/embedded_resources.swift"
echo "linking parser-fuzz"
swiftc "${flags[@]}" "${linker[@]}" -module-name ParserFuzz -I "$out" Fuzz/ParserFuzz/*.swift "$out/GraphQLSDL.o" \
  -o "$out/parser-fuzz"
echo "linking generator-fuzz"
swiftc "${flags[@]}" "${linker[@]}" -module-name GeneratorFuzz -I "$out" Fuzz/GeneratorFuzz/*.swift \
  "$out/GraphQLSDL.o" "$out/ModelGen.o" -o "$out/generator-fuzz"
echo "built $out/parser-fuzz $out/generator-fuzz"
