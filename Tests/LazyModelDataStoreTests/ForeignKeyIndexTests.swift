import CSQLite
import ForeignKeysWithoutBelongsToModels
import Foundation
import HasManyImplicitModels
import LazyModel
import LazyModelDataStore
import RegressionHasManyExplicitFkIndex
import RegressionLazyListReadBeforeFetch
import RegressionReferencesHasOneHasMany
import Testing

/// Runs `sql` on the file at `url` (made when missing) through a second, writable connection (to
/// change a store's file behind its back, as another program or an older version of the store would).
func executeRaw(_ sql: String, on url: URL) throws {
  var db: OpaquePointer?
  guard
    sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
    let db
  else {
    throw DataStoreError.sqlite(code: 0, message: "cannot open \(url.path)", sql: sql)
  }
  defer { sqlite3_close_v2(db) }
  let code = sqlite3_exec(db, sql, nil, nil, nil)
  guard code == SQLITE_OK else {
    throw DataStoreError.sqlite(code: code, message: String(cString: sqlite3_errmsg(db)), sql: sql)
  }
}

/// The details of `EXPLAIN QUERY PLAN sql` on the file at `url` (parameters left unbound).
func queryPlan(_ sql: String, in url: URL) throws -> [String] {
  try RawDatabase(url).rows("EXPLAIN QUERY PLAN " + sql).map { $0.last ?? "" }
}

/// The leading columns of every index of `table` (the primary key's included), read from the file.
func indexedColumns(of table: String, in url: URL) throws -> [[String]] {
  let db = try RawDatabase(url)
  let escaped = table.replacingOccurrences(of: "'", with: "''")
  var indexes = db.rows("SELECT name FROM pragma_index_list('\(escaped)')").map { row in
    let index = row[0].replacingOccurrences(of: "'", with: "''")
    return db.rows("SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno").map { $0[0] }
  }
  let key = db.rows("SELECT name FROM pragma_table_info('\(escaped)') WHERE pk > 0 ORDER BY pk")
  indexes.append(key.map { $0[0] })
  return indexes
}

/// Child models of four generated schemas whose FK columns serve only the parent's side (implicit
/// hasMany FKs, references-style hasOne/hasMany without a belongsTo) next to ones with a belongsTo.
let foreignKeyRegistry = ModelRegistry(models: [
  Blog.self, BlogPost.self, Shelf.self, Item.self, Writer.self, WriterProfile.self, Draft.self,
  Album.self, Photo.self, Customer.self, Cart.self, Order.self,
  RegressionHasManyExplicitFkIndex.Post.self, RegressionHasManyExplicitFkIndex.Comment.self,
])

@Suite("An index on every foreign key")
struct ForeignKeyIndexTests {
  /// The one statement of `log` that reads `table`.
  private func statement(reading table: String, _ log: SQLLog) throws -> String {
    let reads = log.queries.filter { $0.contains("FROM \"\(table)\"") }
    #expect(reads.count == 1, "\(table): \(reads)")
    return try #require(reads.first)
  }

  @Test("lazy lists and hasOne(references:) references read their FK index, never scan the table")
  func lazyLoadsUseAnIndex() async throws {
    let url = try temporaryFileURL()
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: foreignKeyRegistry, traceSQL: log.hook)
    try await store.save(Blog(id: "b", name: "blog"))
    try await store.save((0..<3).map { BlogPost(id: "bp\($0)", title: "t", blogPostsId: "b") })
    try await store.save(Shelf(room: "r", number: 7))
    try await store.save(Item(id: "i", shelfItemsRoom: "r", shelfItemsNumber: 7))
    try await store.save(Writer(id: "w", name: "Ada", rating: 4.5))
    try await store.save([
      Draft(id: "d1", title: "one", writerId: "w"), Draft(id: "d2", title: "two", writerId: "w"),
    ])
    try await store.save(WriterProfile(id: "wp", bio: "bio", writerId: "w"))
    let album = Album(id: "a", name: "album")
    try await store.save(album)
    try await store.save(Photo(id: "p", caption: "c", album: album))
    let customer = RegressionReferencesHasOneHasMany.Customer(id: "c", name: "Cy")
    try await store.save(customer)
    try await store.save(Order(id: "o", total: 9.5, customer: customer))
    try await store.save(Cart(id: "cart", items: ["x"], customer: customer))
    try await store.save(RegressionHasManyExplicitFkIndex.Post(id: "post", title: "p"))
    try await store.save(
      RegressionHasManyExplicitFkIndex.Comment(id: "cm", postID: "post", content: "c"))

