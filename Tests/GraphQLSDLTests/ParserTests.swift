import GraphQLSDL
import Testing

/// Every type-system production of GraphQL spec October 2021, §3.
@Suite struct ParserTests {
  @Test func schemaDefinitionAndExtension() {
    let document = parseClean(
      """
      "The schema"
      schema @a { query: Q mutation: M }
      extend schema @b { subscription: S }
      extend schema @c
      """)
    guard case .schema(let schema) = document.definitions[0],
      case .schemaExtension(let extensionA) = document.definitions[1],
      case .schemaExtension(let extensionB) = document.definitions[2]
    else {
      Issue.record("unexpected definitions \(document.definitions)")
      return
    }
    #expect(schema.description?.value == "The schema")
    #expect(schema.directives.map(\.name.value) == ["a"])
    #expect(schema.operationTypes.map(\.operation) == [.query, .mutation])
    #expect(schema.operationTypes.map(\.type.value) == ["Q", "M"])
    #expect(extensionA.operationTypes.map(\.operation) == [.subscription])
    #expect(extensionB.directives.map(\.name.value) == ["c"] && extensionB.operationTypes.isEmpty)
    #expect(document.definitions.map(\.isExtension) == [false, true, true])
  }

  @Test func scalarDefinitionAndExtension() {
    let document = parseClean("\"Date\" scalar AWSDate @specifiedBy(url: \"https://x\")\nextend scalar AWSDate @a")
    guard case .scalarType(let scalar) = document.definitions[0],
      case .scalarTypeExtension(let scalarExtension) = document.definitions[1]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(scalar.description?.value == "Date")
    #expect(scalar.directives[0].argument(named: "url")?.value.stringValue == "https://x")
    #expect(scalarExtension.name.value == "AWSDate" && scalarExtension.directives.count == 1)
  }

  @Test func objectTypeWithInterfacesDirectivesArgumentsAndTypes() {
    let document = parseClean(
      """
      type Post implements & Node & Timestamped @model(queries: null) @auth(rules: [{allow: owner}]) {
        id: ID!
        "Comments on the post"
        comments(first: Int = 10, after: String): [Comment!]! @hasMany(indexName: "byPost", fields: ["id"])
        matrix: [[Float]!]
      }
      """)
    guard case .objectType(let post) = document.definitions[0] else {
      Issue.record("expected an object type")
      return
    }
    #expect(post.interfaces.map(\.value) == ["Node", "Timestamped"])
    #expect(post.directives.map(\.name.value) == ["model", "auth"])
    #expect(post.directives[0].argument(named: "queries")?.value.isNull == true)
    #expect(post.fields.map(\.name.value) == ["id", "comments", "matrix"])
    let comments = post.fields[1]
    #expect(comments.description?.value == "Comments on the post")
    #expect(comments.arguments.map(\.name.value) == ["first", "after"])
    #expect(comments.arguments[0].defaultValue?.intValue == 10)
    #expect(comments.arguments[1].defaultValue == nil)
    #expect(comments.type.description == "[Comment!]!")
    #expect(comments.type.isNonNull && comments.type.isList)
    #expect(comments.type.namedType.value == "Comment")
    #expect(comments.type.listElement?.description == "Comment!")
    #expect(comments.type.nullable.description == "[Comment!]")
    #expect(post.fields[2].type.description == "[[Float]!]")
    #expect(!post.fields[2].type.isNonNull)
    #expect(post.fields[0].type.listElement == nil)
    let hasMany = comments.directives[0]
    #expect(hasMany.argument(named: "indexName")?.value.stringValue == "byPost")
    #expect(hasMany.argument(named: "fields")?.value.listValues?.compactMap(\.stringValue) == ["id"])
  }

