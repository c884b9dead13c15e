// GenerateBenchmark: times `modelgen generate` end to end on the synthetic >= 1,000-model schema.
//
// Run: swift run -c release GenerateBenchmark [modelCount]
// Prints one table: the in-memory pipeline (parse + analyze + render), and the CLI writing into an
// empty temporary directory and re-running over an up-to-date one. Targets: < 1 s, < 200 MB.
import BenchmarkSupport
import Foundation
import ModelGen
import ModelGenCLI

let modelCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
let schema = SyntheticAmplifySchema(modelCount: modelCount).generate()
let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("modelgen-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
let schemaPath = (directory as NSString).appendingPathComponent("synthetic.graphql")
try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
let output = (directory as NSString).appendingPathComponent("Generated")

func measure(_ body: () throws -> Int) rethrows -> (seconds: Double, files: Int, peak: Int) {
  PeakMemory.resetPeak()
  let start = ContinuousClock.now
  let files = try body()
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return (seconds, files, PeakMemory.peakResidentBytes())
}

let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
var rows: [[String]] = []
func row(_ name: String, _ result: (seconds: Double, files: Int, peak: Int)) {
  rows.append([
    name, BenchmarkFormat.milliseconds(result.seconds), "\(result.files)",
    String(format: "%.0f", Double(result.files) / result.seconds), BenchmarkFormat.megabytes(result.peak),
  ])
}

var failure: String?
for run in 1...3 {
  let result = try measure {
    let generated = try generator.generate(source: schema, fileName: "synthetic.graphql")
    if generated.hasErrors { failure = generated.diagnostics.prefix(5).map(\.description).joined(separator: "\n") }
    return generated.files.count
  }
  row("in memory, run \(run)", result)
}
if let failure {
  FileHandle.standardError.write(Data("the synthetic schema has errors:\n\(failure)\n".utf8))
  exit(1)
}
let silent = ModelGenCommand(standardOutput: { _ in }, standardError: { FileHandle.standardError.write(Data($0.utf8)) })
row(
  "CLI, empty output dir",
  measure {
    _ = silent.run(["generate", schemaPath, "--output", output])
    return (try? FileManager.default.contentsOfDirectory(atPath: output).count) ?? 0
  })
row(
  "CLI, up to date (--check)",
  measure {
    _ = silent.run(["generate", schemaPath, "--output", output, "--check"])
    return (try? FileManager.default.contentsOfDirectory(atPath: output).count) ?? 0
  })

print("GenerateBenchmark: \(modelCount) models, \(schema.utf8.count) bytes of schema (release build)")
print(BenchmarkFormat.table(["phase", "wall time", "files", "files/s", "peak memory"], rows))
