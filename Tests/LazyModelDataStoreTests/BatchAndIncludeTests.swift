import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasOneBelongsToCompositeKeys
import Testing

@testable import RegressionReferencesHasOneHasMany
@testable import SeedPostCommentModels

@Suite("No N+1: batched references, includes, paged lists")
struct BatchAndIncludeTests {
  /// `posts` posts and `perPost` comments each (comment ids `c<post>-<n>`).
  static func seeded(_ location: StoreLocation, posts: Int, perPost: Int, pageSize: Int = 100)
    async throws -> (DataStore, SQLLog)
  {
    let (store, log) = try makeStore(location, registry: seedRegistry, listPageSize: pageSize)
    let saved = (0..<posts).map { Post4V2(id: String(format: "p%04d", $0), title: "Post \($0)") }
    try await store.save(saved)
    try await store.save(
      saved.flatMap { post in
        (0..<perPost).map {
          Comment4V2(
            id: "c\(post.id)-\(String(format: "%03d", $0))", content: "comment \($0)", post: post)
        }
      })
    log.clear()
    return (store, log)
  }

  @Test(
    "N comments sharing 10 posts load their posts in one query", arguments: StoreLocation.allCases)
  func batchedReferences(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location, posts: 10, perPost: 20)
    let comments = try await store.query(Comment4V2.self)
    #expect(comments.count == 200)
    log.clear()
    let posts = try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self)
    #expect(posts.count == 200)
    #expect(
      zip(comments, posts).allSatisfy { comment, post in
        comment.id.hasPrefix("c\(post?.id ?? "?")-")
      })
    #expect(log.queries.count == 1)
    #expect(
      log.queries.first?.contains(#"WHERE "id" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ORDER BY "id""#)
        == true)

    log.clear()
    let references = comments.map(\._post)
    let viaRuntime = try await LazyReference.loadAll(references)
    #expect(viaRuntime.map { $0?.id } == posts.map { $0?.id })
    #expect(log.queries.count == 1)
    #expect(references.allSatisfy { if case .loaded = $0.state { true } else { false } })

    log.clear()
    let provider = DataStoreReferenceProvider<Post4V2>(store: store)
    let batch =
      comments.map { _ in [IdentifierComponent(name: "id", value: .string("p0003"))] }
      + [[IdentifierComponent(name: "id", value: .string("missing"))]]
    let loaded = try await provider.load(batch: batch)
    #expect(loaded.dropLast().allSatisfy { $0?.title == "Post 3" })
    #expect(loaded.last! == nil)
    #expect(log.queries.count == 1)
  }

  @Test("batches are chunked at 500 keys per statement", arguments: StoreLocation.allCases)
  func chunking(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location, posts: 1_201, perPost: 1)
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let posts = try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self)
    #expect(posts.compactMap { $0 }.count == 1_201)
    #expect(log.queries.count == 3)
    #expect(log.queries.map { $0.components(separatedBy: "?").count - 1 } == [500, 500, 201])
  }

  @Test("composite keys batch with a row-value IN", arguments: StoreLocation.allCases)
  func compositeBatch(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let projects = (0..<5).map { Project(projectId: "p", name: "n\($0)") }
    try await store.save(projects)
    try await store.save(
      (0..<20).map { Team(teamId: "t\($0)", name: "team", project: projects[$0 % 5]) })
    let teams = try await store.query(Team.self)
    log.clear()
    let loaded = try await store.loadReferences(Team.keys.project, of: teams, as: Project.self)
    #expect(loaded.map { $0?.name } == (0..<20).map { "n\($0 % 5)" })
    #expect(
      log.queries == [
        #"SELECT "projectId", "name", "projectTeamTeamId", "projectTeamName", "createdAt", "updatedAt" FROM "Project" WHERE ("projectId", "name") IN (VALUES (?, ?), (?, ?), (?, ?), (?, ?), (?, ?)) ORDER BY "projectId", "name""#
      ])
  }

  @Test(
    "includes: one IN query per association and level, loaded fields",
    arguments: StoreLocation.allCases)
  func includes(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location, posts: 10, perPost: 5)
    let comments = try await store.query(
      Comment4V2.self, where: Comment4V2.keys.content.eq("comment 0"),
      includes: [.include(Comment4V2.keys.post, .include(Post4V2.keys.comments))])
    #expect(comments.count == 10)
    #expect(log.queries.count == 3)
    log.clear()
    for comment in comments {
      guard case .loaded(let post?) = comment._post.state else {
        Issue.record("post of \(comment.id) not loaded")
        continue
      }
      #expect(comment.id.hasPrefix("c\(post.id)-"))
      let siblings = try #require(post.comments)
      #expect(try siblings.elements.count == 5)
      #expect(siblings.hasNextPage == false)
    }
    #expect(log.queries.isEmpty)

    let post = try #require(
      try await store.query(
        Post4V2.self, byIdentifier: .init(id: "p0002"), includes: [.include(Post4V2.keys.comments)])
    )
    #expect(try post.comments?.elements.map(\.content) == (0..<5).map { "comment \($0)" })
  }

  @Test("includes on hasOne both ways and references", arguments: StoreLocation.allCases)
  func includesOtherShapes(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let customers = [Customer(id: "a", name: "A"), Customer(id: "b", name: "B")]
    try await store.save(customers)
    try await store.save(Cart(id: "cart-a", items: [], customer: customers[0]))
    try await store.save([
      Order(id: "o1", total: 1, customer: customers[0]),
      Order(id: "o2", total: 2, customer: customers[1]),
    ])
    log.clear()
    let loaded = try await store.query(
      Customer.self, sort: [.ascending(Customer.keys.id)],
      includes: [.include(Customer.keys.activeCart), .include(Customer.keys.orders)])
    #expect(log.queries.count == 3)
    guard case .loaded(let cart) = loaded[0]._activeCart.state,
      case .loaded(let none) = loaded[1]._activeCart.state
    else {
      Issue.record("activeCart not loaded")
      return
    }
    #expect(cart?.id == "cart-a" && none == nil)
    #expect(try loaded.map { try $0.orders?.elements.map(\.id) } == [["o1"], ["o2"]])

    log.clear()
    let nested = try await store.query(
      Customer.self, where: Customer.keys.id.eq("a"),
      includes: [.include(Customer.keys.activeCart, .include(Cart.keys.customer))])
    #expect(log.queries.count == 3)
    guard case .loaded(let nestedCart?) = nested.first?._activeCart.state,
      case .loaded(let owner?) = nestedCart._customer.state
    else {
      Issue.record("nested include not loaded")
      return
    }
    #expect(owner.name == "A")

    await #expect(throws: DataStoreError.unknownField(model: "Customer", field: "nope")) {
      try await store.query(Customer.self, includes: [QueryInclude(field: "nope")])
    }
  }

  @Test("a lazy list pages through its index in sort key order", arguments: StoreLocation.allCases)
  func paging(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location, posts: 2, perPost: 7, pageSize: 3)
    let post = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "p0001")))
    let list = try #require(post.comments)
    log.clear()
    #expect(try await list.fetch().map(\.id) == ["cp0001-000", "cp0001-001", "cp0001-002"])
    #expect(list.hasNextPage)
    #expect(try await list.nextPage().count == 3)
    #expect(try await list.nextPage().map(\.id) == ["cp0001-006"])
    #expect(list.hasNextPage == false)
    #expect(try list.elements.count == 7)
    #expect(log.queries.count == 3)
    #expect(
      log.queries.last
        == #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2" WHERE "postID" = ? AND (("content", "id") > (?, ?)) ORDER BY "content", "id" LIMIT ?"#
    )

    let provider = DataStoreListProvider<Comment4V2>(
      store: store, associatedFields: ["postID"], associatedIdentifiers: [.string("p0001")])
    await #expect(throws: DataStoreError.invalidCursor("not a cursor")) {
      try await provider.loadPage(after: "not a cursor", limit: 2)
    }
    let page = try await provider.loadPage(after: nil, limit: 10)
    #expect(page.elements.count == 7 && page.nextCursor == nil)
  }
}

