import Foundation
import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// `@model`: implicit id, timestamps, operations, plural names; non-model types and enums.
@Suite struct SemanticsModelRuleTests {
  @Test func implicitIdIsInsertedFirst() throws {
    let graph = try #require(analyzeClean("type Note @model { title: String }"))
    let note = try graph.requireModel("Note")
    #expect(note.fieldNames == ["id", "title", "createdAt", "updatedAt"])
    let id = try #require(note.field(named: "id"))
    #expect(id.type == .scalar(.id) && id.isRequired && id.origin == .implicitIdentifier)
    #expect(note.primaryKey == PrimaryKey(partitionKey: "id", isImplicit: true))
  }

  @Test func declaredIdIsKeptInPlace() throws {
    let graph = try #require(analyzeClean("type Note @model { title: String id: ID! }"))
    #expect(try graph.requireModel("Note").fieldNames == ["title", "id", "createdAt", "updatedAt"])
    #expect(try graph.requireModel("Note").field(named: "id")?.origin == .declared)
  }

  @Test func timestampsNullRemovesBoth() throws {
    let graph = try #require(analyzeClean("type Note @model(timestamps: null) { id: ID! }"))
    let note = try graph.requireModel("Note")
    #expect(note.fieldNames == ["id"])
    #expect(note.timestamps == .disabled)
  }

  @Test func timestampsRenamedAndRemovedIndividually() throws {
    let graph = try #require(
      analyzeClean(#"type Note @model(timestamps: {createdAt: "createdOn", updatedAt: null}) { id: ID! }"#))
    let note = try graph.requireModel("Note")
    #expect(note.fieldNames == ["id", "createdOn"])
    #expect(note.timestamps == TimestampsConfiguration(createdAt: "createdOn", updatedAt: nil))
    #expect(note.field(named: "createdOn")?.isReadOnly == true)
  }

  @Test func omittedTimestampEntryKeepsItsDefault() throws {
    let graph = try #require(analyzeClean(#"type Note @model(timestamps: {updatedAt: "changedAt"}) { id: ID! }"#))
    #expect(try graph.requireModel("Note").fieldNames == ["id", "createdAt", "changedAt"])
  }

  /// Transformer v2: a declared timestamp stays an ordinary field clients may write, filled by the
  /// service when absent; the implicit one is read-only.
  @Test func declaredTimestampIsKeptWritableAndFilledByTheService() throws {
    let graph = try #require(analyzeClean("type Note @model { id: ID! createdAt: AWSDateTime! }"))
    let note = try graph.requireModel("Note")
    #expect(note.fieldNames == ["id", "createdAt", "updatedAt"])
    let createdAt = try #require(note.field(named: "createdAt"))
    #expect(createdAt.isRequired && !createdAt.isReadOnly && createdAt.origin == .declared)
    #expect(createdAt.isFilledByService)
    let updatedAt = try #require(note.field(named: "updatedAt"))
    #expect(updatedAt.isReadOnly && !updatedAt.isFilledByService)
  }

  @Test func declaredTimestampOfWrongTypeIsAnError() {
    expectDiagnostics(
      "type Note @model { id: ID! createdAt: 1️⃣String }", [(ModelGenDiagnosticCode.implicitFieldConflict, "1️⃣")])
  }

  @Test func operationsAreKeptAsWritten() throws {
    let graph = try #require(
      analyzeClean(#"type Note @model(queries: {get: "fetchNote"}, mutations: null) { id: ID! }"#))
    let note = try graph.requireModel("Note")
    #expect(note.operations.queries == .object([.init(name: "get", value: .string("fetchNote"))]))
    #expect(note.operations.mutations == .null)
    #expect(note.operations.subscriptions == nil)
  }

  @Test func everyScalarResolves() throws {
    let fields = ScalarType.allCases.enumerated().map { "f\($0.offset): \($0.element.rawValue)" }.joined(separator: " ")
    let graph = try #require(analyzeClean("type Everything @model { id: ID! \(fields) }"))
    let model = try graph.requireModel("Everything")
    for (offset, scalar) in ScalarType.allCases.enumerated() {
      #expect(model.field(named: "f\(offset)")?.type == .scalar(scalar))
    }
  }

  @Test func nonModelTypesAndEnumsKeepOrderAndDescriptions() throws {
    let graph = try #require(
      analyzeClean(
        """
        "A colour"
        enum Colour { RED "the best" GREEN }
        type Address { street: String! city: String colour: Colour tags: [String!] }
        type Place { address: Address }
        type Query { places: [Place] }
        """))
    #expect(graph.models.isEmpty)
    #expect(graph.nonModels.map(\.name) == ["Address", "Place"])
    #expect(graph.enums.first?.description == "A colour")
    #expect(graph.enums.first?.values.map(\.description) == [nil, "the best"])
    let address = try #require(graph.nonModel(named: "Address"))
    #expect(
      address.fields.map(\.type) == [
        .scalar(.string), .scalar(.string), .enumeration("Colour"), .list(.scalar(.string), elementRequired: true),
      ])
    #expect(graph.nonModel(named: "Place")?.fields.first?.type == .embedded("Address"))
  }

