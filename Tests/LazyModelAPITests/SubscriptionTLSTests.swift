import ChildProcessSupport
import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

#if canImport(Glibc)
  import Glibc
#endif

/// `wss://` through the platform transport's TLS (libwebsockets' OpenSSL on Linux): the local
/// server serves HTTPS/WSS with a certificate made for the test by the `openssl` tool.
@Suite("Subscriptions over wss://")
struct SubscriptionTLSTests {
  /// A self-signed certificate for `localhost` (its own authority) in `directory`.
  static func makeCertificate(in directory: URL) throws -> (cert: String, key: String) {
    let cert = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
        "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
      ],
      standardError: .nullDevice)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw RealtimeTestError(message: "openssl req failed with \(process.terminationStatus)")
    }
    return (cert, key)
  }

  /// Starts the local server with `--tls-cert`/`--tls-key`; returns it and its port.
  static func startTLSServer(in directory: URL, cert: String, key: String) throws -> (ChildProcess, Int) {
    let venv = try ChildProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "bash", GraphQLServerProcess.packageRoot.appendingPathComponent("Tests/GraphQLServer/venv.sh").path,
      ],
      standardError: .inherit)
    let python = venv.output.trimmingCharacters(in: .whitespacesAndNewlines)
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: python),
      arguments: [
        GraphQLServerProcess.packageRoot.appendingPathComponent("Tests/GraphQLServer/server.py").path,
        "--schema", GraphQLServerProcess.packageRoot.appendingPathComponent(seedSchemaPath).path,
        "--port", "0", "--db", directory.appendingPathComponent("data.sqlite").path,
        "--tls-cert", cert, "--tls-key", key,
      ],
      standardOutput: .pipe, standardError: .nullDevice)
    guard let output = process.standardOutput else { preconditionFailure("standardOutput: .pipe has a handle") }
    var line: [UInt8] = []
    while let byte = output.readData(ofLength: 1).first,
      byte != UInt8(ascii: "\n")
    {
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("LISTENING "), let port = Int(text.dropFirst(10)) else {
      process.kill(SIGKILL)
      throw RealtimeTestError(message: "the TLS server did not start: \(text)")
    }
    return (process, port)
  }

  @Test(
    "wss:// verified against the given authority: the subscription is acknowledged; against the system bundle the handshake fails"
  )
  func wss() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lazymodelapi-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (cert, key) = try await onOwnThread { Result { try Self.makeCertificate(in: directory) } }.get()
    let (server, port) = try await onOwnThread {
      Result { try Self.startTLSServer(in: directory, cert: cert, key: key) }
    }.get()
    defer { server.kill(SIGKILL) }

    func client(trusting authority: String?) -> APIClient {
      var configuration = APIClient.Configuration(
        endpoint: URL(string: "https://localhost:\(port)/graphql")!)
      configuration.realtime = APIClient.RealtimeConfiguration(
        connectionAckTimeout: 30, maximumReconnectAttempts: 0, certificateAuthorityFile: authority)
      return APIClient(configuration: configuration)
    }
    #expect(
      APIClient.realtimeEndpoint(for: URL(string: "https://localhost:\(port)/graphql")!)
        == URL(string: "wss://localhost:\(port)/graphql/realtime")!)

    let trusted = SubscriptionRecorder(
      client(trusting: cert).subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await trusted.waitConnected(30)
    #expect(trusted.connectedCount == 1)
    #expect(trusted.recorded.error == nil)

    let untrusted = SubscriptionRecorder(
      client(trusting: nil).subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await untrusted.waitFinished(30)
    let error = try #require(untrusted.recorded.error)
    guard case APIError.transport(_, let underlying) = error,
      case RealtimeError.handshakeFailed(let reason)? = underlying as? RealtimeError
    else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(reason.contains("SSL"), "\(reason)")
    #expect(untrusted.connectedCount == 0)
  }
}
