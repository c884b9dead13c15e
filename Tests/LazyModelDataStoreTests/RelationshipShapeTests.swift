import Foundation
import HasManyImplicitModels
import LazyModel
import LazyModelDataStore
import RegressionEnumValuesSwiftKeywords
import RegressionHasManyExplicitFkIndex
import RegressionListNullabilityWithLazyBelongsTo
import SelfAndOneToOneModels
import Testing

@testable import CompositeKeyHasManyModels
@testable import RegressionHasOneBelongsToCompositeKeys
@testable import RegressionReferencesHasOneHasMany
@testable import SeedPostCommentModels

/// The indexed child of `Generated/regressions/has-many-explicit-fk-index`, not Testing's `Comment`.
private typealias Comment = RegressionHasManyExplicitFkIndex.Comment

/// The identifiers a not-loaded reference holds, or `nil` when it is loaded.
func notLoadedIdentifiers<M: Model>(_ reference: LazyReference<M>) -> [IdentifierComponent]? {
  if case .notLoaded(let identifiers) = reference.state { return identifiers }
  return nil
}

@Suite("Every relationship shape, on a file and in memory")
struct RelationshipShapeTests {
  static let takenAt = try! Temporal.DateTime(iso8601String: "2026-11-30T09:30:00.250Z")
  static let day = try! Temporal.Date(iso8601String: "2026-11-30")
  static let time = try! Temporal.Time(iso8601String: "09:30:00.250")

  @Test(
    "composite key of ID, AWSDateTime, AWSDate, AWSTime, Int, enum, Float, Boolean",
    arguments: StoreLocation.allCases)
  func compositeNonStringKey(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let reading = Reading(
      id: "r#1", takenAt: Self.takenAt, day: Self.day, time: Self.time, seq: 7, priority: .high,
      value: 2.5,
      flagged: true, note: "warm")
    let sibling = Reading(
      id: "r#1", takenAt: Self.takenAt, day: Self.day, time: Self.time, seq: 7, priority: .high,
      value: 2.5,
      flagged: false, note: "other")
    try await store.save(reading)
    try await store.save(sibling)
    try await store.save(ReadingNote(id: "n1", text: "first", reading: reading))

    log.clear()
    let found = try #require(try await store.query(Reading.self, byIdentifier: reading.identifier))
    #expect(found.note == "warm")
    #expect(found.identifier == reading.identifier)
    #expect(
      log.queries == [
        #"SELECT "id", "takenAt", "day", "time", "seq", "priority", "value", "flagged", "note", "createdAt", "updatedAt" FROM "Reading" WHERE "id" = ? AND "takenAt" = ? AND "day" = ? AND "time" = ? AND "seq" = ? AND "priority" = ? AND "value" = ? AND "flagged" = ?"#
      ])