  @Test func extensionsMergeFieldsAndDirectives() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Note @model { id: ID! }
        extend type Note @auth(rules: [{allow: private}]) { body: String }
        enum Mood { HAPPY }
        extend enum Mood { SAD }
        """))
    let note = try graph.requireModel("Note")
    #expect(note.fieldNames == ["id", "body", "createdAt", "updatedAt"])
    #expect(note.authRules.map(\.allow) == [.private])
    #expect(graph.enums.first?.values.map(\.name) == ["HAPPY", "SAD"])
  }

  @Test func pluralNamesFollowTheTransformer() throws {
    let cases: [(String, String)] = [
      ("Post", "Posts"), ("Post4V2", "Post4V2s"), ("Category", "Categories"), ("Person", "People"),
      ("Box", "Boxes"), ("Status", "Statuses"), ("Address", "Addresses"), ("PostTags", "PostTags"),
      ("Child", "Children"), ("Analysis", "Analyses"), ("Leaf", "Leaves"), ("Knife", "Knives"),
      ("Fish", "Fish"), ("Sheep", "Sheep"), ("Series", "Series"), ("Day", "Days"), ("Quiz", "Quizzes"),
      ("Index", "Indices"), ("Matrix", "Matrices"), ("Mouse", "Mice"), ("Hero", "Heroes"), ("Photo", "Photos"),
      ("Woman", "Women"), ("Bus", "Buses"), ("Datum", "Data"), ("Criterion", "Criteria"), ("Todo", "Todos"),
      ("Wish", "Wishes"), ("Church", "Churches"), ("BlogPerson", "BlogPeople"), ("AWS", "AWS"),
    ]
    for (singular, plural) in cases {
      #expect(Pluralization.plural(of: singular) == plural, "\(singular)")
    }
  }

  /// The last-letter filter of `plural(of:)` never changes a result: every word built from each
  /// rule's own literal words, with prefixes, in three casings, endings in digits and `_`, and
  /// names with non-ASCII or line-terminator endings, pluralizes as with every rule tried.
  @Test func pluralLastLetterFilterMatchesTryingEveryRule() {
    let stems = [
      "post", "category", "person", "box", "status", "address", "child", "analysis", "leaf", "knife",
      "wife", "life", "calf", "hoof", "fish", "sheep", "deer", "measles", "pox", "series", "day",
      "quiz", "index", "matrix", "vertex", "appendix", "mouse", "louse", "titmouse", "hero", "photo",
      "woman", "man", "bus", "datum", "criterion", "phenomenon", "todo", "wish", "church", "alias",
      "axis", "testis", "gas", "atlas", "iris", "emu", "menu", "bias", "gala", "idea", "alumnus",
      "alumna", "alga", "vertebra", "cactus", "fungus", "radius", "seraph", "cherub", "cherubim",
      "agenda", "millennium", "quorum", "organon", "hedron", "bureau", "chateaux", "thou", "pokemon",
      "pokémon", "chinese", "portuguese", "trellis", "precious", "virus", "city", "monkey", "valley",
      "money", "trolley", "buzz", "class", "dish", "beach", "fox", "ox", "a", "s", "y", "", "uss",
      "Post4V2", "Tag_", "item9", "naïve", "café", "word\n", "word\r\n", "word\u{2028}", "x\u{17F}",
      "ok\u{212A}", "ﬆ",
    ]
    var words: [String] = []
    for stem in stems {
      for word in [stem, "blog" + stem, "x" + stem, "the" + stem + "s"] {
        words += [word, word.uppercased(), word.prefix(1).uppercased() + word.dropFirst()]
      }
    }
    for word in words {
      #expect(Pluralization.plural(of: word) == Pluralization.pluralTryingEveryRule(of: word), "\(word)")
    }
  }

  /// A word whose last letter no suffix rule ends with gets `s` (`S` after an uppercase letter)
  /// without a regular expression; the same as trying every rule, for every such ending.
  @Test func pluralWithoutASuffixRuleAppendsS() {
    let endings = "cgjklqtvwCGJKLQTVW0123456789_".map(String.init)
    for ending in endings {
      for stem in ["", "Post", "blog", "UserProfile", "ITEM", "x_y", "\u{0600}", "caf\u{E9}"] {
        let word = stem + ending
        let expected = word + (ending.first!.isUppercase ? "S" : "s")
        #expect(Pluralization.plural(of: word) == expected, "\(word)")
        #expect(Pluralization.pluralTryingEveryRule(of: word) == expected, "\(word)")
      }
    }
    #expect(Pluralization.plural(of: "Post") == "Posts")
    #expect(Pluralization.plural(of: "POST") == "POSTS")
    #expect(Pluralization.plural(of: "Post4V2") == "Post4V2s")
  }

  @Test func unknownTypeSuggestsTheClosestName() {
    expectDiagnostics(
      """
      type Post @model { id: ID! author: 1️⃣Autor body: 2️⃣Strng }
      type Author { name: String }
      """,
      [(ModelGenDiagnosticCode.unknownType, "1️⃣"), (ModelGenDiagnosticCode.unknownType, "2️⃣")])
    let (result, _) = analyzeMarked("type Post @model { id: ID! author: Autor }\ntype Author { name: String }")
    #expect(result.diagnostics.first?.hint == "did you mean `Author`?")
  }

  @Test func duplicateTypesAndFields() {
    expectDiagnostics(
      """
      type Post @model { id: ID! title: String 2️⃣title: String }
      type 1️⃣Post { id: ID! }
      enum Mood { HAPPY 3️⃣HAPPY }
      """,
      [
        (ModelGenDiagnosticCode.duplicateField, "2️⃣"), (ModelGenDiagnosticCode.duplicateType, "1️⃣"),
        (ModelGenDiagnosticCode.duplicateField, "3️⃣"),
      ])
  }

  @Test func restatedAppSyncScalarsAreAccepted() throws {
    let graph = try #require(analyzeClean("scalar AWSDateTime\ntype Note @model { id: ID! at: AWSDateTime }"))
    #expect(try graph.requireModel("Note").field(named: "at")?.type == .scalar(.awsDateTime))
  }

  @Test func extensionOfAnUndefinedType() {
    expectDiagnostics(
      "type Note @model { id: ID! }\nextend type 1️⃣Nte { body: String }", [(ModelGenDiagnosticCode.unknownType, "1️⃣")])
  }

  @Test func diagnosticCodesAreUniqueAndStable() {
    let errors: [SemanticError] = [
      .unknownType(name: "", suggestion: nil), .unknownDirective(name: "", suggestion: nil),
      .unknownArgument(directive: "", argument: "", suggestion: nil, arguments: []), .duplicateType(name: ""),
      .duplicateField(owner: "", field: ""), .belongsToWithoutCounterpart(model: "", field: "", parent: ""),
      .nullableKeyField(model: "", field: "", role: ""),
      .invalidKeyFieldType(model: "", field: "", typeName: "", role: ""),
      .missingField(model: "", field: "", argument: "", suggestion: nil),
      .keyCountMismatch(argument: "", given: 1, relatedModel: "", keyFields: []),
      .keyTypeMismatch(argument: "", field: "", fieldType: "", keyField: "", keyType: ""),
      .ambiguousRelation(model: "", field: "", relatedModel: "", candidates: []),
      .invalidDefault(field: "", value: "", typeName: "", reason: ""),
      .invalidArgumentValue(directive: "", argument: "", expected: "", fix: ""),
      .missingArgument(directive: "", argument: ""),
      .misplacedDirective(directive: "", placement: ""), .repeatedDirective(directive: ""),
      .relationFieldType(directive: "", field: "", expected: ""),
      .modelFieldWithoutRelation(model: "", field: "", relatedModel: ""), .nestedList(owner: "", field: ""),
      .unsupportedFieldType(owner: "", field: "", typeName: "", kind: ""),
      .indexNotFound(model: "", field: "", indexName: "", relatedModel: "", suggestion: nil, indexes: []),
      .duplicateIndexName(model: "", indexName: ""), .invalidAuthRule(model: "", reason: ""),
      .implicitFieldConflict(model: "", field: "", reason: ""), .invalidManyToMany(relationName: "", reason: ""),
      .duplicatePrimaryKey(model: ""),
      .relationStyleMismatch(model: "", field: "", otherModel: "", otherField: ""),
      .fieldsNotPrimaryKey(model: "", field: "", keyFields: []), .duplicateQueryField(name: ""),
      .recursiveEmbeddedType(owner: "", field: "", cycle: []),
      .typeNameCollision(name: "", claim: "", otherName: "", otherClaim: ""),
      .fieldNameCollision(owner: "", field: "", otherField: "", isImplicit: false),
      .builtInTypeRedefined(name: "", kind: ""),
    ]
    let codes = errors.map(\.code.rawValue)
    #expect(codes == (1...34).map { "MG" + String(format: "%03d", $0) })
    #expect(
      SemanticError.defaultNotAllowed(owner: "", field: "", typeName: "").code == ModelGenDiagnosticCode.invalidDefault)
    #expect(errors.allSatisfy { !$0.message.isEmpty && $0.severity == .error })
  }

  @Test func modelFieldWithoutRelationIsAnError() {
    expectDiagnostics(
      """
      type Post @model { id: ID! 1️⃣author: Author }
      type Author @model { id: ID! }
      """, [(ModelGenDiagnosticCode.modelFieldWithoutRelation, "1️⃣")])
  }

  @Test func nestedListsAndUnsupportedTypes() {
    expectDiagnostics(
      """
      interface Node { id: ID! }
      type Post @model { id: ID! grid: 1️⃣[[Int]] node: 2️⃣Node }
      """,
      [(ModelGenDiagnosticCode.nestedList, "1️⃣"), (ModelGenDiagnosticCode.unsupportedFieldType, "2️⃣")])
  }

  /// Issue 17: a non-model type may hold models (a custom resolver's result); each is an embedded
  /// value with no association, and a struct cycle through such a model is MG031 at the field that
  /// closes it.
  @Test func nonModelTypesHoldModelsAsEmbeddedValues() throws {
    let (result, _) = analyzeMarked(
      """
      type Product @model { id: ID! name: String! }
      type OrderLine @aws_iam @aws_cognito_user_pools { product: Product alternatives: [Product!]! quantity: Int! }
      type Order @model { id: ID! lines: [OrderLine!]! }
      """)
    #expect(result.diagnostics.isEmpty)
    let line = try #require(result.graph?.nonModels.first { $0.name == "OrderLine" })
    #expect(line.fields.map(\.name) == ["product", "alternatives", "quantity"])
    #expect(line.fields[0].type == .model("Product") && !line.fields[0].isRequired)
    #expect(line.fields[1].type == .list(.model("Product"), elementRequired: true) && line.fields[1].isRequired)
    #expect(line.fields.allSatisfy { $0.association == nil })
    expectDiagnostics(
      """
      type Product @model { id: ID! name: String! 1️⃣line: OrderLine }
      type OrderLine { product: Product! quantity: Int! }
      type Order @model { id: ID! lines: [OrderLine!]! }
      """, [(ModelGenDiagnosticCode.recursiveEmbeddedType, "1️⃣")])
  }

  @Test func allErrorsOfAFileAreReported() {
    let (result, _) = analyzeMarked(
      """
      type A @model { id: ID! x: Nope }
      type B @model { id: ID! y: Nada @unknown }
      type C @model { id: ID! parent: A @belongsTo }
      """)
    #expect(result.diagnostics.map(\.code.rawValue) == ["MG001", "MG001", "MG002", "MG006"])
    #expect(result.graph == nil)
  }

  @Test func parseErrorsStopTheAnalysisAndKeepTheirCodes() {
    let result = SemanticAnalyzer.analyze(source: "type Post @model { id: ID! title String }", fileName: "bad.graphql")
    #expect(result.graph == nil)
    #expect(result.diagnostics.first?.code.rawValue.hasPrefix("SDL") == true)
    #expect(result.diagnostics.first?.fileName == "bad.graphql")
  }

  /// Issue 20: fields the Amplify transformer accepts but modelgen rejects get a hint saying what
  /// the transformer would do and what to write instead.
  @Test func fieldsTheTransformerAcceptsGetAHintNamingItsBehaviour() {
    let cases: [(schema: String, code: DiagnosticCode, hint: String)] = [
      (
        "type Post @model { id: ID! 1️⃣author: Author }\ntype Author @model { id: ID! }",
        ModelGenDiagnosticCode.modelFieldWithoutRelation,
        "the Amplify transformer accepts this field but gives it no resolver (it is always null); add @hasOne, @belongsTo or (for lists) @hasMany"
      ),
      (
        "type Post @model(timestamps: {createdAt: \"createdOn\"}) { id: ID! createdOn: 1️⃣Int }",
        ModelGenDiagnosticCode.implicitFieldConflict,
        "the Amplify transformer accepts another type but does not fill the field; declare it `AWSDateTime`, or keep your type and turn the timestamp off with `timestamps: {createdAt: null}` / `{updatedAt: null}`"
      ),
      (
        "type Post @model { id: ID! node: Node }\ntype Node { name: String 1️⃣next: Node }",
        ModelGenDiagnosticCode.recursiveEmbeddedType,
        "the Amplify transformer accepts it (a JSON value nests any depth); make the field a list (`[Node]`, Swift arrays are indirect) or make `Node` a @model with a relation"
      ),
    ]
    for (schema, code, hint) in cases {
      let (result, marked) = analyzeMarked(schema)
      let diagnostic = result.diagnostics.first { $0.code == code }
      #expect(diagnostic?.hint == hint, "\(result.diagnostics.map(\.description))")
      let location = marked.location("1️⃣")
      #expect(diagnostic.map { "\($0.line):\($0.column)" } == "\(location.line):\(location.column)")
    }
  }
}
