import Foundation
import LazyModel
import Testing

@testable import SeedPostCommentModels

@Suite("Generated: seed-post-comment")
struct SeedPostCommentTests {
  @Test func schemaMetadataFollowsTheShapeContract() {
    #expect(Models.registry.models.map { $0.modelName } == ["Comment4V2", "Post4V2"])
    let schema = Comment4V2.schema
    #expect(schema.pluralName == "Comment4V2s")
    #expect(schema.primaryKey == ["id"])
    #expect(schema.fields.map(\.name) == ["id", "content", "post", "createdAt", "updatedAt"])
    #expect(
      schema.field(named: "post")?.association
        == .belongsTo(associatedFields: ["id"], targetNames: ["postID"]))
    #expect(
      schema.indexes == [
        ModelIndex(
          name: "byPost4", fields: ["postID", "content"],
          queryField: "comment4V2sByPostIDAndContent")
      ])
    #expect(
      schema.operations
        == ModelOperationNames(
          get: "getComment4V2", list: "listComment4V2s", create: "createComment4V2",
          update: "updateComment4V2", delete: "deleteComment4V2", onCreate: "onCreateComment4V2",
          onUpdate: "onUpdateComment4V2", onDelete: "onDeleteComment4V2"))
    #expect(
      schema.timestamps == ModelTimestampFields(createdAt: "createdAt", updatedAt: "updatedAt"))
    #expect(schema.authRules == [AuthRule(allow: .public)])
    #expect(schema.field(named: "createdAt")?.isReadOnly == true)
    #expect(
      Post4V2.schema.field(named: "comments")?.association
        == .hasMany(associatedFields: ["post"], indexName: "byPost4"))
  }

  @Test func encodeDecodeRoundTripKeepsALoadedReference() throws {
    let post = Post4V2(id: "p1", title: "Hello")
    let comment = Comment4V2(id: "c1", content: "First", post: post)
    let json = try JSON.encode(comment)
    #expect(
      try JSON.object(json)
        == JSON.object(
          #"{"id":"c1","content":"First","post":{"id":"p1","title":"Hello","comments":[]}}"#))
    let decoded = try JSON.decode(Comment4V2.self, json)
    #expect(decoded.id == "c1")
    #expect(decoded.content == "First")
    guard case .loaded(let loaded?) = decoded._post.state else {
      Issue.record("expected a loaded post")
      return
    }
    #expect(loaded.title == "Hello")
  }

  @Test func aReferenceOfOnlyTheKeyLoadsThroughTheStore() async throws {
    let store = InMemoryModelStore()
    try store.save(Post4V2(id: "p1", title: "Hello"))
    try store.save(Comment4V2(id: "c1", content: "First", post: Post4V2(id: "p1", title: "Hello")))
    let comment = try #require(
      try store.model(Comment4V2.self, identifier: Comment4V2.Identifier(id: "c1")))
    #expect(comment._post.holds([IdentifierComponent(name: "id", value: .string("p1"))]))
    let post = try await comment.post
    #expect(post?.title == "Hello")
    #expect(store.statistics.referenceLoads == 1)
    #expect(comment._post.isLoaded)
  }

  @Test func commentsLoadLazilyThroughTheIndexField() async throws {
    let store = InMemoryModelStore()
    let post = Post4V2(id: "p1", title: "Hello")
    try store.save(post)
    try store.save(Comment4V2(id: "c1", content: "a", post: post))
    try store.save(Comment4V2(id: "c2", content: "b", post: Post4V2(id: "other", title: "x")))
    let loaded = try #require(
      try store.model(Post4V2.self, identifier: Post4V2.Identifier(id: "p1")))
    let comments = try #require(loaded.comments)
    #expect(comments.associatedFields == ["postID"])
    #expect(comments.associatedIdentifiers == [.string("p1")])
    #expect(throws: LazyModelError.self) { try comments.elements }
    let fetched = try await comments.fetch()
    #expect(fetched.map(\.id) == ["c1"])
  }

  @Test func settersReplaceTheReference() async throws {
    var comment = Comment4V2(content: "x")
    #expect(try await comment.post == nil)
    comment.setPost(Post4V2(id: "p2", title: "Two"))
    #expect(try await comment.post?.id == "p2")
    #expect(!comment.id.isEmpty)
  }
}
