import ModelGen

/// Model graphs of `Schemas/` inputs, written out by hand as the semantic analyzer resolves them,
/// so the API schema emitter is tested on its own stage.
enum APISchemaGraphs {
  static func at(_ line: Int) -> SchemaLocation { SchemaLocation(line: line, column: 1) }

  static func field(
    _ name: String, _ type: FieldType, required: Bool, line: Int, origin: FieldDefinition.Origin = .declared,
    stored: Bool = true, association: Association? = nil
  ) -> FieldDefinition {
    FieldDefinition(
      name: name, type: type, isRequired: required, isReadOnly: origin == .timestamp, origin: origin,
      isStoredProperty: stored, association: association, location: at(line))
  }

  static func timestamps(line: Int) -> [FieldDefinition] {
    [
      field("createdAt", .scalar(.awsDateTime), required: false, line: line, origin: .timestamp),
      field("updatedAt", .scalar(.awsDateTime), required: false, line: line, origin: .timestamp),
    ]
  }

  static let publicRule = AuthRuleDefinition(allow: .public, location: at(1))

  /// `Schemas/seed-post-comment.graphql`.
  static let seed = ModelGraph(
    sourceFileName: "seed-post-comment.graphql",
    models: [
      ModelDefinition(
        name: "Post4V2", pluralName: "Post4V2s",
        fields: [
          field("id", .scalar(.id), required: true, line: 6),
          field("title", .scalar(.string), required: true, line: 7),
          field(
            "comments", .list(.model("Comment4V2"), elementRequired: false), required: false, line: 8,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Comment4V2", associatedFields: ["post"], foreignKeyFields: ["postID"],
                indexName: "byPost4", style: .fields, pairedField: "post"))),
        ] + timestamps(line: 5),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [], authRules: [publicRule],
        timestamps: .default, location: at(5)),
      ModelDefinition(
        name: "Comment4V2", pluralName: "Comment4V2s",
        fields: [
          field("id", .scalar(.id), required: true, line: 12),
          field("postID", .scalar(.id), required: true, line: 13, stored: false),
          field("content", .scalar(.string), required: true, line: 14),
          field(
            "post", .model("Post4V2"), required: false, line: 15,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Post4V2", targetNames: ["postID"], associatedFields: ["id"], style: .fields,
                pairedField: "comments", pairedKind: .hasMany))),
        ] + timestamps(line: 11),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true),
        indexes: [IndexDefinition(name: "byPost4", fields: ["postID", "content"], location: at(13))],
        authRules: [publicRule], timestamps: .default, location: at(11)),
    ],
    enums: [], nonModels: [])

  /// `Schemas/regressions/composite-key-non-string-components.graphql`.
  static let reading = ModelGraph(
    sourceFileName: "composite-key-non-string-components.graphql",
    models: [
      ModelDefinition(
        name: "Reading", pluralName: "Readings",
        fields: [
          field("id", .scalar(.id), required: true, line: 9),
          field("takenAt", .scalar(.awsDateTime), required: true, line: 10),
          field("day", .scalar(.awsDate), required: true, line: 11),
          field("time", .scalar(.awsTime), required: true, line: 12),
          field("seq", .scalar(.int), required: true, line: 13),
          field("priority", .enumeration("Priority"), required: true, line: 14),
          field("value", .scalar(.float), required: true, line: 15),
          field("note", .scalar(.string), required: false, line: 16),
        ] + timestamps(line: 8),
        primaryKey: PrimaryKey(partitionKey: "id", sortKeyFields: ["takenAt", "day", "time", "seq", "priority", "value"]),
        indexes: [], authRules: [], timestamps: .default, location: at(8))
    ],
    enums: [
      EnumDefinition(
        name: "Priority", values: [EnumValueDefinition(name: "LOW", location: at(3)), EnumValueDefinition(name: "HIGH", location: at(4))],
        location: at(2))
    ],
    nonModels: [])

  /// `Schemas/regressions/composite-key-sort-key-named-id.graphql`.
  static let task = ModelGraph(
    sourceFileName: "composite-key-sort-key-named-id.graphql",
    models: [
      ModelDefinition(
        name: "Task", pluralName: "Tasks",
        fields: [
          field("ownerId", .scalar(.string), required: true, line: 3),
          field("id", .scalar(.id), required: true, line: 4),
          field("title", .scalar(.string), required: true, line: 5),
        ] + timestamps(line: 2),
        primaryKey: PrimaryKey(partitionKey: "ownerId", sortKeyFields: ["id"]), indexes: [], authRules: [],
        timestamps: .default, location: at(2))
    ],
    enums: [], nonModels: [])

  /// `Schemas/regressions/list-nullability-with-lazy-belongs-to.graphql`: implicit FK, non-model lists.
  static let board = ModelGraph(
    sourceFileName: "list-nullability-with-lazy-belongs-to.graphql",
    models: [
      ModelDefinition(
        name: "Board", pluralName: "Boards",
        fields: [
          field("id", .scalar(.id), required: true, line: 7),
          field(
            "cards", .list(.model("Card"), elementRequired: false), required: false, line: 8,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Card", associatedFields: ["board"], foreignKeyFields: ["boardCardsId"], indexName: nil,
                style: .implicit, pairedField: "board"))),
        ] + timestamps(line: 6),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [], authRules: [],
        timestamps: .default, location: at(6)),
      ModelDefinition(
        name: "Card", pluralName: "Cards",
        fields: [
          field("id", .scalar(.id), required: true, line: 12),
          field("labelsA", .list(.embedded("Label"), elementRequired: false), required: true, line: 13),
          field("labelsB", .list(.embedded("Label"), elementRequired: true), required: false, line: 14),
          field("labelsC", .list(.embedded("Label"), elementRequired: true), required: true, line: 15),
          field("labelsD", .list(.embedded("Label"), elementRequired: false), required: false, line: 16),
          field("scores", .list(.scalar(.int), elementRequired: false), required: true, line: 17),
          field(
            "board", .model("Board"), required: false, line: 18,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Board", targetNames: ["boardCardsId"], associatedFields: ["id"], style: .implicit,
                pairedField: "cards", pairedKind: .hasMany))),
          field("boardCardsId", .scalar(.id), required: false, line: 8, origin: .implicitForeignKey, stored: false),
        ] + timestamps(line: 11),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [], authRules: [],
        timestamps: .default, location: at(11)),
    ],
    enums: [],
    nonModels: [
      NonModelDefinition(
        name: "Label", fields: [field("text", .scalar(.string), required: false, line: 3)], location: at(2))
    ])

  /// `Schemas/regressions/has-one-belongs-to-composite-keys.graphql`.
  static let projectTeam = ModelGraph(
    sourceFileName: "has-one-belongs-to-composite-keys.graphql",
    models: [
      ModelDefinition(
        name: "Project", pluralName: "Projects",
        fields: [
          field("projectId", .scalar(.id), required: true, line: 3),
          field("name", .scalar(.string), required: true, line: 4),
          field(
            "team", .model("Team"), required: false, line: 5,
            association: .hasOne(
              HasOneAssociation(
                relatedModel: "Team", targetNames: ["projectTeamTeamId", "projectTeamName"], associatedFields: ["project"],
                relatedFields: ["teamId", "name"], style: .implicit, pairedField: "project"))),
          field("projectTeamTeamId", .scalar(.id), required: false, line: 5, origin: .implicitForeignKey, stored: false),
          field("projectTeamName", .scalar(.string), required: false, line: 5, origin: .implicitForeignKey, stored: false),
        ] + timestamps(line: 2),
        primaryKey: PrimaryKey(partitionKey: "projectId", sortKeyFields: ["name"]), indexes: [], authRules: [],
        timestamps: .default, location: at(2)),
      ModelDefinition(
        name: "Team", pluralName: "Teams",
        fields: [
          field("teamId", .scalar(.id), required: true, line: 9),
          field("name", .scalar(.string), required: true, line: 10),
          field(
            "project", .model("Project"), required: false, line: 11,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Project", targetNames: ["teamProjectProjectId", "teamProjectName"],
                associatedFields: ["projectId", "name"], style: .implicit, pairedField: "team", pairedKind: .hasOne))),
          field("teamProjectProjectId", .scalar(.id), required: false, line: 11, origin: .implicitForeignKey, stored: false),
          field("teamProjectName", .scalar(.string), required: false, line: 11, origin: .implicitForeignKey, stored: false),
        ] + timestamps(line: 8),
        primaryKey: PrimaryKey(partitionKey: "teamId", sortKeyFields: ["name"]), indexes: [], authRules: [],
        timestamps: .default, location: at(8)),
    ],
    enums: [], nonModels: [])
}
