// The seed models, hand-written in exactly the shape modelgen generates (see GENERATED-SHAPE.md) for
// /work/shared/schemas/seed-post-comment.graphql.
import Foundation
import LazyModel

public struct Post4V2: Model {
  public let id: String
  public var title: String
  public var comments: LazyList<Comment4V2>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, comments: [Comment4V2] = []) {
    self.id = id
    self.title = title
    self.comments = LazyList(comments)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    comments = try values.decodeLazyList(
      Comment4V2.self, forKey: .comments, associatedFields: ["postID"], parent: Identifier(id: id).components,
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

extension Post4V2 {
  public enum CodingKeys: String, ModelKey { case id, title, comments, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Post4V2", pluralName: "Post4V2s", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.title, .required, .string),
      .hasMany(keys.comments, .optional, Comment4V2.self, associatedFields: ["post"], indexName: "byPost4"),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Comment4V2: Model {
  public let id: String
  public var content: String
  internal var _post: LazyReference<Post4V2>
  public var post: Post4V2? { get async throws { try await _post.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, content: String, post: Post4V2? = nil) {
    self.id = id
    self.content = content
    _post = LazyReference(post)
  }
  public mutating func setPost(_ post: Post4V2?) { _post = LazyReference(post) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    content = try values.decode(String.self, forKey: .content)
    _post = try values.decodeLazyReference(Post4V2.self, forKey: .post, decoder: decoder)
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

extension Comment4V2 {
  public enum CodingKeys: String, ModelKey { case id, content, post, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Comment4V2", pluralName: "Comment4V2s", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.content, .required, .string),
      .belongsTo(keys.post, .optional, Post4V2.self, targetNames: ["postID"], associatedFields: ["id"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("byPost4", fields: ["postID", "content"])],
    authRules: [AuthRule(allow: .public)])
}