    let blog = try #require(try await store.query(Blog.self, byIdentifier: .init(id: "b")))
    log.clear()
    #expect(try await blog.posts?.fetch().map(\.id) == ["bp0", "bp1", "bp2"])
    #expect(
      try queryPlan(try statement(reading: "BlogPost", log), in: url) == [
        "SEARCH BlogPost USING INDEX BlogPost_blogPostsId_fk (blogPostsId=?)"
      ])

    let shelf = try #require(
      try await store.query(Shelf.self, byIdentifier: .init(room: "r", number: 7)))
    log.clear()
    #expect(try await shelf.items?.fetch().map(\.id) == ["i"])
    #expect(
      try queryPlan(try statement(reading: "Item", log), in: url) == [
        "SEARCH Item USING INDEX Item_shelfItemsRoom_shelfItemsNumber_fk (shelfItemsRoom=? AND shelfItemsNumber=?)"
      ])

    let writer = try #require(try await store.query(Writer.self, byIdentifier: .init(id: "w")))
    log.clear()
    #expect(try await writer.drafts?.fetch().map(\.title) == ["one", "two"])
    #expect(
      try queryPlan(try statement(reading: "Draft", log), in: url) == [
        "SEARCH Draft USING INDEX Draft_writerId_fk (writerId=?)"
      ])
    log.clear()
    #expect(try await writer.profile?.bio == "bio")
    #expect(
      try queryPlan(try statement(reading: "WriterProfile", log), in: url) == [
        "SEARCH WriterProfile USING INDEX WriterProfile_writerId_fk (writerId=?)"
      ])

    let loadedAlbum = try #require(try await store.query(Album.self, byIdentifier: .init(id: "a")))
    log.clear()
    #expect(try await loadedAlbum.photos?.fetch().map(\.id) == ["p"])
    #expect(
      try queryPlan(try statement(reading: "Photo", log), in: url) == [
        "SEARCH Photo USING INDEX Photo_albumPhotosId_fk (albumPhotosId=?)"
      ])

    let loadedCustomer = try #require(
      try await store.query(
        RegressionReferencesHasOneHasMany.Customer.self, byIdentifier: .init(id: "c")))
    log.clear()
    #expect(try await loadedCustomer.orders?.fetch().map(\.id) == ["o"])
    #expect(
      try queryPlan(try statement(reading: "Order", log), in: url) == [
        "SEARCH Order USING INDEX Order_customerId_fk (customerId=?)"
      ])
    log.clear()
    #expect(try await loadedCustomer.activeCart?.items == ["x"])
    #expect(
      try queryPlan(try statement(reading: "Cart", log), in: url) == [
        "SEARCH Cart USING INDEX Cart_customerId_fk (customerId=?)"
      ])

    // An @index that starts with the FK serves the list; no second index is made.
    let post = try #require(
      try await store.query(
        RegressionHasManyExplicitFkIndex.Post.self, byIdentifier: .init(id: "post")))
    log.clear()
    #expect(try await post.comments?.fetch().map(\.id) == ["cm"])
    let commentPlan = try queryPlan(try statement(reading: "Comment", log), in: url)
    #expect(
      commentPlan.first?.hasPrefix("SEARCH Comment USING INDEX Comment_byPost (postID=?)") == true)
    #expect(!commentPlan.contains { $0.hasPrefix("SCAN") })
  }

  @Test("the FK indexes on disk: FK columns then the primary key, one per column set")
  func indexesOnDisk() throws {
    let url = try temporaryFileURL()
    _ = try DataStore(fileURL: url, registry: foreignKeyRegistry)
    let db = try RawDatabase(url)
    let indexes = db.rows(
      "SELECT tbl_name, name, sql FROM sqlite_schema WHERE type = 'index' AND name LIKE '%\\_fk' ESCAPE '\\' ORDER BY name"
    )
    #expect(
      indexes.map { [$0[1], $0[2]] } == [
        [
          "BlogPost_blogPostsId_fk",
          #"CREATE INDEX "BlogPost_blogPostsId_fk" ON "BlogPost" ("blogPostsId", "id")"#,
        ],
        [
          "Cart_customerId_fk",
          #"CREATE INDEX "Cart_customerId_fk" ON "Cart" ("customerId", "id")"#,
        ],
        ["Draft_writerId_fk", #"CREATE INDEX "Draft_writerId_fk" ON "Draft" ("writerId", "id")"#],
        [
          "Item_shelfItemsRoom_shelfItemsNumber_fk",
          #"CREATE INDEX "Item_shelfItemsRoom_shelfItemsNumber_fk" ON "Item" ("shelfItemsRoom", "shelfItemsNumber", "id")"#,
        ],
        [
          "Order_customerId_fk",
          #"CREATE INDEX "Order_customerId_fk" ON "Order" ("customerId", "id")"#,
        ],
        [
          "Photo_albumPhotosId_fk",
          #"CREATE INDEX "Photo_albumPhotosId_fk" ON "Photo" ("albumPhotosId", "id")"#,
        ],
        [
          "WriterProfile_writerId_fk",
          #"CREATE INDEX "WriterProfile_writerId_fk" ON "WriterProfile" ("writerId", "id")"#,
        ],
      ])
    // Comment's FK postID is served by its @index byPost (postID, content): no extra index.
    #expect(
      db.rows(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Comment' AND sql IS NOT NULL"
      )
      .map { $0[0] } == ["Comment_byPost"])
  }

  @Test("every generated schema: each hasMany and hasOne(references:) FK column set leads an index")
  func everyGeneratedForeignKeyIsIndexed() throws {
    for (name, registry) in GeneratedModelsTests.registries {
      let url = try temporaryFileURL("\(name).sqlite")
      _ = try DataStore(fileURL: url, registry: registry)
      for schema in registry.schemas {
        for field in schema.fields {
          let child: ModelSchema
          let associatedFields: [String]
          switch (field.association, field.type) {
          case (.hasMany(let fields, _)?, .list(.model(let type), _)):
            (child, associatedFields) = (type.schema, fields)
          case (.hasOne(let fields, let targetNames)?, .model(let type)) where targetNames.isEmpty:
            (child, associatedFields) = (type.schema, fields)
          default:
            continue
          }
          // A belongsTo/hasOne field of the child stands for its target names (its FK columns).
          let columns = associatedFields.flatMap { associated -> [String] in
            switch child.field(named: associated)?.association {
            case .belongsTo(_, let targetNames)?: return targetNames
            case .hasOne(_, let targetNames)? where !targetNames.isEmpty: return targetNames
            default: return [associated]
            }
          }
          let indexes = try indexedColumns(of: child.name, in: url)
          #expect(
            indexes.contains { $0.starts(with: columns) },
            "\(name): \(schema.name).\(field.name) -> \(child.name)\(columns) in \(indexes)")
        }
      }
    }
  }

  @Test("a file missing an FK index gets it back on open; the rows stay")
  func migrationCreatesMissingIndexes() async throws {
    let url = try temporaryFileURL()
    do {
      let store = try DataStore(fileURL: url, registry: foreignKeyRegistry)
      try await store.save(Writer(id: "w", name: "Ada", rating: 1))
      try await store.save(Draft(id: "d", title: "kept", writerId: "w"))
    }
    // A file written before these indexes existed.
    try executeRaw(
      #"DROP INDEX "Draft_writerId_fk"; DROP INDEX "BlogPost_blogPostsId_fk""#, on: url)
    let names = {
      try RawDatabase(url).rows(
        "SELECT name FROM sqlite_schema WHERE name IN ('Draft_writerId_fk', 'BlogPost_blogPostsId_fk') ORDER BY name"
      ).map { $0[0] }
    }
    #expect(try names() == [])
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: foreignKeyRegistry, traceSQL: log.hook)
    #expect(try names() == ["BlogPost_blogPostsId_fk", "Draft_writerId_fk"])
    #expect(
      log.all.contains(
        #"CREATE INDEX IF NOT EXISTS "Draft_writerId_fk" ON "Draft" ("writerId", "id")"#))
    let writer = try #require(try await store.query(Writer.self, byIdentifier: .init(id: "w")))
    #expect(try await writer.drafts?.fetch().map(\.title) == ["kept"])
  }

  @Test(
    "a references-style lazy list pages by its FK columns in key order",
    arguments: StoreLocation.allCases)
  func inMemoryLazyList(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: foreignKeyRegistry, listPageSize: 2)
    try await store.save(Writer(id: "w", name: "Ada", rating: 2))
    try await store.save((1...3).map { Draft(id: "d\($0)", title: "t\($0)", writerId: "w") })
    try await store.save(Draft(id: "other", title: "x", writerId: "someone else"))
    let writer = try #require(try await store.query(Writer.self, byIdentifier: .init(id: "w")))
    log.clear()
    let drafts = try #require(writer.drafts)
    #expect(try await drafts.fetch().map(\.id) == ["d1", "d2"])
    #expect(try await drafts.nextPage().map(\.id) == ["d3"])
    #expect(
      log.queries.first
        == #"SELECT "id", "title", "writerId", "createdAt", "updatedAt" FROM "Draft" WHERE "writerId" = ? ORDER BY "id" LIMIT ?"#
    )
  }
}
