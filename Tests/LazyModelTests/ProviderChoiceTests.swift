import Foundation
import LazyModel
import Testing

/// The provider of a decoded lazy value is the decoding source's (SPEC §5): no global registry.
@Suite struct ProviderChoiceTests {
  static let payload = Data(
    #"{"id":"c1","content":"hi","post":{"id":"p1","__typename":"Post"}}"#.utf8)
  static let postPayload = Data(#"{"id":"p1","title":"from payload"}"#.utf8)

  func twoSources() throws -> (InMemoryModelStore, InMemoryModelStore) {
    let local = InMemoryModelStore()
    let remote = InMemoryModelStore()
    try local.save(Post(id: "p1", title: "local"))
    try remote.save(Post(id: "p1", title: "remote"))
    try local.save(Comment(id: "l1", content: "local comment", post: Post(id: "p1", title: "x")))
    try remote.save(Comment(id: "r1", content: "remote comment", post: Post(id: "p1", title: "x")))
    return (local, remote)
  }

  @Test func samePayloadLoadsFromEachDecodingSource() async throws {
    let (local, remote) = try twoSources()
    let fromLocal = try local.decode(Comment.self, from: Self.payload)
    let fromRemote = try remote.decode(Comment.self, from: Self.payload)
    #expect(try await fromRemote.post?.title == "remote")
    #expect(try await fromLocal.post?.title == "local")
    #expect(local.statistics.referenceLoads == 1)
    #expect(remote.statistics.referenceLoads == 1)
  }

  @Test func orderOfDecodingDoesNotMatter() async throws {
    let (local, remote) = try twoSources()
    // Decode with remote first this time, then local, and load in the opposite order.
    let fromRemote = try remote.decode(Comment.self, from: Self.payload)
    let fromLocal = try local.decode(Comment.self, from: Self.payload)
    #expect(try await fromLocal.post?.title == "local")
    #expect(try await fromRemote.post?.title == "remote")
  }

  @Test func listsAlsoLoadFromTheirDecodingSource() async throws {
    let (local, remote) = try twoSources()
    let localList = try #require(try local.decode(Post.self, from: Self.postPayload).comments)
    let remoteList = try #require(try remote.decode(Post.self, from: Self.postPayload).comments)
    #expect(try await remoteList.fetch().map(\.id) == ["r1"])
    #expect(try await localList.fetch().map(\.id) == ["l1"])
  }

  @Test func concurrentDecodingBySeveralSourcesStaysSeparate() async throws {
    let stores = try (0..<8).map { index in
      let store = InMemoryModelStore()
      try store.save(Post(id: "p1", title: "store \(index)"))
      return store
    }
    let titles = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
      for (index, store) in stores.enumerated() {
        for _ in 0..<10 {
          group.addTask {
            let comment = try store.decode(Comment.self, from: Self.payload)
            return (index, try await comment.post?.title)
          }
        }
      }
      var titles: [(Int, String?)] = []
      for try await result in group { titles.append(result) }
      return titles
    }
    #expect(titles.count == 80)
    #expect(titles.allSatisfy { $0.1 == "store \($0.0)" })
  }

  @Test func withoutContextNothingLoadsFromAnywhere() async throws {
    let comment = try JSONDecoder().decode(Comment.self, from: Self.payload)
    await #expect(throws: LazyModelError.noProvider(model: "Post", identifiers: Post.key("p1"))) {
      try await comment.post
    }
    let post = try JSONDecoder().decode(Post.self, from: Self.postPayload)
    let list = try #require(post.comments)
    await #expect(
      throws: LazyModelError.noProvider(
        model: "Comment", identifiers: [IdentifierComponent(name: "postID", value: .string("p1"))])
    ) {
      try await list.fetch()
    }
  }
}

