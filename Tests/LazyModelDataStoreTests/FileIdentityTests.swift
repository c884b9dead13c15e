import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// Issue 11: the stores of this process on one file find each other by the file's device and
/// inode, not by the path they were opened with: two stores reaching one file by a symbolic link,
/// a hard link or a `..` path hand each other their commits (each observer hears each change
/// once) and share one WAL file. Real files.
@Suite("Stores of one file are found by file identity")
struct FileIdentityTests {
  /// A second name of the store's file.
  enum SecondName: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `link.sqlite`, a symbolic link to the file.
    case symbolicLink
    /// `hard.sqlite`, a hard link: the same inode under another name (SQLite does not resolve it).
    case hardLink
    /// `<dir>/./sub/../store.sqlite`: the same path spelled with `.` and `..`.
    case dotDotPath
    var description: String { rawValue }
  }

  /// The file at `url` under `name`, made in its directory.
  static func secondName(_ name: SecondName, of url: URL) throws -> URL {
    let directory = url.deletingLastPathComponent()
    switch name {
    case .symbolicLink:
      let link = directory.appendingPathComponent("link.sqlite")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
      return link
    case .hardLink:
      let link = directory.appendingPathComponent("hard.sqlite")
      try FileManager.default.linkItem(at: url, to: link)
      return link
    case .dotDotPath:
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
      return URL(fileURLWithPath: directory.path + "/./sub/../" + url.lastPathComponent)
    }
  }

  @Test(
    "two stores on two names of one file: each observer hears every change of either store once, and each reads the other's commits",
    arguments: SecondName.allCases)
  func observationAcrossNames(_ name: SecondName) async throws {
    let url = try temporaryFileURL()
    let first = try DataStore(fileURL: url, registry: seedRegistry)
    try await first.save(Post4V2(id: "p0", title: "seed"))
    let other = try Self.secondName(name, of: url)
    let second = try DataStore(fileURL: other, registry: seedRegistry)
    #expect(second.fileURL == other)  // the name it was given, whatever it opened
    let firstEvents = first.observe(Post4V2.self)
    let secondEvents = second.observe(Post4V2.self)

    try await first.save(Post4V2(id: "p1", title: "from first"))
    try await second.save(Post4V2(id: "p2", title: "from second"))
    try await first.delete(Post4V2.self, byIdentifier: .init(id: "p1"))
    let expected = ["saved p1 from first", "saved p2 from second", "deleted p1 from first"]
    #expect(try await next(3, of: secondEvents).map(describe) == expected)
    #expect(try await next(3, of: firstEvents).map(describe) == expected)

    #expect(try await first.query(Post4V2.self, byIdentifier: .init(id: "p2"))?.title == "from second")
    #expect(try await second.query(Post4V2.self, sort: [.ascending(Post4V2.keys.id)]).map(\.id) == ["p0", "p2"])
    // One WAL file for the two names: no `hard.sqlite-wal` beside the file's own.
    let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    #expect(files.filter { $0.hasSuffix("-wal") } == [url.lastPathComponent + "-wal"])
  }

  @Test(
    "a sibling batch of a store opened by a second name is not answered from after the other store commits",
    arguments: SecondName.allCases)
  func batchAcrossNames(_ name: SecondName) async throws {
    let url = try temporaryFileURL()
    let first = try DataStore(fileURL: url, registry: seedRegistry)
    let posts = (0..<4).map { Post4V2(id: "p\($0)", title: "before \($0)") }
    try await first.save(posts)
    try await first.save((0..<8).map { Comment4V2(id: "c\($0)", content: "x", post: posts[$0 % 4]) })
    let log = SQLLog()
    let second = try DataStore(fileURL: try Self.secondName(name, of: url), registry: seedRegistry, traceSQL: log.hook)
    let comments = try await second.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    #expect(try await comments[0].post?.title == "before 0")
    try await first.save(Post4V2(id: "p1", title: "after 1"))
    log.clear()
    #expect(try await comments[5].post?.title == "after 1")
    #expect(log.queries.count == 1)
    #expect(log.queries.first?.contains(#"WHERE "id" = ?"#) == true)
  }
}
