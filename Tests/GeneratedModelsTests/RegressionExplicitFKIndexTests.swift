import Foundation
import LazyModel
import RegressionHasManyExplicitFkIndex
import Testing

@Suite("Generated regression: has-many-explicit-fk-index")
struct RegressionHasManyExplicitFkIndexTests {
  @Test func theListQueriesPostIDThroughTheIndex() async throws {
    #expect(
      Post.schema.field(named: "comments")?.association
        == .hasMany(associatedFields: ["postID"], indexName: "byPost"))
    #expect(Comment.schema.field(named: "postID")?.isRequired == true)
    #expect(
      Comment.schema.indexes == [
        ModelIndex(
          name: "byPost", fields: ["postID", "content"], queryField: "commentsByPostIDAndContent")
      ])

    let store = InMemoryModelStore()
    try store.save(Post(id: "p1", title: "T"))
    try store.save([
      Comment(id: "c1", postID: "p1", content: "a"), Comment(id: "c2", postID: "p2", content: "b"),
      Comment(id: "c3", postID: "p1", content: "c"),
    ])
    let post = try #require(try store.model(Post.self, identifier: Post.Identifier(id: "p1")))
    let comments = try #require(post.comments)
    #expect(comments.associatedFields == ["postID"])
    #expect(try await comments.fetch().map(\.id) == ["c1", "c3"])
  }
}
