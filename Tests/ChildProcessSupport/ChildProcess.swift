import Dispatch
import Foundation

#if canImport(Glibc)
  import CPosixSpawn
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process for the tests, started with `posix_spawn` so that it gets only standard input,
/// output and error of the test process's descriptors: the tests' replacement for
/// `Foundation.Process`.
///
/// Why it exists: on Linux, swift-corelibs-foundation's `Process.run()` (toolchain 6.3.1) finds
/// the highest open descriptor with `findMaximumOpenFromProcSelfFD`, which copies each `dirent`'s
/// 256-byte `d_name` whole; once about 1,330 descriptors are open, the last entry of glibc's
/// 32 KiB `readdir` buffer is followed by fewer than 256 bytes and the copy reads past the buffer
/// (valgrind: "Invalid read … 0 bytes after a block of size 32,816 alloc'd" in `__alloc_dir`), and
/// where that buffer ends at unmapped memory the test process crashes. The full suite holds
/// 1,100–1,360 descriptors at its peak (many SQLite stores) and crashed CI once that way. Here the child closes every descriptor from 3 up itself,
/// before `exec`, without the parent ever listing them: the file action
/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+, man page
/// posix_spawn_file_actions_addclosefrom_np(3)) on Linux, the attribute flag
/// `POSIX_SPAWN_CLOEXEC_DEFAULT` on Apple platforms. That is also `Foundation.Process`'s contract:
/// the child inherits descriptors 0, 1 and 2 only.
///
/// The child starts with an empty signal mask and every signal's default disposition (a child
/// spawned from a thread that blocks `SIGTERM`, a dispatch thread, would otherwise inherit the
/// block, and one that ignores `SIGPIPE` the ignoring).
///
/// Waiting never holds a thread of Swift's cooperative pool: each child has a thread of its own
/// that waits for its exit (`waitid`), and each collected output (``Output/collect``) a thread of
/// its own that reads the pipe to its end, so a child writing megabytes never blocks on a full
/// pipe. ``waitForExit()`` suspends (a continuation the exit thread resumes); ``waitUntilExit()``
/// blocks the calling thread and is for synchronous code on a thread of its own.
///
/// Thread-safety: `Sendable`; every member may be used from any thread. The state the threads
/// share is behind one lock (a `pthread_mutex_t`, which ThreadSanitizer sees; on Linux
/// `Synchronization.Mutex` hands a contended lock over in the kernel, where it cannot, as
/// `LazyModelDataStore`'s `StoreLock` explains). The process identifier is signalled only while the child is not
/// yet reaped, so a signal never reaches another process that reused the identifier.
public final class ChildProcess: Sendable {
  /// Where the child's standard input comes from.
  public enum Input: Sendable {
    /// The test process's standard input (what `Foundation.Process` does by default).
    case inherit
    /// `/dev/null`: the child reads end of file at once.
    case nullDevice
    /// A pipe whose write end is ``standardInput``; closing it (or this process ending) gives the
    /// child end of file.
    case pipe
  }

  /// Where the child's standard output or standard error goes.
  public enum Output: Sendable {
    /// The test process's own standard output or error (what `Foundation.Process` does by
    /// default).
    case inherit
    /// `/dev/null`.
    case nullDevice
    /// The file at the URL, created (mode 0644) or truncated by the child.
    case file(URL)
    /// A pipe whose read end is ``standardOutput`` (or ``standardError``), for a caller that reads
    /// as the child writes (lines, the first line); the caller must keep reading, or a child that
    /// fills the pipe (64 KiB on Linux) blocks.
    case pipe
    /// A pipe a thread of its own reads to its end, into ``collectedStandardOutput`` (or
    /// ``collectedStandardError``); the waits return once it is read to its end.
    case collect
    /// For standard error only: the same file as standard output (`2>&1`).
    case standardOutput
  }

  /// The child's environment.
  public enum Environment: Sendable {
    /// This process's environment (`ProcessInfo.processInfo.environment`).
    case inherit
    /// This process's environment with the given variables set (a `nil` value removes it).
    case inheritOverriding([String: String?])
    /// Exactly these variables.
    case exactly([String: String])
  }

