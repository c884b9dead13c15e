@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// Model graphs built by hand, so rendering tests do not depend on the analyzer.
enum RenderingFixtures {
  static let here = SchemaLocation(line: 1, column: 1)

  static func field(
    _ name: String, _ type: FieldType, required: Bool = true, readOnly: Bool = false,
    origin: FieldDefinition.Origin = .declared, stored: Bool = true,
    association: Association? = nil,
    defaultValue: DefaultValue? = nil
  ) -> FieldDefinition {
    FieldDefinition(
      name: name, type: type, isRequired: required, isReadOnly: readOnly,
      defaultValue: defaultValue, origin: origin,
      isStoredProperty: stored, association: association, location: here)
  }

  static func timestamps() -> [FieldDefinition] {
    [
      field(
        "createdAt", .scalar(.awsDateTime), required: false, readOnly: true, origin: .timestamp),
      field(
        "updatedAt", .scalar(.awsDateTime), required: false, readOnly: true, origin: .timestamp),
    ]
  }

  /// `Schemas/seed-post-comment.graphql` as the analyzer resolves it, plus an enum and a non-model
  /// type with keyword names.
  static let seed = ModelGraph(
    sourceFileName: "seed-post-comment.graphql",
    models: [
      ModelDefinition(
        name: "Post4V2", pluralName: "Post4V2s",
        fields: [
          field("id", .scalar(.id)),
          field("title", .scalar(.string)),
          field(
            "comments", .list(.model("Comment4V2"), elementRequired: false), required: false,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Comment4V2", associatedFields: ["post"],
                foreignKeyFields: ["postID"],
                indexName: "byPost4", style: .fields, pairedField: "post"))),
        ] + timestamps(),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: false), indexes: [],
        authRules: [AuthRuleDefinition(allow: .public, location: here)], timestamps: .default,
        location: here),
      ModelDefinition(
        name: "Comment4V2", pluralName: "Comment4V2s",
        fields: [
          field("id", .scalar(.id)),
          field("postID", .scalar(.id), stored: false),
          field("content", .scalar(.string)),
          field(
            "post", .model("Post4V2"), required: false,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Post4V2", targetNames: ["postID"], associatedFields: ["id"],
                style: .fields,
                pairedField: "comments", pairedKind: .hasMany))),
        ] + timestamps(),
        primaryKey: PrimaryKey(partitionKey: "id"),
        indexes: [IndexDefinition(name: "byPost4", fields: ["postID", "content"], location: here)],
        authRules: [AuthRuleDefinition(allow: .public, location: here)], timestamps: .default,
        location: here),
    ],
    enums: [
      EnumDefinition(
        name: "Visibility",
        values: ["public", "private", "default", "LOW_PRIORITY", "Type"].map {
          EnumValueDefinition(name: $0, location: here)
        },
        location: here)
    ],
    nonModels: [
      NonModelDefinition(
        name: "Break",
        fields: [
          field("minutes", .scalar(.int), required: false), field("self", .scalar(.boolean)),
        ],
        location: here)
    ])
}
