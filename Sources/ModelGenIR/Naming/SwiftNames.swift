import Foundation

/// The one place where GraphQL names become Swift names.
///
/// Every identifier the generator writes (type, property, enum case, coding key, parameter,
/// argument label, member reference) is produced here, so keyword escaping, casing and collision
/// handling cannot differ between templates. The rules, checked against the Swift 6 compiler:
/// - Every Swift keyword (declaration, statement, expression and type keywords, and the
///   context-sensitive ones) is escaped with backticks where it is declared or referenced.
/// - A few names cannot be declared even with backticks in some positions: a stored property
///   named `self`; an enum case or static member named `Type` or `Protocol`. Those get a suffix.
/// - At call sites, argument labels are written bare (`Identifier(default: x)`) except `inout`,
///   `var` and `let`, which the compiler requires escaped there too.
/// - Types are upper-camel (first letter upper-cased), properties lower-camel (first letter
///   lower-cased, so a field named like its type, `Break: Break`, becomes `break` and cannot shadow
///   the type), enum cases lower-camel from SCREAMING_SNAKE_CASE (`IN_PROGRESS` → `inProgress`).
/// - A type whose name would shadow a type the generated code or apps use (``shadowedTypeNames``:
///   `Task`, `Date`, `UUID`, `Model`, ...) gets the suffix `Type` (`TaskType`), resolved for the
///   whole schema by `SwiftTypeNaming` and reported as a warning (`MGW001`); members that would
///   collide with generated members (`identifier`) get the suffix `Value`.
public enum SwiftNames {
  /// Every Swift keyword (The Swift Programming Language, "Lexical Structure › Keywords and
  /// Punctuation"), including context-sensitive keywords, which are escaped too for safety.
  public static let keywords: Set<String> = [
    // Declarations.
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
    "fileprivate",
    "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator",
    "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
    "typealias",
    "var",
    // Statements.
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
    // Expressions and types.
    "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    "_",
    // Context-sensitive.
    "associativity", "async", "convenience", "didSet", "dynamic", "final", "get", "indirect",
    "infix",
    "lazy", "left", "mutating", "none", "nonmutating", "optional", "override", "package", "postfix",
    "precedence", "prefix", "Protocol", "required", "right", "set", "some", "Type", "unowned",
    "weak",
    "willSet", "any", "actor", "each", "macro", "sending", "isolated",
  ]

  /// Type names a generated type must not take, with where each comes from: the types the
  /// generated files use unqualified, and the standard library, Foundation, Concurrency and
  /// runtime (`LazyModel`, `LazyModelAPI`, `LazyModelDataStore`) types apps use. A generated type
  /// named like one of them would shadow it in the app's module (`Task { … }` elsewhere in the app
  /// would name the model), so the safe-name pass (`SwiftTypeNaming`) renames it by the rule
  /// documented there and reports `MGW001`, and a config `swiftNames` value naming one is `MGC010`.
  ///
  /// Sources (how each list was made: `SwiftShadowedTypeNames`): the `Swift` module's public types
  /// and protocols, `_Concurrency` and `_StringProcessing`, `FoundationEssentials` and the common
  /// types of `Foundation`/`FoundationNetworking`, every public type of `Dispatch` and
  /// `Observation`, every public type of the runtime modules and
  /// the module names, and the names the generated code itself declares (`Models`, and the nested
  /// `Keys`, `Identifier` and `CodingKeys` of every model, which a field type of that name would
  /// resolve to inside the model). A name listed twice keeps its first source.
  public static let shadowedTypeNameSources: [(name: String, source: String)] = {
    let standardLibrary = (SwiftShadowedTypeNames.standardLibrary + ["Swift"]).map {
      ($0, "the Swift standard library")
    }
    let concurrency = SwiftShadowedTypeNames.concurrency.map { ($0, "Swift Concurrency") }
    let foundation = SwiftShadowedTypeNames.foundation.map { ($0, "Foundation") }
    let dispatch = SwiftShadowedTypeNames.dispatch.map { ($0, "Dispatch") }
    let observation = SwiftShadowedTypeNames.observation.map { ($0, "Observation") }
    let runtime = SwiftShadowedTypeNames.runtime.flatMap { module in module.names.map { ($0, module.module) } }
    return standardLibrary + concurrency + foundation + dispatch + observation + runtime + [
      (SwiftTypeNaming.registryName, "the generated registry (modelgen)"),
      ("Keys", "the typed key enum every generated model declares (modelgen)"),
      ("Identifier", "the identifier struct every generated model declares (modelgen)"),
      ("CodingKeys", "the coding keys every generated model declares (modelgen)"),
    ]
  }()

