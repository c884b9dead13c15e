import Foundation
import LazyModel

/// The fields of each record that the service refused to show this client, so that an update of a
/// model read with them never sends them back as `null`.
///
/// AppSync's field-level authorization (the Amplify transformer's field `@auth` rules, a Lambda
/// authorizer's `deniedFields`) resolves a field the caller may not read to `null` and adds an
/// error of type `Unauthorized` whose `path` names the field (`["getMemo", "secret"]`,
/// `["listMemos", "items", 3, "secret"]`). The decoded model holds `nil` there; sending it back
/// in `update<Name>` would clear the stored value (or, where the service checks the input's
/// fields, be refused). So every response the client decodes records, per record (model name and
/// primary-key values), the fields it selected that came back `Unauthorized`, and forgets the ones
/// that came back readable; an update leaves out each recorded field that is still `null` in its
/// input (a field the caller set to a value is sent, and the service decides).
///
/// A mutation's response says less: with subscriptions on, the auth transformer returns every
/// protected field (one that some reader of the model may not read) as `null` to every caller,
/// without an error, so that no subscriber receives it (its field response template; Amplify's
/// "Set up authorization rules", "Per-Field with Subscriptions"). So in the response to a create
/// or update of a model with subscriptions, each protected field (``redactedFields(of:)``) of the
/// mutated record that came back `null` is remembered as unreadable too: leaving it out of a later
/// update keeps the stored value, and one whose stored value is `null` loses nothing by it.
///
/// Bounded: at most ``capacity`` records are remembered; past it the least recently seen half is
/// forgotten (an update of a forgotten record sends its `nil` fields as `null`, as before).
///
/// Thread-safety: a value type kept behind the client's lock.
struct UnreadableFields: Sendable {
  /// A record: its model's name and its primary-key values in key order, as JSON values.
  struct Record: Hashable, Sendable {
    let model: String
    let identifier: [GraphQLValue]
  }

  /// What one response showed of one record: the fields it selected and those refused.
  struct Observation: Sendable {
    let record: Record
    let selected: Set<String>
    let unauthorized: Set<String>
  }

  /// The most records remembered at once.
  static let capacity = 10_000

  private var fields: [Record: (names: Set<String>, seen: UInt64)] = [:]
  private var clock: UInt64 = 0

  /// Whether nothing is remembered.
  var isEmpty: Bool { fields.isEmpty }

  /// The remembered unreadable fields of `record` (empty when none).
  func names(of record: Record) -> Set<String> { fields[record]?.names ?? [] }

  /// Applies what a response showed: a selected field that came back readable is forgotten, one
  /// that came back `Unauthorized` is remembered.
  mutating func apply(_ observations: [Observation]) {
    for observation in observations {
      clock &+= 1
      var names = (fields[observation.record]?.names ?? []).subtracting(observation.selected)
      names.formUnion(observation.unauthorized)
      if names.isEmpty {
        fields[observation.record] = nil
      } else {
        fields[observation.record] = (names, clock)
      }
    }
    if fields.count > Self.capacity {
      let newest = fields.sorted { $0.value.seen > $1.value.seen }.prefix(Self.capacity / 2)
      fields = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
  }

  /// The record `object` (a model's JSON object) is, when it carries every key field of `schema`.
  static func record(of object: [String: GraphQLValue], schema: ModelSchema) -> Record? {
    var identifier: [GraphQLValue] = []
    for name in schema.primaryKey {
      guard let value = object[name], value != .null else { return nil }
      identifier.append(value)
    }
    return Record(model: schema.name, identifier: identifier)
  }

  /// What `body` (a response to a request whose `data.<responseField>` holds `root`'s objects)
  /// showed of each record in it, at every level (the root object or connection items, and the
  /// objects of associations selected under them).
  ///
  /// - Parameters:
  ///   - root: The model of the root field's objects; `shape` says how they sit under it.
  ///   - redacted: The fields of the root object (a mutation's record) that come back `null`
  ///     whatever their stored value (``redactedFields(of:)``); empty for other responses.
  static func observations(
    in body: Data, responseField: String, root: ModelSchema, shape: ResponseShape,
    redacted: Set<String> = []
  ) -> [Observation] {
    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: body),
      let top = envelope.data?[responseField]
    else { return [] }
    var refused: [[GraphQLValue]: Set<String>] = [:]
    for error in envelope.errors ?? [] where error.errorType == "Unauthorized" {
      guard let path = error.path, path.count >= 2, case .string(let name) = path.last else { continue }
      refused[Array(path.dropLast()), default: []].insert(name)
    }
    var found: [Observation] = []
    func visit(_ value: GraphQLValue, _ schema: ModelSchema, _ path: [GraphQLValue]) {
      guard case .object(let object) = value else { return }
      if let record = record(of: object, schema: schema) {
        found.append(
          Observation(
            record: record, selected: Set(object.keys), unauthorized: refused[path] ?? []))
      }
      for field in schema.fields where field.association != nil {
        guard let related = modelType(of: field.type), let member = object[field.name] else { continue }
        let fieldPath = path + [.string(field.name)]
        if case .hasMany = field.association {
          visitConnection(member, related.schema, fieldPath)
        } else {
          visit(member, related.schema, fieldPath)
        }
      }
    }
    func visitConnection(_ value: GraphQLValue, _ schema: ModelSchema, _ path: [GraphQLValue]) {
      guard case .list(let items)? = value["items"] else { return }
      for (index, item) in items.enumerated() {
        visit(item, schema, path + [.string("items"), .int(index)])
      }
    }
    let path: [GraphQLValue] = [.string(responseField)]
    switch shape {
    case .model:
      visit(top, root, path)
      if !redacted.isEmpty, case .object(let object) = top, let record = record(of: object, schema: root),
        let index = found.firstIndex(where: { $0.record == record })
      {
        let nulls = redacted.filter { object[$0] == .null }
        let observation = found[index]
        found[index] = Observation(
          record: record, selected: observation.selected, unauthorized: observation.unauthorized.union(nulls))
      }
    case .connection: visitConnection(top, root, path)
    case .nested(let field):
      if let connection = top[field] { visitConnection(connection, root, path + [.string(field)]) }
    }
    return found
  }

