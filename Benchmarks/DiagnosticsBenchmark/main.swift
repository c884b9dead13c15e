// DiagnosticsBenchmark: prints N diagnostics that all sit on one source line (N `%` characters,
// each an SDL001), with their snippets, and compares the time with printing only their one-line
// headlines (the plain baseline: no source is read). Release mode only:
//
//   swift run -c release DiagnosticsBenchmark [--counts 1000,4000,10000,40000] [--iterations K]
//
// Issue 18 measured 0.86 s for 1,000, 12.8 s for 4,000 and 79 s for 10,000 before snippets cost
// a bounded window each; the target is 10,000 in under 0.5 s.
import BenchmarkSupport
import Foundation
import GraphQLSDL

var counts = [1_000, 4_000, 10_000, 40_000]
var iterations = 5
var index = 1
let arguments = CommandLine.arguments
while index < arguments.count {
  let value = index + 1 < arguments.count ? arguments[index + 1] : ""
  switch arguments[index] {
  case "--counts":
    counts = value.split(separator: ",").compactMap { Int($0) }
    index += 1
  case "--iterations":
    iterations = max(1, Int(value) ?? iterations)
    index += 1
  default:
    FileHandle.standardError.write(Data("unknown argument \(arguments[index])\n".utf8))
    exit(64)
  }
  index += 1
}

/// The median of `iterations` runs of `body`, in seconds.
func median(_ iterations: Int, _ body: () -> Int) -> (seconds: Double, bytes: Int) {
  var times: [Double] = []
  var bytes = 0
  for _ in 0..<iterations {
    let start = DispatchTime.now().uptimeNanoseconds
    bytes = body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return (times.sorted()[times.count / 2], bytes)
}

var rows: [[String]] = []
for count in counts {
  // `%,`: each `%` is one diagnostic (a comma ends a run of unexpected characters).
  let source = "type A { f: Int }\n" + String(repeating: "%,", count: count) + "\n"
  let parsed = SDLParser.parse(
    source, fileName: "one-line.graphql", options: ParseOptions(maximumDiagnosticCount: count + 1))
  guard parsed.diagnostics.count == count else {
    FileHandle.standardError.write(Data("expected \(count) diagnostics, got \(parsed.diagnostics.count)\n".utf8))
    exit(1)
  }
  let rendered = median(iterations) { DiagnosticPrinter.render(parsed.diagnostics, source: parsed.source).utf8.count }
  let headlines = median(iterations) { DiagnosticPrinter.headlines(parsed.diagnostics).utf8.count }
  rows.append([
    "\(count)", BenchmarkFormat.milliseconds(rendered.seconds), BenchmarkFormat.milliseconds(headlines.seconds),
    String(format: "%.2f×", rendered.seconds / headlines.seconds),
    String(format: "%.2f µs", rendered.seconds / Double(count) * 1e6), BenchmarkFormat.megabytes(rendered.bytes),
  ])
}
print("N diagnostics on one line, printed with snippets vs headlines only (median of \(iterations))")
print(
  BenchmarkFormat.table(
    ["diagnostics", "with snippets", "headlines only", "ratio", "per diagnostic", "output"], rows))
