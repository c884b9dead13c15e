import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasManyIndexNameWithTwoIndexes
import SeedPostCommentModels
import Testing

@Suite("A lazy list is in its index's sort key order, like AppSync's index query")
struct ListOrderTests {
  @Test("post.comments is ordered by content (byPost4's sort key), page after page", arguments: StoreLocation.allCases)
  func sortKeyOrder(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry, listPageSize: 2)
    let post = Post4V2(id: "p", title: "Post")
    try await store.save(post)
    // Contents run against the ids: c0 has the last content, c5 the first.
    let contents = ["f", "e", "d", "c", "b", "a"]
    try await store.save(
      contents.enumerated().map { Comment4V2(id: "c\($0)", content: $1, post: post) })

    let found = try #require(try await store.query(Post4V2.self, byIdentifier: post.identifier))
    let list = try #require(found.comments)
    log.clear()
    var ids = try await list.fetch().map(\.id)
    while list.hasNextPage { ids += try await list.nextPage().map(\.id) }
    #expect(ids == ["c5", "c4", "c3", "c2", "c1", "c0"])
    #expect(
      log.queries.last
        == #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2" WHERE "postID" = ? AND (("content", "id") > (?, ?)) ORDER BY "content", "id" LIMIT ?"#
    )

    // Equal sort keys fall back to the primary key.
    try await store.save(Comment4V2(id: "c9", content: "a", post: post))
    try await store.save(Comment4V2(id: "c8", content: "a", post: post))
    let again = try #require(try await store.query(Post4V2.self, byIdentifier: post.identifier)?.comments)
    ids = try await again.fetch().map(\.id)
    while again.hasNextPage { ids += try await again.nextPage().map(\.id) }
    #expect(ids == ["c5", "c8", "c9", "c4", "c3", "c2", "c1", "c0"])

    // An included list has the same order.
    let included = try #require(
      try await store.query(
        Post4V2.self, where: Post4V2.keys.id.eq("p"), includes: [.include(Post4V2.keys.comments)]
      ).first?.comments)
    #expect(try included.elements.map(\.id) == ["c5", "c8", "c9", "c4", "c3", "c2", "c1", "c0"])
  }

  @Test(
    "an optional sort key: tracks with a position first, in position order, then the rest",
    arguments: [1, 2, 3, 100])
  func optionalSortKey(pageSize: Int) async throws {
    let (store, _) = try makeStore(
      .file, registry: ModelRegistry(models: [Playlist.self, Track.self]), listPageSize: pageSize)
    try await store.save(Playlist(id: "l", name: "Mix"))
    let positions: [Int?] = [3, nil, 1, nil, 2, -1]
    try await store.save(
      positions.enumerated().map {
        Track(id: "t\($0 + 1)", playlistID: "l", position: $1, title: "Track \($0 + 1)")
      })
    try await store.save(Track(id: "other", playlistID: "elsewhere", position: 0, title: "Other"))

    let list = try #require(try await store.query(Playlist.self, byIdentifier: .init(id: "l"))?.tracks)
    var ids = try await list.fetch().map(\.id)
    while list.hasNextPage { ids += try await list.nextPage().map(\.id) }
    #expect(ids == ["t6", "t3", "t5", "t1", "t2", "t4"])

    let included = try #require(
      try await store.query(Playlist.self, includes: [.include(Playlist.keys.tracks)]).first?.tracks)
    #expect(try included.elements.map(\.id) == ["t6", "t3", "t5", "t1", "t2", "t4"])
  }

  @Test("each page is one range seek in the index (sort key, then primary key): no sort per page")
  func pageIsARangeSeek() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: seedRegistry, listPageSize: 1, traceSQL: log.hook)
    let post = Post4V2(id: "p", title: "Post")
    try await store.save(post)
    try await store.save(["b", "a"].map { Comment4V2(id: "c\($0)", content: $0, post: post) })
    let list = try #require(try await store.query(Post4V2.self, byIdentifier: post.identifier)?.comments)
    _ = try await list.fetch()
    log.clear()
    #expect(try await list.nextPage().map(\.id) == ["cb"])
    #expect(
      try queryPlan(try #require(log.queries.first), in: url) == [
        "SEARCH Comment4V2 USING INDEX Comment4V2_byPost4 (postID=? AND (content,id)>(?,?))"
      ])
    #expect(try indexedColumns(of: "Comment4V2", in: url).contains(["postID", "content", "id"]))
  }

  @Test("an index stored on other columns by an earlier version is made again as the schema asks")
  func changedIndexIsRemade() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    do {
      let store = try DataStore(fileURL: url, registry: seedRegistry)
      let post = Post4V2(id: "p", title: "Post")
      try await store.save(post)
      try await store.save(Comment4V2(id: "c", content: "kept", post: post))
    }
    // The index as a store before sort key ordering made it: no primary-key column.
    try executeRaw(
      """
      DROP INDEX "Comment4V2_byPost4";
      CREATE INDEX "Comment4V2_byPost4" ON "Comment4V2" ("postID", "content");
      """, on: url)
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    let db = try RawDatabase(url)
    #expect(
      db.rows("SELECT name FROM pragma_index_info('Comment4V2_byPost4') ORDER BY seqno")
        == [["postID"], ["content"], ["id"]])
    #expect(try await store.query(Comment4V2.self).map(\.content) == ["kept"])
  }

  @Test(
    "of two indexes that start with the FK, the one the hasMany names orders the list",
    arguments: StoreLocation.allCases)
  func namedIndexOrders(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(
      location, registry: RegressionHasManyIndexNameWithTwoIndexes.Models.registry, listPageSize: 2)
    try await store.save(Shelf(id: "s", name: "Shelf"))
    // Labels run against positions: byShelfLabel would give b3, b2, b1.
    try await store.save([
      Box(id: "b1", shelfID: "s", label: "c", position: 1),
      Box(id: "b2", shelfID: "s", label: "b", position: 2),
      Box(id: "b3", shelfID: "s", label: "a", position: 3),
    ])
    let list = try #require(try await store.query(Shelf.self, byIdentifier: .init(id: "s"))?.boxes)
    var ids = try await list.fetch().map(\.id)
    while list.hasNextPage { ids += try await list.nextPage().map(\.id) }
    #expect(ids == ["b1", "b2", "b3"])
    let included = try #require(
      try await store.query(Shelf.self, includes: [.include(Shelf.keys.boxes)]).first?.boxes)
    #expect(try included.elements.map(\.id) == ["b1", "b2", "b3"])
    // A provider given no index name takes the first index that starts with the FK.
    let byFirstIndex = DataStoreListProvider<Box>(
      store: store, associatedFields: ["shelfID"], associatedIdentifiers: [.string("s")])
    #expect(try await byFirstIndex.loadPage(after: nil, limit: 10).elements.map(\.id) == ["b3", "b2", "b1"])
    let byNamedIndex = DataStoreListProvider<Box>(
      store: store, associatedFields: ["shelfID"], associatedIdentifiers: [.string("s")],
      indexName: "byShelfLabel")
    #expect(try await byNamedIndex.loadPage(after: nil, limit: 10).elements.map(\.id) == ["b3", "b2", "b1"])
  }

  @Test("a page size past SQLite's LIMIT range reads everything, without overflow")
  func hugePageSize() async throws {
    let (store, _) = try makeStore(.memory, registry: seedRegistry, listPageSize: Int.max)
    let post = Post4V2(id: "p", title: "Post")
    try await store.save(post)
    try await store.save((0..<3).map { Comment4V2(id: "c\($0)", content: "\($0)", post: post) })
    let list = try #require(try await store.query(Post4V2.self, byIdentifier: post.identifier)?.comments)
    #expect(try await list.fetch().map(\.id) == ["c0", "c1", "c2"])
    #expect(list.hasNextPage == false)
  }

  @Test("cursors that name no row are typed errors")
  func invalidCursors() async throws {
    let (store, _) = try makeStore(.memory, registry: ModelRegistry(models: [Playlist.self, Track.self]))
    let provider = DataStoreListProvider<Track>(
      store: store, associatedFields: ["playlistID"], associatedIdentifiers: [.string("l")])
    for cursor in ["[null, null]", "[1]", "[1, \"t1\", 2]", "{}", ""] {
      await #expect(throws: DataStoreError.invalidCursor(cursor)) {
        try await provider.loadPage(after: cursor, limit: 2)
      }
    }
    #expect(try await provider.loadPage(after: "[null, \"t1\"]", limit: 2).elements.isEmpty)
  }
}