  @Test func objectTypeWithoutFieldsAndItsExtension() {
    let document = parseClean("type Query\nextend type Query implements Node @key { node: Node }\nextend type Query @a")
    guard case .objectType(let type) = document.definitions[0],
      case .objectTypeExtension(let typeExtension) = document.definitions[1]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(type.fields.isEmpty)
    #expect(typeExtension.interfaces.map(\.value) == ["Node"])
    #expect(typeExtension.directives.map(\.name.value) == ["key"])
    #expect(typeExtension.fields.map(\.name.value) == ["node"])
    #expect(document.objectTypes.count == 1 && document.objectTypeExtensions.count == 2)
    #expect(document.definitions(named: "Query").count == 1)
  }

  @Test func interfaceDefinitionImplementingInterfacesAndExtension() {
    let document = parseClean(
      "interface Resource implements Node @i { id: ID! url(format: String = \"x\"): String }\nextend interface Resource { size: Int }"
    )
    guard case .interfaceType(let interface) = document.definitions[0],
      case .interfaceTypeExtension(let interfaceExtension) = document.definitions[1]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(interface.interfaces.map(\.value) == ["Node"])
    #expect(interface.fields[1].arguments[0].defaultValue?.stringValue == "x")
    #expect(interfaceExtension.fields.map(\.name.value) == ["size"])
  }

  @Test func unionDefinitionAndExtension() {
    let document = parseClean(
      "union SearchResult @u = | Photo | Person\nunion Empty @x\nextend union SearchResult = Video")
    guard case .unionType(let union) = document.definitions[0], case .unionType(let empty) = document.definitions[1],
      case .unionTypeExtension(let unionExtension) = document.definitions[2]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(union.memberTypes.map(\.value) == ["Photo", "Person"])
    #expect(union.directives.map(\.name.value) == ["u"])
    #expect(empty.memberTypes.isEmpty)
    #expect(unionExtension.memberTypes.map(\.value) == ["Video"])
  }

  @Test func enumDefinitionAndExtension() {
    let document = parseClean(
      """
      enum Status @e {
        "Shown"
        ACTIVE @deprecated(reason: "use LIVE")
        ARCHIVED
      }
      extend enum Status { LIVE }
      """)
    guard case .enumType(let status) = document.definitions[0],
      case .enumTypeExtension(let statusExtension) = document.definitions[1]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(status.values.map(\.name.value) == ["ACTIVE", "ARCHIVED"])
    #expect(status.values[0].description?.value == "Shown")
    #expect(status.values[0].directives[0].argument(named: "reason")?.value.stringValue == "use LIVE")
    #expect(statusExtension.values.map(\.name.value) == ["LIVE"])
    #expect(document.enumTypes.map(\.name.value) == ["Status"])
  }

  @Test func inputObjectDefinitionAndExtension() {
    let document = parseClean(
      """
      input PostInput @i {
        "Title"
        title: String! = "Untitled" @constraint(max: 100)
        tags: [String!] = ["a", "b"]
        nested: Filter = {and: [{field: "x", eq: 1.5}], not: null, flag: true, mode: FAST}
      }
      extend input PostInput { rating: Int = -1 }
      """)
    guard case .inputObjectType(let input) = document.definitions[0],
      case .inputObjectTypeExtension(let inputExtension) = document.definitions[1]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(input.fields.map(\.name.value) == ["title", "tags", "nested"])
    #expect(input.fields[0].description?.value == "Title")
    #expect(input.fields[0].defaultValue?.stringValue == "Untitled")
    #expect(input.fields[0].directives[0].argument(named: "max")?.value.intValue == 100)
    #expect(input.fields[1].defaultValue?.listValues?.compactMap(\.stringValue) == ["a", "b"])
    let nested = input.fields[2].defaultValue
    #expect(nested?.field(named: "not")?.isNull == true)
    #expect(nested?.field(named: "flag")?.booleanValue == true)
    #expect(nested?.field(named: "mode")?.enumValueName == "FAST")
    #expect(nested?.field(named: "and")?.listValues?.first?.field(named: "eq")?.doubleValue == 1.5)
    #expect(nested?.objectFields?.map(\.name.value) == ["and", "not", "flag", "mode"])
    #expect(inputExtension.fields[0].defaultValue?.intValue == -1)
  }