  /// How the child ended.
  public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited (returned from `main` or called `exit`) with this status (0–255).
    case exited(Int32)
    /// A signal ended it (`SIGKILL` is 9, `SIGTERM` 15, `SIGILL` 4 on Linux).
    case signalled(Int32)

    public var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signalled(let signal): "ended by signal \(signal)"
      }
    }
  }

  /// A child run to its end: how it ended, and the bytes it wrote to each ``Output/collect`` output
  /// (empty for the others).
  public struct Completion: Sendable {
    public let termination: Termination
    public let standardOutput: Data
    public let standardError: Data

    /// The exit status, or the signal number when a signal ended it (`Foundation.Process`'s
    /// `terminationStatus`).
    public var status: Int32 { termination.status }
    /// ``standardOutput`` decoded as UTF-8 (invalid bytes replaced).
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// ``standardError`` decoded as UTF-8 (invalid bytes replaced).
    public var errors: String { String(decoding: standardError, as: UTF8.self) }
  }

  /// A failure to start the child: the call that failed, its `errno` and the executable.
  public struct LaunchError: Error, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    public let executable: String

    public var description: String {
      "\(operation) for \(executable) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
  }

  /// The child's process identifier.
  public let processIdentifier: pid_t
  /// The write end of the child's standard input for ``Input/pipe``, else `nil`. Closed when
  /// this handle is released.
  public let standardInput: FileHandle?
  /// The read end of the child's standard output for ``Output/pipe``, else `nil`.
  public let standardOutput: FileHandle?
  /// The read end of the child's standard error for ``Output/pipe``, else `nil`.
  public let standardError: FileHandle?

  private struct State: Sendable {
    var termination: Termination?
    /// Outputs (``Output/collect``) not read to their end yet.
    var pendingCollections = 0
    var output = Data()
    var errors = Data()
    var waiters: [Waiter] = []

    var isComplete: Bool { termination != nil && pendingCollections == 0 }

    /// The waiters to resume (removed) once the child exited and its outputs are read; else none.
    mutating func takeWaitersIfComplete() -> [Waiter] {
      guard isComplete else { return [] }
      defer { waiters = [] }
      return waiters
    }
  }

  private enum Waiter: Sendable {
    case task(CheckedContinuation<Void, Never>)
    case thread(DispatchSemaphore)

    func resume() {
      switch self {
      case .task(let continuation): continuation.resume()
      case .thread(let semaphore): semaphore.signal()
      }
    }
  }

  private let state = StateLock(State())

  /// Starts `executable` with `arguments` (the executable's path is `argv[0]`).
  ///
  /// - Parameters:
  ///   - currentDirectory: the child's working directory; `nil` keeps this process's.
  /// - Throws: ``LaunchError`` when a pipe cannot be made or `posix_spawn` fails (an executable
  ///   that does not exist or cannot be executed, a working directory that does not exist: the
  ///   child's `errno`, e.g. `ENOENT`).
  public init(
    executable: URL, arguments: [String] = [], environment: Environment = .inherit,
    currentDirectory: URL? = nil, standardInput: Input = .inherit, standardOutput: Output = .inherit,
    standardError: Output = .inherit
  ) throws {
    let path = executable.path
    var spawn = try SpawnPlan(executable: path)
    defer { spawn.release() }
    let inputPipe = try spawn.input(standardInput)
    let outputPipe = try spawn.output(standardOutput, to: 1)
    let errorPipe = try spawn.output(standardError, to: 2)
    if let currentDirectory { try spawn.changeDirectory(to: currentDirectory.path) }
    try spawn.closeTheRest()
    let child = try spawn.launch(arguments: [path] + arguments, environment: environment.variables)
    // The child holds its ends now; the parent's copies would keep the pipes open.
    for pipe in [inputPipe, outputPipe, errorPipe].compactMap({ $0 }) { close(pipe.childEnd) }

    processIdentifier = child
    self.standardInput = inputPipe.map { FileHandle(fileDescriptor: $0.parentEnd, closeOnDealloc: true) }
    self.standardOutput =
      standardOutput.isCollected
      ? nil : outputPipe.map { FileHandle(fileDescriptor: $0.parentEnd, closeOnDealloc: true) }
    self.standardError =
      standardError.isCollected ? nil : errorPipe.map { FileHandle(fileDescriptor: $0.parentEnd, closeOnDealloc: true) }

    var collections: [(descriptor: Int32, isOutput: Bool)] = []
    if standardOutput.isCollected, let outputPipe { collections.append((outputPipe.parentEnd, true)) }
    if standardError.isCollected, let errorPipe { collections.append((errorPipe.parentEnd, false)) }
    state.withLock { $0.pendingCollections = collections.count }
    for collection in collections {
      Thread { [self] in collect(collection.descriptor, isOutput: collection.isOutput) }.start()
    }
    Thread { [self] in reap() }.start()
  }

  /// `true` until the child has exited (and was reaped).
  public var isRunning: Bool { state.withLock { $0.termination == nil } }

  /// How the child ended, or `nil` while it runs.
  public var termination: Termination? { state.withLock { $0.termination } }

  /// The exit status, or the signal number when a signal ended the child (`Foundation.Process`'s
  /// `terminationStatus`). Precondition: the child has exited (after a wait).
  public var terminationStatus: Int32 {
    guard let termination else { preconditionFailure("terminationStatus of a running child") }
    return termination.status
  }

  /// The bytes written to standard output so far (all of them once a wait returned), for
  /// ``Output/collect``; empty otherwise.
  public var collectedStandardOutput: Data { state.withLock { $0.output } }

  /// The bytes written to standard error so far (all of them once a wait returned), for
  /// ``Output/collect``; empty otherwise.
  public var collectedStandardError: Data { state.withLock { $0.errors } }

  /// Sends `signal` to the child unless it has already exited; `SIGKILL` by default.
  public func kill(_ signal: Int32 = SIGKILL) {
    // Under the lock the exit thread reaps under: the identifier is still this child's.
    state.withLock { state in
      if state.termination == nil { _ = sendSignal(processIdentifier, signal) }
    }
  }

  /// Sends `SIGTERM` (`Foundation.Process.terminate()`).
  public func terminate() { kill(SIGTERM) }

  /// Blocks the calling thread until the child has exited and every ``Output/collect`` output is
  /// read to its end; returns how it ended. For synchronous code on a thread of its own, never a
  /// cooperative-pool thread (use ``waitForExit()`` there).
  @discardableResult
  public func waitUntilExit() -> Termination {
    let semaphore = DispatchSemaphore(value: 0)
    let done = state.withLock { state in
      if state.isComplete { return true }
      state.waiters.append(.thread(semaphore))
      return false
    }
    if !done { semaphore.wait() }
    return termination!
  }

  /// Suspends until the child has exited and every ``Output/collect`` output is read to its end;
  /// returns how it ended. Holds no thread while suspended (the child's exit thread resumes it).
  @discardableResult
  public func waitForExit() async -> Termination {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = state.withLock { state in
        if state.isComplete { return true }
        state.waiters.append(.task(continuation))
        return false
      }
      if done { continuation.resume() }
    }
    return termination!
  }

  /// Runs a child to its end, blocking the calling thread (a thread of its own, never a
  /// cooperative-pool thread); standard output and error are collected by default.
  ///
  /// - Throws: ``LaunchError`` when the child cannot be started; a non-zero exit is not an error
  ///   (see ``Completion/termination``).
  public static func run(
    executable: URL, arguments: [String] = [], environment: Environment = .inherit,
    currentDirectory: URL? = nil, standardInput: Input = .inherit, standardOutput: Output = .collect,
    standardError: Output = .collect
  ) throws -> Completion {
    let child = try ChildProcess(
      executable: executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
      standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
    return child.completion(child.waitUntilExit())
  }

  /// ``run(executable:arguments:environment:currentDirectory:standardInput:standardOutput:standardError:)``
  /// that suspends instead of blocking while the child runs.
  public static func run(
    executable: URL, arguments: [String] = [], environment: Environment = .inherit,
    currentDirectory: URL? = nil, standardInput: Input = .inherit, standardOutput: Output = .collect,
    standardError: Output = .collect
  ) async throws -> Completion {
    let child = try ChildProcess(
      executable: executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
      standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
    return child.completion(await child.waitForExit())
  }

  private func completion(_ termination: Termination) -> Completion {
    state.withLock { Completion(termination: termination, standardOutput: $0.output, standardError: $0.errors) }
  }

  /// The exit thread: waits for the exit without reaping (`WNOWAIT`), then reaps and records it
  /// under the lock ``kill(_:)`` signals under.
  private func reap() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
    let waiters = state.withLock { state -> [Waiter] in
      var status: Int32 = 0
      while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
      // <sys/wait.h>: the low 7 bits are the signal that ended the child (0: it exited), the
      // next 8 its exit status (WTERMSIG, WEXITSTATUS; Swift imports neither macro).
      state.termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
      return state.takeWaitersIfComplete()
    }
    for waiter in waiters { waiter.resume() }
  }

  /// A collecting thread: reads `descriptor` to its end, then closes it.
  private func collect(_ descriptor: Int32, isOutput: Bool) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      state.withLock { state in
        if isOutput {
          state.output.append(contentsOf: buffer[0..<count])
        } else {
          state.errors.append(contentsOf: buffer[0..<count])
        }
      }
    }
    close(descriptor)
    let waiters = state.withLock { state -> [Waiter] in
      state.pendingCollections -= 1
      return state.takeWaitersIfComplete()
    }
    for waiter in waiters { waiter.resume() }
  }
}

