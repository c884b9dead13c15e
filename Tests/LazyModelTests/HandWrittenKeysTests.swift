import Foundation
import LazyModel
import Testing

/// The hand-written models of `ExampleModels.swift` and `IdentifierTests.swift` carry typed keys as
/// generated models do (`ModelFieldKey<Model, Value>`): predicates type-check against each
/// field's Swift type and build typed `QueryPredicate<Model>` values wrapping the untyped `AnyQueryPredicate`, a belongsTo key
/// compares with the related model or its identifier, and the keys still serve as coding keys.
@Suite struct HandWrittenKeysTests {
  @Test func predicatesFromTypedKeysCarryTheFieldsValues() {
    #expect(Comment.keys.content.eq("First").untyped == .field("content", .eq(.string("First"))))
    #expect(Shelf.keys.number.le(3).untyped == .field("number", .le(.int(3))))
    #expect(Cart.keys.total.between(1.5, 2.5).untyped == .field("total", .between(.double(1.5), .double(2.5))))
    #expect(Post.keys.title.beginsWith("He").untyped == .field("title", .beginsWith("He")))
    #expect(Reading.keys.priority.eq(.default).untyped == .field("priority", .eq(.string("DEFAULT"))))
    #expect(Reading.keys.valid.eq(true).untyped == .field("valid", .eq(.bool(true))))
    #expect(Comment.keys.createdAt.isNil().untyped == .field("createdAt", .eq(nil)))
  }

  @Test func aBelongsToKeyComparesWithTheRelatedModelOrItsIdentifier() {
    let shelf = Shelf(building: "B", number: 7)
    #expect(Book.keys.shelf.eq(shelf).untyped == .field("shelf", .references([.string("B"), .int(7)])))
    #expect(
      Book.keys.shelf.eq(Shelf.Identifier(building: "B", number: 7)).untyped
        == .field("shelf", .references([.string("B"), .int(7)])))
    #expect(Comment.keys.post.eq(Post.Identifier(id: "p1")).untyped == .field("post", .references([.string("p1")])))
  }

  @Test func typedKeysNameTheSameFieldsAsTheCodingKeys() {
    #expect(Comment.keys.post.stringValue == Comment.CodingKeys.post.stringValue)
    // Associations whose key fields are on the other model have the generator's key type.
    let comments: ModelAssociationKey<Post, Comment> = Post.keys.comments
    let books: ModelAssociationKey<Shelf, Book> = Shelf.keys.books
    let activeCart: ModelAssociationKey<Customer, Cart> = Customer.keys.activeCart
    #expect([comments.name, books.name, activeCart.name] == ["comments", "books", "activeCart"])
    #expect(Comment.schema.primaryKey == ["id"])
    #expect(Shelf.schema.primaryKey == ["building", "number"])
  }
}
