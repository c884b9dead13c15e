import ModelGenIR
import ModelGenTemplating

/// Builds the view models of one ``ModelGraph``: the Swift output's only decision maker.
///
/// Pure: the same graph and options always give the same view models. Names come resolved from
/// the IR's naming stage (``SchemaNames``, ``SwiftMemberNames``); multi-line code is ``SwiftCode``,
/// which the renderer lays out for the line each template puts it on.
public struct ViewModelBuilder: Sendable {
  /// The graph to render.
  public let graph: ModelGraph
  /// The access level of every generated declaration.
  public let access: AccessLevel

  /// The names every output reads, resolved once.
  let names: SchemaNames
  /// Swift spellings of the graph's types.
  let types: SwiftTypes

  /// Creates a builder for `graph`.
  public init(graph: ModelGraph, access: AccessLevel = .public) {
    self.graph = graph
    self.access = access
    names = SchemaNames(resolving: graph)
    types = SwiftTypes(names: names)
  }

  /// The registry enum's name in every generated module (`Models.registry`); a GraphQL type named
  /// `Models` gets a numeric suffix instead (`Models2`).
  public static let registryName = SchemaNames.registryName

  /// Every view model of the graph.
  public func build() -> SchemaViewModel {
    SchemaViewModel(
      models: graph.models.map(modelViewModel), enums: graph.enums.map(enumViewModel),
      embedded: graph.nonModels.map(embeddedViewModel), registry: registryViewModel())
  }

  /// The unescaped Swift name of the GraphQL type `name`.
  func swiftTypeName(_ name: String) -> String { names.swiftTypeName(name) }

  /// `,` after every element of a multi-line collection of `count` elements (swift-format's
  /// trailing-comma rule), nothing for a single element.
  static func elementComma(count: Int) -> String { count > 1 ? "," : "" }

  // MARK: Registry, enums and non-model types

  /// The registry's view model; never `nil` (a schema without models gets an empty registry, so
  /// `Models.registry` exists in every generated module). Optional for source compatibility.
  public func registryViewModel() -> RegistryViewModel? {
    let comma = Self.elementComma(count: graph.models.count)
    return RegistryViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue,
      typeName: Self.registryName,
      models: graph.models.map(\.name).sorted().map { types.typeName($0) + ".self" + comma })
  }

  /// The view model of one enum of ``graph``.
  public func enumViewModel(_ definition: EnumDefinition) -> EnumViewModel {
    let caseNames = definition.values.map { names.caseName($0.name, ofEnum: definition.name) }
    var viewModel = EnumViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue,
      typeName: types.typeName(definition.name), fileStem: swiftTypeName(definition.name),
      cases: zip(definition.values, caseNames).map {
        EnumViewModel.Case(
          name: SwiftNames.escaped($1), rawValue: SwiftNames.stringLiteral($0.name),
          docLines: SwiftNames.docCommentLines($0.description))
      })
    viewModel.docLines = SwiftNames.docCommentLines(definition.description)
    return viewModel
  }

  /// The view model of one non-model type of ``graph``.
  public func embeddedViewModel(_ definition: NonModelDefinition) -> EmbeddedViewModel {
    // The analysis's names (``ModelGraph/memberNames``) when resolved from this type as it is.
    let members =
      graph.memberNames[definition.name].flatMap { $0.resolves(definition) ? $0.members : nil }
      ?? ResolvedMemberNames(nonModel: definition).members
    let comma = Self.elementComma(count: definition.fields.count)
    let fields = definition.fields
    var viewModel = EmbeddedViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue,
      typeName: types.typeName(definition.name), fileStem: swiftTypeName(definition.name),
      storedProperties: fields.map {
        PropertyViewModel(
          modifiers: "\(access.rawValue) var", name: members.escapedProperty($0.name),
          type: types.swiftType(of: $0), docLines: SwiftNames.docCommentLines($0.description))
      },
      initParameters: Self.parameters(
        fields.map {
          "\(members.escapedProperty($0.name)): \(types.swiftType(of: $0))"
            + types.defaultClause(for: $0, isKey: false)
        }),
      initAssignments: fields.map {
        "self.\(members.escapedProperty($0.name)) = \(members.escapedProperty($0.name))"
      },
      codingKeys: fields.map { members.codingKeyDeclaration($0.name) },
      nameLiteral: SwiftNames.stringLiteral(definition.name),
      schemaFields: fields.map { field in
        .call(
          ".field(",
          [
            .text("keys.\(members.key(field.name))"), .text(field.isRequired ? ".required" : ".optional"),
            .text(types.fieldTypeExpression(field.type)),
          ], trailing: comma)
      })
    viewModel.docLines = SwiftNames.docCommentLines(definition.description)
    return viewModel
  }

  /// Initializer parameters with their separators.
  static func parameters(_ declarations: [String]) -> [ParameterViewModel] {
    declarations.enumerated().map {
      ParameterViewModel(
        declaration: $0.element, separator: $0.offset == declarations.count - 1 ? "" : ",")
    }
  }
}