  /// ``shadowedTypeNameSources`` by name.
  public static let shadowedTypeNames: [String: String] = Dictionary(
    shadowedTypeNameSources.map { ($0.name, $0.source) }, uniquingKeysWith: { first, _ in first })

  /// Every name of ``shadowedTypeNames``, and `Type`, `Protocol`, `Self` and `Any`, which cannot
  /// be declared as a type even escaped.
  public static let reservedTypeNames: Set<String> = Set(shadowedTypeNames.keys).union([
    "Type", "Protocol", "Self", "Any",
  ])

  /// Member names every generated model or embedded type declares itself, or that a protocol every
  /// generated model conforms to requires (``protocolMemberNames``); a field with one of these
  /// names gets the suffix `Value` for its Swift property.
  public static let reservedMemberNames: Set<String> = Set(protocolMemberNames.keys).union([
    "identifier", "modelIdentifier", "modelName",
  ])

  /// The instance properties that a protocol of every generated model requires, by name, with the
  /// protocol: `Model` refines `CustomStringConvertible`, `CustomDebugStringConvertible` and
  /// `Hashable`, whose `description`/`debugDescription`/`hashValue` the runtime implements for
  /// every model. A stored property of the same name would satisfy the requirement instead (a
  /// `description` field made `print(model)` show only that field). Embedded types keep the same
  /// names, so a type reads the same whether it is a `@model` or not. (`id` is not here: a model is
  /// `Identifiable` through its `id` field only when that field is its whole key, and otherwise
  /// not at all when a field is named `id`.)
  public static let protocolMemberNames: [String: String] = [
    "description": "CustomStringConvertible",
    "debugDescription": "CustomDebugStringConvertible",
    "hashValue": "Hashable",
  ]

  /// Names that cannot be declared as an instance property, even escaped.
  static let unusableProperties: Set<String> = ["self"]
  /// Names that cannot be declared as an enum case or static member, even escaped.
  static let unusableCases: Set<String> = ["Type", "Protocol", "self", "Self"]
  /// The static members a protocol of every generated enum and `CodingKeys` enum requires, with the
  /// protocol: a case `allCases` would make `CaseIterable.allCases` ambiguous (`ambiguous use of
  /// 'allCases'`), so such a case gets the suffix `Value`.
  public static let protocolCaseNames: [String: String] = ["allCases": "CaseIterable"]
  /// Argument labels that must stay escaped at call sites.
  static let escapedLabels: Set<String> = ["inout", "var", "let"]

