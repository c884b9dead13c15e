// Hand-written models in exactly the shape modelgen generates (GENERATED-SHAPE.md), for
//   type Post @model { id: ID! title: String! comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"]) }
//   type Comment @model { id: ID! postID: ID! @index(name: "byPost", sortKeyFields: ["content"])
//                         content: String! post: Post @belongsTo(fields: ["postID"]) }
//   type Shelf @model { building: String! @primaryKey(sortKeyFields: ["number"]) number: Int!
//                       books: [Book] @hasMany }
//   type Book @model { id: ID! title: String! shelf: Shelf @belongsTo }   # shelfBooksBuilding/-Number
//   type Customer @model { id: ID! name: String! activeCart: Cart @hasOne(references: ["customerId"]) }
//   type Cart @model { id: ID! customerId: ID! total: Float! }
import Foundation
import LazyModel

public struct Comment: Model {
  public let id: String
  public var content: String
  internal var _post: LazyReference<Post>
  public var post: Post? { get async throws { try await _post.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, content: String, post: Post? = nil) {
    self.id = id
    self.content = content
    self._post = LazyReference(post)
  }

  public mutating func setPost(_ post: Post?) { _post = LazyReference(post) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    content = try values.decode(String.self, forKey: .content)
    _post = try values.decodeLazyReference(Post.self, forKey: .post, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(content, forKey: .content)
    try container.encode(_post, forKey: .post)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Comment {
  public enum CodingKeys: String, ModelKey { case id, content, post, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Comment, String>("id")
    public static let content = ModelFieldKey<Comment, String>("content")
    public static let post = ModelFieldKey<Comment, Post?>("post")
    public static let createdAt = ModelFieldKey<Comment, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<Comment, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Comment", pluralName: "Comments", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.content, .required, .string),
      .belongsTo(
        CodingKeys.post, .optional, Post.self, targetNames: ["postID"], associatedFields: ["id"]),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("byPost", fields: ["postID", "content"])],
    authRules: [AuthRule(allow: .public)])
}

public struct Post: Model {
  public let id: String
  public var title: String
  public var comments: LazyList<Comment>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, comments: [Comment]? = nil) {
    self.id = id
    self.title = title
    self.comments = comments.map { LazyList($0) }
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    comments = try values.decodeLazyList(
      Comment.self, forKey: .comments, associatedFields: ["postID"],
      parent: Identifier(id: id).components,
      decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(comments, forKey: .comments)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Post {
  public enum CodingKeys: String, ModelKey { case id, title, comments, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Post, String>("id")
    public static let title = ModelFieldKey<Post, String>("title")
    public static let comments = ModelAssociationKey<Post, Comment>("comments")
    public static let createdAt = ModelFieldKey<Post, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<Post, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Post", pluralName: "Posts", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .hasMany(
        CodingKeys.comments, .optional, Comment.self, associatedFields: ["post"], indexName: "byPost"),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

/// A composite-key parent: primary key (building, number).
public struct Shelf: Model {
  public let building: String
  public let number: Int
  public var books: LazyList<Book>?

  public init(building: String, number: Int, books: [Book]? = nil) {
    self.building = building
    self.number = number
    self.books = books.map { LazyList($0) }
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    building = try values.decode(String.self, forKey: .building)
    number = try values.decode(Int.self, forKey: .number)
    books = try values.decodeLazyList(
      Book.self, forKey: .books, associatedFields: ["shelfBooksBuilding", "shelfBooksNumber"],
      parent: Identifier(building: building, number: number).components, decoder: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(building, forKey: .building)
    try container.encode(number, forKey: .number)
    try container.encodeIfPresent(books, forKey: .books)
  }
}

extension Shelf {
  public enum CodingKeys: String, ModelKey { case building, number, books }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let building = ModelFieldKey<Shelf, String>("building")
    public static let number = ModelFieldKey<Shelf, Int>("number")
    public static let books = ModelAssociationKey<Shelf, Book>("books")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let building: String
    public let number: Int
    public init(building: String, number: Int) {
      self.building = building
      self.number = number
    }
    public var components: [IdentifierComponent] {
      [
        IdentifierComponent(name: "building", value: building.keyValue),
        IdentifierComponent(name: "number", value: number.keyValue),
      ]
    }
  }
  public var identifier: Identifier { Identifier(building: building, number: number) }
  public static let schema = ModelSchema(
    name: "Shelf", pluralName: "Shelves", primaryKey: [CodingKeys.building, CodingKeys.number],
    fields: [
      .field(CodingKeys.building, .required, .string),
      .field(CodingKeys.number, .required, .int),
      .hasMany(CodingKeys.books, .optional, Book.self, associatedFields: ["shelf"]),
    ],
    authRules: [AuthRule(allow: .owner, ownerField: "owner", operations: [.read, .update])])
}

public struct Book: Model {
  public let id: String
  public var title: String
  internal var _shelf: LazyReference<Shelf>
  public var shelf: Shelf? { get async throws { try await _shelf.get() } }

  public init(id: String = UUID().uuidString, title: String, shelf: Shelf? = nil) {
    self.id = id
    self.title = title
    self._shelf = LazyReference(shelf)
  }

  public mutating func setShelf(_ shelf: Shelf?) { _shelf = LazyReference(shelf) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    _shelf = try values.decodeLazyReference(Shelf.self, forKey: .shelf, decoder: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(_shelf, forKey: .shelf)
  }
}

extension Book {
  public enum CodingKeys: String, ModelKey { case id, title, shelf }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Book, String>("id")
    public static let title = ModelFieldKey<Book, String>("title")
    public static let shelf = ModelFieldKey<Book, Shelf?>("shelf")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Book", pluralName: "Books", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .belongsTo(
        CodingKeys.shelf, .optional, Shelf.self, targetNames: ["shelfBooksBuilding", "shelfBooksNumber"],
        associatedFields: ["building", "number"]),
    ],
    indexes: [.index("gsi-Shelf.books", fields: ["shelfBooksBuilding", "shelfBooksNumber"])])
}

/// A `@hasOne(references:)` parent: the FK (`customerId`) lives on `Cart`.
public struct Customer: Model {
  public let id: String
  public var name: String
  internal var _activeCart: LazyReference<Cart>
  public var activeCart: Cart? { get async throws { try await _activeCart.get() } }

  public init(id: String = UUID().uuidString, name: String, activeCart: Cart? = nil) {
    self.id = id
    self.name = name
    self._activeCart = LazyReference(activeCart)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    name = try values.decode(String.self, forKey: .name)
    _activeCart = try values.decodeLazyReference(
      Cart.self, forKey: .activeCart, associatedFields: ["customerId"],
      parent: Identifier(id: id).components,
      decoder: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(_activeCart, forKey: .activeCart)
  }
}

extension Customer {
  public enum CodingKeys: String, ModelKey { case id, name, activeCart }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Customer, String>("id")
    public static let name = ModelFieldKey<Customer, String>("name")
    public static let activeCart = ModelAssociationKey<Customer, Cart>("activeCart")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Customer", pluralName: "Customers", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.name, .required, .string),
      .hasOne(
        CodingKeys.activeCart, .optional, Cart.self, associatedFields: ["customerId"], targetNames: []),
    ])
}

public struct Cart: Model {
  public let id: String
  public var customerId: String
  public var total: Double

  public init(id: String = UUID().uuidString, customerId: String, total: Double) {
    self.id = id
    self.customerId = customerId
    self.total = total
  }
}

extension Cart {
  public enum CodingKeys: String, ModelKey { case id, customerId, total }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Cart, String>("id")
    public static let customerId = ModelFieldKey<Cart, String>("customerId")
    public static let total = ModelFieldKey<Cart, Double>("total")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Cart", pluralName: "Carts", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.customerId, .required, .id),
      .field(CodingKeys.total, .required, .double),
    ])
}

public enum Models {
  public static let registry = ModelRegistry(
    models: [Book.self, Cart.self, Comment.self, Customer.self, Post.self, Shelf.self])
}
