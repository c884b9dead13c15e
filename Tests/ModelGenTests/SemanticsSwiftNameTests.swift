import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// The safe-name pass for types (`SwiftTypeNaming`, `SwiftNameRule`): renames that shadow a
/// standard type are warnings (MGW001) at the type's name, the result does not depend on
/// declaration order, the config's `swiftNames` choose names, file names equal ignoring case are
/// an error (MG035), and V1 directives name their v2 replacement (MG002 with a hint).
@Suite struct SemanticsSwiftNameTests {
  @Test func shadowingTypeNamesAreRenamedWithAWarningAtTheTypeName() throws {
    let (result, schema) = analyzeMarked(
      """
      type 1️⃣Task @model { id: ID! title: String }
      enum 2️⃣Result { OK FAILED }
      type 3️⃣URL { host: String }
      type Post @model { id: ID! task: String }
      """)
    let warnings = result.diagnostics.filter { $0.severity == .warning }
    #expect(
      warnings.map { "\($0.code.rawValue)@\($0.line):\($0.column)" } == [
        "MGW001@\(schema.location("1️⃣").line):\(schema.location("1️⃣").column)",
        "MGW001@\(schema.location("2️⃣").line):\(schema.location("2️⃣").column)",
        "MGW001@\(schema.location("3️⃣").line):\(schema.location("3️⃣").column)",
      ])
    #expect(!result.hasErrors)
    let graph = try #require(result.graph)
    let names = SchemaNames(resolving: graph)
    #expect(names.swiftTypeName("Task") == "TaskType")
    #expect(names.swiftTypeName("Result") == "ResultType")
    #expect(names.swiftTypeName("URL") == "URLType")
    #expect(names.swiftTypeName("Post") == "Post")
    #expect(warnings[0].message.contains("`TaskType`"))
    #expect(warnings[0].message.contains("Swift Concurrency"))
    #expect(warnings[0].hint?.contains(#""swiftNames": {"Task": "…"}"#) == true)
    let printed = DiagnosticPrinter.render(warnings, source: SourceFile(fileName: "test.graphql", text: schema.text))
    #expect(printed.hasPrefix("test.graphql:1:6: warning: type `Task` is generated as `TaskType`"))
    #expect(printed.contains("[MGW001]"))
  }

  @Test func renamesDoNotDependOnDeclarationOrder() throws {
    let first = try #require(
      SemanticAnalyzer.analyze(
        source: "type UUID @model { id: ID! }\ntype UUIDType @model { id: ID! }", fileName: "a.graphql"
      ).graph)
    let second = try #require(
      SemanticAnalyzer.analyze(
        source: "type UUIDType @model { id: ID! }\ntype UUID @model { id: ID! }", fileName: "a.graphql"
      ).graph)
    for graph in [first, second] {
      let names = SchemaNames(resolving: graph)
      #expect(names.swiftTypeName("UUIDType") == "UUIDType")
      #expect(names.swiftTypeName("UUID") == "UUIDType2")
    }
    // The registry's name is taken like a standard one: `Models` is renamed, not suffixed `2`.
    let registry = try #require(
      SemanticAnalyzer.analyze(source: "type Models @model { id: ID! }", fileName: "a.graphql").graph)
    #expect(SchemaNames(resolving: registry).swiftTypeName("Models") == "ModelsType")
  }

  @Test func everyNameOfTheTableIsRenamedAndHasASource() {
    for (name, source) in SwiftNames.shadowedTypeNameSources {
      #expect(!source.isEmpty)
      #expect(SwiftNames.typeName(name) == name + "Type", "\(name)")
      #expect(!SwiftNames.isDeclarableTypeName(name), "\(name)")
    }
    for name in ["Task", "Date", "Data", "Result", "Error", "URL", "Set", "UUID", "Model", "Temporal"] {
      #expect(SwiftNames.shadowedTypeNames[name] != nil, "\(name)")
    }
    #expect(SwiftNames.isDeclarableTypeName("TodoTask"))
    #expect(!SwiftNames.isDeclarableTypeName("class"))
    #expect(!SwiftNames.isDeclarableTypeName("1Task"))
    #expect(!SwiftNames.isDeclarableTypeName("To-do"))
  }

  @Test func configChosenNamesApplyWithoutWarning() throws {
    let source = "type Task @model { id: ID! }\nenum Date { TODAY }\ntype Post @model { id: ID! }"
    let analysis = SemanticAnalyzer.analyze(
      SDLParser.parse(source, fileName: "a.graphql").document, fileName: "a.graphql",
      swiftNames: ["Task": "TodoTask", "Unrelated": "Other"])
    #expect(analysis.diagnostics.map(\.code.rawValue) == ["MGW001"])  // Date only
    #expect(analysis.usedSwiftNames == ["Task"])
    #expect(analysis.swiftNameProblems.isEmpty)
    let names = SchemaNames(resolving: try #require(analysis.graph))
    #expect(names.swiftTypeName("Task") == "TodoTask")
    #expect(names.swiftTypeName("Date") == "DateType")
  }

  @Test func configNamesThatCollideAreProblems() {
    let source = "type Task @model { id: ID! }\ntype Post @model { id: ID! }\ntype Note @model { id: ID! }"
    let document = SDLParser.parse(source, fileName: "a.graphql").document
    let analysis = SemanticAnalyzer.analyze(
      document, fileName: "a.graphql", swiftNames: ["Task": "post", "Note": "Models", "Post": "Date"])
    #expect(analysis.swiftNameProblems.keys.sorted() == ["Note", "Post", "Task"])
    #expect(analysis.swiftNameProblems["Task"]?.message.contains("differ only in letter case") == true)
    #expect(analysis.swiftNameProblems["Note"]?.message.contains("registry") == true)
    #expect(analysis.swiftNameProblems["Post"]?.message.contains("shadow") == true)
  }

  @Test func fileNamesThatDifferOnlyInCaseAreAnError() throws {
    expectDiagnostics(
      """
      type 3️⃣UUID @model { id: ID! }
      type UuidType @model { id: ID! }
      type 2️⃣MODELS @model { id: ID! }
      """,
      [(ModelGenDiagnosticCode.renamedSwiftType, "3️⃣"), (ModelGenDiagnosticCode.caseCollidingFileNames, "2️⃣")])
    // A renamed type takes the next suffix rather than a name whose file collides with a kept
    // one (`UUIDType.swift` beside `UuidType.swift`).
    let graph = try #require(
      SemanticAnalyzer.analyze(
        source: "type UUID @model { id: ID! }\ntype UuidType @model { id: ID! }", fileName: "a.graphql"
      ).graph)
    #expect(SchemaNames(resolving: graph).swiftTypeName("UUID") == "UUIDType2")
    #expect(SchemaNames(resolving: graph).swiftTypeName("UuidType") == "UuidType")
  }

  @Test func memberRenamesAreWarningsAndEnumCasesDoNotDependOnOrder() throws {
    let (members, schema) = analyzeMarked(
      """
      enum Phase { 1️⃣IN_PROGRESS inProgress DONE 2️⃣self }
      type Job @model { id: ID! 3️⃣self: String 4️⃣identifier: Int phase: Phase }
      type Box { 5️⃣modelName: String }
      """)
    #expect(members.graph != nil)
    #expect(
      members.diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"].map { "MGW002@\(schema.location($0).line):\(schema.location($0).column)" })
    #expect(
      SwiftNames.caseNames(["IN_PROGRESS", "inProgress", "DONE", "self"]) == [
        "inProgress2", "inProgress", "done", "selfValue",
      ])
    #expect(SwiftNames.caseNames(["inProgress", "IN_PROGRESS"]) == ["inProgress", "inProgress2"])
    #expect(SwiftNames.caseNames(["B_C", "A_B", "aB", "bC"]) == ["bC2", "aB2", "aB", "bC"])
    let (result, _) = analyzeMarked("enum Phase { IN_PROGRESS inProgress }")
    let warning = try #require(result.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(
      warning.message
        == "`Phase.IN_PROGRESS` is generated as `inProgress2`: `inProgress` is the Swift case of another value of `Phase` too"
    )
    // The enum's view model and a `@default` of a renamed case use the same resolution.
    let graph = try #require(
      SemanticAnalyzer.analyze(
        source:
          "enum Phase { IN_PROGRESS inProgress }\ntype Job @model { id: ID! phase: Phase @default(value: \"IN_PROGRESS\") }",
        fileName: "a.graphql"
      ).graph)
    let builder = ViewModelBuilder(graph: graph)
    #expect(builder.enumViewModel(graph.enums[0]).cases.map(\.name) == ["inProgress2", "inProgress"])
    #expect(
      builder.modelViewModel(graph.models[0]).initParameters.map(\.declaration).contains("phase: Phase? = .inProgress2")
    )
  }

  /// Issue 17: a field named after an instance member a protocol of every model requires
  /// (`description`, `debugDescription`, `hashValue`) is renamed, and a field whose Swift name
  /// another field already has gets a numeric suffix, independent of declaration order; each
  /// rename is MGW002 at the field, and the rendered members agree with the warnings.
  @Test func protocolMemberAndNumericSuffixRenamesAreWarnings() throws {
    let (result, schema) = analyzeMarked(
      """
      type Listing @model { id: ID! 1️⃣description: String descriptionValue: String 2️⃣debugDescription: String 3️⃣hashValue: Int }
      type Spec { selfValue2: Int selfValue: Int 4️⃣self: Int }
      """)
    let graph = try #require(result.graph)
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣"].map { "MGW002@\(schema.location($0).line):\(schema.location($0).column)" })
    #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    #expect(
      result.diagnostics[0].message
        == "`Listing.description` is generated as `descriptionValue2`: `description` is `CustomStringConvertible.description`, which every generated model implements (a stored property would replace it), and `descriptionValue` is the Swift property of field `descriptionValue`"
    )
    #expect(
      result.diagnostics[3].message
        == "`Spec.self` is generated as `selfValue3`: `self` cannot name a stored property in Swift, and `selfValue` is the Swift property of field `selfValue`"
    )
    let listing = SwiftMemberNames(fields: graph.models[0].fields)
    #expect(listing.propertyName("description") == "descriptionValue2")
    #expect(listing.propertyName("descriptionValue") == "descriptionValue")
    #expect(listing.propertyName("debugDescription") == "debugDescriptionValue")
    #expect(listing.propertyName("hashValue") == "hashValueValue")
    let spec = SwiftMemberNames(fields: graph.nonModels[0].fields)
    #expect(spec.propertyName("selfValue2") == "selfValue2")
    #expect(spec.propertyName("self") == "selfValue3")
    #expect(SwiftNames.caseNames(["ALL_CASES", "allCases"]) == ["allCasesValue", "allCasesValue2"])
    #expect(SwiftNames.codingKeyCase(forProperty: "allCases") == "allCasesValue")
    // The same names whatever the declaration order.
    #expect(
      SwiftNames.propertyNames(["self", "selfValue", "Name", "name"]) == ["selfValue2", "selfValue", "name2", "name"])
    #expect(
      SwiftNames.propertyNames(["selfValue", "self", "name", "Name"]) == ["selfValue", "selfValue2", "name", "name2"])
  }

  /// Issue 17: the members a model derives from a field (a reference's setter, accessor, storage
  /// and by-identifier label, a key field's `Identifier` member) that get a numeric suffix because
  /// a field has their name are MGW002 at the reference (or key) field, naming the final name; the
  /// rendered members are the names warned about.
  @Test func suffixedDerivedMembersAreWarnings() throws {
    let (result, schema) = analyzeMarked(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model {
        id: ID!
        setPost: String
        postReference: String
        _post: String
        postIdentifier: String
        1️⃣post: Post @belongsTo
      }
      type Box @model { 2️⃣components: String! @primaryKey }
      """)
    let warnings = result.diagnostics.filter { $0.code.rawValue == "MGW002" }
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.description))")
    #expect(
      warnings.map { "\($0.line):\($0.column)" }
        == ["1️⃣", "1️⃣", "1️⃣", "1️⃣", "2️⃣"].map { "\(schema.location($0).line):\(schema.location($0).column)" },
      "\(result.diagnostics.map(\.description))")
    guard warnings.count == 5 else { return }
    #expect(
      warnings.map(\.message) == [
        "`Comment.post` is generated as `setPost2`: `setPost` (the setter) is the Swift property of field `setPost`",
        "`Comment.post` is generated as `postReference2`: `postReference` (the reference accessor) is the Swift property of field `postReference`",
        "`Comment.post` is generated as `_post2`: `_post` (the `LazyReference` storage) is the Swift property of field `_post`",
        "`Comment.post` is generated as `postIdentifier2`: `postIdentifier` (the by-identifier initializer label) is the Swift property of field `postIdentifier`",
        "`Box.components` is generated as `componentsValue`: `components` (the `Identifier` member) is the `Identifier`'s own property (`components`)",
      ])
    // What the Swift stage renders is what the warnings say.
    let generator = Generator(options: GeneratorOptions(access: .public, templates: try TemplateLibrary.defaults()))
    let files = try generator.generate(source: schema.text, fileName: "test.graphql").files
    let comment = try #require(files.first { $0.path == "Comment.swift" }?.contents)
    for line in [
      "internal var _post2: LazyReference<Post>", "public var postReference2: LazyReference<Post> { _post2 }",
      "public mutating func setPost2(_ post: Post?) {", "postIdentifier2: Post.Identifier?",
    ] {
      #expect(comment.contains(line), "\(line)\n\(comment)")
    }
    let box = try #require(files.first { $0.path == "Box+Schema.swift" }?.contents)
    #expect(box.contains("componentsValue"), "\(box)")
  }

  @Test func v1DirectivesNameTheirV2Replacement() {
    let (result, schema) = analyzeMarked(
      """
      type Post @model 1️⃣@key(fields: ["id"]) 2️⃣@key(name: "byTitle", fields: ["title"]) {
        id: ID!
        title: String!
        comments: [Comment] 3️⃣@connection(keyName: "byPost", fields: ["id"])
      }
      type Comment @model { id: ID! postID: ID! }
      """)
    let v1 = result.diagnostics.filter { $0.code == ModelGenDiagnosticCode.unknownDirective }
    #expect(
      v1.map { SchemaLocation(line: $0.line, column: $0.column) } == [
        schema.location("1️⃣"), schema.location("2️⃣"), schema.location("3️⃣"),
      ])
    #expect(v1[0].hint?.contains("@primaryKey") == true)
    #expect(v1[1].hint?.contains("@index") == true)
    #expect(v1[2].hint?.contains("@hasMany") == true && v1[2].hint?.contains("@belongsTo") == true)
    #expect(v1.allSatisfy { $0.message.contains("Transformer v1") })
    // The `@connection` field gets MG002 alone, not MG019 "no @hasMany…" too (genbreak11 F3).
    #expect(!result.diagnostics.contains { $0.code == ModelGenDiagnosticCode.modelFieldWithoutRelation })
    #expect(result.diagnostics.count == 3, "\(result.diagnostics.map(\.message))")
  }

  /// Issue 17: index names pass through the safe-name pass (`SwiftIndexKeyNames`): a typed key is
  /// the index name lower-first (`ModelIndexKey` → `modelIndexKey`, no warning, as a property),
  /// a key equal to another's lower-first takes a numeric suffix and a composite sort key struct
  /// named like a schema type (or another struct) does too, each MGW003 at the index's `name:`
  /// (at the directive for a default name: 4️⃣), whatever the declaration order; the rendered keys are
  /// the names warned about. An index name that is not a GraphQL name stays MG014 at the name.
  @Test func indexKeyRenamesAreWarningsAtTheIndexName() throws {
    let (result, schema) = analyzeMarked(
      """
      enum ByGradeSortKey { LOW }
      enum ReadingsByZoneAndGradeAndLevelSortKey { A }
      type Reading @model {
        id: ID!
        owner: String! @index(name: 1️⃣"ByOwner", queryField: "q1") @index(name: "byOwner", queryField: "q2")
          @index(name: "ModelIndexKey", queryField: "q3")
        kind: String! @index(name: 2️⃣"byGrade", sortKeyFields: ["grade", "level"], queryField: "q4")
        grade: ByGradeSortKey!
        level: Int!
        site: String! @index(name: "self", queryField: "q5") @index(name: 3️⃣"Self", queryField: "q6")
        city: String! @index(name: "readingsByZone", queryField: "q7")
        zone: String! 4️⃣@index(sortKeyFields: ["grade", "level"], queryField: "q8")
          @index(name: 5️⃣"ReadingsByZoneAndGradeAndLevel", queryField: "q9")
      }
      """)
    let graph = try #require(result.graph, "\(result.diagnostics.map(\.description))")
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"].map { "MGW003@\(schema.location($0).line):\(schema.location($0).column)" },
      "\(result.diagnostics.map(\.description))")
    #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    #expect(
      result.diagnostics.map(\.message) == [
        "the typed key of index `ByOwner` of `Reading` is generated as `Reading.indexes.byOwner2`: `byOwner` is the typed key of index `byOwner`",
        "the sort key struct of index `byGrade` of `Reading` is generated as `Reading.Indexes.ByGradeSortKey2`: `ByGradeSortKey` is the Swift name of type `ByGradeSortKey`",
        "the typed key of index `Self` of `Reading` is generated as `Reading.indexes.self2`: `self` is the typed key of index `self`",
        "the sort key struct of index `readingsByZoneAndGradeAndLevel` of `Reading` is generated as `Reading.Indexes.ReadingsByZoneAndGradeAndLevelSortKey2`: `ReadingsByZoneAndGradeAndLevelSortKey` is the Swift name of type `ReadingsByZoneAndGradeAndLevelSortKey`",
        "the typed key of index `ReadingsByZoneAndGradeAndLevel` of `Reading` is generated as `Reading.indexes.readingsByZoneAndGradeAndLevel2`: `readingsByZoneAndGradeAndLevel` is the typed key of index `readingsByZoneAndGradeAndLevel`",
      ])
    let names = try #require(graph.memberNames["Reading"]?.indexKeys)
    #expect(
      names.memberNames == [
        "ByOwner": "byOwner2", "byOwner": "byOwner", "ModelIndexKey": "modelIndexKey", "byGrade": "byGrade",
        "self": "self", "Self": "self2", "readingsByZone": "readingsByZone",
        "readingsByZoneAndGradeAndLevel": "readingsByZoneAndGradeAndLevel",
        "ReadingsByZoneAndGradeAndLevel": "readingsByZoneAndGradeAndLevel2",
      ])
    #expect(names.sortKeyTypeNames["byGrade"] == "ByGradeSortKey2")
    // The same names whatever the declaration order.
    #expect(SwiftNames.indexKeyNames(["ByOwner", "byOwner"]) == ["byOwner2", "byOwner"])
    #expect(SwiftNames.indexKeyNames(["byOwner", "ByOwner"]) == ["byOwner", "byOwner2"])
    #expect(SwiftNames.indexKeyNames(["Self", "self", "String"]) == ["self2", "self", "string"])
    // The rendered keys are the resolved ones.
    let generator = Generator(options: GeneratorOptions(access: .public, templates: try TemplateLibrary.defaults()))
    let generated = try generator.generate(source: schema.text, fileName: "test.graphql")
    let rendered = try #require(generated.files.first { $0.path == "Reading+Schema.swift" }?.contents)
    #expect(
      rendered.contains(
        "public static let byOwner2 = ModelIndexKey<Reading, String, ModelNoSortKey>(\n      \"ByOwner\""))
    #expect(rendered.contains("public struct ByGradeSortKey2: ModelCompositeSortKey"))
    #expect(rendered.contains("public static let `self` = ModelIndexKey<Reading, String, ModelNoSortKey>("))
    // A name that is not a GraphQL name is still refused at the name.
    let (refused, marked) = analyzeMarked(
      "type Reading @model { id: ID! owner: String! @index(name: 5️⃣\"by-owner\") }")
    #expect(
      refused.diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
        == ["MG014@\(marked.location("5️⃣").line):\(marked.location("5️⃣").column)"])
  }
}

/// GraphQL descriptions as `///` doc comments (`SwiftNames.docCommentLines`): kept by the parser
/// with their positions, one comment line per description line, and nothing that can end the
/// comment or reach code, for hostile and random text.
@Suite struct DescriptionDocCommentTests {
  @Test func theParserKeepsDescriptionsWithPositions() throws {
    let source =
      "\"\"\"\n  A post.\n\"\"\"\ntype Post @model {\n  \"The title.\" title: String\n}\n\"E\" enum E { \"One.\" ONE }"
    let graph = try #require(analyzeClean(source))
    #expect(graph.models[0].description == "A post.")
    #expect(graph.models[0].field(named: "title")?.description == "The title.")
    #expect(graph.enums[0].description == "E")
    #expect(graph.enums[0].values[0].description == "One.")
    let document = SDLParser.parse(source, fileName: "d.graphql").document
    guard case .objectType(let post)? = document.definitions.first else {
      Issue.record("no type")
      return
    }
    let description = try #require(post.description)
    #expect(description.value == "A post.")
    #expect(description.range.start.line == 1)
    #expect(description.range.start.column == 1)
    #expect(post.fields[0].description?.range.start.line == 5)
    #expect(post.fields[0].description?.range.start.column == 3)
  }

  @Test func linesAreSplitTrimmedAndEscaped() {
    #expect(SwiftNames.docCommentLines(nil) == [])
    #expect(SwiftNames.docCommentLines(" \n\t\n") == [])
    #expect(
      SwiftNames.docCommentLines("\nA\r\n\r\nB */ C\rD\u{0}\n") == ["/// A", "///", "/// B *\\/ C", "/// D\\u{0}"])
    #expect(SwiftNames.docCommentLines("x\u{2028}}\u{85}#if") == ["/// x\\u{2028}}\\u{85}#if"])
  }

  @Test func randomDescriptionsNeverLeaveTheComment() {
    let alphabet: [Unicode.Scalar] = [
      "a", " ", "\n", "\r", "\t", "*", "/", "\\", "}", "#", "\"", "\u{0}", "\u{2028}", "\u{2029}", "\u{85}",
      "\u{202E}", "\u{FEFF}", "\u{1F600}", "é",
    ]
    var generator = SeededGenerator(seed: 17)
    for round in 0..<2_000 {
      var text = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        text.append(alphabet.randomElement(using: &generator)!)
      }
      let description = String(text)
      for line in SwiftNames.docCommentLines(description) {
        #expect(line.hasPrefix("///"), "round \(round)")
        #expect(
          !line.unicodeScalars.contains { SwiftNames.isInvisible($0) || $0 == "\n" || $0 == "\r" }, "round \(round)")
        #expect(!line.contains("*/") && !line.contains("/*"), "round \(round)")
      }
    }
  }
}

extension SemanticsSwiftNameTests {
  /// MG040: a type whose Swift name is over 238 UTF-8 bytes, at its name: a model, an enum, a
  /// non-model type and a join model (at the first `@manyToMany` naming it) alike; 238 bytes pass.
  @Test func typeNamesOverTheFileNameLimitAreMG040AtTheirName() {
    let long = "L" + String(repeating: "o", count: 238)
    let fits = "F" + String(repeating: "i", count: 237)
    let (result, schema) = analyzeMarked(
      """
      type 1️⃣\(long) @model { id: ID! }
      enum 2️⃣E\(long) { A }
      type 3️⃣N\(long) { a: String }
      type \(fits) @model { id: ID! tags: [Tag] 4️⃣@manyToMany(relationName: "J\(long)") }
      type Tag @model { id: ID! posts: [\(fits)] @manyToMany(relationName: "J\(long)") }
      """)
    let found = result.diagnostics.filter { $0.code.rawValue == "MG040" }.map { "\($0.line):\($0.column)" }
    let expected = ["1️⃣", "2️⃣", "3️⃣", "4️⃣"].map { "\(schema.location($0).line):\(schema.location($0).column)" }
    #expect(Set(found) == Set(expected), "\(result.diagnostics.map(\.description))")
    #expect(result.diagnostics.filter { $0.severity == .error }.count == 4)
    #expect(fits.utf8.count == SwiftNames.maximumTypeNameLength && fits.utf8.count == 238)
  }

  /// MGW002 at an association named like a `ModelPath` property: its path member gets `Value`;
  /// a scalar field of that name, a method's name (`appending`) and an embedded type's field do not.
  @Test func associationsNamedLikeModelPathPropertiesWarnAtTheirName() throws {
    let (result, schema) = analyzeMarked(
      """
      type Shelf @model {
        id: ID!
        1️⃣fieldNames: [Book] @hasMany
        2️⃣stringValue: Cover @hasOne
        appending: [Note] @hasMany
      }
      type Book @model { id: ID! 3️⃣intValue: Shelf @belongsTo }
      type Cover @model { id: ID! fieldNames: String }
      type Note @model { id: ID! stringValue: Int meta: Meta }
      type Meta { intValue: Int }
      """)
    let warnings = result.diagnostics.filter { $0.code.rawValue == "MGW002" }
    #expect(
      warnings.map { "\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣"].map { "\(schema.location($0).line):\(schema.location($0).column)" },
      "\(result.diagnostics.map(\.description))")
    #expect(!result.hasErrors)
    #expect(warnings.first?.message.contains("`path.fieldNamesValue`") == true, "\(warnings.first?.message ?? "")")
    #expect(warnings.first?.message.contains("`ModelPath.fieldNames`") == true)
    #expect(warnings[1].message.contains("`CodingKey.stringValue`"))
  }

  /// A renamed path member or coding key takes the next free number when another member of the
  /// same namespace already has the suffixed name; MGW002 names the final name.
  @Test func renamedPathMembersAndCodingKeysAreUniqueInTheirNamespace() throws {
    let (result, schema) = analyzeMarked(
      """
      type Shelf @model {
        id: ID!
        1️⃣fieldNames: [Mug] @hasMany
        fieldNamesValue: [Jar] @hasMany
        2️⃣intValue: Cover @hasOne
        intValueValue: Cover @hasOne
        3️⃣allCases: String
        allCasesValue: String
      }
      type Mug @model { id: ID! shelf: Shelf @belongsTo }
      type Jar @model { id: ID! }
      type Cover @model { id: ID! }
      type Meta { allCases: String allCasesValue: String }
      """)
    let warnings = result.diagnostics.filter { $0.code.rawValue == "MGW002" }
    #expect(
      warnings.map { "\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣"].map { "\(schema.location($0).line):\(schema.location($0).column)" },
      "\(result.diagnostics.map(\.description))")
    #expect(!result.hasErrors)
    guard warnings.count == 3 else { return }
    #expect(warnings[0].message.contains("`path.fieldNamesValue2`"), "\(warnings[0].message)")
    #expect(warnings[0].message.contains("`fieldNamesValue` is the path member of another association"))
    #expect(warnings[1].message.contains("`path.intValueValue2`"), "\(warnings[1].message)")
    #expect(warnings[2].message.contains("`keys.allCasesValue2`"), "\(warnings[2].message)")
    // An embedded type's `CodingKeys` is not `CaseIterable`: its keys keep the property names.
    let meta = try #require(result.graph?.nonModels.first)
    let members = SwiftMemberNames(fields: meta.fields, caseIterableKeys: false)
    #expect(
      members.codingKeyCase("allCases") == "allCases" && members.codingKeyCase("allCasesValue") == "allCasesValue")
    #expect(
      SwiftNames.codingKeyCases(forProperties: ["allCases", "allCasesValue"]) == ["allCasesValue2", "allCasesValue"])
    #expect(
      SwiftNames.codingKeyCases(forProperties: ["allCasesValue", "allCases"]) == ["allCasesValue", "allCasesValue2"])
    #expect(
      SwiftNames.pathMembers(forProperties: ["intValue", "intValueValue"]) == ["intValueValue2", "intValueValue"])
    #expect(SwiftNames.pathMembers(forProperties: ["fieldNames", "label"]) == ["fieldNamesValue", "label"])
  }
}

/// A SplitMix64 generator: repeatable random input for the fuzz-style tests.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
