#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file only when it is a regular file: the one way the generator and the `modelgen` CLI
/// read schemas, config files, templates and the existing files they compare or replace.
///
/// The file is opened with `O_NONBLOCK` and checked with `fstat` on the open descriptor before a
/// byte is read, so a FIFO (named pipe), device or socket where a file is expected is a
/// ``RegularFileError`` at once instead of an `open()` or `read()` that blocks forever (POSIX
/// `open(2)`: `O_NONBLOCK` makes opening a FIFO for reading return without waiting for a writer).
/// Checking the descriptor, not the path, leaves no window for the entry to be swapped between the
/// check and the read. Blocking I/O on the calling thread; call it from a plain thread, not from a
/// Swift concurrency task. Stateless and safe to call from any thread.
public enum RegularFile {
  /// The whole contents of the regular file at `path` (symbolic links followed).
  ///
  /// - Parameter path: The path as the user typed it (relative to the working directory or absolute).
  /// - Returns: The file's bytes.
  /// - Throws: ``RegularFileError/notFound(path:)`` when nothing is there,
  ///   ``RegularFileError/notARegularFile(path:kind:)`` for a directory, FIFO, device or socket,
  ///   ``RegularFileError/unreadable(path:reason:)`` for any other `open`/`read` failure
  ///   (`permission denied`, …).
  public static func read(_ path: String) throws(RegularFileError) -> [UInt8] {
    try read(path, maximumSize: nil)
  }

  /// The whole contents of the regular file at `path`, refused when it holds more than
  /// `maximumSize` bytes: the size `fstat` reports is checked before a byte is read, and the read
  /// stops one byte past the limit if the file grows meanwhile.
  ///
  /// - Parameters:
  ///   - path: The path as the user typed it.
  ///   - maximumSize: The most bytes accepted, or `nil` for no limit.
  /// - Throws: as ``read(_:)``, and ``RegularFileError/tooLarge(path:size:)`` for a larger file.
  public static func read(_ path: String, maximumSize: Int?) throws(RegularFileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      // Nothing there (or a dangling link): no second look needed.
      if code == ENOENT { throw .notFound(path: path) }
      // A UNIX-domain socket cannot be opened at all (ENXIO); name it like the other kinds.
      if let kind = kind(atPath: path), kind != "regular file" {
        throw .notARegularFile(path: path, kind: kind)
      }
      if code == ENOENT { throw .notFound(path: path) }
      throw .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .notARegularFile(path: path, kind: kindName(mode: status.st_mode))
    }
    if let maximumSize, status.st_size > maximumSize {
      throw .tooLarge(path: path, size: Int(status.st_size))
    }
    // Read straight into the result, sized by `fstat` plus one byte so the read that finds the end
    // needs no more room; a file that grows meanwhile makes the buffer grow.
    var bytes = [UInt8](repeating: 0, count: Int(max(0, status.st_size)) + 1)
    var filled = 0
    while true {
      if filled == bytes.count { bytes += [UInt8](repeating: 0, count: max(bytes.count, 4096)) }
      let count = bytes.withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      filled += count
      if let maximumSize, filled > maximumSize { throw .tooLarge(path: path, size: filled) }
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }

  /// What kind of entry is at `path` (`"regular file"`, `"directory"`, `"FIFO (named pipe)"`, …),
  /// following symbolic links; `nil` when nothing is there (or it cannot be examined).
  public static func kind(atPath path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return kindName(mode: status.st_mode)
  }

  /// The kind of file `mode`'s `S_IFMT` bits name, as the CLI's messages word it ("regular file",
  /// "symbolic link", "directory", "FIFO (named pipe)", "character device", "block device",
  /// "socket", else "special file").
  public static func kindName(mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "regular file"
    case S_IFLNK: "symbolic link"
    case S_IFDIR: "directory"
    case S_IFIFO: "FIFO (named pipe)"
    case S_IFCHR: "character device"
    case S_IFBLK: "block device"
    case S_IFSOCK: "socket"
    default: "special file"
    }
  }
}

/// `read(2)`, named apart from ``RegularFile/read(_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// Why ``RegularFile/read(_:)`` could not read a file. Each case names the path as given.
public enum RegularFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing is at the path.
  case notFound(path: String)
  /// The entry is a directory, FIFO, device, socket or other special file (`kind`, in words);
  /// reading it could block forever or mean nothing.
  case notARegularFile(path: String, kind: String)
  /// `open` or `read` failed; `reason` is the system's text (`strerror`).
  case unreadable(path: String, reason: String)
  /// The file holds `size` bytes (at least), more than the caller's limit
  /// (``RegularFile/read(_:maximumSize:)``).
  case tooLarge(path: String, size: Int)

  /// The path the error names.
  public var path: String {
    switch self {
    case .notFound(let path), .notARegularFile(let path, _), .unreadable(let path, _), .tooLarge(let path, _): path
    }
  }

  /// Why, in words, without the path: `no such file`, `is a FIFO (named pipe), not a regular
  /// file`, `permission denied`.
  public var reason: String {
    switch self {
    case .notFound: "no such file"
    case .notARegularFile(_, let kind): "is a \(kind), not a regular file"
    case .unreadable(_, let reason): reason.lowercased()
    case .tooLarge(_, let size): "is too large (\(size) bytes)"
    }
  }

  /// `cannot read PATH: REASON`.
  public var description: String { "cannot read \(path): \(reason)" }
}