extension ChildProcess.Termination {
  /// The exit status, or the signal number.
  public var status: Int32 {
    switch self {
    case .exited(let status), .signalled(let status): status
    }
  }
}

extension ChildProcess.Output {
  fileprivate var isCollected: Bool {
    if case .collect = self { return true }
    return false
  }
}

extension ChildProcess.Environment {
  /// `NAME=value` strings for `posix_spawn`'s `envp`.
  fileprivate var variables: [String] {
    let variables: [String: String]
    switch self {
    case .inherit:
      variables = ProcessInfo.processInfo.environment
    case .inheritOverriding(let overrides):
      var merged = ProcessInfo.processInfo.environment
      for (name, value) in overrides { merged[name] = value }
      variables = merged
    case .exactly(let exact):
      variables = exact
    }
    return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }
}

/// A pipe between the test process and the child: the end the child gets (dup'ed onto 0, 1 or 2
/// in it, closed in the parent after the spawn) and the end the parent keeps.
private struct PipeEnds {
  let childEnd: Int32
  let parentEnd: Int32
}

/// The file actions and attributes of one `posix_spawn` call, built up in order: the standard
/// descriptors, the working directory, then closing everything else.
private struct SpawnPlan {
  let executable: String
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    var attributes: posix_spawnattr_t? = nil
  #else
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
  #endif
  /// Pipe descriptors made so far, closed by ``release()`` if the spawn does not happen.
  var made: [Int32] = []
  var launched = false

