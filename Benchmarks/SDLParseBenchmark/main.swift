// SDLParseBenchmark: parses a large synthetic Amplify schema with GraphQLSDL and prints MB/s and
// peak memory. Release mode only:
//
//   swift run -c release SDLParseBenchmark [--models N] [--iterations K] [--schema-out PATH]
//
// Benchmarks/sdl-parse-vs-graphql-core.sh runs it and graphql-core's `parse` on the same file.
import BenchmarkSupport
import Foundation
import GraphQLSDL

struct Options {
  var models = 3_000
  var iterations = 10
  var schemaOut: String?

  init(arguments: [String]) {
    var index = 1
    while index < arguments.count {
      let argument = arguments[index]
      let value = index + 1 < arguments.count ? arguments[index + 1] : nil
      switch argument {
      case "--models":
        models = value.flatMap(Int.init) ?? models
        index += 1
      case "--iterations":
        iterations = max(1, value.flatMap(Int.init) ?? iterations)
        index += 1
      case "--schema-out":
        schemaOut = value
        index += 1
      default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(64)
      }
      index += 1
    }
  }
}

let options = Options(arguments: CommandLine.arguments)
let generator = SyntheticAmplifySchema(modelCount: options.models)
let schemaURL =
  options.schemaOut.map { URL(fileURLWithPath: $0) }
  ?? FileManager.default.temporaryDirectory.appendingPathComponent("sdl-parse-benchmark-\(getpid()).graphql")
do {
  try Data(generator.generate().utf8).write(to: schemaURL)
} catch {
  FileHandle.standardError.write(Data("cannot write \(schemaURL.path): \(error)\n".utf8))
  exit(1)
}
defer { if options.schemaOut == nil { try? FileManager.default.removeItem(at: schemaURL) } }

// Measure memory from here on: the generator's strings are gone.
let peakWasReset = PeakMemory.resetPeak()
let residentBefore = PeakMemory.currentResidentBytes() ?? PeakMemory.peakResidentBytes()

/// The file's bytes; the `Data` read is released before parsing starts.
func readSchema(_ url: URL) -> [UInt8] {
  guard let data = FileManager.default.contents(atPath: url.path) else {
    FileHandle.standardError.write(Data("cannot read \(url.path)\n".utf8))
    exit(1)
  }
  return [UInt8](data)
}

/// Parses once (warm-up) and returns the document's counts; the synthetic schema must be free of
/// diagnostics. The result is dropped before the timed runs, so at most one AST is alive at a time.
func warmUp(_ bytes: [UInt8], fileName: String) -> (definitions: Int, models: Int, fields: Int) {
  let result = SDLParser.parse(bytes: bytes, fileName: fileName)
  guard result.diagnostics.isEmpty else {
    FileHandle.standardError.write(Data(DiagnosticPrinter.headlines(Array(result.diagnostics.prefix(10))).utf8))
    exit(1)
  }
  let document = result.document
  let models = document.objectTypes.filter { type in type.directives.contains { $0.name.value == "model" } }.count
  return (document.definitions.count, models, document.objectTypes.reduce(0) { $0 + $1.fields.count })
}

let bytes = readSchema(schemaURL)
let lineCount = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
let (definitionCount, modelCount, fieldCount) = warmUp(bytes, fileName: schemaURL.lastPathComponent)

/// Parses `iterations` times and returns each parse's wall-clock seconds, sorted ascending.
func timedParses(_ bytes: [UInt8], fileName: String, iterations: Int) -> [Double] {
  var durations: [Double] = []
  let clock = ContinuousClock()
  for _ in 0..<iterations {
    let start = clock.now
    let result = SDLParser.parse(bytes: bytes, fileName: fileName)
    let elapsed = clock.now - start
    precondition(result.document.definitions.count == definitionCount)
    durations.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return durations.sorted()
}

let durations = timedParses(bytes, fileName: schemaURL.lastPathComponent, iterations: options.iterations)
let peak = PeakMemory.peakResidentBytes()
let median = durations[durations.count / 2]
let best = durations[0]
let megabytes = Double(bytes.count) / 1_000_000
let growth = max(0, peak - residentBefore)
let growthRatio = Double(growth) / Double(bytes.count)

print("SDLParseBenchmark: GraphQLSDL SDLParser.parse(bytes:) on a synthetic Amplify schema")
print("")
print(
  BenchmarkFormat.table(
    ["metric", "value"],
    [
      ["schema file", schemaURL.path],
      ["input", "\(BenchmarkFormat.megabytes(bytes.count)) (\(lineCount) lines)"],
      ["definitions", "\(definitionCount) (\(modelCount) @model types, \(fieldCount) object fields)"],
      ["iterations", "\(options.iterations) (after 1 warm-up)"],
      ["parse time, median", BenchmarkFormat.milliseconds(median)],
      ["parse time, best", BenchmarkFormat.milliseconds(best)],
      ["throughput, median", String(format: "%.1f MB/s", megabytes / median)],
      ["throughput, best", String(format: "%.1f MB/s", megabytes / best)],
      [
        "peak memory growth (input bytes + one AST)",
        "\(BenchmarkFormat.megabytes(growth)) = \(String(format: "%.2f", growthRatio))× input"
          + (peakWasReset ? "" : " (peak not resettable: whole run)"),
      ],
      ["process peak resident (VmHWM)", BenchmarkFormat.megabytes(peak)],
    ]))
print("")
print(
  "RESULT sdl_mb_per_s=\(String(format: "%.2f", megabytes / median)) input_bytes=\(bytes.count) "
    + "peak_growth_bytes=\(growth) peak_growth_ratio=\(String(format: "%.2f", growthRatio)) file=\(schemaURL.path)")
