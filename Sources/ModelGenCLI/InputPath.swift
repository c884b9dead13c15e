import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an input path the user named (a schema, `--config`, `--templates`) cannot be used, in the
/// words a person needs to fix it.
enum InputPath {
  /// `nil` when `path` can be read as the expected kind of entry; otherwise the reason:
  /// `no such file`, `no such directory`, `is a directory`, `is not a directory`,
  /// `permission denied`, or the system's text for another `errno`.
  ///
  /// - Parameters:
  ///   - path: The path as typed.
  ///   - directory: `true` when a directory is expected (`--templates`), `false` for a file.
  static func problem(_ path: String, directory: Bool) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      switch errno {
      case ENOENT: return directory ? "no such directory" : "no such file"
      case ENOTDIR: return "a component of the path is not a directory"
      case EACCES: return "permission denied"
      default: return String(cString: strerror(errno))
      }
    }
    let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
    if isDirectory && !directory { return "is a directory" }
    if !isDirectory && directory { return "is not a directory" }
    guard access(path, directory ? (R_OK | X_OK) : R_OK) == 0 else { return "permission denied" }
    return nil
  }
}
