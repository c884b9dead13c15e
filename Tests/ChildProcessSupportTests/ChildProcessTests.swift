import ChildProcessSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `/bin/sh -c script` run to its end, suspending while it runs.
private func shell(
  _ script: String, environment: ChildProcess.Environment = .inherit, currentDirectory: URL? = nil,
  standardError: ChildProcess.Output = .collect
) async throws -> ChildProcess.Completion {
  try await ChildProcess.run(
    executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], environment: environment,
    currentDirectory: currentDirectory, standardInput: .nullDevice, standardError: standardError)
}

/// A fresh directory under the temporary directory (symbolic links resolved, as `pwd -P` prints it).
private func freshDirectory() throws -> URL {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("ChildProcessTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.resolvingSymlinksInPath()
}

@Suite("ChildProcess: posix_spawn children with descriptors 0, 1 and 2 only")
struct ChildProcessTests {
  @Test("exit status, and the bytes written to standard output and standard error")
  func statusAndOutputs() async throws {
    let run = try await shell("printf 'out\\001'; printf 'err' >&2; exit 3")
    #expect(run.termination == .exited(3))
    #expect(run.status == 3)
    #expect(run.standardOutput == Data("out\u{1}".utf8))
    #expect(run.standardError == Data("err".utf8))
  }

  @Test("exit status 0 and empty outputs")
  func success() async throws {
    let run = try await shell("true")
    #expect(run.termination == .exited(0))
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError.isEmpty)
  }

  @Test("8 MiB on standard output and 3 MB on standard error at once do not deadlock")
  func largeOutputs() async throws {
    let run = try await shell("head -c 8388608 /dev/zero & head -c 3000000 /dev/urandom >&2; wait")
    #expect(run.termination == .exited(0))
    #expect(run.standardOutput.count == 8_388_608)
    #expect(run.standardOutput.allSatisfy { $0 == 0 })
    #expect(run.standardError.count == 3_000_000)
  }

  @Test("a child that kills itself with SIGKILL reports the signal")
  func killedBySignal() async throws {
    let run = try await shell("kill -9 $$; sleep 5")
    #expect(run.termination == .signalled(SIGKILL))
    #expect(run.status == SIGKILL)
  }

  @Test("terminate() ends a running child with SIGTERM; kill() afterwards is harmless")
  func terminate() async throws {
    let child = try ChildProcess(
      executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], standardInput: .nullDevice)
    #expect(child.processIdentifier > 0)
    #expect(child.isRunning)
    #expect(child.termination == nil)
    child.terminate()
    #expect(await child.waitForExit() == .signalled(SIGTERM))
    #expect(!child.isRunning)
    #expect(child.terminationStatus == SIGTERM)
    child.kill()  // reaped: no signal is sent
    #expect(child.termination == .signalled(SIGTERM))
  }

  @Test("the blocking wait, on a thread of its own, and the async wait give the same termination")
  func blockingWait() async throws {
    let child = try ChildProcess(
      executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exit 7"], standardInput: .nullDevice)
    let blocking = await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: child.waitUntilExit()) }.start()
    }
    #expect(blocking == .exited(7))
    #expect(await child.waitForExit() == .exited(7))
    #expect(child.waitUntilExit() == .exited(7))
  }

  @Test("the working directory and the environment take effect")
  func directoryAndEnvironment() async throws {
    let directory = try freshDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try await shell(
      "pwd -P; printf '%s|%s' \"$MODELGEN_CHILD_VALUE\" \"${HOME-unset}\"",
      environment: .inheritOverriding(["MODELGEN_CHILD_VALUE": "a b=c", "HOME": nil]), currentDirectory: directory)
    #expect(run.termination == .exited(0), "\(run.errors)")
    #expect(run.output == "\(directory.path)\na b=c|unset")

    let exact = try await ChildProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"), environment: .exactly(["ONLY": "1", "ALSO": "2"]),
      standardInput: .nullDevice)
    #expect(exact.output == "ALSO=2\nONLY=1\n")
  }

  @Test("standard input from a pipe, and from /dev/null")
  func standardInput() async throws {
    let cat = try ChildProcess(
      executable: URL(fileURLWithPath: "/bin/cat"), standardInput: .pipe, standardOutput: .collect)
    let input = try #require(cat.standardInput)
    input.write(Data("first\nsecond\n".utf8))
    try input.close()
    #expect(await cat.waitForExit() == .exited(0))
    #expect(cat.collectedStandardOutput == Data("first\nsecond\n".utf8))

    let empty = try await ChildProcess.run(executable: URL(fileURLWithPath: "/bin/cat"), standardInput: .nullDevice)
    #expect(empty.termination == .exited(0))
    #expect(empty.standardOutput.isEmpty)
  }

  @Test("output to a pipe read as the child writes, to a file, to /dev/null, and standard error merged")
  func outputDestinations() async throws {
    let lines = try ChildProcess(
      executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo one; echo two"], standardInput: .nullDevice,
      standardOutput: .pipe)
    let reader = try #require(lines.standardOutput)
    let read = await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: reader.readDataToEndOfFile()) }.start()
    }
    #expect(read == Data("one\ntwo\n".utf8))
    #expect(await lines.waitForExit() == .exited(0))
    #expect(lines.collectedStandardOutput.isEmpty)

    let directory = try freshDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("out.txt")
    try Data("old contents, longer than the new".utf8).write(to: file)
    let toFile = try await ChildProcess.run(
      executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo to-file; echo to-null >&2"],
      standardInput: .nullDevice, standardOutput: .file(file), standardError: .nullDevice)
    #expect(toFile.termination == .exited(0))
    #expect(try Data(contentsOf: file) == Data("to-file\n".utf8))
    #expect(toFile.standardOutput.isEmpty)
    #expect(toFile.standardError.isEmpty)

    let merged = try await shell("echo a; echo b >&2; echo c", standardError: .standardOutput)
    #expect(merged.output == "a\nb\nc\n")
    #expect(merged.standardError.isEmpty)
  }

  @Test("an executable that does not exist: LaunchError with ENOENT")
  func missingExecutable() throws {
    let missing = "/nonexistent/modelgen-child-\(UUID().uuidString)"
    #expect {
      _ = try ChildProcess(executable: URL(fileURLWithPath: missing), standardInput: .nullDevice)
    } throws: { error in
      let launch = error as? ChildProcess.LaunchError
      return launch?.code == ENOENT && launch?.operation == "posix_spawn" && launch?.executable == missing
    }
  }

  @Test("a working directory that does not exist: LaunchError with ENOENT")
  func missingDirectory() throws {
    #expect {
      _ = try ChildProcess(
        executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "true"],
        currentDirectory: URL(fileURLWithPath: "/nonexistent/modelgen-\(UUID().uuidString)"), standardInput: .nullDevice
      )
    } throws: { error in
      (error as? ChildProcess.LaunchError)?.code == ENOENT
    }
  }

  /// The regression this target exists for: with 2,000 more descriptors open than the suite ever
  /// holds, past the ~1,330 from which `Foundation.Process.run()` over-reads glibc's `readdir`
  /// buffer (and can crash the test process), a child starts and sees descriptors 0, 1 and 2 only
  /// (`ls` lists those and the one it reads the directory with).
  @Test("with 2,000 extra descriptors open, a child starts and inherits none of them")
  func manyOpenDescriptors() async throws {
    let extra = 2_000
    var limit = rlimit()
    #expect(getrlimit(fileLimit, &limit) == 0)
    let needed = rlim_t(extra + 4_096)
    if limit.rlim_cur < needed && limit.rlim_cur < limit.rlim_max {
      limit.rlim_cur = min(limit.rlim_max, needed)
      #expect(setrlimit(fileLimit, &limit) == 0)
    }
    let null = open("/dev/null", O_RDONLY)
    try #require(null >= 0)
    // Plain dups: not close-on-exec, so a child inherits them unless the spawn closes them.
    var opened = [null]
    defer { for descriptor in opened { close(descriptor) } }
    for _ in 1..<extra {
      let descriptor = dup(null)
      try #require(descriptor >= 0, "dup failed with errno \(errno) after \(opened.count) descriptors")
      opened.append(descriptor)
    }
    // Descriptors are allocated lowest first: the highest is past `extra`, the crash's range.
    #expect(opened.max()! >= Int32(extra))

    #if os(Linux)
      let directory = "/proc/self/fd"
    #else
      let directory = "/dev/fd"
    #endif
    let run = try await ChildProcess.run(
      executable: URL(fileURLWithPath: "/bin/ls"), arguments: [directory], standardInput: .nullDevice)
    #expect(run.termination == .exited(0), "\(run.errors)")
    #expect(run.output.split(separator: "\n") == ["0", "1", "2", "3"], "\(run.output)")
  }
}

/// `RLIMIT_NOFILE` as `getrlimit` takes it (an enum on Glibc, an `Int32` on Darwin).
#if canImport(Glibc)
  private let fileLimit = Int32(RLIMIT_NOFILE.rawValue)
#else
  private let fileLimit = RLIMIT_NOFILE
#endif
