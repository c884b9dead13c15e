import Foundation

/// The virtualenv python of the local GraphQL server (`bash Tests/GraphQLServer/venv.sh`, which
/// installs the pinned packages on first use and prints the interpreter's path).
///
/// - Parameter root: The package root.
/// - Returns: The python executable's path.
/// - Throws: When `bash` cannot be started.
/// Blocks the calling thread until the script ends: call it before the benchmark starts timing,
/// from top-level code, not from a task on the cooperative pool.
public func localServerPython(root: URL) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["bash", root.appendingPathComponent("Tests/GraphQLServer/venv.sh").path]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