    let note = try #require(try await store.query(ReadingNote.self).first)
    #expect(notLoadedIdentifiers(note._reading) == reading.identifier.components)
    let parent = try #require(try await note.reading)
    #expect(
      parent.flagged == true && parent.note == "warm" && parent.priority == .high && parent.seq == 7
    )

    let notes = try #require(found.notes)
    #expect(try await notes.fetch().map(\.text) == ["first"])
    let siblingNotes = try #require(
      try await store.query(Reading.self, byIdentifier: sibling.identifier)?.notes)
    #expect(try await siblingNotes.fetch().isEmpty)
  }

  @Test("composite key whose sort key is named id", arguments: StoreLocation.allCases)
  func sortKeyNamedID(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    try await store.save(TodoTask(ownerId: "alice", id: "1", title: "A1"))
    try await store.save(TodoTask(ownerId: "bob", id: "1", title: "B1"))
    try await store.save(TodoTask(ownerId: "alice", id: "1", title: "A1 renamed"))
    #expect(try await store.count(TodoTask.self) == 2)
    #expect(
      try await store.query(TodoTask.self, byIdentifier: .init(ownerId: "alice", id: "1"))?.title
        == "A1 renamed")
    #expect(
      try await store.query(TodoTask.self, byIdentifier: .init(ownerId: "bob", id: "1"))?.title
        == "B1")
    #expect(try await store.delete(TodoTask.self, byIdentifier: .init(ownerId: "bob", id: "1")))
    #expect(try await store.query(TodoTask.self).map(\.ownerId) == ["alice"])
  }

  @Test("hasOne / belongsTo both ways with composite keys", arguments: StoreLocation.allCases)
  func hasOneBelongsToComposite(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    var project = Project(projectId: "p1", name: "Apollo")
    try await store.save(project)
    let team = Team(teamId: "t1", name: "Crew", project: project)
    try await store.save(team)
    project.setTeam(team)
    try await store.save(project)

    let storedTeam = try #require(try await store.query(Team.self).first)
    #expect(
      notLoadedIdentifiers(storedTeam._project) == [
        IdentifierComponent(name: "projectId", value: .string("p1")),
        IdentifierComponent(name: "name", value: .string("Apollo")),
      ])
    log.clear()
    #expect(try await storedTeam.project?.name == "Apollo")
    #expect(
      log.queries == [
        #"SELECT "projectId", "name", "projectTeamTeamId", "projectTeamName", "createdAt", "updatedAt" FROM "Project" WHERE "projectId" = ? AND "name" = ?"#
      ])

    let storedProject = try #require(
      try await store.query(Project.self, byIdentifier: .init(projectId: "p1", name: "Apollo")))
    #expect(
      notLoadedIdentifiers(storedProject._team) == [
        IdentifierComponent(name: "teamId", value: .string("t1")),
        IdentifierComponent(name: "name", value: .string("Crew")),
      ])
    #expect(try await storedProject.team?.teamId == "t1")
  }

  @Test(
    "references: hasOne and hasMany through the child's customerId",
    arguments: StoreLocation.allCases)
  func referencesShape(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let customer = Customer(id: "c1", name: "Ada")
    try await store.save(customer)
    try await store.save(Customer(id: "c2", name: "Bob"))
    try await store.save(Cart(id: "cart1", items: ["tea", nil, "milk"], customer: customer))
    try await store.save([
      Order(id: "o1", total: 9.5, customer: customer),
      Order(id: "o2", total: 1, customer: customer),
    ])

    let stored = try #require(try await store.query(Customer.self, byIdentifier: .init(id: "c1")))
    #expect(
      notLoadedIdentifiers(stored._activeCart) == [
        IdentifierComponent(name: "customerId", value: .string("c1"))
      ])
    log.clear()
    let cart = try #require(try await stored.activeCart)
    #expect(cart.items == ["tea", nil, "milk"])
    #expect(
      log.queries == [
        #"SELECT "id", "items", "customerId", "createdAt", "updatedAt" FROM "Cart" WHERE "customerId" = ? LIMIT 1"#
      ])
    #expect(try await cart.customer?.name == "Ada")

    let orders = try #require(stored.orders)
    #expect(try await orders.fetch().map(\.id) == ["o1", "o2"])
    let other = try #require(try await store.query(Customer.self, byIdentifier: .init(id: "c2")))
    #expect(try await other.activeCart == nil)
    #expect(try await other.orders?.fetch().isEmpty == true)
  }

  @Test("uni-directional hasMany with an implicit FK field", arguments: StoreLocation.allCases)
  func implicitForeignKey(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let blog = Blog(id: "b1", name: "Notes")
    try await store.save(blog)
    try await store.save([
      BlogPost(id: "bp1", title: "one", blogPostsId: "b1"),
      BlogPost(id: "bp2", title: "two", blogPostsId: "b1"),
      BlogPost(id: "bp3", title: "stray", blogPostsId: nil),
    ])
    let stored = try #require(try await store.query(Blog.self, byIdentifier: .init(id: "b1")))
    log.clear()
    #expect(try await stored.posts?.fetch().map(\.title) == ["one", "two"])
    #expect(
      log.queries == [
        #"SELECT "id", "title", "blogPostsId", "createdAt", "updatedAt" FROM "BlogPost" WHERE "blogPostsId" = ? ORDER BY "id" LIMIT ?"#
      ])
    #expect(
      try await store.query(BlogPost.self, where: BlogPost.keys.blogPostsId.isNil()).map(\.id) == [
        "bp3"
      ])
  }

  @Test(
    "uni-directional hasMany through a user-named FK and an index",
    arguments: StoreLocation.allCases)
  func explicitForeignKeyAndIndex(_ location: StoreLocation) async throws {
    typealias Post = RegressionHasManyExplicitFkIndex.Post
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    try await store.save(Post(id: "p1", title: "T"))
    try await store.save([
      Comment(id: "c2", postID: "p1", content: "b"), Comment(id: "c1", postID: "p1", content: "a"),
    ])
    let post = try #require(try await store.query(Post.self, byIdentifier: .init(id: "p1")))
    #expect(try await post.comments?.fetch().map(\.id) == ["c1", "c2"])
    let byIndex = try await store.query(
      Comment.self, where: Comment.keys.postID.eq("p1") && Comment.keys.content.beginsWith("a"))
    #expect(byIndex.map(\.id) == ["c1"])
  }

  @Test("self reference: parent and children", arguments: StoreLocation.allCases)
  func selfReference(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let root = Category(id: "e1", name: "Root")
    try await store.save(root)
    try await store.save([
      Category(id: "e2", name: "Ann", parent: root),
      Category(id: "e3", name: "Ben", parent: root),
    ])
    let ann = try #require(try await store.query(Category.self, byIdentifier: .init(id: "e2")))
    let parent = try #require(try await ann.parent)
    #expect(parent.name == "Root")
    #expect(try await parent.parent == nil)
    #expect(try await parent.children?.fetch().map(\.name) == ["Ann", "Ben"])
    try await store.delete(root)
    #expect(try await store.count(Category.self) == 0)
  }

  @Test("embedded types and lists of every nullability", arguments: StoreLocation.allCases)
  func embeddedAndLists(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let board = Board(id: "b1")
    try await store.save(board)
    let card = Card(
      id: "k1", labelsA: [Label(text: "a"), nil], labelsB: nil, labelsC: [Label(text: nil)],
      labelsD: [nil], scores: [1, nil, 3], board: board)
    try await store.save(card)
    let stored = try #require(try await store.query(Card.self, byIdentifier: .init(id: "k1")))
    #expect(stored.labelsA == [Label(text: "a"), nil])
    #expect(stored.labelsB == nil)
    #expect(stored.labelsC == [Label(text: nil)])
    #expect(stored.labelsD == [nil])
    #expect(stored.scores == [1, nil, 3])
    #expect(try await stored.board?.id == "b1")
  }

  @Test("enums with keyword cases", arguments: StoreLocation.allCases)
  func enumKeywordCases(_ location: StoreLocation) async throws {
    typealias Post = RegressionEnumValuesSwiftKeywords.Post
    let (store, _) = try makeStore(
      location, registry: RegressionEnumValuesSwiftKeywords.Models.registry)
    try await store.save(Post(id: "k1", title: "t", visibility: .default))
    let stored = try #require(try await store.query(Post.self, byIdentifier: .init(id: "k1")))
    #expect(stored.visibility == .default)
    #expect(
      try await store.query(Post.self, where: Post.keys.visibility.eq(Visibility.default)).count
        == 1)
    #expect(
      try await store.query(Post.self, where: Post.keys.visibility.eq(Visibility.public)).isEmpty)
  }

  @Test("a reference decoded from SQLite is not loaded, holds FK values, and loads in one lookup")
  func referenceLoadsOnce() async throws {
    let (store, log) = try makeStore(.memory, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "t")
    try await store.save(post)
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    let comment = try #require(try await store.query(Comment4V2.self).first)
    log.clear()
    async let first = comment.post
    async let second = comment.post
    let (a, b) = try await (first, second)
    #expect(a?.id == "p" && b?.id == "p")
    #expect(log.queries.count == 1)
    guard case .loaded(let loaded) = comment._post.state else {
      Issue.record("reference should be loaded")
      return
    }
    #expect(loaded?.title == "t")
  }
}
