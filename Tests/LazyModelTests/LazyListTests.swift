import Foundation
import LazyModel
import Testing

@Suite struct LazyListTests {
  let comments = (1...6).map { Comment(id: "c\($0)", content: "comment \($0)") }
  var pages: [[Comment]] {
    [Array(comments[0..<2]), Array(comments[2..<4]), Array(comments[4..<6])]
  }
  let parent: [KeyValue] = [.string("p1")]

  func notLoadedList(_ provider: PagedProvider<Comment>?) -> LazyList<Comment> {
    LazyList(associatedIdentifiers: parent, associatedFields: ["postID"], provider: provider)
  }

  @Test func readingBeforeFetchThrowsAndNeverTraps() async throws {
    let list = notLoadedList(PagedProvider(pages: pages))
    let expected = LazyModelError.listNotLoaded(
      model: "Comment", associatedFields: ["postID"], associatedIdentifiers: parent)
    #expect(throws: expected) { try list.elements }
    #expect(throws: expected) { try list.loaded }
    await #expect(throws: expected) { try await list.nextPage() }
    #expect(!list.hasNextPage)
    #expect(!list.isLoaded)
    guard case .notLoaded(let identifiers, let fields) = list.state else {
      Issue.record("expected notLoaded")
      return
    }
    #expect(identifiers == parent && fields == ["postID"])
    #expect(
      expected.description
        == #"the list of Comment(postID: "p1") is not loaded: call fetch() first"#)
  }

  @Test func fetchThenPageThroughToTheEnd() async throws {
    let provider = PagedProvider(pages: pages)
    let list = notLoadedList(provider)
    #expect(try await list.fetch().map(\.id) == ["c1", "c2"])
    #expect(list.isLoaded)
    #expect(list.hasNextPage)
    #expect(try await list.fetch().map(\.id) == ["c1", "c2"])
    #expect(try await list.nextPage().map(\.id) == ["c3", "c4"])
    #expect(try await list.nextPage().map(\.id) == ["c5", "c6"])
    #expect(!list.hasNextPage)
    await #expect(throws: LazyModelError.noNextPage(model: "Comment")) { try await list.nextPage() }
    #expect(try list.elements.map(\.id) == comments.map(\.id))
    guard case .loaded(let all) = list.state else {
      Issue.record("expected loaded")
      return
    }
    #expect(all.count == 6)
    #expect(provider.calls == [nil, "1", "2"])
  }

  @Test func loadedSnapshotIsARandomAccessCollection() async throws {
    let list = notLoadedList(PagedProvider(pages: pages))
    try await list.fetch()
    let snapshot = try list.loaded
    #expect(snapshot.count == 2)
    #expect(snapshot.hasNextPage)
    #expect(snapshot.indices == 0..<2)
    #expect(snapshot[1].id == "c2")
    #expect(snapshot.reversed().map(\.id) == ["c2", "c1"])
    #expect(snapshot.index(before: snapshot.endIndex) == 1)
    #expect(snapshot.distance(from: 0, to: 2) == 2)
    try await list.nextPage()
    // A snapshot is a value: later pages do not change it.
    #expect(snapshot.map(\.id) == ["c1", "c2"])
    #expect(try list.loaded.map(\.id) == ["c1", "c2", "c3", "c4"])
    func firstOf<C: RandomAccessCollection>(_ collection: C) -> C.Element? { collection.first }
    #expect(firstOf(try list.loaded)?.id == "c1")
  }

  @Test func listMadeFromElementsIsLoaded() throws {
    let list = LazyList(comments)
    #expect(list.isLoaded)
    #expect(!list.hasNextPage)
    #expect(try list.loaded.count == 6)
    #expect(try list.elements.last?.id == "c6")
  }

  @Test func failedFetchIsNotCached() async throws {
    let provider = PagedProvider(pages: pages, failures: 1)
    let list = notLoadedList(provider)
    await #expect(throws: InjectedFailure(call: 1)) { try await list.fetch() }
    #expect(!list.isLoaded)
    #expect(try await list.fetch().count == 2)
    #expect(provider.calls == [nil, nil])
  }

  @Test func failedNextPageKeepsTheCursor() async throws {
    let provider = PagedProvider(pages: pages, failures: 1)
    let list = LazyList(
      firstPage: Array(comments[0..<2]), nextCursor: "1", associatedIdentifiers: parent,
      associatedFields: ["postID"], provider: provider)
    await #expect(throws: InjectedFailure(call: 1)) { try await list.nextPage() }
    #expect(try list.elements.count == 2)
    #expect(list.hasNextPage)
    #expect(try await list.nextPage().map(\.id) == ["c3", "c4"])
    #expect(provider.calls == ["1", "1"])
  }