@Suite struct InMemoryModelStoreTests {
  @Test func storesBelongsToAsTheForeignKeyOnly() throws {
    let store = InMemoryModelStore()
    let post = Post(id: "p1", title: "Hello")
    try store.save(post)
    try store.save(Comment(id: "c1", content: "hi", post: post))
    let comment = try #require(
      try store.model(Comment.self, identifier: Comment.Identifier(id: "c1")))
    #expect(try jsonText(comment) == #"{"content":"hi","id":"c1","post":{"id":"p1"}}"#)
    #expect(comment._post.identifiers == Post.key("p1"))
    #expect(!comment._post.isLoaded)
  }

  @Test func compositeKeyParentAndItsChildren() async throws {
    let store = InMemoryModelStore(pageSize: 2)
    let shelf = Shelf(building: "B#1", number: 7)
    let other = Shelf(building: "B#1", number: 8)
    try store.save([shelf, other])
    try store.save(
      (1...5).map { Book(id: "b\($0)", title: "Book \($0)", shelf: $0 == 3 ? other : shelf) })

    let book = try #require(try store.model(Book.self, identifier: Book.Identifier(id: "b1")))
    #expect(book._shelf.identifiers == shelf.identifier.components)
    #expect(try await book.shelf?.number == 7)
    #expect(
      try store.models(
        Book.self,
        where: [
          IdentifierComponent(name: "shelfBooksBuilding", "B#1"),
          IdentifierComponent(name: "shelfBooksNumber", 8),
        ]
      ).map(\.id) == ["b3"])

    let loadedShelf = try #require(try store.model(Shelf.self, identifier: shelf.identifier))
    let books = try #require(loadedShelf.books)
    #expect(books.associatedIdentifiers == [.string("B#1"), .int(7)])
    #expect(try await books.fetch().map(\.id) == ["b1", "b2"])
    #expect(try await books.nextPage().map(\.id) == ["b4", "b5"])
    #expect(!books.hasNextPage)
    #expect(store.statistics.pageLoads == 2)
    #expect(store.statistics.referenceLoads == 1)
  }

  @Test func hasOneReferencesLoadsByTheChildsForeignKey() async throws {
    let store = InMemoryModelStore()
    try store.save(Customer(id: "u1", name: "Ann"))
    try store.save(Customer(id: "u2", name: "Bob"))
    try store.save(Cart(id: "k1", customerId: "u2", total: 3))
    let ann = try #require(
      try store.model(Customer.self, identifier: Customer.Identifier(id: "u1")))
    let bob = try #require(
      try store.model(Customer.self, identifier: Customer.Identifier(id: "u2")))
    #expect(try await ann.activeCart == nil)
    #expect(try await bob.activeCart?.id == "k1")
    await #expect(
      throws: LazyModelError.notFound(
        model: "Cart", identifiers: [IdentifierComponent(name: "customerId", value: .string("u1"))])
    ) {
      try await ann._activeCart.require()
    }
  }

  @Test func saveReplacesInPlaceAndDeleteRemoves() throws {
    let store = InMemoryModelStore()
    try store.save([
      Cart(id: "a", customerId: "u", total: 1), Cart(id: "b", customerId: "u", total: 2),
    ])
    try store.save(Cart(id: "a", customerId: "u", total: 5))
    #expect(try store.models(Cart.self).map(\.total) == [5, 2])
    #expect(
      try store.models(Cart.self, where: [IdentifierComponent(name: "total", 2.0)]).map(\.id) == [
        "b"
      ])
    #expect(store.delete(Cart.self, identifier: Cart.Identifier(id: "a")))
    #expect(!store.delete(Cart.self, identifier: Cart.Identifier(id: "a")))
    #expect(try store.models(Cart.self).map(\.id) == ["b"])
    #expect(try store.model(Cart.self, identifier: Cart.Identifier(id: "a")) == nil)
  }

  @Test func foreignCursorIsATypedError() async throws {
    let store = InMemoryModelStore()
    let provider = store.listProvider(
      for: Comment.self, associatedFields: ["postID"], associatedIdentifiers: [.string("p")])
    await #expect(throws: InMemoryModelStoreError.invalidCursor("nextToken-from-elsewhere")) {
      try await provider.loadPage(after: "nextToken-from-elsewhere", limit: nil)
    }
    let empty = try await provider.loadPage(after: nil, limit: 10)
    #expect(empty.elements.isEmpty && empty.nextCursor == nil)
  }

  @Test func registryListsTheModels() {
    #expect(Models.registry.model(named: "Shelf") == Shelf.self)
    #expect(Models.registry.model(named: "Nope") == nil)
    #expect(
      Models.registry.schemas.map(\.name) == [
        "Book", "Cart", "Comment", "Customer", "Post", "Shelf",
      ])
    #expect(Book.schema.keyFieldType(named: "shelfBooksNumber") == .int)
    #expect(Comment.schema.keyFieldType(named: "postID") == .id)
    #expect(Comment.schema.keyFieldType(named: "post") == nil)
  }
}
