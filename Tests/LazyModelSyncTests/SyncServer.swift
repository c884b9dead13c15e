import ChildProcessSupport
import Foundation
import LazyModelAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The local GraphQL server (Tests/GraphQLServer/server.py) on the versioned sync schema
/// (`Generated/sync/sync-blog`, or a copy with another conflict handler), for one test. Its data is
/// a SQLite file in a temporary directory, so ``restart()`` (SIGKILL, then the same port and file)
/// keeps it: what a client sees as the server going away and coming back.
///
/// Blocking waits (venv.sh, the server's start line) run on threads of their own, never on the
/// cooperative pool.
final class SyncServer: @unchecked Sendable {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  let directory: URL
  let schema: URL
  private(set) var port = 0
  private var process: ChildProcess?
  private let python: String
  private let authConfig: URL?
  private let apiKey: String?
  private let lock = NSLock()

  var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }
  var client: APIClient {
    APIClient(
      configuration: .init(endpoint: endpoint, authorization: .apiKey("sync-test-key"), timeout: syncRequestTimeout))
  }

  /// Starts a server whose models use `conflictHandler` (`AUTOMERGE`, `OPTIMISTIC_CONCURRENCY`, `LAMBDA`),
  /// on the schema generated into `Generated/<generated>`, checking `--auth-config authConfig`
  /// (Tests/GraphQLServer/auth.py) when given, or answering HTTP 401 to a `/graphql` request whose
  /// `x-api-key` is not `apiKey` when that is given (``graphQL(_:_:)`` and ``post(_:)`` send none;
  /// `/test/records/<model>` still answers).
  init(
    conflictHandler: String = "AUTOMERGE", generated: String = "sync/sync-blog", authConfig: URL? = nil,
    apiKey: String? = nil
  ) async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("lazymodelsync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.authConfig = authConfig
    self.apiKey = apiKey
    // The deployable schema as generated; the conflict handler is the manifest's (`conflictHandler`).
    let generated = Self.packageRoot.appendingPathComponent("Generated/\(generated)")
    schema = directory.appendingPathComponent("schema.api.graphql")
    try FileManager.default.copyItem(at: generated.appendingPathComponent("schema.api.graphql"), to: schema)
    let manifest = try String(contentsOf: generated.appendingPathComponent("schema.local.json"), encoding: .utf8)
    try manifest.replacingOccurrences(of: "\"AUTOMERGE\"", with: "\"\(conflictHandler)\"")
      .write(to: directory.appendingPathComponent("schema.local.json"), atomically: true, encoding: .utf8)
    python = try await Self.onOwnThread { try Self.venvPython() }
    try await launch()
  }

  private func launch() async throws {
    let arguments =
      [
        Self.packageRoot.appendingPathComponent("Tests/GraphQLServer/server.py").path, "--schema", schema.path,
        "--port", String(port), "--db", directory.appendingPathComponent("data.sqlite").path,
      ] + (authConfig.map { ["--auth-config", $0.path] } ?? []) + (apiKey.map { ["--api-key", $0] } ?? [])
    let python = self.python
    let (process, line) = try await Self.onOwnThread { () throws -> (ChildProcess, String?) in
      let process = try ChildProcess(
        executable: URL(fileURLWithPath: python), arguments: arguments, standardOutput: .pipe,
        standardError: .nullDevice)
      guard let output = process.standardOutput else { preconditionFailure("standardOutput: .pipe has a handle") }
      return (process, Self.readLine(output))
    }
    guard let line, line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count)) else {
      process.kill(SIGKILL)
      throw Failure(message: "server did not start: \(line ?? "no output")")
    }
    lock.withLock {
      self.port = port
      self.process = process
    }
  }

  /// Kills the server (SIGKILL); the data stays in its file.
  func kill9() {
    lock.withLock {
      if let process, process.isRunning { process.kill(SIGKILL) }
      process = nil
    }
  }

  /// Kills the server (SIGKILL) and waits (on a thread of its own) until the process exited, so
  /// its port is closed when this returns.
  func kill9AndWait() async {
    let process = lock.withLock { self.process }
    kill9()
    guard let process else { return }
    await process.waitForExit()
  }

  /// Starts the server again on the same port and data file (after ``kill9()``).
  func restart() async throws {
    kill9()
    var lastError: (any Error)?
    for _ in 0..<20 {  // the port may linger for a moment after the kill
      do {
        try await launch()
        return
      } catch {
        lastError = error
        try await Task.sleep(for: .milliseconds(100))
      }
    }
    throw lastError ?? Failure(message: "restart failed")
  }

  func stop() {
    kill9()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  /// Sends `query` with `variables` and returns the JSON response object.
  func graphQL(_ query: String, _ variables: [String: Any] = [:]) async throws -> [String: Any] {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
    let (data, _) = try await URLSession.shared.data(for: request)
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// The server's `Post` with `id` (sync fields included), or `nil`.
  func post(_ id: String) async throws -> [String: Any]? {
    let response = try await graphQL(
      "query G($id: ID!) { getPost(id: $id) { id title rating tags _version _deleted _lastChangedAt } }", ["id": id])
    return (response["data"] as? [String: Any])?["getPost"] as? [String: Any]
  }

  /// Every request body the server received (`GET /test/requests`).
  func requests() async throws -> [[String: Any]] {
    let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/test/requests")!)
    let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return list.compactMap { $0["body"] as? [String: Any] }
  }

  struct Failure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  private static func readLine(_ handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    while true {
      guard let byte = handle.readData(ofLength: 1).first else {
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }

  /// venv.sh (under `flock`, shared with the other test targets) → the venv's python.
  private static func venvPython() throws -> String {
    let script = packageRoot.appendingPathComponent("Tests/GraphQLServer/venv.sh").path
    let arguments =
      FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")
      ? [
        "flock", FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-venv.lock").path, "bash",
        script,
      ]
      : ["bash", script]
    let run = try ChildProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments, standardError: .inherit)
    let path = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    guard run.status == 0, !path.isEmpty else {
      throw Failure(message: "venv.sh failed with status \(run.status)")
    }
    return path
  }

  /// Runs a blocking `body` on a thread of its own.
  static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }
}
