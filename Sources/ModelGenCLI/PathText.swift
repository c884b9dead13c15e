/// POSIX path strings taken apart and joined by splitting on `/`, never by walking the path with
/// `NSString` (whose `deletingLastPathComponent` traps in swift-corelibs-foundation on some short
/// relative paths, such as `x` or `G/Models`). Pure string functions: they never touch the disk,
/// keep the path relative when it is relative, and are safe to call from any thread.
enum PathText {
  /// `directory/name`; `name` alone when `directory` is empty; one `/` between the two however
  /// many `directory` ends with.
  static func appending(_ name: String, to directory: String) -> String {
    guard !directory.isEmpty else { return name }
    var base = Substring(directory)
    while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
    return base == "/" ? "/" + name : base + "/" + name
  }

  /// The directory part of `path`: `""` for a bare name (`x`, `x/`), `/` for an entry of the root,
  /// otherwise everything before the last component, without trailing slashes (`G/Models` → `G`,
  /// `q/` → `""`, `/a//b/` → `/a`).
  static func parent(of path: String) -> String {
    var text = Substring(path)
    while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
    guard let slash = text.lastIndex(of: "/") else { return "" }
    var head = text[..<slash]
    while head.hasSuffix("/") { head = head.dropLast() }
    return head.isEmpty ? "/" : String(head)
  }

  /// The last component of `path` (`Out/Post.swift` → `Post.swift`; `q/` → `q`; `/` → `/`).
  static func lastComponent(of path: String) -> String {
    let parts = path.split(separator: "/")
    guard let last = parts.last else { return path.isEmpty ? "" : "/" }
    return String(last)
  }

  /// `path` with empty and `.` components removed and each `..` taking away the component before
  /// it (lexically; symbolic links are not resolved). A leading `..` of a relative path stays;
  /// `..` at the root stays at the root. An empty result is `.`.
  static func standardized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var kept: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == "..", let last = kept.last, last != ".." {
        kept.removeLast()
      } else if part == "..", absolute {
        continue
      } else {
        kept.append(part)
      }
    }
    let joined = kept.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// The directories from `path` up to (excluding) the first one for which `exists` is `true`,
  /// nearest first: the directories a `mkdir -p path` would create. Stops at `/` and at the
  /// relative root (`""`).
  static func missingDirectories(_ path: String, exists: (String) -> Bool) -> [String] {
    var missing: [String] = []
    var current = path
    while !current.isEmpty, current != "/", !exists(current) {
      missing.append(current)
      current = parent(of: current)
    }
    return missing
  }
}