  init(executable: String) throws {
    self.executable = executable
    try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
    try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
    // An empty signal mask and every catchable signal at its default disposition.
    var none = sigset_t()
    sigemptyset(&none)
    try check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &none))
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    try check("posix_spawnattr_setsigdefault", posix_spawnattr_setsigdefault(&attributes, &all))
    var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
    #if canImport(Darwin)
      // Every descriptor not named by a file action is closed in the child (Apple's closefrom).
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(flags)))
  }

  mutating func release() {
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
    if !launched { for descriptor in made { close(descriptor) } }
  }

  func check(_ operation: String, _ result: Int32) throws {
    if result != 0 { throw ChildProcess.LaunchError(operation: operation, code: result, executable: executable) }
  }

  /// A pipe whose two ends are at 3 or above (so a dup onto 0, 1 or 2 never overwrites another
  /// pipe's end when this process runs with a standard descriptor closed) and close-on-exec.
  mutating func makePipe(childReads: Bool) throws -> PipeEnds {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) != 0 { throw ChildProcess.LaunchError(operation: "pipe", code: errno, executable: executable) }
    var moved: [Int32] = []
    for end in ends {
      let high = fcntl(end, F_DUPFD_CLOEXEC, 3)
      let failure = errno
      close(end)
      if high < 0 {
        for descriptor in moved { close(descriptor) }
        throw ChildProcess.LaunchError(operation: "fcntl(F_DUPFD_CLOEXEC)", code: failure, executable: executable)
      }
      moved.append(high)
    }
    made += moved
    // ends[0] is the read end.
    return childReads
      ? PipeEnds(childEnd: moved[0], parentEnd: moved[1]) : PipeEnds(childEnd: moved[1], parentEnd: moved[0])
  }

  mutating func input(_ input: ChildProcess.Input) throws -> PipeEnds? {
    switch input {
    case .inherit:
      try inherit(0)
      return nil
    case .nullDevice:
      try check(
        "posix_spawn_file_actions_addopen", posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
      return nil
    case .pipe:
      let ends = try makePipe(childReads: true)
      try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, ends.childEnd, 0))
      return ends
    }
  }

  mutating func output(_ output: ChildProcess.Output, to target: Int32) throws -> PipeEnds? {
    let writing = O_WRONLY | O_CREAT | O_TRUNC
    switch output {
    case .inherit:
      try inherit(target)
      return nil
    case .nullDevice:
      try check(
        "posix_spawn_file_actions_addopen",
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0))
      return nil
    case .file(let url):
      try check(
        "posix_spawn_file_actions_addopen", posix_spawn_file_actions_addopen(&actions, target, url.path, writing, 0o644)
      )
      return nil
    case .pipe, .collect:
      let ends = try makePipe(childReads: false)
      try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, ends.childEnd, target))
      return ends
    case .standardOutput:
      guard target == 2 else {
        throw ChildProcess.LaunchError(
          operation: "standardOutput: .standardOutput", code: EINVAL, executable: executable)
      }
      try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, 1, 2))
      return nil
    }
  }

  /// Keeps this process's descriptor `descriptor` (0, 1 or 2) in the child.
  mutating func inherit(_ descriptor: Int32) throws {
    #if canImport(Darwin)
      // Under POSIX_SPAWN_CLOEXEC_DEFAULT only descriptors a file action names stay open.
      try check(
        "posix_spawn_file_actions_addinherit_np", posix_spawn_file_actions_addinherit_np(&actions, descriptor))
    #endif
  }

  mutating func changeDirectory(to path: String) throws {
    #if canImport(Darwin)
      try check("posix_spawn_file_actions_addchdir_np", posix_spawn_file_actions_addchdir_np(&actions, path))
    #else
      try check("posix_spawn_file_actions_addchdir_np", cposixspawn_addchdir(&actions, path))
    #endif
  }

  /// The child closes every descriptor from 3 up: the last file action, after the dups above
  /// read the pipe ends. On Apple platforms the attribute `POSIX_SPAWN_CLOEXEC_DEFAULT` does it.
  mutating func closeTheRest() throws {
    #if !canImport(Darwin)
      try check("posix_spawn_file_actions_addclosefrom_np", cposixspawn_addclosefrom(&actions, 3))
    #endif
  }

  /// Spawns the child; returns its process identifier.
  mutating func launch(arguments: [String], environment: [String]) throws -> pid_t {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    try check("posix_spawn", posix_spawn(&child, executable, &actions, &attributes, argv, envp))
    launched = true
    return child
  }
}

/// `kill(2)`, named apart from ``ChildProcess/kill(_:)``.
private func sendSignal(_ process: pid_t, _ signal: Int32) -> Int32 {
  #if canImport(Darwin)
    Darwin.kill(process, signal)
  #else
    Glibc.kill(process, signal)
  #endif
}

/// A value only read and written while one `pthread_mutex_t` is held (see ``ChildProcess`` for why
/// not `Synchronization.Mutex`).
///
/// Thread-safety: `Sendable` (checked by hand): the value is reached only inside ``withLock(_:)``.
private final class StateLock<Value: Sendable>: @unchecked Sendable {
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not reentrant.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
