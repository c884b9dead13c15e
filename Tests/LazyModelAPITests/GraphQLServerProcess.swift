import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The local GraphQL server (Tests/GraphQLServer/server.py) running on 127.0.0.1 for one test:
/// a fresh SQLite file in a temporary directory, a free port chosen by the OS, stopped by `stop()`.
final class GraphQLServerProcess: Sendable {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  let port: Int
  let endpoint: URL
  let directory: URL
  private let process: Mutex<Process?>

  /// Starts the server on `schema` (a path relative to the package root).
  ///
  /// - Throws: `ServerError` when the virtualenv cannot be made or the server does not report a port.
  init(schema: String, apiKey: String? = nil) async throws {
    let python = try await Self.python()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lazymodelapi-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    var arguments = [
      Self.packageRoot.appendingPathComponent("Tests/GraphQLServer/server.py").path,
      "--schema", Self.packageRoot.appendingPathComponent(schema).path,
      "--port", "0", "--db", directory.appendingPathComponent("data.sqlite").path,
    ]
    if let apiKey { arguments += ["--api-key", apiKey] }
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let line = await Task.detached { Self.readLine(output.fileHandleForReading) }.value
    guard let line, line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count))
    else {
      process.terminate()
      throw ServerError(message: "server did not start: \(line ?? "no output")")
    }
    self.port = port
    endpoint = URL(string: "http://127.0.0.1:\(port)/graphql")!
    self.process = Mutex(process)
  }

  /// Stops the server (SIGKILL: a child spawned from a dispatch thread inherits its blocked
  /// SIGTERM) and removes its data.
  func stop() {
    process.withLock { process in
      if let running = process, running.isRunning {
        kill(running.processIdentifier, SIGKILL)
      }
      process = nil
    }
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  /// The request bodies the server received, oldest first (`GET /test/requests`).
  func receivedRequests() async throws -> [[String: Any]] {
    let url = URL(string: "http://127.0.0.1:\(port)/test/requests")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let json = try JSONSerialization.jsonObject(with: data)
    if let list = json as? [[String: Any]] { return list }
    if let object = json as? [String: Any], let list = object["requests"] as? [[String: Any]] {
      return list
    }
    throw ServerError(message: "unexpected /test/requests payload")
  }

  struct ServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  private static func readLine(_ handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    while true {
      let chunk = handle.readData(ofLength: 1)
      guard let byte = chunk.first else {
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }

  /// The virtualenv's python, made once per test process (and once across processes: `venv.sh`
  /// runs under `flock` on a lock file in the temporary directory).
  private static func python() async throws -> String {
    try await VenvSetup.shared.python()
  }
}

private actor VenvSetup {
  static let shared = VenvSetup()
  private var result: Task<String, any Error>?

  func python() async throws -> String {
    if let result { return try await result.value }
    let task = Task.detached { () throws -> String in
      let root = GraphQLServerProcess.packageRoot
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      let script = root.appendingPathComponent("Tests/GraphQLServer/venv.sh").path
      if FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") {
        process.arguments = [
          "flock",
          FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-venv.lock").path,
          "bash", script,
        ]
      } else {
        process.arguments = ["bash", script]
      }
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let path = String(decoding: data, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      guard process.terminationStatus == 0, !path.isEmpty else {
        throw GraphQLServerProcess.ServerError(
          message: "venv.sh failed with status \(process.terminationStatus)")
      }
      return path
    }
    result = task
    return try await task.value
  }
}
