import ChildProcessSupport
import Foundation

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
  private let process: TestLock<ChildProcess?>

  /// Starts the server on `schema` (a path relative to the package root).
  ///
  /// - Throws: `ServerError` when the virtualenv cannot be made or the server does not report a port.
  init(schema: String, apiKey: String? = nil, authConfig: URL? = nil) async throws {
    let python = try await Self.python()
    await ServerSlots.shared.acquire()
    let launched: (port: Int, directory: URL, process: ChildProcess)
    do {
      launched = try await Self.launch(
        python: python, schema: schema, apiKey: apiKey, authConfig: authConfig)
    } catch {
      await ServerSlots.shared.release()
      throw error
    }
    port = launched.port
    directory = launched.directory
    process = TestLock(launched.process)
    endpoint = URL(string: "http://127.0.0.1:\(port)/graphql")!
  }

  /// Starts one server process; returns its port, data directory and process.
  private static func launch(
    python: String, schema: String, apiKey: String?, authConfig: URL? = nil
  ) async throws -> (
    Int, URL, ChildProcess
  ) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lazymodelapi-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var arguments = [
      Self.packageRoot.appendingPathComponent("Tests/GraphQLServer/server.py").path,
      "--schema", Self.packageRoot.appendingPathComponent(schema).path,
      "--port", "0", "--db", directory.appendingPathComponent("data.sqlite").path,
    ]
    if let apiKey { arguments += ["--api-key", apiKey] }
    if let authConfig { arguments += ["--auth-config", authConfig.path] }
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: python), arguments: arguments, standardOutput: .pipe,
      standardError: .nullDevice)
    guard let output = process.standardOutput else { preconditionFailure("standardOutput: .pipe has a handle") }
    let line = await onOwnThread { Self.readLine(output) }
    guard let line, line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count))
    else {
      process.kill(SIGKILL)
      throw ServerError(message: "server did not start: \(line ?? "no output")")
    }
    return (port, directory, process)
  }

  /// Stops the server (SIGKILL) and removes its data.
  func stop() {
    let wasRunning = process.withLock { process in
      defer { process = nil }
      guard let running = process else { return false }
      if running.isRunning { running.kill(SIGKILL) }
      return true
    }
    if wasRunning { Task { await ServerSlots.shared.release() } }
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  /// Stops the server and returns once its process has exited, so its port is closed: a request
  /// after this is refused by the kernel rather than accepted into a backlog nobody serves (a
  /// SIGKILL on a busy machine takes effect some time after `kill` returns). The wait suspends;
  /// ChildProcess waits on a thread of its own, never on the cooperative pool.
  func stopAndWaitForExit() async {
    let running = process.withLock { $0 }
    stop()
    guard let running else { return }
    await running.waitForExit()
  }

  /// The records of `model` as the server stores them (`GET /test/records/<model>`), FK fields
  /// included, in no particular order.
  func storedRecords(of model: String) async throws -> [[String: Any]] {
    let url = URL(string: "http://127.0.0.1:\(port)/test/records/\(model)")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
  }

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

/// At most a few servers at once, so a parallel test run does not start one per test together.
private actor ServerSlots {
  static let shared = ServerSlots(limit: 6)
  private var available: Int
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) { available = limit }

  func acquire() async {
    if available > 0 {
      available -= 1
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  func release() {
    if waiters.isEmpty {
      available += 1
    } else {
      waiters.removeFirst().resume()
    }
  }
}

private actor VenvSetup {
  static let shared = VenvSetup()
  private var result: Task<String, any Error>?

  func python() async throws -> String {
    if let result { return try await result.value }
    let task = Task { try await onOwnThread(Self.install).get() }
    result = task
    return try await task.value
  }

  /// Runs venv.sh (blocking: call it on a thread of its own) and returns the venv's python.
  private static func install() -> Result<String, any Error> {
    Result { () throws -> String in
      let root = GraphQLServerProcess.packageRoot
      let script = root.appendingPathComponent("Tests/GraphQLServer/venv.sh").path
      let arguments =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")
        ? [
          "flock",
          FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-venv.lock").path,
          "bash", script,
        ]
        : ["bash", script]
      let run = try ChildProcess.run(
        executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments, standardError: .inherit)
      let path = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
      guard run.status == 0, !path.isEmpty else {
        throw GraphQLServerProcess.ServerError(message: "venv.sh failed with status \(run.status)")
      }
      return path
    }
  }
}

/// Runs `body` on a thread of its own and returns its value, so that a blocking read or wait
/// (a child process's output, its exit) never holds one of the cooperative pool's few threads:
/// on this 2-core machine two blocked pool threads stall every other test's async work.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}
