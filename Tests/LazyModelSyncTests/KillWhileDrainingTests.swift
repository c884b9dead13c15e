import ChildProcessSupport
import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

#if canImport(Glibc)
  import Glibc
#endif

/// A `SyncKillHelper` child process and the lines it prints, read on a thread of its own; its exit
/// is waited for on a thread of its own too (never a cooperative-pool thread).
final class SyncHelperProcess: Sendable {
  let lines: AsyncStream<String>
  private let process: ChildProcess

  /// The helper executable, built beside the test bundle.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("SyncKillHelper")
  }

  init(_ arguments: [String]) throws {
    let process = try ChildProcess(
      executable: Self.executable, arguments: arguments, standardOutput: .pipe, standardError: .nullDevice)
    guard let handle = process.standardOutput else { preconditionFailure("standardOutput: .pipe has a handle") }
    let (lines, sink) = AsyncStream<String>.makeStream()
    self.lines = lines
    self.process = process
    Thread {
      var pending = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
          sink.yield(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...end)
        }
      }
      sink.finish()
    }.start()
  }

  /// SIGKILL, then waits until the process exited.
  func kill9AndWait() async {
    process.kill(SIGKILL)
    await process.waitForExit()
  }
}

@Suite("Sync: a client killed with SIGKILL while its outbox drains", .serialized)
struct KillWhileDrainingTests {
  /// Three rounds on one store file: a child process saves new posts and updates the previous
  /// round's offline, starts sync and is SIGKILLed after a random number of answered mutations
  /// (so mostly with one in flight). Then this process opens the same file and drains it. Every
  /// post is on the server once, with exactly its tags (a create or update applied twice would be
  /// refused or merged: tags repeated, `_version` past 2), no error, and local = server.
  @Test func nothingIsLostAndNothingIsAppliedTwice() async throws {
    guard FileManager.default.isExecutableFile(atPath: SyncHelperProcess.executable.path) else {
      throw SyncServer.Failure(message: "no helper at \(SyncHelperProcess.executable.path)")
    }
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("device.sqlite")
    let seed = UInt64(Date().timeIntervalSince1970 * 1000)
    var random = SeededRandom(seed: seed)
    let rounds = 3
    let count = 30
    for round in 0..<rounds {
      let child = try SyncHelperProcess([file.path, server.endpoint.absoluteString, String(round), String(count)])
      let mutations = count * (round == 0 ? 1 : 2)
      let killAfter = 3 + Int(random.next() % UInt64(mutations - 6))
      let lines = child.lines
      let (processed, errors) = try await withThrowingTaskGroup(of: (Int, [String])?.self) { group in
        group.addTask {
          var processed = 0
          var errors: [String] = []
          for await line in lines {
            if line.hasPrefix("processed ") { processed += 1 }
            if line.hasPrefix("error ") { errors.append(line) }
            if processed >= killAfter || line == "empty" { break }
          }
          return (processed, errors)
        }
        group.addTask {
          try await Task.sleep(for: .seconds(30 * syncDeadlineScale))
          return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first ?? (0, ["no \(killAfter) answers within the deadline"])
      }
      await child.kill9AndWait()
      #expect(errors.isEmpty, "seed \(seed), round \(round): \(errors)")
      #expect(processed >= killAfter, "seed \(seed), round \(round): killed after \(processed) of \(killAfter)")
    }

    let failures = Recorder<SyncError>()
    let conflicts = Recorder<SyncConflict>()
    var configuration = SyncConfiguration(
      client: APIClient(configuration: .init(endpoint: server.endpoint, timeout: syncRequestTimeout)))
    configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
    configuration.errorHandler = { failures.append($0) }
    configuration.conflictHandler = { conflict in
      conflicts.append(conflict)
      return .applyRemote
    }
    let store = try DataStore(fileURL: file, registry: Models.registry, sync: configuration)
    try await store.start()
    #expect(try await eventuallyScaled(30) { try await store.pendingMutations().isEmpty && store.isSynced })
    let remote = try await server.live("Posts", "title tags")
    var expected: [String: [String]] = [:]
    for round in 0..<rounds {
      for index in 0..<count {
        expected["k\(round)-\(index)"] = round + 1 < rounds ? ["r\(round)", "r\(round + 1)"] : ["r\(round)"]
      }
    }
    let context = "seed \(seed)"
    #expect(remote.mapValues { $0["tags"] as? [String] ?? [] } == expected, "\(context)")
    for (id, item) in remote {
      let version = item["_version"] as? Int ?? 0
      // A create (1), or a create then an update (2); an update merged into an unsent create is 1.
      #expect((1...2).contains(version), "\(context): \(id) at version \(version)")
    }
    var local: [String: [String]] = [:]
    for post in try await store.query(Post.self) { local[post.id] = post.tags?.compactMap { $0 } ?? [] }
    #expect(local == expected, "\(context)")
    #expect(failures.values.isEmpty, "\(context): \(failures.values)")
    #expect(conflicts.values.isEmpty, "\(context): \(conflicts.values.map(\.identifier))")
    await store.stop()
  }
}
