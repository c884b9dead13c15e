import Foundation
import LazyModel

/// One event of an untyped subscription stream (``APIClient/subscribe(document:variables:operationName:responseField:)``).
public enum GraphQLSubscriptionEvent: Sendable {
  /// The server acknowledged the subscription (`start_ack`).
  case connected
  /// The value of `data.<responseField>` of one `data` event, undecoded (a sync engine reads the
  /// model's fields and the versioned data source's `_version`, `_deleted`, `_lastChangedAt`).
  case value(GraphQLValue)
  /// The connection dropped and came back and the subscription was acknowledged again: events
  /// may have been missed in between.
  case reconnected
}

extension APIClient {
  /// Starts a subscription `document` over the client's real-time connection (shared with
  /// ``subscribe(to:)``) and returns the undecoded value of each event's `data.<responseField>`.
  ///
  /// Events, ending and errors are those of ``subscribe(to:)``, except that an event is not
  /// decoded as a model: it throws `.undecodableResponse` only when `data.<responseField>` is
  /// absent or `null`, and `.graphQL` when the event carries `errors`.
  ///
  /// - Parameters:
  ///   - document: One `subscription` operation named `operationName` (values in `variables`).
  ///   - variables: The variable values by name (without `$`).
  ///   - operationName: The operation's name, kept in errors.
  ///   - responseField: The root field whose value each event holds (`onCreatePost`).
  ///
  /// Thread-safety: any number of tasks may subscribe at once.
  public func subscribe(
    document: String, variables: [String: GraphQLValue], operationName: String, responseField: String
  ) -> AsyncThrowingStream<GraphQLSubscriptionEvent, any Error> {
    subscribe(
      document: document, variables: variables, operationName: operationName, responseField: responseField,
      modelSchema: nil)
  }

  /// ``subscribe(document:variables:operationName:responseField:)`` for a subscription of the
  /// model `modelSchema` describes: under ``AuthorizationStrategy/multiAuth(_:)`` its modes are
  /// chosen from that model's `@auth` rules for `listen`, as ``subscribe(to:)`` chooses them
  /// (`nil`: the configured modes in their order). `modeVariables` replaces `variables` in the
  /// `start` sent with one mode (an owner argument read from that mode's token: AppSync requires
  /// an owner's own, and a user pool's and an OIDC provider's may differ); a mode it lacks sends
  /// `variables`.
  ///
  /// Thread-safety: any number of tasks may subscribe at once.
  public func subscribe(
    document: String, variables: [String: GraphQLValue], operationName: String, responseField: String,
    modelSchema: ModelSchema?, modeVariables: [AuthorizationMode: [String: GraphQLValue]] = [:]
  ) -> AsyncThrowingStream<GraphQLSubscriptionEvent, any Error> {
    subscribe(
      document: document, variables: variables, operationName: operationName, responseField: responseField,
      modelSchema: modelSchema, modeVariables: modeVariables, onInterruption: nil)
  }

  /// ``subscribe(document:variables:operationName:responseField:modelSchema:modeVariables:)``,
  /// calling `onInterruption` (on the connection's actor; it must not block) each time the
  /// real-time connection fails and is retried, with the reason: what a sync engine reports as
  /// the network going down at the first failed attempt, not only once the retries are spent.
  package func subscribe(
    document: String, variables: [String: GraphQLValue], operationName: String, responseField: String,
    modelSchema: ModelSchema?, modeVariables: [AuthorizationMode: [String: GraphQLValue]] = [:],
    onInterruption: (@Sendable (RealtimeError) -> Void)?
  ) -> AsyncThrowingStream<GraphQLSubscriptionEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: GraphQLSubscriptionEvent.self, throwing: (any Error).self)
    let subscriber = ValueSubscriber(
      document: document, variables: variables, operationName: operationName, responseField: responseField,
      continuation: continuation, onInterruption: onInterruption)
    if let route = startSubscription(subscriber, schema: modelSchema, modeVariables: modeVariables) {
      continuation.onTermination = { _ in route.stop() }
    }
    return stream
  }
}

/// Hands the `data` messages of one untyped subscription to its stream.
final class ValueSubscriber: RealtimeSubscriber {
  let operationName: String
  let startData: String
  let document: String
  let variables: [String: GraphQLValue]
  private let responseField: String
  private let decoder: JSONDecoder
  private let continuation: AsyncThrowingStream<GraphQLSubscriptionEvent, any Error>.Continuation
  private let onInterruption: (@Sendable (RealtimeError) -> Void)?

  private struct DataMessage: Decodable {
    let payload: ResponseEnvelope<GraphQLValue>
  }

  init(
    document: String, variables: [String: GraphQLValue], operationName: String, responseField: String,
    continuation: AsyncThrowingStream<GraphQLSubscriptionEvent, any Error>.Continuation,
    onInterruption: (@Sendable (RealtimeError) -> Void)? = nil
  ) {
    self.onInterruption = onInterruption
    self.operationName = operationName
    self.document = document
    self.variables = variables
    self.responseField = responseField
    startData = subscriptionStartData(document: document, variables: variables)
    let decoder = JSONDecoder()
    decoder.userInfo[responseFieldKey] = responseField
    self.decoder = decoder
    self.continuation = continuation
  }

  func acknowledged(reconnected: Bool) {
    continuation.yield(reconnected ? .reconnected : .connected)
  }

  func received(_ message: Data) throws {
    try received(message, parsed: nil)
  }

  func received(_ message: Data, parsed: [String: Any]?) throws {
    // The usual event (`payload.data.<field>`, no errors) read from the connection's
    // `JSONSerialization` pass (`parsed`), else from one of its own; any other message decodes
    // below and throws what it always threw.
    if let object = parsed ?? (try? JSONSerialization.jsonObject(with: message) as? [String: Any]),
      let payload = object["payload"] as? [String: Any],
      let value = APIClient.valueData(ofEnvelope: payload, responseField: responseField), value != .null
    {
      continuation.yield(.value(value))
      return
    }
    let envelope: ResponseEnvelope<GraphQLValue>
    do {
      envelope = try decoder.decode(DataMessage.self, from: message).payload
    } catch {
      throw APIError.undecodableResponse(
        operationName: operationName, reason: "a data event does not decode: \(error)", body: message)
    }
    if !envelope.errors.isEmpty {
      throw APIError.graphQL(operationName: operationName, errors: envelope.errors, partialData: nil, body: message)
    }
    guard let value = envelope.data, value != .null else {
      throw APIError.undecodableResponse(
        operationName: operationName, reason: "a data event has no value", body: message)
    }
    continuation.yield(.value(value))
  }

  func interrupted(_ reason: RealtimeError) {
    onInterruption?(reason)
  }

  func failed(_ error: any Error) {
    if error is SubscriptionFinished {
      continuation.finish()
    } else {
      continuation.finish(throwing: error)
    }
  }
}
