/// A type generated from a GraphQL object type marked `@model`.
///
/// Generated models are value types whose relationship fields are lazy: a belongsTo/hasOne is a
/// ``LazyReference`` and a hasMany is a ``LazyList``. Everything a provider needs to store, query
/// or load a model is in its static ``schema``.
///
/// Conformers must be `Sendable`; generated models are structs of `Sendable` values. They behave
/// like Swift values: `Equatable` and `Hashable` by their stored fields (synthesized; a
/// ``LazyReference`` compares by identifiers, a ``LazyList`` by its parent association, never by
/// load state), printed as `Comment4V2(id: "c1", content: "First", post: notLoaded(id: "p1"), …)`
/// (`description`), and generated models are `Identifiable` by their key (`id`, or the typed
/// `Identifier` when no field is named `id`).
public protocol Model: Codable, Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The typed identifier of this model: one stored property per primary-key field, in key order
  /// (partition key first, then the `@primaryKey(sortKeyFields:)` in the order written).
  associatedtype Identifier: ModelIdentifierProtocol

  /// The schema metadata of this model (fields, associations, primary key, indexes, auth rules).
  static var schema: ModelSchema { get }

  /// The typed identifier of this instance.
  var identifier: Identifier { get }
}

extension Model {
  /// The GraphQL type name of this model (`schema.name`).
  public static var modelName: String { schema.name }

  /// The untyped identifier of this instance: model name plus ordered key components.
  public var modelIdentifier: ModelIdentifier {
    ModelIdentifier(modelName: Self.modelName, components: identifier.components)
  }
}

/// The coding keys of a generated model (`Post.CodingKeys`, also reachable as `Post.keys`).
///
/// The raw value is the GraphQL field name.
public protocol ModelKey: CodingKey, CaseIterable, Sendable, Hashable {}

extension ModelKey {
  /// The GraphQL field name this key stands for.
  public var name: String { stringValue }
}

/// The models of one schema, as the generated registry file lists them.
///
/// Providers use it to create storage for, and to look up, every model of a schema by name.
public struct ModelRegistry: Sendable {
  /// The model types, in the order the registry file lists them (sorted by name).
  public let models: [any Model.Type]

  /// Creates a registry over `models`.
  public init(models: [any Model.Type]) {
    self.models = models
  }

  /// The model type named `name` (a GraphQL type name), or `nil` when the registry has none.
  public func model(named name: String) -> (any Model.Type)? {
    models.first { $0.modelName == name }
  }

  /// The schema of every model, in registry order.
  public var schemas: [ModelSchema] { models.map { $0.schema } }
}
