/// The Swift member names of one generated type, resolved once: by the analysis
/// (``SwiftNameRule``, which reports each renamed member as MGW002), carried to the Swift stage in
/// ``ModelGraph/memberNames``, and rendered from there, so no stage resolves them a second time.
///
/// Valid only for the type they were resolved from (`resolves(_:)`): a stage
/// handed a type whose fields or key changed since resolves them again.
///
/// A value; `Sendable`.
package struct ResolvedMemberNames: Sendable, Hashable {
  /// Every field of the type as the graph holds it (a model's stored and non-stored ones); the
  /// graph's own array, so holding it costs no copy.
  private let fields: [FieldDefinition]
  /// A model's key fields in key order; `nil` for a non-model type.
  private let primaryKey: [String]?
  /// Property names and coding keys of the fields the type renders.
  package let members: SwiftMemberNames
  /// A model's derived members (setters, reference accessors, storage, by-identifier labels,
  /// `Identifier` members); `nil` for a non-model type, which has none.
  package let derived: SwiftModelMemberNames?
  /// A model's typed index keys and their sort key structs (``SwiftIndexKeyNames``), set by
  /// ``SwiftNameRule`` once the schema's type names are resolved; `nil` for a non-model type and
  /// before that.
  package var indexKeys: SwiftIndexKeyNames?

  /// Resolves the members of `model`'s ``ModelDefinition/swiftMemberFields``, whose `CodingKeys`
  /// is `CaseIterable`.
  package init(model: ModelDefinition) {
    let rendered = model.swiftMemberFields
    fields = model.fields
    primaryKey = model.primaryKey.fields
    members = SwiftMemberNames(fields: rendered)
    derived = SwiftModelMemberNames(fields: rendered, members: members, primaryKey: model.primaryKey.fields)
  }

  /// Resolves the members of every field of `nonModel` (an embedded type, whose `CodingKeys` is
  /// not `CaseIterable`).
  package init(nonModel: NonModelDefinition) {
    fields = nonModel.fields
    primaryKey = nil
    members = SwiftMemberNames(fields: nonModel.fields, caseIterableKeys: false)
    derived = nil
  }

  /// `true` when these names were resolved from a model with `model`'s fields and key: O(1) when
  /// `model` holds the analysis's own field array, an element-wise comparison otherwise.
  package func resolves(_ model: ModelDefinition) -> Bool {
    derived != nil && primaryKey == model.primaryKey.fields && fields == model.fields
  }

  /// `true` when these names were resolved from a non-model type with `nonModel`'s fields.
  package func resolves(_ nonModel: NonModelDefinition) -> Bool {
    derived == nil && fields == nonModel.fields
  }
}

extension ModelDefinition {
  /// The fields the model's Swift struct renders, in field order: stored properties and
  /// associations (a `@belongsTo`'s target fields that are not key fields are neither).
  package var swiftMemberFields: [FieldDefinition] {
    fields.filter { $0.association != nil || $0.isStoredProperty }
  }
}
