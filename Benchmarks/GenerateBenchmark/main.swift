// GenerateBenchmark: times `modelgen generate` end to end on the synthetic >= 1,000-model schema.
//
// Run: swift run -c release GenerateBenchmark [modelCount] [--write-schema PATH]
// (`--write-schema` also saves the synthetic schema, to generate and compile it by hand.)
// Prints one table: the in-memory pipeline (parse + analyze + render) three times, then the CLI
// writing into an empty temporary directory and re-running `--check` over the up-to-date output.
// Targets (issue 4): under 1 s and under 200 MB for 1,000 models.
import BenchmarkSupport
import Foundation
import ModelGen
import ModelGenCLI

struct Measurement {
  var seconds: Double
  var files: Int
  var peakBytes: Int
}

func measure(_ body: () throws -> Int) rethrows -> Measurement {
  PeakMemory.resetPeak()
  let start = ContinuousClock.now
  let files = try body()
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Measurement(seconds: seconds, files: files, peakBytes: PeakMemory.peakResidentBytes())
}

func row(_ name: String, _ result: Measurement) -> [String] {
  [
    name, BenchmarkFormat.milliseconds(result.seconds), "\(result.files)",
    String(format: "%.0f", Double(result.files) / result.seconds),
    BenchmarkFormat.megabytes(result.peakBytes),
  ]
}

func runBenchmark() throws -> Int32 {
  let modelCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
  let schema = SyntheticAmplifySchema(modelCount: modelCount).generate()
  let arguments = CommandLine.arguments
  if let flag = arguments.firstIndex(of: "--write-schema"), flag + 1 < arguments.count {
    try schema.write(toFile: arguments[flag + 1], atomically: true, encoding: .utf8)
  }
  let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent(
    "modelgen-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let schemaPath = (directory as NSString).appendingPathComponent("synthetic.graphql")
  try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
  let output = (directory as NSString).appendingPathComponent("Generated")

  let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
  var rows: [[String]] = []
  for run in 1...3 {
    var errors: [String] = []
    let result = try measure {
      let generated = try generator.generate(source: schema, fileName: "synthetic.graphql")
      errors = generated.diagnostics.filter { $0.severity == .error }.prefix(5).map(\.description)
      return generated.files.count
    }
    guard errors.isEmpty else {
      FileHandle.standardError.write(
        Data("the synthetic schema has errors:\n\(errors.joined(separator: "\n"))\n".utf8))
      return 1
    }
    rows.append(row("in memory, run \(run)", result))
  }
  var graph: ModelGraph?
  rows.append(
    row(
      "parse + analyze only",
      measure {
        graph = Generator.analyze(source: schema, fileName: "synthetic.graphql").graph
        return 0
      }))
  if let graph {
    rows.append(
      row(
        "render only (view models + templates)", try measure { try generator.render(graph).count }))
  }
  let command = ModelGenCommand(
    standardOutput: { _ in }, standardError: { FileHandle.standardError.write(Data($0.utf8)) })
  let fileCount = { (try? FileManager.default.contentsOfDirectory(atPath: output).count) ?? 0 }
  var status: Int32 = 0
  rows.append(
    row(
      "CLI, empty output directory",
      measure {
        status = max(status, command.run(["generate", schemaPath, "--output", output]))
        return fileCount()
      }))
  rows.append(
    row(
      "CLI --check, up to date",
      measure {
        status = max(status, command.run(["generate", schemaPath, "--output", output, "--check"]))
        return fileCount()
      }))
  print(
    "GenerateBenchmark: \(modelCount) models, \(schema.utf8.count) bytes of schema (release build)")
  print(BenchmarkFormat.table(["phase", "wall time", "files", "files/s", "peak memory"], rows))
  return status
}

exit(try runBenchmark())
