// GenerateBenchmark: times `modelgen generate` end to end on the synthetic >= 1,000-model schema.
//
// Run: swift run -c release GenerateBenchmark [modelCount] [--write-schema PATH] [--once]
// (`--write-schema` also saves the synthetic schema, to generate and compile it by hand; `--once`
// generates in memory once and prints nothing else, for `valgrind --tool=callgrind`.)
// Prints one table: the in-memory pipeline (parse + analyze + render), its two phases alone, and a
// plain baseline (copying the same output bytes), each the median of `runs`; then the CLI writing
// into an empty temporary directory, a plain baseline writing the same files with FileManager, and
// `--check` over the up-to-date output. Targets (issue 16): 1,000 models in memory <= 150 ms, CLI
// into an empty directory <= 400 ms, peak memory <= 60 MB.
import BenchmarkSupport
import Foundation
import ModelGen
import ModelGenCLI

struct Measurement {
  var seconds: Double
  /// CPU time of the whole process (user + system, every thread) while the row ran, in seconds.
  var cpuSeconds: Double
  var files: Int
  var peakBytes: Int
}

/// The process's CPU time so far (`CLOCK_PROCESS_CPUTIME_ID`: user + system of every thread), in
/// seconds: unlike wall time it does not grow when other processes share the cores.
func processCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// `/proc/loadavg`'s three load averages (1, 5, 15 minutes), or `n/a`.
func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "n/a" }
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func measure(_ body: () throws -> Int) rethrows -> Measurement {
  PeakMemory.resetPeak()
  let cpuStart = processCPUSeconds()
  let start = ContinuousClock.now
  let files = try body()
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Measurement(
    seconds: seconds, cpuSeconds: processCPUSeconds() - cpuStart, files: files,
    peakBytes: PeakMemory.peakResidentBytes())
}

/// How many times each in-memory phase runs; rows show the median.
let runs = 5

/// The run with the median wall time, carrying the median CPU time of the runs.
func median(_ measurements: [Measurement]) -> Measurement {
  var result = measurements.sorted { $0.seconds < $1.seconds }[measurements.count / 2]
  result.cpuSeconds = measurements.map(\.cpuSeconds).sorted()[measurements.count / 2]
  return result
}

func row(_ name: String, _ result: Measurement, baseline: Measurement?) -> [String] {
  [
    name, BenchmarkFormat.milliseconds(result.seconds), BenchmarkFormat.milliseconds(result.cpuSeconds),
    "\(result.files)",
    result.files == 0 ? "" : String(format: "%.0f", Double(result.files) / result.seconds),
    BenchmarkFormat.megabytes(result.peakBytes),
    baseline.map { String(format: "%.1f×", result.seconds / $0.seconds) } ?? "",
  ]
}

func runBenchmark() throws -> Int32 {
  let loadAtStart = loadAverage()
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
  if arguments.contains("--once") {
    let generated = try generator.generate(source: schema, fileName: "synthetic.graphql")
    print("\(generated.files.count) files, \(generated.files.reduce(0) { $0 + $1.contents.utf8.count }) bytes")
    return generated.hasErrors ? 1 : 0
  }
  var rows: [[String]] = []
  var inMemory: [Measurement] = []
  var files: [GeneratedFile] = []
  for _ in 1...runs {
    var errors: [String] = []
    files = []  // the previous run's output is not kept alive while measuring the next
    inMemory.append(
      try measure {
        let generated = try generator.generate(source: schema, fileName: "synthetic.graphql")
        errors = generated.diagnostics.filter { $0.severity == .error }.prefix(5).map(\.description)
        files = generated.files
        return generated.files.count
      })
    guard errors.isEmpty else {
      FileHandle.standardError.write(
        Data("the synthetic schema has errors:\n\(errors.joined(separator: "\n"))\n".utf8))
      return 1
    }
  }
  // The plain baseline: producing the same output bytes by copying them (no parsing, no
  // decisions), so the ratio is what the generator costs per byte it writes.
  let copies = (1...runs).map { _ in
    measure {
      var total = 0
      for file in files { total += String(decoding: Array(file.contents.utf8), as: UTF8.self).utf8.count }
      return total > 0 ? files.count : 0
    }
  }
  let baseline = median(copies)
  rows.append(row("in memory (parse + analyze + render)", median(inMemory), baseline: baseline))
  do {
    var graph: ModelGraph?
    let analysis = (1...runs).map { _ in
      measure {
        graph = nil  // the previous run's graph is not kept alive while measuring the next
        graph = Generator.analyze(source: schema, fileName: "synthetic.graphql").graph
        return 0
      }
    }
    rows.append(row("  parse + analyze only", median(analysis), baseline: baseline))
    if let graph {
      let rendering = try (1...runs).map { _ in try measure { try generator.render(graph).count } }
      rows.append(row("  render only (plan + view models + templates)", median(rendering), baseline: baseline))
    }
  }
  rows.append(row("baseline: copy the same output bytes in memory", baseline, baseline: baseline))
  let command = ModelGenCommand(
    standardOutput: { _ in }, standardError: { FileHandle.standardError.write(Data($0.utf8)) })
  let fileCount = { (try? FileManager.default.contentsOfDirectory(atPath: output).count) ?? 0 }
  var status: Int32 = 0
  let cli = measure {
    status = max(status, command.run(["generate", schemaPath, "--output", output]))
    return fileCount()
  }
  let plainDirectory = (directory as NSString).appendingPathComponent("Plain")
  let plainWrite = measure {
    try? FileManager.default.createDirectory(
      atPath: plainDirectory, withIntermediateDirectories: true)
    for file in files {
      _ = FileManager.default.createFile(
        atPath: (plainDirectory as NSString).appendingPathComponent(file.path),
        contents: Data(file.contents.utf8))
    }
    return files.count
  }
  rows.append(row("CLI, empty output directory", cli, baseline: plainWrite))
  rows.append(
    row("baseline: write the same files with FileManager", plainWrite, baseline: plainWrite))
  rows.append(
    row(
      "CLI --check, up to date",
      measure {
        status = max(status, command.run(["generate", schemaPath, "--output", output, "--check"]))
        return fileCount()
      }, baseline: plainWrite))
  print(
    "GenerateBenchmark: \(modelCount) models, \(schema.utf8.count) bytes of schema (release build); "
      + "load average \(loadAtStart) at the start, \(loadAverage()) at the end")
  print(
    BenchmarkFormat.table(
      [
        "phase", "wall time (median of \(runs) in memory)", "CPU time (user + sys)", "files", "files/s",
        "peak memory", "÷ baseline (wall)",
      ],
      rows))
  return status
}

exit(try runBenchmark())