@Suite("Keys that Swift finds equal but SQLite stores as different bytes stay apart")
struct ExactKeyTests {
  @Test(
    "posts \"\\u{E9}\" and \"e\\u{301}\": each comment loads its own post, each post lists its own comment",
    arguments: StoreLocation.allCases)
  func canonicallyEquivalentKeys(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let precomposed = Post4V2(id: "\u{E9}", title: "precomposed")
    let decomposed = Post4V2(id: "e\u{301}", title: "decomposed")
    try await store.save([precomposed, decomposed])
    try await store.save([
      Comment4V2(id: "ca", content: "to precomposed", post: precomposed),
      Comment4V2(id: "cb", content: "to decomposed", post: decomposed),
    ])
    let comments = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    #expect(
      try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self).map {
        $0?.title
      } == ["precomposed", "decomposed"])
    #expect(
      try await LazyReference.loadAll(comments.map(\.postReference)).map { $0?.title }
        == ["precomposed", "decomposed"])
    let included = try await store.query(
      Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)],
      includes: [.include(Comment4V2.keys.post)])
    #expect(try await included.asyncMap { try await $0.post?.title } == ["precomposed", "decomposed"])
    let posts = try await store.query(
      Post4V2.self, sort: [.ascending(Post4V2.keys.title)],
      includes: [.include(Post4V2.keys.comments)])
    #expect(posts.map(\.title) == ["decomposed", "precomposed"])
    #expect(try posts.map { try #require($0.comments).elements.map(\.id) } == [["cb"], ["ca"]])
  }
}

extension Array {
  /// `transform` applied to each element in order.
  fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var results: [T] = []
    for element in self { results.append(try await transform(element)) }
    return results
  }
}