  @Test func noProviderNamesTheAssociation() async throws {
    let list = notLoadedList(nil)
    let expected = LazyModelError.noProvider(
      model: "Comment", identifiers: [IdentifierComponent(name: "postID", value: .string("p1"))])
    await #expect(throws: expected) { try await list.fetch() }
  }

  @Test func concurrentNextPageCallsAreSerialized() async throws {
    let tenPages = (0..<10).map { page in (0..<3).map { Comment(id: "c\(page)-\($0)", content: "") }
    }
    let provider = PagedProvider(pages: tenPages, delay: .milliseconds(5))
    let list = notLoadedList(provider)
    try await list.fetch()
    let results = try await withThrowingTaskGroup(of: [Comment].self) { group in
      for _ in 0..<9 { group.addTask { try await list.nextPage() } }
      var pages: [[Comment]] = []
      for try await page in group { pages.append(page) }
      return pages
    }
    #expect(results.count == 9)
    #expect(Set(results.map { $0.first?.id }).count == 9)
    #expect(try list.elements.map(\.id) == tenPages.flatMap { $0 }.map(\.id))
    #expect(provider.calls == [nil] + (1...9).map(String.init))
    await #expect(throws: LazyModelError.noNextPage(model: "Comment")) { try await list.nextPage() }
  }

  @Test func encodesLoadedAsArrayOrConnectionAndNotLoadedAsEmptyObject() throws {
    let two = Array(comments[0..<2])
    #expect(
      try jsonText(LazyList(two))
        == #"[{"content":"comment 1","id":"c1","post":null},{"content":"comment 2","id":"c2","post":null}]"#
    )
    let paged = LazyList(
      firstPage: [comments[0]], nextCursor: "tok", associatedIdentifiers: parent,
      associatedFields: ["postID"], provider: nil)
    #expect(
      try jsonText(paged)
        == #"{"items":[{"content":"comment 1","id":"c1","post":null}],"nextToken":"tok"}"#)
    #expect(try jsonText(notLoadedList(nil)) == "{}")
  }

  @Test func roundTripsThroughTheParentModel() async throws {
    let store = InMemoryModelStore(pageSize: 2)
    let post = Post(id: "p1", title: "Hello")
    try store.save(post)
    for comment in comments {
      var child = comment
      child.setPost(post)
      try store.save(child)
    }
    // Loaded list inside the parent: decodes loaded and keeps the cursor and the provider.
    let fromStore = try #require(try store.model(Post.self, identifier: Post.Identifier(id: "p1")))
    let list = try #require(fromStore.comments)
    #expect(!list.isLoaded)
    #expect(try await list.fetch().map(\.id) == ["c1", "c2"])
    let text = try jsonText(fromStore)
    #expect(
      text.hasPrefix(#"{"comments":{"items":[{"content":"comment 1","id":"c1","post":{"id":"p1"}}"#)
    )
    #expect(text.contains(#""nextToken":"2""#))
    let decoded = try store.decode(Post.self, from: Data(text.utf8))
    let decodedList = try #require(decoded.comments)
    #expect(try decodedList.elements.map(\.id) == ["c1", "c2"])
    #expect(decodedList.associatedIdentifiers == [.string("p1")])
    #expect(decodedList.associatedFields == ["postID"])
    #expect(try await decodedList.nextPage().map(\.id) == ["c3", "c4"])

    // Not-loaded list inside the parent: `{}` decodes back to a not-loaded list of the same children.
    let unloaded = try jsonText(
      try #require(try store.model(Post.self, identifier: Post.Identifier(id: "p1"))))
    #expect(unloaded == #"{"comments":{},"id":"p1","title":"Hello"}"#)
    let again = try #require(try store.decode(Post.self, from: Data(unloaded.utf8)).comments)
    guard case .notLoaded(let identifiers, let fields) = again.state else {
      Issue.record("expected notLoaded")
      return
    }
    #expect(identifiers == [.string("p1")] && fields == ["postID"])
    #expect(try await again.fetch().count == 2)
  }

  @Test func standaloneDecodingOfEveryForm() async throws {
    let array = try decodePlain(LazyList<Cart>.self, #"[{"id":"a","customerId":"u","total":1}]"#)
    #expect(try array.elements.map(\.id) == ["a"])
    #expect(!array.hasNextPage)
    let connection = try decodePlain(
      LazyList<Cart>.self, #"{"items":[{"id":"a","customerId":"u","total":1}],"nextToken":"n"}"#)
    #expect(connection.hasNextPage)
    await #expect(throws: LazyModelError.noProvider(model: "Cart", identifiers: [])) {
      try await connection.nextPage()
    }
    #expect(try connection.elements.count == 1)
    let empty = try decodePlain(LazyList<Cart>.self, "{}")
    #expect(!empty.isLoaded)
    #expect(throws: DecodingError.self) {
      try decodePlain(LazyList<Cart>.self, #"{"items":[{"id":1}]}"#)
    }
  }
}