  /// `name` with backticks when it is a keyword, as written where it is declared or referenced.
  public static func escaped(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// `name` as an argument label at a call site: bare except for `inout`, `var` and `let`.
  public static func argumentLabel(_ name: String) -> String {
    escapedLabels.contains(name) ? "`\(name)`" : name
  }

  /// The Swift type name for the GraphQL type `graphQLName` taken alone (unescaped; pass it to
  /// ``escaped(_:)``): upper-camel, with the suffix `Type` when it is one of
  /// ``reservedTypeNames``. The names of a whole schema come from `SwiftTypeNaming`, which also
  /// keeps them unique.
  public static func typeName(_ graphQLName: String) -> String {
    var name = upperFirst(graphQLName)
    if reservedTypeNames.contains(name) { name += "Type" }
    return name
  }

  /// `true` when `name` is a Swift identifier a generated type can be declared with: an
  /// ``isIdentifierHead(_:)`` scalar followed by ``isIdentifierCharacter(_:)`` scalars, with no
  /// ``isInvisibleInIdentifier(_:)`` scalar, not `_`, not a keyword and not one of
  /// ``reservedTypeNames``. `Café`, `Cafe\u{301}` (a combining accent after the first letter) and
  /// `Ωmega` are declarable; `\u{301}Cafe` (a combining mark first), `1Task` and `To-do` are not.
  /// A name longer than ``maximumTypeNameLength`` UTF-8 bytes is not declarable either: its file
  /// would not fit a file name.
  public static func isDeclarableTypeName(_ name: String) -> Bool {
    isSwiftIdentifier(name) && name != "_" && !keywords.contains(name) && !reservedTypeNames.contains(name)
      && name.utf8.count <= maximumTypeNameLength
  }

  /// The longest Swift type name, in UTF-8 bytes, whose files fit a file name: 255 bytes (the
  /// limit of APFS, HFS+ in UTF-16 units, and ext4) less the 17 of `+Schema.swiftdeps`, the longest
  /// file SwiftPM writes for a generated file (`<Name>+Schema.swift.o` adds 15, `.swiftdeps` 17
  /// over `<Name>+Schema`): 238.
  public static let maximumTypeNameLength = 255 - "+Schema.swiftdeps".utf8.count

  /// `true` when `name` is an *identifier* of The Swift Programming Language ("Lexical Structure ›
  /// Identifiers": *identifier-head* *identifier-characters*?, without the backquoted and `$`
  /// forms) that holds no invisible scalar (``isInvisibleInIdentifier(_:)``, a rule of modelgen's,
  /// stricter than Swift's). Keywords are identifiers here; ``isDeclarableTypeName(_:)`` refuses
  /// them.
  public static func isSwiftIdentifier(_ name: String) -> Bool {
    var scalars = name.unicodeScalars.makeIterator()
    guard let first = scalars.next(), isIdentifierHead(first), !isInvisibleInIdentifier(first) else { return false }
    while let scalar = scalars.next() {
      guard isIdentifierCharacter(scalar), !isInvisibleInIdentifier(scalar) else { return false }
    }
    return true
  }

  /// The grammar's *identifier-head* (The Swift Programming Language, "Lexical Structure ›
  /// Identifiers"): `A`–`Z`, `a`–`z`, `_`, and the listed ranges of letters, ideographs and other
  /// non-combining characters of the Basic Multilingual Plane, and the planes above it outside
  /// their last two code points.
  public static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
    }
    if value >= 0x10000 {
      // U+10000–U+1FFFD, …, U+E0000–U+EFFFD: every plane from 1 to 14 but its last two.
      return value <= 0xEFFFD && value & 0xFFFF <= 0xFFFD
    }
    return identifierHeadRanges.contains { $0.contains(value) }
  }

  /// The grammar's *identifier-character*: a digit, a combining mark of U+0300–U+036F,
  /// U+1DC0–U+1DFF, U+20D0–U+20FF or U+FE20–U+FE2F, or an ``isIdentifierHead(_:)`` scalar.
  public static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if (0x30...0x39).contains(value) { return true }
    let combining: [ClosedRange<UInt32>] = [0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]
    return combining.contains { $0.contains(value) } || isIdentifierHead(scalar)
  }

  /// `true` for a scalar Swift allows in an identifier but that shows nothing of its own (Unicode
  /// *Default_Ignorable_Code_Point*: the soft hyphen, zero-width space and joiners, bidirectional
  /// controls such as U+202E, word joiners, variation selectors, the byte order mark). modelgen
  /// refuses them in a Swift name, so two names that look the same are never two types or files.
  public static func isInvisibleInIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isDefaultIgnorableCodePoint
  }

  /// The *identifier-head* ranges of the Basic Multilingual Plane above ASCII.
  private static let identifierHeadRanges: [ClosedRange<UInt32>] = [
    0x00A8...0x00A8, 0x00AA...0x00AA, 0x00AD...0x00AD, 0x00AF...0x00AF, 0x00B2...0x00B5, 0x00B7...0x00BA,
    0x00BC...0x00BE, 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x00FF,
    0x0100...0x02FF, 0x0370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF,
    0x1E00...0x1FFF,
    0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F,
    0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793,
    0x2C00...0x2DFF, 0x2E80...0x2FFF,
    0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
    0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44,
    0xFE47...0xFFFD,
  ]

  /// The key under which two file names are the same file on a case-insensitive, normalization-
  /// insensitive file system (APFS and HFS+, the macOS defaults): `name` in canonical decomposition
  /// (NFD), each scalar mapped to its full uppercase and then its full lowercase mapping (Unicode
  /// `SpecialCasing.txt`: `ß` → `SS` → `ss`), repeated until nothing changes (`ẞ` → `ß` → `ss`),
  /// then NFD again. Two names with equal keys collide (`Straße`/`STRASSE`, `Café`/`Cafe\u{301}`,
  /// `Σας`/`ΣΑΣ`, the Kelvin sign `K`/`k`).
  ///
  /// Source: the case-insensitive variant of APFS (the macOS default) is "normalization-preserving,
  /// but not normalization-sensitive" (Apple, APFS Guide, FAQ) and compares names ignoring case;
  /// HFS+ stores names in NFD and compares them ignoring case (Technical Note TN1150). Conservative
  /// on purpose: mapping through uppercase first equates every pair Unicode full case folding
  /// does, and a few more (`ı` and `i`), so no pair that collides on macOS is missed; a pair that
  /// APFS would keep apart is only reported, never written over. Pure; thread-safe.
  public static func fileSystemKey(_ name: String) -> String {
    // ASCII (every GraphQL name) is its own NFD, and its full case mappings are `A`–`Z` ↔ `a`–`z`.
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    var key = name.decomposedStringWithCanonicalMapping
    for _ in 0..<4 {
      var next = String.UnicodeScalarView()
      for scalar in key.unicodeScalars {
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
          next.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars)
        }
      }
      let mapped = String(next).decomposedStringWithCanonicalMapping
      if mapped.unicodeScalars.elementsEqual(key.unicodeScalars) { break }
      key = mapped
    }
    return key
  }

  /// The Swift property name (unescaped) for the GraphQL field `graphQLName`.
  public static func propertyName(_ graphQLName: String) -> String {
    var name = lowerFirst(graphQLName)
    if unusableProperties.contains(name) || reservedMemberNames.contains(name) { name += "Value" }
    return name
  }

  /// The Swift property names (unescaped) of one type's GraphQL fields, in the order given: each
  /// ``propertyName(_:)``, unique and independent of declaration order, as ``caseNames(_:)``
  /// resolves cases. Fields whose property name is the field name itself keep it (and `taken`
  /// names are never used); the others, in GraphQL name order, get the smallest free numeric
  /// suffix from 2 when their name is taken (`selfValue` stays `selfValue`, and `self` beside it
  /// becomes `selfValue2`, wherever each is declared). Renamed fields are reported as `MGW002`.
  public static func propertyNames(_ fields: [String], taken reserved: Set<String> = []) -> [String] {
    let wanted = fields.map(propertyName)
    // No name taken twice or reserved (every type of most schemas): each keeps its wanted name,
    // whatever the order, so the sort below is skipped.
    if allDistinct(wanted, reserved: reserved) { return wanted }
    let order = fields.indices.sorted {
      (wanted[$0] == fields[$0] ? 0 : 1, fields[$0]) < (wanted[$1] == fields[$1] ? 0 : 1, fields[$1])
    }
    return suffixedUniquely(wanted, order: order, reserved: reserved)
  }

  /// The Swift case names (unescaped) of one enum's GraphQL values, in the order given: each
  /// ``caseName(_:)``, unique and independent of declaration order. Values whose case name is the
  /// value itself (`inProgress`) keep it; the others, in GraphQL name order, get the smallest free
  /// numeric suffix from 2 when their name is taken (`IN_PROGRESS` → `inProgress2` beside
  /// `inProgress`, wherever each is declared). Renamed cases are reported as `MGW002`.
  public static func caseNames(_ values: [String]) -> [String] {
    let wanted = values.map(caseName)
    if allDistinct(wanted, reserved: []) { return wanted }
    let order = values.indices.sorted {
      (wanted[$0] == values[$0] ? 0 : 1, values[$0]) < (wanted[$1] == values[$1] ? 0 : 1, values[$1])
    }
    return suffixedUniquely(wanted, order: order)
  }

  /// `wanted` made unique by visiting its names in `order` (indices into `wanted`): each keeps its
  /// name unless a name visited before it (or one of `reserved`) has it, and then takes the
  /// smallest free numeric suffix from 2. The one suffix pass of ``propertyNames(_:taken:)``,
  /// ``caseNames(_:)``, ``pathMembers(forProperties:)`` and ``indexKeyNames(_:)``.
  static func suffixedUniquely(_ wanted: [String], order: [Int], reserved: Set<String> = [])
    -> [String]
  {
    var taken: Set<String> = []
    var result = wanted
    for index in order {
      var candidate = wanted[index]
      var suffix = 2
      while taken.contains(candidate) || reserved.contains(candidate) {
        candidate = "\(wanted[index])\(suffix)"
        suffix += 1
      }
      taken.insert(candidate)
      result[index] = candidate
    }
    return result
  }

  /// `true` when no name of `names` appears twice or in `reserved`: then the suffix passes of
  /// ``propertyNames(_:taken:)``, ``caseNames(_:)`` and ``uniqued(_:taken:)`` leave every name
  /// as it is.
  private static func allDistinct(_ names: [String], reserved: Set<String>) -> Bool {
    var seen: Set<String> = []
    seen.reserveCapacity(names.count)
    for name in names where reserved.contains(name) || !seen.insert(name).inserted { return false }
    return true
  }

  /// The Swift enum case name (unescaped) for the GraphQL enum value `graphQLName`: its
  /// ``casedName(_:)``, with the suffix `Value` when Swift cannot declare that as a case.
  public static func caseName(_ graphQLName: String) -> String {
    let name = casedName(graphQLName)
    return unusableCases.contains(name) || protocolCaseNames[name] != nil ? name + "Value" : name
  }

  /// The lower-camel case of the GraphQL enum value `graphQLName` (`IN_PROGRESS` → `inProgress`,
  /// `Open` → `open`), before any suffix.
  public static func casedName(_ graphQLName: String) -> String {
    let letters = graphQLName.filter(\.isLetter)
    var name: String
    if !letters.isEmpty, letters.allSatisfy(\.isUppercase) {
      let words = graphQLName.split(separator: "_").map { $0.lowercased() }
      name = words.enumerated().map { $0.offset == 0 ? $0.element : upperFirst($0.element) }
        .joined()
      if graphQLName.hasPrefix("_") { name = "_" + name }
    } else {
      name = lowerFirst(graphQLName)
    }
    if name.isEmpty { name = "_" + graphQLName }
    return name
  }

  /// The coding-key case name (unescaped) for a property name: the property name, unless the
  /// compiler forbids it as a case.
  public static func codingKeyCase(forProperty property: String) -> String {
    unusableCases.contains(property) || protocolCaseNames[property] != nil ? property + "Value" : property
  }

  /// The coding-key case names (unescaped) of one type's properties, in the order given: each
  /// ``codingKeyCase(forProperty:)``, unique within the type's `CodingKeys` (and `Keys`). A case
  /// that keeps its property's name keeps it; a suffixed one (`allCasesValue`) takes the smallest
  /// free numeric suffix from 2 when another property has that name (`allCasesValue2`).
  public static func codingKeyCases(forProperties properties: [String]) -> [String] {
    renamedUniquely(properties, wanted: properties.map(codingKeyCase(forProperty:)))
  }

  /// The `ModelPath` member names (unescaped) of one model's association properties, in the order
  /// given: each ``pathMember(forProperty:)``, unique within the model's `ModelPath` extension
  /// (`fieldNames` beside an association `fieldNamesValue` → `fieldNamesValue2`).
  public static func pathMembers(forProperties properties: [String]) -> [String] {
    renamedUniquely(properties, wanted: properties.map(pathMember(forProperty:)))
  }

  /// `wanted` (one name per name of `originals`) made unique: names equal to their original keep
  /// them, the renamed ones (in original-name order) take the smallest free suffix from 2.
  private static func renamedUniquely(_ originals: [String], wanted: [String]) -> [String] {
    if allDistinct(wanted, reserved: []) { return wanted }
    let order = originals.indices.sorted {
      (wanted[$0] == originals[$0] ? 0 : 1, originals[$0])
        < (wanted[$1] == originals[$1] ? 0 : 1, originals[$1])
    }
    return suffixedUniquely(wanted, order: order)
  }

  /// The properties every `ModelPath` value has, by name, with the type or protocol that declares
  /// them (`LazyModel.ModelPath` and the protocols it conforms to: `CodingKey`, which refines
  /// `CustomStringConvertible` and `CustomDebugStringConvertible`, and `Hashable`). A generated
  /// path member of the same name (`Post.path.fieldNames` for an association `fieldNames`) is
  /// ambiguous, so it gets the suffix `Value` (``pathMember(forProperty:)``; the model's property
  /// keeps its name), reported as `MGW002`. Methods are not here: a property beside a method of
  /// the same base name (`appending` beside `appending(_:)`, `hash` beside `hash(into:)`) compiles
  /// and resolves (checked with swiftc 6). `SwiftNameSetsTests` checks the list against the
  /// properties `Sources/LazyModel/ModelPath.swift` declares.
  public static let pathMemberNames: [String: String] = [
    "fieldNames": "ModelPath", "stringValue": "CodingKey", "intValue": "CodingKey",
    "description": "CustomStringConvertible", "debugDescription": "CustomDebugStringConvertible",
    "hashValue": "Hashable",
  ]

  /// The `ModelPath` member name (unescaped) of an association whose property is `property`: the
  /// property name, or it with the suffix `Value` when a `ModelPath` has a member of that name
  /// (``pathMemberNames``).
  public static func pathMember(forProperty property: String) -> String {
    pathMemberNames[property] != nil ? property + "Value" : property
  }

  /// Makes `names` unique in order: a name already taken (or in `taken`) gets the smallest numeric
  /// suffix from 2 that is free. Deterministic for a given input order.
  public static func uniqued(_ names: [String], taken: Set<String> = []) -> [String] {
    // `taken` is only read (copying a large set per call was a measurable part of rendering).
    if allDistinct(names, reserved: taken) { return names }
    var added: Set<String> = []
    added.reserveCapacity(names.count)
    return names.map { name in
      var candidate = name
      var suffix = 2
      while taken.contains(candidate) || added.contains(candidate) {
        candidate = "\(name)\(suffix)"
        suffix += 1
      }
      added.insert(candidate)
      return candidate
    }
  }

  /// `name` with its first character upper-cased (`post` → `Post`).
  public static func upperFirst(_ name: some StringProtocol) -> String {
    if let ascii = withASCIIFirst(name, mapped: { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }) {
      return ascii
    }
    guard let first = name.first else { return "" }
    return first.uppercased() + name.dropFirst()
  }

  /// `name` with its first character lower-cased (`Post` → `post`).
  public static func lowerFirst(_ name: some StringProtocol) -> String {
    if let ascii = withASCIIFirst(name, mapped: { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }) {
      return ascii
    }
    guard let first = name.first else { return "" }
    return first.lowercased() + name.dropFirst()
  }

  /// `name` with its first byte mapped by `map`, when that byte is ASCII (then case mapping the
  /// first `Character` is mapping that byte: the scalars after it are left as they are, as
  /// `Character.uppercased()` leaves them); `nil` for empty or non-ASCII-initial text.
  private static func withASCIIFirst(_ name: some StringProtocol, mapped map: (UInt8) -> UInt8)
    -> String?
  {
    guard let first = name.utf8.first, first < 0x80 else { return nil }
    let mapped = map(first)
    if mapped == first { return String(name) }
    var bytes = Array(name.utf8)
    bytes[0] = mapped
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A string as a Swift string literal: quoted, with `\`, `"`, line breaks, tabs and every
  /// invisible scalar (controls, format characters such as bidirectional overrides, line and
  /// paragraph separators; see ``commentText(_:)``) escaped as `\u{…}`, so no input can end the
  /// literal or hide text in it. A `\u{…}` typed in the input stays text (its `\` is escaped).
  public static func stringLiteral(_ text: String) -> String {
    // Printable ASCII other than `\` and `"` (every GraphQL name) needs no escape: quote it as is.
    let plain = text.utf8.allSatisfy {
      $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"")
    }
    if plain {
      return "\"" + text + "\""
    }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || isInvisible(scalar) {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
