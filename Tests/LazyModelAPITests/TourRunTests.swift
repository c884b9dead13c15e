import ChildProcessSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 19: `swift run Tour` (Examples/Tour/main.swift, the README tour's code) runs, through the
/// DataStore alone and then against the local GraphQL server.
@Suite("The runnable tour")
struct TourRunTests {
  @Test func dataStoreOnly() async throws {
    let run = try await TourRun.spawn([])
    #expect(run.status == 0, "stderr: \(run.errors)")
    #expect(
      run.output == """
        datastore: 1 comment starting with "F": First!
        datastore: comment.post is Hello, its comments ["First!"]
        datastore: loadReferences ["Hello"], loadAll ["Hello"]
        api: skipped (start the local server and pass --endpoint, see README)

        """)
    #expect(run.errors.isEmpty)
  }

  @Test func againstTheLocalServer() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath, apiKey: "tour-key")
    defer { server.stop() }
    let run = try await TourRun.spawn([
      "--endpoint", server.endpoint.absoluteString, "--api-key", "tour-key",
    ])
    #expect(run.status == 0, "stderr: \(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(
      lines.suffix(2) == [
        "api: created Hello, fetched First!, its post Hello", "api: 1 comment of Hello beginning with F: [\"First!\"]",
      ])
    let operations = try await server.receivedRequests().compactMap {
      ($0["body"] as? [String: Any])?["operationName"] as? String
    }
    #expect(
      operations == [
        "CreatePost4V2", "CreateComment4V2", "GetComment4V2", "GetPost4V2", "Comment4V2sByPostIDAndContent",
      ])
    let keys = try await server.receivedRequests().compactMap {
      ($0["headers"] as? [String: String])?["x-api-key"]
    }
    #expect(keys == ["tour-key", "tour-key", "tour-key", "tour-key", "tour-key"])
  }

  @Test func aBadOptionFailsWithAMessage() async throws {
    let run = try await TourRun.spawn(["--endpoint", "ftp://x"])
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.errors == "tour: error: --endpoint needs an http(s) URL, not 'ftp://x'\n")
  }
}

/// The built `Tour` executable run as a child process on a thread of its own (never blocking a
/// cooperative-pool thread), its database in a fresh temporary directory, killed after 60 s.
struct TourRun {
  var status: Int32 = -1
  var output = ""
  var errors = ""

  /// `Tour` next to the test bundle (`swift build --build-tests` builds it), else under
  /// `.build/debug/` of this package.
  static let binary: String = {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("Tour").path
    if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
    return GraphQLServerProcess.packageRoot.appendingPathComponent(".build/debug/Tour").path
  }()

  static func spawn(_ arguments: [String]) async throws -> TourRun {
    try await onOwnThread { Result { try TourRun(arguments) } }.get()
  }

  private init(_ arguments: [String]) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tour-run-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("stdout")
    let errURL = directory.appendingPathComponent("stderr")
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: Self.binary),
      arguments: arguments + ["--db", directory.appendingPathComponent("tour.sqlite").path],
      standardInput: .nullDevice, standardOutput: .file(outURL), standardError: .file(errURL))
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { process.kill(SIGKILL) }
    if case .exited(let code) = process.waitUntilExit() { status = code }
    output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
  }
}
