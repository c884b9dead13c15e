import Foundation
import LazyModel
import Testing

@Suite struct LazyReferenceTests {
  let post = Post(id: "p1", title: "Hello")

  @Test func loadedReferenceReadsWithoutProvider() async throws {
    let reference = LazyReference(post)
    guard case .loaded(let model?) = reference.state else {
      Issue.record("expected loaded, got \(reference.state)")
      return
    }
    #expect(model.title == "Hello")
    #expect(reference.isLoaded)
    #expect(reference.identifiers == Post.key("p1"))
    #expect(try await reference.get()?.id == "p1")
    #expect(try await reference.require().title == "Hello")
  }

  @Test func emptyReferenceRequireNamesModel() async throws {
    let reference = LazyReference<Post>(nil)
    #expect(reference.isLoaded)
    #expect(reference.identifiers == nil)
    #expect(try await reference.get() == nil)
    await #expect(throws: LazyModelError.notFound(model: "Post", identifiers: [])) {
      try await reference.require()
    }
  }

  @Test func notLoadedLoadsOnceThenStaysLoaded() async throws {
    let provider = CountingProvider([post])
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    guard case .notLoaded(let identifiers) = reference.state else {
      Issue.record("expected notLoaded")
      return
    }
    #expect(identifiers == Post.key("p1"))
    #expect(!reference.isLoaded)
    #expect(try await reference.get()?.title == "Hello")
    #expect(try await reference.get()?.title == "Hello")
    #expect(try await reference.require().id == "p1")
    #expect(provider.loads == 1)
    guard case .loaded(let model?) = reference.state else {
      Issue.record("expected loaded")
      return
    }
    #expect(model.id == "p1")
  }

  @Test func requireAfterLoadingNothingNamesTheIdentifiers() async throws {
    let provider = CountingProvider<Post>([])
    let reference = LazyReference(identifiers: Post.key("missing#\"1\""), provider: provider)
    #expect(try await reference.get() == nil)
    guard case .loaded(nil) = reference.state else {
      Issue.record("expected loaded(nil), got \(reference.state)")
      return
    }
    // The reference is loaded-empty now; the error still names what was looked for.
    let expected = LazyModelError.notFound(model: "Post", identifiers: Post.key("missing#\"1\""))
    await #expect(throws: expected) { try await reference.require() }
    #expect(expected.description == #"no Post found for Post(id: "missing#\"1\"")"#)
    #expect(reference.identifiers == Post.key("missing#\"1\""))
    #expect(provider.loads == 1)
  }

  @Test func inFlightLoadReadsAsNotLoadedAndEncodesItsIdentifiers() async throws {
    let provider = CountingProvider([post], delay: .milliseconds(200))
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    async let loaded = reference.get()
    while provider.loadsEntered == 0 { try await Task.sleep(for: .milliseconds(1)) }
    // The load is in flight (or just finished on a very slow machine): reading never waits for it.
    if provider.loads == 0 {
      guard case .notLoaded(let identifiers) = reference.state else {
        Issue.record("expected notLoaded while the load is in flight")
        return
      }
      #expect(identifiers == Post.key("p1"))
      #expect(!reference.isLoaded)
    }
    #expect(try await loaded?.title == "Hello")
    #expect(reference.isLoaded)
    #expect(try jsonText(reference) == #"{"id":"p1","title":"Hello"}"#)
    #expect(provider.loads == 1)
  }

  @Test func failedLoadIsNotCached() async throws {
    let provider = CountingProvider([post], failures: 1)
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    await #expect(throws: InjectedFailure(call: 1)) { try await reference.get() }
    #expect(!reference.isLoaded)
    guard case .notLoaded(let identifiers) = reference.state else {
      Issue.record("expected notLoaded after failure")
      return
    }
    #expect(identifiers == Post.key("p1"))
    #expect(try await reference.get()?.title == "Hello")
    #expect(provider.loads == 2)
  }

  @Test func noProviderIsATypedError() async throws {
    let reference = LazyReference<Post>(identifiers: Post.key("p1"))
    await #expect(throws: LazyModelError.noProvider(model: "Post", identifiers: Post.key("p1"))) {
      try await reference.get()
    }
    await #expect(throws: LazyModelError.noProvider(model: "Post", identifiers: Post.key("p1"))) {
      try await reference.require()
    }
  }

  @Test func encodesLoadedInFullEmptyAsNullNotLoadedAsIdentifiers() throws {
    #expect(try jsonText(LazyReference(post)) == #"{"id":"p1","title":"Hello"}"#)
    #expect(try jsonText(LazyReference<Post>(nil)) == "null")
    #expect(try jsonText(LazyReference<Post>(identifiers: Post.key("p1"))) == #"{"id":"p1"}"#)
    let shelfKey = Shelf.Identifier(building: "B", number: 7).components
    #expect(
      try jsonText(LazyReference<Shelf>(identifiers: shelfKey)) == #"{"building":"B","number":7}"#)
  }

  @Test func roundTripsEveryStateThroughJSON() async throws {
    let loaded = try decodePlain(LazyReference<Post>.self, try jsonText(LazyReference(post)))
    guard case .loaded(let model?) = loaded.state else {
      Issue.record("expected loaded")
      return
    }
    #expect(model.id == "p1" && model.title == "Hello")

    let empty = try decodePlain(LazyReference<Post>.self, try jsonText(LazyReference<Post>(nil)))
    guard case .loaded(nil) = empty.state else {
      Issue.record("expected loaded(nil)")
      return
    }

    let shelfKey = Shelf.Identifier(building: "B", number: 7).components
    let store = InMemoryModelStore()
    try store.save(Shelf(building: "B", number: 7))
    let text = try jsonText(LazyReference<Shelf>(identifiers: shelfKey))
    let notLoaded = try store.decoder().decode(LazyReference<Shelf>.self, from: Data(text.utf8))
    guard case .notLoaded(let identifiers) = notLoaded.state else {
      Issue.record("expected notLoaded")
      return
    }
    #expect(identifiers == shelfKey)
    #expect(try await notLoaded.get()?.number == 7)
  }

  @Test func typenameBesideTheKeyStillMeansNotLoaded() throws {
    let reference = try decodePlain(LazyReference<Post>.self, #"{"__typename":"Post","id":"p9"}"#)
    guard case .notLoaded(let identifiers) = reference.state else {
      Issue.record("expected notLoaded")
      return
    }
    #expect(identifiers == Post.key("p9"))
  }

  @Test func malformedReferenceIsADecodingError() {
    #expect(throws: DecodingError.self) {
      try decodePlain(LazyReference<Post>.self, #"{"title":"no id"}"#)
    }
    #expect(throws: DecodingError.self) {
      try decodePlain(LazyReference<Shelf>.self, #"{"building":"B","number":"7"}"#)
    }
  }

  @Test func modelWithReferenceRoundTripsThroughJSON() throws {
    var comment = Comment(id: "c1", content: "hi")
    comment.setPost(post)
    let text = try jsonText(comment)
    #expect(text == #"{"content":"hi","id":"c1","post":{"id":"p1","title":"Hello"}}"#)
    let decoded = try decodePlain(Comment.self, text)
    guard case .loaded(let model?) = decoded._post.state else {
      Issue.record("expected loaded post")
      return
    }
    #expect(model.title == "Hello")
    // The decoded post has a not-loaded comments list now, which encodes as `{}`; from here on the
    // text is stable.
    let reEncoded = try jsonText(decoded)
    #expect(
      reEncoded == #"{"content":"hi","id":"c1","post":{"comments":{},"id":"p1","title":"Hello"}}"#)
    #expect(try jsonText(try decodePlain(Comment.self, reEncoded)) == reEncoded)
  }

  @Test func hasOneReferencesRoundTripsItsForeignKey() async throws {
    let store = InMemoryModelStore()
    try store.save(Cart(id: "cart1", customerId: "u1", total: 9.5))
    let customer = try store.decode(Customer.self, from: Data(#"{"id":"u1","name":"Ann"}"#.utf8))
    #expect(
      customer._activeCart.identifiers == [
        IdentifierComponent(name: "customerId", value: .string("u1"))
      ])
    let text = try jsonText(customer)
    #expect(text == #"{"activeCart":{"customerId":"u1"},"id":"u1","name":"Ann"}"#)
    let again = try store.decode(Customer.self, from: Data(text.utf8))
    #expect(!again._activeCart.isLoaded)
    #expect(try await again.activeCart?.total == 9.5)
  }
}

@Suite struct LoadAllTests {
  let posts = (1...4).map { Post(id: "p\($0)", title: "T\($0)") }

  @Test func oneBatchPerProviderDeduplicated() async throws {
    let provider = CountingProvider(posts)
    let a = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let b = LazyReference(identifiers: Post.key("p2"), provider: provider)
    let aAgain = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let missing = LazyReference(identifiers: Post.key("nope"), provider: provider)
    let loaded = LazyReference(posts[3])
    let models = try await LazyReference.loadAll([a, b, a, aAgain, loaded, missing])
    #expect(models.map { $0?.id } == ["p1", "p2", "p1", "p1", "p4", nil])
    #expect(provider.batches == [[Post.key("p1"), Post.key("p2"), Post.key("nope")]])
    #expect(provider.loads == 0)
    #expect([a, b, aAgain, missing].allSatisfy { $0.isLoaded })
    await #expect(throws: LazyModelError.notFound(model: "Post", identifiers: Post.key("nope"))) {
      try await missing.require()
    }
  }

  @Test func groupsByProviderInstance() async throws {
    let first = CountingProvider(posts)
    let second = CountingProvider(posts)
    let references = [
      LazyReference(identifiers: Post.key("p1"), provider: first),
      LazyReference(identifiers: Post.key("p2"), provider: second),
      LazyReference(identifiers: Post.key("p3"), provider: first),
    ]
    let models = try await LazyReference.loadAll(references)
    #expect(models.map { $0?.title } == ["T1", "T2", "T3"])
    #expect(first.batches == [[Post.key("p1"), Post.key("p3")]])
    #expect(second.batches == [[Post.key("p2")]])
  }

  @Test func storeProvidersBatchAcrossDecodedModels() async throws {
    let store = InMemoryModelStore()
    try store.save(posts)
    for index in 0..<20 {
      try store.save(Comment(id: "c\(index)", content: "\(index)", post: posts[index % 3]))
    }
    let comments = try store.models(Comment.self)
    #expect(comments.count == 20)
    let loaded = try await LazyReference.loadAll(comments.map(\._post))
    #expect(loaded.map { $0?.id } == (0..<20).map { "p\($0 % 3 + 1)" })
    let statistics = store.statistics
    #expect(statistics.batchLoads == 1)
    #expect(statistics.batchIdentifiers == 3)
    #expect(statistics.referenceLoads == 0)
  }

  /// Ids `"\u{E9}"` ("é" precomposed) and `"e\u{301}"` ("e" and a combining accent) are
  /// canonically equivalent but different keys (both stores compare key bytes): each comment gets
  /// its own post, and each post its own comments.
  @Test func canonicallyEquivalentIdsLoadTheirOwnParents() async throws {
    let store = InMemoryModelStore()
    let precomposed = Post(id: "\u{E9}", title: "precomposed")
    let decomposed = Post(id: "e\u{301}", title: "decomposed")
    try store.save([precomposed, decomposed])
    try store.save([
      Comment(id: "c1", content: "1", post: precomposed),
      Comment(id: "c2", content: "2", post: decomposed),
      Comment(id: "c3", content: "3", post: precomposed),
      Comment(id: "c4", content: "4", post: decomposed),
    ])
    let comments = try store.models(Comment.self)
    let parents = try await LazyReference.loadAll(comments.map(\._post))
    #expect(
      parents.map { $0?.title } == ["precomposed", "decomposed", "precomposed", "decomposed"])
    #expect(
      parents.map { $0.map { Array($0.id.unicodeScalars) } }
        == [["\u{E9}"], ["e", "\u{301}"], ["\u{E9}"], ["e", "\u{301}"]])
    #expect(store.statistics.batchLoads == 1)
    #expect(store.statistics.batchIdentifiers == 2)
    let posts = try store.models(Post.self)
    #expect(posts.map(\.title) == ["precomposed", "decomposed"])
    #expect(try await posts[0].comments?.fetch().map(\.id) == ["c1", "c3"])
    #expect(try await posts[1].comments?.fetch().map(\.id) == ["c2", "c4"])
  }

  @Test func failedBatchLeavesReferencesRetryable() async throws {
    let provider = CountingProvider(posts, failures: 1)
    let a = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let b = LazyReference(identifiers: Post.key("p2"), provider: provider)
    await #expect(throws: InjectedFailure(call: 1)) { try await LazyReference.loadAll([a, b]) }
    #expect(!a.isLoaded && !b.isLoaded)
    #expect(try await a.get()?.id == "p1")
    #expect(try await LazyReference.loadAll([a, b]).map { $0?.id } == ["p1", "p2"])
    #expect(provider.loads == 1)
    #expect(provider.batches.count == 2)
  }

  @Test func wrongResultCountIsATypedError() async throws {
    let provider = CountingProvider(posts, dropOneBatchResult: true)
    let a = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let b = LazyReference(identifiers: Post.key("p2"), provider: provider)
    await #expect(throws: BatchLoadError(model: "Post", requested: 2, returned: 1)) {
      try await LazyReference.loadAll([a, b])
    }
    #expect(!a.isLoaded)
  }

  @Test func concurrentGetSharesTheBatch() async throws {
    let provider = CountingProvider(posts, delay: .milliseconds(100))
    let references = (1...3).map {
      LazyReference(identifiers: Post.key("p\($0)"), provider: provider)
    }
    async let all = LazyReference.loadAll(references)
    // loadAll claims its references before it calls the provider, so once the batch call has
    // started, get() must join it (or find the reference loaded), never load on its own.
    while provider.batchesEntered == 0 { try await Task.sleep(for: .milliseconds(1)) }
    let single = try await references[0].get()
    #expect(single?.id == "p1")
    #expect(try await all.count == 3)
    #expect(provider.loads == 0)
    #expect(provider.batches.count == 1)
  }

  /// Callers of `get()` that join a batch get the model of their own identifiers, whatever their
  /// position in the batch, also for a second reference with the same identifiers.
  @Test func concurrentGetsJoinTheirOwnEntryOfTheBatch() async throws {
    let provider = CountingProvider(posts, delay: .milliseconds(100))
    let references = ["p3", "p1", "p2", "p1"].map {
      LazyReference(identifiers: Post.key($0), provider: provider)
    }
    let loaded = LazyReference(posts[3])
    async let all = LazyReference.loadAll(references + [loaded, references[2]])
    while provider.batchesEntered == 0 { try await Task.sleep(for: .milliseconds(1)) }
    async let third = references[2].get()
    async let duplicate = references[3].get()
    #expect(try await third?.id == "p2")
    #expect(try await duplicate?.id == "p1")
    #expect(try await all.map { $0?.id } == ["p3", "p1", "p2", "p1", "p4", "p2"])
    #expect(provider.batches == [[Post.key("p3"), Post.key("p1"), Post.key("p2")]])
    #expect(provider.loads == 0)
  }

  @Test func noProviderReferenceFailsLoadAll() async throws {
    let orphan = LazyReference<Post>(identifiers: Post.key("p1"))
    await #expect(throws: LazyModelError.noProvider(model: "Post", identifiers: Post.key("p1"))) {
      try await LazyReference.loadAll([orphan])
    }
  }
}
