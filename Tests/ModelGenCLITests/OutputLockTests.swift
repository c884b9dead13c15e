import ChildProcessSupport
import Foundation
import ModelGen
import Testing

@testable import ModelGenCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 17: concurrent `modelgen generate` runs into one output directory. Each run that writes
/// holds `<output>/.modelgen.lock` (`OutputLock`, `flock(2)`) from planning to its last rename;
/// the processes are the real binary (`SpawnedRun`), the competing holder is the test itself.
@Suite("CLI output directory lock")
struct OutputLockTests {
  let blog = """
    type Post @model {
      id: ID!
      title: String!
      status: Status
      comments: [Comment] @hasMany
    }

    type Comment @model {
      id: ID!
      content: String!
    }

    enum Status { DRAFT PUBLISHED }
    """
  let shop = """
    type Product @model {
      id: ID!
      name: String!
      color: Color
    }

    enum Color { RED GREEN }
    """

  private func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// Every regular file directly in `path`, by name.
  private func contents(_ path: String) -> [String: String] {
    var files: [String: String] = [:]
    for name in names(path) {
      if let data = FileManager.default.contents(atPath: PathText.appending(name, to: path)) {
        files[name] = String(decoding: data, as: UTF8.self)
      }
    }
    return files
  }

  /// `body` on a thread of its own, so its blocking waits never hold a cooperative-pool thread.
  private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  /// Whether some open file description holds a `flock` on the file at `path` (probed with
  /// `LOCK_EX | LOCK_NB` on a descriptor of our own, released at once); `nil` when no file is there.
  private static func isLocked(_ path: String) -> Bool? {
    let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
      flock(descriptor, LOCK_UN)
      return false
    }
    return errno == EWOULDBLOCK
  }

  // MARK: Two runs at once

  /// Two schemas with one file stem (`a/schema.graphql`, `b/schema.graphql`: both headers say
  /// `schema.graphql`, both write `Models.swift`) generated at the same moment into one
  /// directory. Without the lock both planned against the empty directory, both succeeded, and
  /// the manifest recorded only the later one (the other's model files orphaned). With it the
  /// second plans after the first: MGC015, nothing written.
  @Test(arguments: 1...8)
  func twoRunsStartedTogetherLeaveExactlyOneRunsFiles(round: Int) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("a/schema.graphql", blog)
    try directory.write("b/schema.graphql", shop)
    let path = directory.path
    async let first = SpawnedRun.spawn(
      ["generate", "a/schema.graphql", "--output", "out", "--lock-timeout", "600"], in: path, timeout: 300)
    async let second = SpawnedRun.spawn(
      ["generate", "b/schema.graphql", "--output", "out", "--lock-timeout", "600"], in: path, timeout: 300)
    let runs = try await [first, second]
    for run in runs { #expect(run.signal == nil && !run.timedOut, "\(run.errors)") }
    let winners = runs.indices.filter { runs[$0].status == 0 }
    try #require(winners.count == 1, "\(runs.map(\.status)) \(runs.map(\.errors))")
    let winner = winners[0]
    let loser = runs[1 - winner]
    let winnerSchema = winner == 0 ? "../a/schema.graphql" : "../b/schema.graphql"
    let loserSchema = winner == 0 ? "../b/schema.graphql" : "../a/schema.graphql"
    #expect(loser.status == 1)
    #expect(
      loser.errors
        == "out/Models.swift: error: cannot write this file for \(loserSchema): .modelgen-manifest.json records it as written for \(winnerSchema); nothing was written [MGC015]\n"
        + "  hint: generate the two schemas into different --output directories, or rename the colliding type in one of them\n"
    )

    // The directory is exactly what the winner alone writes into an empty directory.
    let out = directory.url("out")
    let manifest = try OutputManifest(parsing: Data(contentsOf: URL(fileURLWithPath: out + "/.modelgen-manifest.json")))
    #expect(manifest.entries.map(\.schema) == [winnerSchema])
    #expect(names(out) == ([".modelgen-manifest.json"] + (manifest.files(of: winnerSchema) ?? [])).sorted())
    try directory.write("alone/\(winner == 0 ? "a" : "b")/schema.graphql", winner == 0 ? blog : shop)
    let alone = CommandRun([
      "generate", directory.url("alone/\(winner == 0 ? "a" : "b")/schema.graphql"), "--output",
      directory.url("alone/out"),
    ])
    #expect(alone.status == 0, "\(alone.errors)")
    #expect(contents(out) == contents(directory.url("alone/out")))
  }

  // MARK: A held lock

  @Test func aRunFindingTheLockHeldFailsAtOnceWithLockTimeoutZero() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    let lock = try OutputLock.acquire(directory.url("out"), timeout: 0)
    let run = try await SpawnedRun.spawn(
      ["generate", "blog.graphql", "--output", "out", "--lock-timeout", "0"], in: directory.path)
    #expect(run.status == 1)
    #expect(
      run.errors
        == "out/.modelgen.lock: error: another modelgen run is writing into out and did not finish within 0 s; nothing was written [MGC017]\n"
        + "  hint: run again when it has finished, or wait longer with --lock-timeout SECONDS; a killed run's lock is released by the system\n"
    )
    #expect(names(directory.url("out")) == [".modelgen.lock"])
    lock.release()
    #expect(names(directory.url("out")) == [])
  }

  @Test func aWaitingRunWritesOnceTheHolderReleases() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    let lock = try OutputLock.acquire(directory.url("out"), timeout: 0)
    let started = Date()
    let path = directory.path
    async let run = SpawnedRun.spawn(
      ["generate", "blog.graphql", "--output", "out", "--lock-timeout", "600"], in: path, timeout: 300)
    // The child is running and waiting: nothing is written while the lock is ours.
    try await Task.sleep(for: .milliseconds(800))
    #expect(names(directory.url("out")) == [".modelgen.lock"])
    lock.release()
    let finished = try await run
    #expect(finished.status == 0, "\(finished.errors)")
    #expect(finished.output == "created 7, updated 0, deleted 0, unchanged 0\n")
    #expect(Date().timeIntervalSince(started) >= 0.8)
    #expect(
      names(directory.url("out")) == [
        ".modelgen-manifest.json", "Comment+Schema.swift", "Comment.swift", "Models.swift", "Post+Schema.swift",
        "Post.swift", "Status.swift",
      ])
  }

  /// A run holding one directory's lock is killed (SIGKILL) while it waits for its second
  /// directory: the system releases the first lock at once, the lock file stays, and the next
  /// run takes it over and leaves no lock file behind. Directories are locked in path order, so
  /// the run holds `out/a` while it waits for `out/b`, which the test holds.
  @Test func theLockOfAKilledRunIsReleased() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.graphql", blog)
    try directory.write("b.graphql", shop)
    let heldByTest = try OutputLock.acquire(directory.url("out/b"), timeout: 0)
    let lockOfA = directory.url("out/a/.modelgen.lock")
    let path = directory.path
    let killed: (sawItHeld: Bool, releasedAfterKill: Bool?, signal: Int32) = try await onThread {
      let process = try ChildProcess(
        executable: URL(fileURLWithPath: SpawnedRun.binary),
        arguments: ["generate", "a.graphql", "b.graphql", "--output", "out", "--lock-timeout", "600"],
        currentDirectory: URL(fileURLWithPath: path), standardInput: .nullDevice, standardOutput: .nullDevice,
        standardError: .nullDevice)
      let deadline = Date().addingTimeInterval(120 * SpawnedRun.slowdown())
      var sawItHeld = false
      while process.isRunning && Date() < deadline {
        if Self.isLocked(lockOfA) == true {
          sawItHeld = true
          break
        }
        usleep(5_000)
      }
      process.kill(SIGKILL)
      let termination = process.waitUntilExit()
      return (sawItHeld, Self.isLocked(lockOfA), termination.status)
    }
    #expect(killed.sawItHeld)
    #expect(killed.signal == SIGKILL)
    #expect(killed.releasedAfterKill == false)
    #expect(names(directory.url("out/a")) == [".modelgen.lock"])
    #expect(names(directory.url("out/b")) == [".modelgen.lock"])

    heldByTest.release()
    let next = try await SpawnedRun.spawn(
      ["generate", "a.graphql", "b.graphql", "--output", "out", "--lock-timeout", "0"], in: directory.path)
    #expect(next.status == 0, "\(next.errors)")
    #expect(!names(directory.url("out/a")).contains(".modelgen.lock"))
    #expect(!names(directory.url("out/b")).contains(".modelgen.lock"))
    #expect(
      names(directory.url("out/b")) == [
        ".modelgen-manifest.json", "Color.swift", "Models.swift", "Product+Schema.swift", "Product.swift",
      ])
  }

  // MARK: The lock file is checked like every file the CLI opens

  @Test func aSymbolicLinkAtTheLockFileIsRefusedNotFollowed() throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(symlink(directory.url("elsewhere"), directory.url("out/.modelgen.lock")) == 0)
    let run = CommandRun(["generate", directory.url("blog.graphql"), "--output", directory.url("out")])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "\(directory.url("out/.modelgen.lock")): error: cannot lock the output directory: a symbolic link is in the way, not a regular file; nothing was written [MGC018]\n"
        + "  hint: remove what stands at this name (modelgen creates it as a regular file, and deletes it after each run)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: directory.url("elsewhere")))
    #expect(names(directory.url("out")) == [".modelgen.lock"])
  }

  @Test func aFIFOAtTheLockFileIsRefusedWithoutBlocking() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(mkfifo(directory.url("out/.modelgen.lock"), 0o644) == 0)
    let run = try await SpawnedRun.spawn(["generate", "blog.graphql", "--output", "out"], in: directory.path)
    #expect(run.signal == nil && !run.timedOut)
    #expect(run.status == 1)
    #expect(
      run.errors.hasPrefix(
        "out/.modelgen.lock: error: cannot lock the output directory: a FIFO (named pipe) is in the way, not a regular file; nothing was written [MGC018]\n"
      ))
    #expect(names(directory.url("out")) == [".modelgen.lock"])
  }

  // MARK: What takes no lock, and the option

  @Test func checkAndDryRunTakeNoLock() throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    let out = directory.url("out")
    #expect(CommandRun(["generate", directory.url("blog.graphql"), "--output", out]).status == 0)
    let lock = try OutputLock.acquire(out, timeout: 0)
    defer { lock.release() }
    let check = CommandRun([
      "generate", directory.url("blog.graphql"), "--output", out, "--check", "--lock-timeout", "0",
    ])
    #expect(check.status == 0, "\(check.errors)")
    let dryRun = CommandRun([
      "generate", directory.url("blog.graphql"), "--output", out, "--dry-run", "--lock-timeout", "0",
    ])
    #expect(dryRun.output == "0 changes, 7 unchanged\n")
  }

  @Test func aMissingOutputDirectoryCreatedForTheLockIsRemovedWhenNothingIsWritten() throws {
    let directory = try TemporaryDirectory()
    try directory.write("blog.graphql", blog)
    let lock = try OutputLock.acquire(directory.url("new/out"), timeout: 0)
    #expect(lock.createdDirectories == [directory.url("new/out"), directory.url("new")])
    lock.release(removingCreatedDirectories: true)
    #expect(names(directory.path) == ["blog.graphql"])
  }

  @Test func lockTimeoutIsParsed() throws {
    guard
      case .generate(let options) = try Command.parse(["generate", "s.graphql", "-o", "out", "--lock-timeout", "2.5"])
    else {
      Issue.record("not a generate command")
      return
    }
    #expect(options.lockTimeout == 2.5)
    guard case .generate(let defaults) = try Command.parse(["generate", "s.graphql", "-o", "out"]) else { return }
    #expect(defaults.lockTimeout == 30)
    for bad in ["-1", "abc", "1e3", "86401", "nan", ""] {
      #expect(
        throws: UsageError("invalid value '\(bad)' for '--lock-timeout': expected a number of seconds from 0 to 86400")
      ) {
        try Command.parse(["generate", "s.graphql", "-o", "out", "--lock-timeout=\(bad)"])
      }
    }
  }
}