  /// How a response's root field holds its model objects.
  enum ResponseShape: Sendable {
    /// One object (`get`, `create`, `update`, `delete`).
    case model
    /// `{ items: [...], nextToken }` (`list`, index queries).
    case connection
    /// A parent object whose `field` is the connection (a nested hasMany page).
    case nested(String)
  }

  /// The protected fields of `schema` (`ModelSchema.protectedFields`): those some
  /// read role of the model may not read, as the auth transformer decides which fields get a field
  /// resolver (`AuthRule.protectedFields(modelRules:fields:)`).
  static func redactedFields(of schema: ModelSchema) -> Set<String> {
    schema.protectedFields
  }

  private static func modelType(of type: ModelFieldType) -> (any Model.Type)? {
    switch type {
    case .model(let model): return model
    case .list(let element, _): return modelType(of: element)
    default: return nil
    }
  }

  private struct Envelope: Decodable {
    let data: GraphQLValue?
    let errors: [GraphQLError]?
  }

  /// `input` without each member that is `null` and remembered unreadable for its record.
  func filtered(input: [String: GraphQLValue], schema: ModelSchema) -> [String: GraphQLValue] {
    guard let record = Self.record(of: input, schema: schema) else { return input }
    let names = names(of: record)
    guard !names.isEmpty else { return input }
    return input.filter { name, value in !(value == .null && names.contains(name)) }
  }
}

/// A response type whose root field is a connection of one model (`ModelConnection<M>`).
protocol ConnectionResponse {}

extension ModelConnection: ConnectionResponse {}

extension GraphQLRequest {
  /// How the response's root field holds the objects of ``modelSchema``.
  var responseShape: UnreadableFields.ResponseShape {
    if let nestedField { return .nested(nestedField) }
    return Response.self is any ConnectionResponse.Type ? .connection : .model
  }

  /// This request with `variables["input"]` replaced: a copy, so every other property (the
  /// multi-auth ``authRules`` and ``parentRead`` among them) is kept as it is.
  func replacingInput(_ input: [String: GraphQLValue]) -> GraphQLRequest {
    var copy = self
    copy.variables["input"] = .object(input)
    return copy
  }
}

extension APIClient {
  /// `request`, with an update's input cleared of the `null` members this client saw refused as
  /// `Unauthorized` at its last read of the record (``UnreadableFields``).
  func withoutUnreadableFields<Response>(_ request: GraphQLRequest<Response>) -> GraphQLRequest<Response> {
    guard request.operationType == .mutation, request.ruleOperation == .update, !request.sendsInputAsIs,
      let schema = request.modelSchema, case .object(let input)? = request.variables["input"]
    else { return request }
    let filtered = unreadableFields.withLock { $0.filtered(input: input, schema: schema) }
    return filtered.count == input.count ? request : request.replacingInput(filtered)
  }

  /// Records what `response` to `request` showed of each record's fields. The body is read again
  /// only when it refused a field or some record is remembered (nothing else costs anything).
  func recordReadableFields<Response>(
    in response: GraphQLResponse<Response>, for request: GraphQLRequest<Response>
  ) {
    guard let schema = request.modelSchema else { return }
    let refusedAny = response.errors.contains { $0.errorType == "Unauthorized" }
    let redacted =
      request.operationType == .mutation && request.ruleOperation != .delete
      ? schema.fieldsRedactedInMutationResponses : []
    guard refusedAny || !redacted.isEmpty || !unreadableFields.withLock({ $0.isEmpty }) else { return }
    let observations = UnreadableFields.observations(
      in: response.body, responseField: request.responseField, root: schema,
      shape: request.responseShape, redacted: redacted)
    guard !observations.isEmpty else { return }
    unreadableFields.withLock { $0.apply(observations) }
  }
}

extension ModelSchema {
  /// Whether the API declares some subscription of the model (`onCreate`, `onUpdate` or
  /// `onDelete`).
  var hasSubscriptions: Bool {
    operations.onCreate != nil || operations.onUpdate != nil || operations.onDelete != nil
  }

  /// The fields that every create or update response of this model returns as `null` to every
  /// caller whatever their stored value: its `protectedFields` while its subscription level is
  /// `SubscriptionLevel.on` and some subscription is declared (the auth transformer's field
  /// response template, `generateFieldAuthResponse` with `subsEnabled = level === 'on'`; Amplify's
  /// "Set up authorization rules", "Per-Field with Subscriptions"); empty with level `public` or
  /// `off`, and without field-level `@auth` rules.
  ///
  /// Thread-safe (a value).
  public var fieldsRedactedInMutationResponses: Set<String> {
    guard subscriptionLevel == .on, hasSubscriptions else { return [] }
    return protectedFields
  }

  /// The fields a subscription event of this model may carry as `null` whatever their stored
  /// value: every protected field, whatever the level (conservative: an event is the response of
  /// a mutation this client did not send, and a level other than `on` is only what the generated
  /// schema says); empty without subscriptions or field-level rules.
  ///
  /// Thread-safe (a value).
  public var fieldsRedactedInSubscriptionEvents: Set<String> {
    hasSubscriptions ? protectedFields : []
  }
}