  @Test func directiveDefinitions() {
    let document = parseClean(
      """
      "Marks a model"
      directive @model(queries: ModelQueryMap, timestamps: TimestampConfiguration = {createdAt: "createdAt"}) on OBJECT
      directive @auth(rules: [AuthRule!]!) repeatable on | OBJECT | FIELD_DEFINITION
      directive @everywhere on QUERY | MUTATION | SUBSCRIPTION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD | INLINE_FRAGMENT | VARIABLE_DEFINITION | SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION
      """)
    let directives = document.directiveDefinitions
    #expect(directives.map(\.name.value) == ["model", "auth", "everywhere"])
    #expect(directives[0].description?.value == "Marks a model")
    #expect(directives[0].arguments.map(\.name.value) == ["queries", "timestamps"])
    #expect(directives[0].arguments[1].defaultValue?.field(named: "createdAt")?.stringValue == "createdAt")
    #expect(!directives[0].isRepeatable && directives[1].isRepeatable)
    #expect(directives[1].locations.map(\.location) == [.object, .fieldDefinition])
    #expect(directives[2].locations.map(\.location) == DirectiveLocation.allCases)
  }

  @Test func descriptionsEverywhereTheSpecAllows() {
    let document = parseClean(
      """
      "s" schema { query: Q }
      "sc" scalar S
      \"\"\"type\"\"\" type T { "f" f("a" a: Int): Int }
      "i" interface I { f: Int }
      "u" union U = T
      "e" enum E { "v" V }
      "in" input In { "x" x: Int }
      "d" directive @d("arg" arg: Int) on FIELD_DEFINITION
      """)
    #expect(document.definitions.map { $0.description?.value } == ["s", "sc", "type", "i", "u", "e", "in", "d"])
    guard case .objectType(let type) = document.definitions[2], case .enumType(let enumType) = document.definitions[5],
      case .inputObjectType(let input) = document.definitions[6],
      case .directive(let directive) = document.definitions[7]
    else {
      Issue.record("unexpected definitions")
      return
    }
    #expect(type.description?.isBlockString == true)
    #expect(type.fields[0].description?.value == "f")
    #expect(type.fields[0].arguments[0].description?.value == "a")
    #expect(enumType.values[0].description?.value == "v")
    #expect(input.fields[0].description?.value == "x")
    #expect(directive.arguments[0].description?.value == "arg")
  }

