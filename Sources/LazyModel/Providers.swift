/// Loads the model a not-loaded ``LazyReference`` points at.
///
/// A provider is created by the source that decoded the reference (see ``ModelDecodingContext``),
/// so a reference decoded from SQLite loads from SQLite and one decoded from a GraphQL response
/// loads over GraphQL. Implementations must be safe to call from any task.
public protocol ModelProvider<Element>: Sendable {
  /// The model type this provider loads.
  associatedtype Element: Model

  /// Loads the one model whose fields equal `identifiers`.
  ///
  /// - Parameter identifiers: Field name/value pairs of `Element`: its primary key in key order, or
  ///   (for a `@hasOne(references:)` whose FK lives on `Element`) the FK fields that point at the parent.
  /// - Returns: The model, or `nil` when none matches.
  /// - Throws: The provider's typed error when the source cannot be read.
  func load(identifiers: [IdentifierComponent]) async throws -> Element?

  /// Loads many references of one type at once (one round trip where the source allows).
  ///
  /// - Parameter batch: Identifier sets as for ``load(identifiers:)``; duplicates are allowed.
  /// - Returns: One result per element of `batch`, in the same order.
  func load(batch: [[IdentifierComponent]]) async throws -> [Element?]

  /// The answer of ``load(identifiers:)`` when the provider can give it on the calling thread
  /// without suspending and without blocking a thread of Swift's cooperative pool: a local store's
  /// read when the calling task already runs on that store's own reader thread (the DataStore's
  /// `readerExecutor`). ``LazyReference/get()`` asks this first and, when it answers, loads with no
  /// task, continuation or thread switch.
  ///
  /// - Parameter identifiers: As for ``load(identifiers:)``.
  /// - Returns: `nil` when the provider cannot answer here (``LazyReference/get()`` then calls
  ///   ``load(identifiers:)``); `.some(nil)` when no model matches; `.some(model)` otherwise.
  /// - Throws: What ``load(identifiers:)`` throws.
  func loadWithoutSuspending(identifiers: [IdentifierComponent]) throws -> Element??
}

extension ModelProvider {
  /// Default: never answers without suspending (`nil`), so every load goes through
  /// ``load(identifiers:)``.
  public func loadWithoutSuspending(identifiers: [IdentifierComponent]) throws -> Element?? { nil }

  /// Default batch loading: one ``load(identifiers:)`` per distinct identifier set.
  public func load(batch: [[IdentifierComponent]]) async throws -> [Element?] {
    var cache: [[IdentifierComponent]: Element?] = [:]
    var results: [Element?] = []
    results.reserveCapacity(batch.count)
    for identifiers in batch {
      if let cached = cache[identifiers] {
        results.append(cached)
      } else {
        let loaded = try await load(identifiers: identifiers)
        cache[identifiers] = loaded
        results.append(loaded)
      }
    }
    return results
  }
}

/// One page of a ``LazyList``.
public struct ModelPage<Element: Model>: Sendable {
  /// The models of this page, in the source's order.
  public var elements: [Element]
  /// The cursor of the next page (`nextToken` for the API, an opaque position for the DataStore),
  /// or `nil` on the last page.
  public var nextCursor: String?

  /// Creates a page.
  public init(elements: [Element], nextCursor: String?) {
    self.elements = elements
    self.nextCursor = nextCursor
  }
}

/// Loads the pages of a not-loaded ``LazyList``: the children whose `associatedFields` equal the
/// parent's key values. One provider instance is bound to one parent.
public protocol ModelListProvider<Element>: Sendable {
  /// The child model type.
  associatedtype Element: Model

  /// Loads the page after `cursor` (`nil` for the first page).
  ///
  /// - Parameters:
  ///   - cursor: ``ModelPage/nextCursor`` of the previous page, or `nil`.
  ///   - limit: The most elements to return, or `nil` for the source's default page size.
  /// - Throws: The provider's typed error when the source cannot be read.
  func loadPage(after cursor: String?, limit: Int?) async throws -> ModelPage<Element>
}

/// How the source that decodes a model makes providers for its lazy fields.
///
/// Put a context into `Decoder.userInfo[.modelDecodingContext]`; ``LazyReference`` and
/// ``LazyList`` read it while decoding. There is no global provider registry, so which source
/// decoded a payload alone decides where its references load from.
public protocol ModelDecodingContext: Sendable {
  /// A provider that loads the `type` model matching `identifiers`.
  func referenceProvider<M: Model>(for type: M.Type, identifiers: [IdentifierComponent])
    -> any ModelProvider<M>

  /// A provider that pages through the `type` models whose `associatedFields` equal
  /// `associatedIdentifiers`.
  ///
  /// - Parameters:
  ///   - type: The child model type the list holds.
  ///   - associatedFields: FK field names of `type`, in the parent's key order.
  ///   - associatedIdentifiers: The parent's key values, same order.
  ///
  /// A list whose first page arrived in the payload gets a provider from this method too and
  /// passes it the payload's cursor (`nextToken`) in ``ModelListProvider/loadPage(after:limit:)``.
  func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue]
  ) -> any ModelListProvider<M>

  /// A provider like ``listProvider(for:associatedFields:associatedIdentifiers:)`` for a `@hasMany`
  /// that goes through the `type` model's `@index` named `indexName` (its `indexName:` argument):
  /// a source that orders lists by an index's sort key (as AppSync's index query does) uses that
  /// one, even when another index starts with the same fields.
  ///
  /// The default implementation ignores `indexName`.
  func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?
  ) -> any ModelListProvider<M>
}

extension ModelDecodingContext {
  /// Calls ``listProvider(for:associatedFields:associatedIdentifiers:)`` (`indexName` is not used).
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?
  ) -> any ModelListProvider<M> {
    listProvider(
      for: type, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers)
  }
}

extension CodingUserInfoKey {
  /// The `userInfo` key under which a decoder carries its ``ModelDecodingContext``.
  public static let modelDecodingContext = CodingUserInfoKey(
    rawValue: "LazyModel.ModelDecodingContext")!
}
