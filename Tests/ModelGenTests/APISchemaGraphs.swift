import ModelGen

/// Model graphs of `Schemas/` inputs, written out by hand as the semantic analyzer resolves them,
/// so the API schema emitter is tested on its own stage.
enum APISchemaGraphs {
  static func at(_ line: Int) -> SchemaLocation { SchemaLocation(line: line, column: 1) }

  static func field(
    _ name: String, _ type: FieldType, required: Bool, line: Int,
    origin: FieldDefinition.Origin = .declared,
    stored: Bool = true, association: Association? = nil
  ) -> FieldDefinition {
    FieldDefinition(
      name: name, type: type, isRequired: required, isReadOnly: origin == .timestamp,
      origin: origin,
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
            "comments", .list(.model("Comment4V2"), elementRequired: false), required: false,
            line: 8,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Comment4V2", associatedFields: ["post"],
                foreignKeyFields: ["postID"],
                indexName: "byPost4", style: .fields, pairedField: "post"))),
        ] + timestamps(line: 5),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [],
        authRules: [publicRule],
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
                relatedModel: "Post4V2", targetNames: ["postID"], associatedFields: ["id"],
                style: .fields,
                pairedField: "comments", pairedKind: .hasMany))),
        ] + timestamps(line: 11),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true),
        indexes: [
          IndexDefinition(name: "byPost4", fields: ["postID", "content"], location: at(13))
        ],
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
        primaryKey: PrimaryKey(
          partitionKey: "id", sortKeyFields: ["takenAt", "day", "time", "seq", "priority", "value"]),
        indexes: [], authRules: [], timestamps: .default, location: at(8))
    ],
    enums: [
      EnumDefinition(
        name: "Priority",
        values: [
          EnumValueDefinition(name: "LOW", location: at(3)),
          EnumValueDefinition(name: "HIGH", location: at(4)),
        ],
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
        primaryKey: PrimaryKey(partitionKey: "ownerId", sortKeyFields: ["id"]), indexes: [],
        authRules: [],
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
                relatedModel: "Card", associatedFields: ["board"],
                foreignKeyFields: ["boardCardsId"], indexName: nil,
                style: .implicit, pairedField: "board"))),
        ] + timestamps(line: 6),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [], authRules: [],
        timestamps: .default, location: at(6)),
      ModelDefinition(
        name: "Card", pluralName: "Cards",
        fields: [
          field("id", .scalar(.id), required: true, line: 12),
          field(
            "labelsA", .list(.embedded("Label"), elementRequired: false), required: true, line: 13),
          field(
            "labelsB", .list(.embedded("Label"), elementRequired: true), required: false, line: 14),
          field(
            "labelsC", .list(.embedded("Label"), elementRequired: true), required: true, line: 15),
          field(
            "labelsD", .list(.embedded("Label"), elementRequired: false), required: false, line: 16),
          field("scores", .list(.scalar(.int), elementRequired: false), required: true, line: 17),
          field(
            "board", .model("Board"), required: false, line: 18,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Board", targetNames: ["boardCardsId"], associatedFields: ["id"],
                style: .implicit,
                pairedField: "cards", pairedKind: .hasMany))),
          field(
            "boardCardsId", .scalar(.id), required: false, line: 8, origin: .implicitForeignKey,
            stored: false),
        ] + timestamps(line: 11),
        primaryKey: PrimaryKey(partitionKey: "id", isImplicit: true), indexes: [], authRules: [],
        timestamps: .default, location: at(11)),
    ],
    enums: [],
    nonModels: [
      NonModelDefinition(
        name: "Label", fields: [field("text", .scalar(.string), required: false, line: 3)],
        location: at(2))
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
                relatedModel: "Team", targetNames: ["projectTeamTeamId", "projectTeamName"],
                associatedFields: ["project"],
                relatedFields: ["teamId", "name"], style: .implicit, pairedField: "project"))),
          field(
            "projectTeamTeamId", .scalar(.id), required: false, line: 5,
            origin: .implicitForeignKey, stored: false),
          field(
            "projectTeamName", .scalar(.string), required: false, line: 5,
            origin: .implicitForeignKey, stored: false),
        ] + timestamps(line: 2),
        primaryKey: PrimaryKey(partitionKey: "projectId", sortKeyFields: ["name"]), indexes: [],
        authRules: [],
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
                associatedFields: ["projectId", "name"], style: .implicit, pairedField: "team",
                pairedKind: .hasOne))),
          field(
            "teamProjectProjectId", .scalar(.id), required: false, line: 11,
            origin: .implicitForeignKey, stored: false),
          field(
            "teamProjectName", .scalar(.string), required: false, line: 11,
            origin: .implicitForeignKey, stored: false),
        ] + timestamps(line: 8),
        primaryKey: PrimaryKey(partitionKey: "teamId", sortKeyFields: ["name"]), indexes: [],
        authRules: [],
        timestamps: .default, location: at(8)),
    ],
    enums: [], nonModels: [])

  static func model(
    _ name: String, _ fields: [FieldDefinition], line: Int,
    key: PrimaryKey = PrimaryKey(partitionKey: "id", isImplicit: true),
    indexes: [IndexDefinition] = []
  ) -> ModelDefinition {
    ModelDefinition(
      name: name, pluralName: Pluralization.plural(of: name),
      fields: fields + timestamps(line: line), primaryKey: key,
      indexes: indexes, authRules: [], timestamps: .default, location: at(line))
  }

  /// `Schemas/regressions/references-has-one-has-many.graphql`.
  static let references = ModelGraph(
    sourceFileName: "references-has-one-has-many.graphql",
    models: [
      model(
        "Customer",
        [
          field("id", .scalar(.id), required: true, line: 3),
          field("name", .scalar(.string), required: false, line: 4),
          field(
            "activeCart", .model("Cart"), required: false, line: 5,
            association: .hasOne(
              HasOneAssociation(
                relatedModel: "Cart", targetNames: [], associatedFields: ["customerId"],
                relatedFields: ["customerId"],
                style: .references, pairedField: "customer"))),
          field(
            "orders", .list(.model("Order"), elementRequired: false), required: false, line: 6,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Order", associatedFields: ["customer"],
                foreignKeyFields: ["customerId"], indexName: nil,
                style: .references, pairedField: "customer"))),
        ], line: 2),
      model(
        "Cart",
        [
          field("id", .scalar(.id), required: true, line: 10),
          field("items", .list(.scalar(.string), elementRequired: false), required: true, line: 11),
          field("customerId", .scalar(.id), required: false, line: 12, stored: false),
          field(
            "customer", .model("Customer"), required: false, line: 13,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Customer", targetNames: ["customerId"], associatedFields: ["id"],
                style: .references,
                pairedField: "activeCart", pairedKind: .hasOne))),
        ], line: 9),
      model(
        "Order",
        [
          field("id", .scalar(.id), required: true, line: 17),
          field("total", .scalar(.float), required: false, line: 18),
          field("customerId", .scalar(.id), required: false, line: 19, stored: false),
          field(
            "customer", .model("Customer"), required: false, line: 20,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Customer", targetNames: ["customerId"], associatedFields: ["id"],
                style: .references,
                pairedField: "orders", pairedKind: .hasMany))),
        ], line: 16),
    ],
    enums: [], nonModels: [])

  /// `Schemas/regressions/has-many-explicit-fk-index.graphql`: uni-directional hasMany through an index.
  static let explicitForeignKeyIndex = ModelGraph(
    sourceFileName: "has-many-explicit-fk-index.graphql",
    models: [
      model(
        "Post",
        [
          field("id", .scalar(.id), required: true, line: 3),
          field("title", .scalar(.string), required: true, line: 4),
          field(
            "comments", .list(.model("Comment"), elementRequired: false), required: false, line: 5,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Comment", associatedFields: ["postID"], foreignKeyFields: ["postID"],
                indexName: "byPost",
                style: .fields, pairedField: nil))),
        ], line: 2),
      model(
        "Comment",
        [
          field("id", .scalar(.id), required: true, line: 9),
          field("postID", .scalar(.id), required: true, line: 10),
          field("content", .scalar(.string), required: true, line: 11),
        ], line: 8,
        indexes: [IndexDefinition(name: "byPost", fields: ["postID", "content"], location: at(10))]),
    ],
    enums: [], nonModels: [])

  /// `Schemas/regressions/lazy-list-read-before-fetch.graphql`: implicit `albumPhotosId`.
  static let albumPhotos = ModelGraph(
    sourceFileName: "lazy-list-read-before-fetch.graphql",
    models: [
      model(
        "Album",
        [
          field("id", .scalar(.id), required: true, line: 3),
          field("name", .scalar(.string), required: false, line: 4),
          field(
            "photos", .list(.model("Photo"), elementRequired: false), required: false, line: 5,
            association: .hasMany(
              HasManyAssociation(
                relatedModel: "Photo", associatedFields: ["album"],
                foreignKeyFields: ["albumPhotosId"], indexName: nil,
                style: .implicit, pairedField: "album"))),
        ], line: 2),
      model(
        "Photo",
        [
          field("id", .scalar(.id), required: true, line: 9),
          field("caption", .scalar(.string), required: false, line: 10),
          field(
            "album", .model("Album"), required: false, line: 11,
            association: .belongsTo(
              BelongsToAssociation(
                relatedModel: "Album", targetNames: ["albumPhotosId"], associatedFields: ["id"],
                style: .implicit,
                pairedField: "photos", pairedKind: .hasMany))),
          field(
            "albumPhotosId", .scalar(.id), required: false, line: 5, origin: .implicitForeignKey,
            stored: false),
        ], line: 8),
    ],
    enums: [], nonModels: [])

  /// `Schemas/regressions/enum-values-swift-keywords.graphql`.
  static let enumKeywords = ModelGraph(
    sourceFileName: "enum-values-swift-keywords.graphql",
    models: [
      model(
        "Post",
        [
          field("id", .scalar(.id), required: true, line: 9),
          field("title", .scalar(.string), required: true, line: 10),
          field("visibility", .enumeration("Visibility"), required: false, line: 11),
        ], line: 8)
    ],
    enums: [
      EnumDefinition(
        name: "Visibility",
        values: ["public", "private", "default"].enumerated().map {
          EnumValueDefinition(name: $1, location: at(3 + $0))
        },
        location: at(2))
    ],
    nonModels: [])

  /// `Schemas/regressions/type-name-lowercases-to-keyword.graphql`.
  static let breaks = ModelGraph(
    sourceFileName: "type-name-lowercases-to-keyword.graphql",
    models: [
      model(
        "Shift",
        [
          field("id", .scalar(.id), required: true, line: 8),
          field(
            "breaks", .list(.embedded("Break"), elementRequired: false), required: false, line: 9),
        ], line: 7)
    ],
    enums: [],
    nonModels: [
      NonModelDefinition(
        name: "Break",
        fields: [
          field("minutes", .scalar(.int), required: false, line: 3),
          field("paid", .scalar(.boolean), required: false, line: 4),
        ], location: at(2))
    ])

  /// Topic → Post → Comment, all implicit hasMany/belongsTo pairs (a schema whose transformer output
  /// is public; the emitter test compares blocks of it).
  static let topicPostComment: ModelGraph = {
    func hasMany(_ child: String, _ foreignKey: String, paired: String) -> Association {
      .hasMany(
        HasManyAssociation(
          relatedModel: child, associatedFields: [paired], foreignKeyFields: [foreignKey],
          indexName: nil,
          style: .implicit, pairedField: paired))
    }
    func belongsTo(_ parent: String, _ foreignKey: String, paired: String) -> Association {
      .belongsTo(
        BelongsToAssociation(
          relatedModel: parent, targetNames: [foreignKey], associatedFields: ["id"],
          style: .implicit,
          pairedField: paired, pairedKind: .hasMany))
    }
    let common = [
      field("id", .scalar(.id), required: true, line: 1),
      field("createdByUserId", .scalar(.string), required: true, line: 1),
      field("content", .scalar(.string), required: true, line: 1),
    ]
    return ModelGraph(
      sourceFileName: "topic-post-comment.graphql",
      models: [
        model(
          "Topic",
          common + [
            field(
              "posts", .list(.model("Post"), elementRequired: false), required: false, line: 2,
              association: hasMany("Post", "topicPostsId", paired: "topic"))
          ], line: 1),
        model(
          "Post",
          common + [
            field(
              "comments", .list(.model("Comment"), elementRequired: false), required: false,
              line: 3,
              association: hasMany("Comment", "postCommentsId", paired: "post")),
            field(
              "topic", .model("Topic"), required: false, line: 3,
              association: belongsTo("Topic", "topicPostsId", paired: "posts")),
            field(
              "topicPostsId", .scalar(.id), required: false, line: 2, origin: .implicitForeignKey,
              stored: false),
          ], line: 2),
        model(
          "Comment",
          common + [
            field(
              "post", .model("Post"), required: false, line: 4,
              association: belongsTo("Post", "postCommentsId", paired: "comments")),
            field(
              "postCommentsId", .scalar(.id), required: false, line: 3, origin: .implicitForeignKey,
              stored: false),
          ], line: 3),
      ],
      enums: [], nonModels: [])
  }()
}
