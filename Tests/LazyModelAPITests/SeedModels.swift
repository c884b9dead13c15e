import Foundation
import LazyModel

// Hand-written in the generated shape (GENERATED-SHAPE.md) for seed-post-comment.graphql, until
// Generated/ holds the rendered modules.

struct Post4V2: Model {
  let id: String
  var title: String
  var comments: LazyList<Comment4V2>?
  var createdAt: Temporal.DateTime?
  var updatedAt: Temporal.DateTime?

  init(id: String = UUID().uuidString, title: String, comments: [Comment4V2] = []) {
    self.id = id
    self.title = title
    self.comments = LazyList(comments)
  }

  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    comments = try values.decodeLazyList(
      Comment4V2.self, forKey: .comments, associatedFields: ["postID"], parent: Identifier(id: id).components,
      decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(comments, forKey: .comments)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Post4V2 {
  enum CodingKeys: String, ModelKey { case id, title, comments, createdAt, updatedAt }
  static let keys = CodingKeys.self
  struct Identifier: ModelIdentifierProtocol {
    let id: String
    var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  var identifier: Identifier { Identifier(id: id) }
  static let schema = ModelSchema(
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

struct Comment4V2: Model {
  let id: String
  var content: String
  internal var _post: LazyReference<Post4V2>
  var post: Post4V2? { get async throws { try await _post.get() } }
  var createdAt: Temporal.DateTime?
  var updatedAt: Temporal.DateTime?

  init(id: String = UUID().uuidString, content: String, post: Post4V2? = nil) {
    self.id = id
    self.content = content
    _post = LazyReference(post)
  }

  mutating func setPost(_ post: Post4V2?) { _post = LazyReference(post) }

  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    content = try values.decode(String.self, forKey: .content)
    _post = try values.decodeLazyReference(Post4V2.self, forKey: .post, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(content, forKey: .content)
    try container.encode(_post, forKey: .post)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Comment4V2 {
  enum CodingKeys: String, ModelKey { case id, content, post, createdAt, updatedAt }
  static let keys = CodingKeys.self
  struct Identifier: ModelIdentifierProtocol {
    let id: String
    var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  var identifier: Identifier { Identifier(id: id) }
  static let schema = ModelSchema(
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
