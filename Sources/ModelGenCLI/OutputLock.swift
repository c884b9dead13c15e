import Foundation
import ModelGen

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock one `modelgen generate` run holds on an output directory from before it reads the
/// directory (its files and `.modelgen-manifest.json`) until the last file is renamed into place,
/// so that two runs into one directory never plan against the same state: the second plans after
/// the first has finished and sees its files and manifest (`MGC015` when they belong to another
/// schema) instead of both writing and one orphaning the other's files.
///
/// The lock is an advisory `flock(2)` exclusive lock on `<directory>/.modelgen.lock`, a regular
/// file opened with `O_NOFOLLOW | O_NONBLOCK` (a symbolic link, FIFO, device or socket at that
/// name is `MGC018`, never followed or blocked on) and checked with `fstat` on the descriptor.
/// `flock` locks belong to the open file description: they exclude each other between processes
/// and between two opens in one process, and the system releases them when the descriptor is
/// closed, also when the process is killed. Only `modelgen` honours the lock (it is advisory).
///
/// The holder deletes the lock file before it closes it, so a finished run leaves nothing behind.
/// A waiter may then hold the lock of a deleted file: after every `flock` the descriptor's
/// identity (device and inode) is compared with the file at the path, and on a mismatch the
/// waiter opens the path again. A run that was killed leaves its lock file (unlocked, harmless);
/// the next run locks and deletes it.
///
/// Not `Sendable`: one run's main thread owns it. Waiting blocks the calling thread (polling
/// every 10 ms): call it from a plain thread (the CLI's main thread), not from a Swift
/// concurrency task.
final class OutputLock {
  /// The lock file's name inside each output directory.
  static let fileName = ".modelgen.lock"

  /// The locked directory, as given.
  let directory: String
  /// `directory/.modelgen.lock`.
  let path: String
  /// The directories ``acquire(_:timeout:)`` created for the lock (`mkdir -p`), nearest first.
  private(set) var createdDirectories: [String]
  private var descriptor: Int32

  private init(directory: String, path: String, descriptor: Int32, createdDirectories: [String]) {
    self.directory = directory
    self.path = path
    self.descriptor = descriptor
    self.createdDirectories = createdDirectories
  }

  deinit { release() }

  /// Locks every directory of `directories` (each once, in byte order of its path, so two runs
  /// locking overlapping sets cannot wait for each other in a cycle), creating missing
  /// directories. On an error the locks taken so far are released and the directories created
  /// for them removed.
  ///
  /// - Parameters:
  ///   - directories: The output directories of the run.
  ///   - timeout: The most seconds to wait for each directory held by another run; `0` tries once.
  /// - Returns: The locks, in locking order; they are released when released or deinitialized.
  /// - Throws: ``OutputError/locked(path:seconds:)`` (`MGC017`) when another run still holds a
  ///   lock after `timeout`; ``OutputError/lockFailed(path:reason:)`` (`MGC018`) when a lock file
  ///   cannot be created or locked; ``OutputError/notADirectory(path:)`` and
  ///   ``OutputError/notWritable(path:)`` when a directory cannot be created.
  static func acquire(_ directories: [String], timeout: Double) throws(OutputError) -> [OutputLock] {
    var locks: [OutputLock] = []
    let unique = Set(directories.map { $0.isEmpty ? "." : $0 }).sorted {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
    do throws(OutputError) {
      for directory in unique { locks.append(try acquire(directory, timeout: timeout)) }
    } catch {
      for lock in locks.reversed() { lock.release(removingCreatedDirectories: true) }
      throw error
    }
    return locks
  }

  /// Locks `directory` (created when missing), waiting up to `timeout` seconds for another holder.
  ///
  /// - Throws: as ``acquire(_:timeout:)``.
  static func acquire(_ directory: String, timeout: Double) throws(OutputError) -> OutputLock {
    let path = PathText.appending(fileName, to: directory)
    let deadline = ContinuousClock.now.advanced(by: .seconds(max(0, timeout)))
    var created: [String] = []
    while true {
      try OutputPlanner.checkWritableDirectory(directory)
      let missing = PathText.missingDirectories(directory) { FileManager.default.fileExists(atPath: $0) }
      if !missing.isEmpty {
        do {
          try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
          throw .notWritable(path: missing.last ?? directory)
        }
        created += missing
      }
      let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        let code = errno
        if code == EINTR { continue }
        throw .lockFailed(path: path, reason: reason(openingFailedWith: code, at: path))
      }
      var status = stat()
      guard fstat(descriptor, &status) == 0 else {
        let code = errno
        close(descriptor)
        throw .lockFailed(path: path, reason: String(cString: strerror(code)))
      }
      guard status.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        let kind = RegularFile.kindName(mode: status.st_mode)
        throw .lockFailed(path: path, reason: "a \(kind) is in the way, not a regular file")
      }
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        // The lock of a file its holder deleted (or replaced) meanwhile locks nothing: open again.
        var current = stat()
        if lstat(path, &current) == 0, current.st_dev == status.st_dev, current.st_ino == status.st_ino {
          return OutputLock(directory: directory, path: path, descriptor: descriptor, createdDirectories: created)
        }
        close(descriptor)
        continue
      }
      let code = errno
      close(descriptor)
      guard code == EWOULDBLOCK || code == EAGAIN || code == EINTR else {
        throw .lockFailed(path: path, reason: String(cString: strerror(code)))
      }
      guard ContinuousClock.now < deadline else { throw .locked(path: path, seconds: max(0, timeout)) }
      usleep(10_000)
    }
  }

  /// Deletes the lock file (when it is still this lock's) and releases the lock; with
  /// `removingCreatedDirectories`, then removes the directories ``acquire(_:timeout:)`` created
  /// that are still empty (a run that wrote nothing leaves no directory behind). Idempotent.
  func release(removingCreatedDirectories: Bool = false) {
    guard descriptor >= 0 else { return }
    var mine = stat()
    var current = stat()
    if fstat(descriptor, &mine) == 0, lstat(path, &current) == 0, mine.st_dev == current.st_dev,
      mine.st_ino == current.st_ino
    {
      unlink(path)
    }
    close(descriptor)
    descriptor = -1
    if removingCreatedDirectories {
      for directory in createdDirectories { rmdir(directory) }
    }
    createdDirectories = []
  }

  /// Words for an `open` of the lock file that failed with `code`.
  private static func reason(openingFailedWith code: Int32, at path: String) -> String {
    var status = stat()
    if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      return "a \(RegularFile.kindName(mode: status.st_mode)) is in the way, not a regular file"
    }
    return String(cString: strerror(code)).lowercased()
  }
}