  @Test func constValuesOfEveryKind() {
    let value = lexValue(#"[1, -2.5e3, "s", """b""", true, false, null, ENUM, [], {}, {k: [{n: 1}]}]"#)
    guard let values = value?.listValues else {
      Issue.record("expected a list")
      return
    }
    #expect(values.count == 11)
    #expect(values[0].intValue == 1)
    #expect(values[1].doubleValue == -2500)
    #expect(values[2].stringValue == "s")
    #expect(values[3].stringValue == "b")
    #expect(values[4].booleanValue == true && values[5].booleanValue == false)
    #expect(values[6].isNull)
    #expect(values[7].enumValueName == "ENUM")
    #expect(values[8].listValues?.isEmpty == true)
    #expect(values[9].objectFields?.isEmpty == true)
    #expect(values[10].field(named: "k")?.listValues?.first?.field(named: "n")?.intValue == 1)
    #expect(values[7].stringValue == nil && values[2].intValue == nil && values[0].booleanValue == nil)
  }

  @Test func sourceRangesOfNodes() {
    let source = MarkedSource(
      """
      1️⃣type 2️⃣Post 3️⃣@model {
        4️⃣title: 5️⃣[6️⃣String!]!7️⃣ @index(name: 8️⃣"byTitle")9️⃣
      }
      """)
    let document = parseClean(source.text)
    guard case .objectType(let post) = document.definitions[0] else {
      Issue.record("expected an object type")
      return
    }
    func at(_ location: GraphQLSDL.SourceLocation) -> String { "\(location.line):\(location.column)" }
    #expect(at(post.range.start) == source.position("1️⃣"))
    #expect(post.range.end.line == 3 && post.range.end.column == 2)
    #expect(at(post.name.range.start) == source.position("2️⃣"))
    #expect(post.name.range.byteCount == 4)
    #expect(at(post.directives[0].range.start) == source.position("3️⃣"))
    let title = post.fields[0]
    #expect(at(title.range.start) == source.position("4️⃣"))
    #expect(at(title.range.end) == source.position("9️⃣"))
    #expect(at(title.type.range.start) == source.position("5️⃣"))
    #expect(at(title.type.range.end) == source.position("7️⃣"))
    #expect(at(title.type.namedType.range.start) == source.position("6️⃣"))
    let name = title.directives[0].arguments[0].value
    #expect(at(name.range.start) == source.position("8️⃣"))
    #expect(name.range.start.offset == source.positions["8️⃣"]?.offset)
    #expect(document.range.start == .startOfFile)
  }

  /// Issue 20: a union's members or an `implements` list followed on the same line by the next
  /// definition is valid GraphQL (§3.8, §3.6: without `|`/`&` the list ends); the parser took the
  /// definition keyword for a member missing its `|` (SDL039) or interface missing its `&` (SDL037).
  @Test func aUnionOrImplementsListEndsWhereTheNextDefinitionStarts() {
    let document = parseClean(
      "type T { a: Int } union U = T | V type Query { u: U } type V implements N interface N { b: Int }")
    #expect(document.definitions.compactMap(\.name?.value) == ["T", "U", "Query", "V", "N"])
    guard case .unionType(let union) = document.definitions[1], case .objectType(let v) = document.definitions[3] else {
      Issue.record("unexpected definitions: \(document.definitions)")
      return
    }
    #expect(union.memberTypes.map(\.value) == ["T", "V"])
    #expect(v.interfaces.map(\.value) == ["N"] && v.fields.isEmpty)
    // A name that starts no definition is still a missing separator.
    #expect(parse("union U = A B").diagnostics.map(\.code) == [SDLDiagnosticCode.expectedUnionMember])
    #expect(parse("type A implements B C { a: Int }").diagnostics.map(\.code) == [SDLDiagnosticCode.expectedAmpersand])
  }

  @Test func emptyDocumentHasNoDefinitionsAndNoDiagnostics() {
    #expect(parseClean("").definitions.isEmpty)
    #expect(parseClean("  # only a comment\n\n").definitions.isEmpty)
  }
}

@Suite struct ConvenienceTests {
  @Test func directiveAndDefinitionLookups() {
    let document = parseClean(
      "type A @model @auth(rules: []) @auth(rules: [{allow: public}]) { a: Int }\nextend type A @x\nenum E { V }")
    let directives = document.objectTypes[0].directives
    #expect(directives.first(named: "auth")?.arguments.first?.value.listValues?.isEmpty == true)
    #expect(directives.all(named: "auth").count == 2)
    #expect(directives.contains(named: "model") && !directives.contains(named: "key"))
    #expect(directives.first(named: "key") == nil)
    #expect(document.definition(named: "A")?.isExtension == false)
    #expect(document.definition(named: "E")?.name?.value == "E")
    #expect(document.definition(named: "Missing") == nil)
  }

  @Test func optionsBelowOneAreRaisedToOne() {
    let options = ParseOptions(maximumNestingDepth: 0, maximumDiagnosticCount: -5)
    #expect(options.maximumNestingDepth == 1 && options.maximumDiagnosticCount == 1)
    let result = SDLParser.parse("% % %", options: options)
    #expect(result.diagnostics.map(\.code) == [SDLDiagnosticCode.unexpectedCharacter, SDLDiagnosticCode.tooManyErrors])
  }
}
