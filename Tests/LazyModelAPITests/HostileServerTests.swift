import ChildProcessSupport
import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Tests/GraphQLServer/hostile.py` on 127.0.0.1: a misbehaving endpoint (redirects, drips,
/// endless and compressed bodies, canned payloads) and a bystander port standing for another host.
/// It exits when its stdin closes (the test ends or dies) or after its lifetime.
final class HostileServerProcess: Sendable {
  let port: Int
  let bystanderPort: Int
  private let process: TestLock<ChildProcess?>
  private let stdin: FileHandle

  init(lifetime: Double = 120) async throws {
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "python3",
        GraphQLServerProcess.packageRoot.appendingPathComponent("Tests/GraphQLServer/hostile.py").path,
        "--lifetime", String(lifetime),
      ],
      standardInput: .pipe, standardOutput: .pipe, standardError: .nullDevice)
    guard let output = process.standardOutput, let input = process.standardInput else {
      preconditionFailure("standardInput and standardOutput: .pipe have handles")
    }
    // Read the first line on a dispatch thread: a blocking read must not hold a thread of the
    // cooperative pool, which the deadlines under test run on.
    let line = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
      DispatchQueue.global().async {
        var bytes: [UInt8] = []
        while let byte = output.readData(ofLength: 1).first {
          if byte == UInt8(ascii: "\n") {
            continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            return
          }
          bytes.append(byte)
        }
        continuation.resume(returning: nil)
      }
    }
    let ports = line?.split(separator: " ").dropFirst().compactMap { Int($0) } ?? []
    guard line?.hasPrefix("LISTENING ") == true, ports.count == 2 else {
      process.kill(SIGKILL)
      throw GraphQLServerProcess.ServerError(message: "hostile.py did not start: \(line ?? "")")
    }
    port = ports[0]
    bystanderPort = ports[1]
    self.process = TestLock(process)
    stdin = input
  }

  /// The URL of `path` (with its query) on the hostile port.
  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// The bystander's own URL, where a hostile redirect points.
  var bystanderURL: String { "http://127.0.0.1:\(bystanderPort)/steal" }

  /// Every request the bystander port received.
  func bystanderRequests() async throws -> [[String: Any]] {
    let (data, _) = try await URLSession.shared.data(from: url("/bystander"))
    return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
  }

  func stop() {
    process.withLock { process in
      if let running = process, running.isRunning { running.kill(SIGKILL) }
      process = nil
    }
  }

  deinit { stop() }
}

/// A client of `endpoint` with the API key `key`.
private func hostileClient(
  _ endpoint: URL, timeout: Double = testRequestDeadline, idleTimeout: Double? = nil,
  maximumResponseBytes: Int = APIClient.Configuration.defaultMaximumResponseBytes
) -> APIClient {
  APIClient(
    configuration: APIClient.Configuration(
      endpoint: endpoint, authorization: .apiKey("da2-secret-key"), timeout: timeout,
      idleTimeout: idleTimeout, maximumResponseBytes: maximumResponseBytes))
}

/// Serialized: the deadline tests bound elapsed time, which a dozen servers started at once on a
/// 2-core machine would stretch.
@Suite(
  "Hostile servers: redirects, deadlines, response size, __typename (issue 18, items 8–11)",
  .serialized)
struct HostileServerTests {
  @Test(
    "no redirect is followed: the API key and body never reach the other host",
    arguments: [301, 302, 303, 307, 308])
  func redirectNotFollowed(status: Int) async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    let client = hostileClient(server.url("/redirect/\(status)?to=\(server.bystanderURL)"))
    do {
      let post = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error, got \(String(describing: post))")
    } catch let APIError.redirected(name, statusCode, location) {
      #expect(name == "GetPost4V2")
      #expect(statusCode == status)
      #expect(location == server.bystanderURL)
    }
    #expect(try await server.bystanderRequests().isEmpty)
  }

  @Test("timeout is a deadline for the whole exchange: a dripping server fails after it")
  func dripDeadline() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    // 64 bytes, one every 0.2 s (times the deadline scale): 12.8 s in all at scale 1, each byte well
    // inside URLSession's idle timeout. The bound below scales too, and stays well under the drip.
    let client = hostileClient(server.url("/drip?interval=\(0.2 * testDeadlineScale)"), timeout: 1.5)
    let start = ContinuousClock.now
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.timedOut(name, seconds) {
      #expect(name == "GetPost4V2")
      #expect(seconds == 1.5)
    }
    let elapsed = ContinuousClock.now - start
    #expect(elapsed >= .seconds(1.4))
    #expect(
      elapsed < .seconds(6 * testDeadlineScale),
      "the deadline is 1.5 s, the drip lasts \(12.8 * testDeadlineScale) s")
  }

  @Test("the idle timeout fails a server that stops sending, before the deadline")
  func idleTimeout() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    // 8 bytes announced as 100, then 5 s of silence.
    let client = hostileClient(server.url("/length?declared=100"), timeout: 20, idleTimeout: 1)
    let start = ContinuousClock.now
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.timedOut(name, seconds) {
      #expect(name == "GetPost4V2")
      #expect(seconds == 1)
    }
    #expect(ContinuousClock.now - start < .seconds(4.5), "idle 1 s, the stall is 5 s")
  }

  @Test("an endless chunked body stops at the maximum response size")
  func endlessBody() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    let client = hostileClient(server.url("/endless"), maximumResponseBytes: 1 << 20)
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.responseTooLarge(name, limit) {
      #expect(name == "GetPost4V2")
      #expect(limit == 1 << 20)
    }
  }

  @Test("the default maximum response size (8 MiB) holds against an endless body")
  func endlessBodyDefaultLimit() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    let client = hostileClient(server.url("/endless"))
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.responseTooLarge(_, limit) {
      #expect(limit == 8 << 20)
    }
  }

  @Test("a declared Content-Length over the limit fails before the body is read")
  func declaredLength() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    let client = hostileClient(
      server.url("/length?declared=\(2 << 20)"), timeout: 20, maximumResponseBytes: 1 << 20)
    let start = ContinuousClock.now
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.responseTooLarge(_, limit) {
      #expect(limit == 1 << 20)
    }
    #expect(ContinuousClock.now - start < .seconds(4), "the server stalls 5 s after the headers")
  }

  @Test("a gzip bomb is counted after decompression; a small gzip body still decodes")
  func gzipBomb() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    // 64 MiB of JSON whitespace, about 64 KiB on the wire: under the 1 MiB limit compressed.
    let bomb = hostileClient(server.url("/gzip?inflated=\(64 << 20)"), maximumResponseBytes: 1 << 20)
    do {
      _ = try await bomb.get(Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.responseTooLarge(name, limit) {
      #expect(name == "GetPost4V2")
      #expect(limit == 1 << 20)
    }
    // 512 KiB inflated is under the limit: decompressed and decoded (`getPost4V2: null`).
    let small = hostileClient(
      server.url("/gzip?inflated=\(512 << 10)"), maximumResponseBytes: 1 << 20)
    #expect(try await small.get(Post4V2.self, byIdentifier: .init(id: "p1")) == nil)
  }

  @Test("a __typename naming another model is a typed error naming both and the operation")
  func wrongTypename() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    do {
      _ = try await hostileClient(server.url("/canned?body=wrong-typename-get")).get(
        Post4V2.self, byIdentifier: .init(id: "p1"))
      Issue.record("expected an error")
    } catch let APIError.unexpectedTypename(name, expected, received, path, body) {
      #expect(name == "GetPost4V2")
      #expect(expected == "Post4V2")
      #expect(received == "Comment4V2")
      #expect(path == "data.getPost4V2")
      #expect(!body.isEmpty)
    }
    do {
      _ = try await hostileClient(server.url("/canned?body=wrong-typename-nested")).get(
        Comment4V2.self, byIdentifier: .init(id: "c1"))
      Issue.record("expected an error")
    } catch let APIError.unexpectedTypename(name, expected, received, path, _) {
      #expect(name == "GetComment4V2")
      #expect(expected == "Post4V2")
      #expect(received == "Comment4V2")
      #expect(path == "data.getComment4V2.post")
    }
    do {
      _ = try await hostileClient(server.url("/canned?body=wrong-typename-list")).send(
        ModelQueries.list(Post4V2.self))
      Issue.record("expected an error")
    } catch let APIError.unexpectedTypename(name, expected, received, path, _) {
      #expect(name == "ListPost4V2s")
      #expect(expected == "Post4V2")
      #expect(received == "Comment4V2")
      #expect(path == "data.listPost4V2s.items.1")
    }
  }

  @Test("a matching or absent __typename decodes")
  func rightTypename() async throws {
    let server = try await HostileServerProcess()
    defer { server.stop() }
    for body in ["right-typename-get", "no-typename-get"] {
      let post = try await hostileClient(server.url("/canned?body=\(body)")).get(
        Post4V2.self, byIdentifier: .init(id: "p1"))
      #expect(post?.title == "T", "\(body)")
    }
  }
}
