import Foundation
import LazyModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``GraphQLRequest``s to one AppSync-style GraphQL endpoint over HTTP (`POST` of
/// `{"query", "operationName", "variables"}` as `application/json`, the GraphQL-over-HTTP
/// convention AppSync follows) and decodes the responses with an ``APIModelDecodingContext``, so
/// every lazy relationship of a decoded model loads through this client.
///
/// Thread-safety: an immutable `Sendable` class; any number of tasks may send at once.
/// Cancelling the calling task cancels the HTTP request and throws ``APIError/cancelled(operationName:)``.
public final class APIClient: Sendable {
  /// How requests are authorized.
  public enum Authorization: Sendable {
    /// No authorization header.
    case none
    /// AppSync API key, sent as the `x-api-key` header.
    case apiKey(String)
    /// A user hook called before each request (for example to fetch a fresh Cognito token); the
    /// headers it returns are added to the request. It receives the operation name. If it throws,
    /// the request is not sent and ``APIError/authorization(operationName:underlying:)`` is thrown.
    case headers(@Sendable (_ operationName: String) async throws -> [String: String])
  }

  /// Everything the client needs to know about the endpoint.
  public struct Configuration: Sendable {
    /// The GraphQL endpoint (`https://…/graphql`).
    public var endpoint: URL
    /// How requests are authorized.
    public var authorization: Authorization
    /// Seconds without a response after which a request fails with ``APIError/timedOut(operationName:seconds:)``.
    public var timeout: Double
    /// `limit` sent by lazy lists for each page, or `nil` for the server's default (100 on AppSync).
    public var listPageSize: Int?
    /// Extra headers sent with every request.
    public var additionalHeaders: [String: String]
    /// The real-time (subscription) connection's endpoint, timeouts and reconnect policy.
    public var realtime = RealtimeConfiguration()

    /// Creates a configuration.
    public init(
      endpoint: URL, authorization: Authorization = .none, timeout: Double = 30,
      listPageSize: Int? = nil,
      additionalHeaders: [String: String] = [:]
    ) {
      self.endpoint = endpoint
      self.authorization = authorization
      self.timeout = timeout
      self.listPageSize = listPageSize
      self.additionalHeaders = additionalHeaders
    }
  }

  /// The configuration this client was created with.
  public let configuration: Configuration
  private let session: URLSession
  private let ownsSession: Bool
  private let observer: (@Sendable (GraphQLRequestRecord) -> Void)?
  /// The real-time connection all subscriptions of this client share (see `subscribe(to:)`).
  let subscriptionHub = SubscriptionHub()

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - configuration: Endpoint, authorization, timeout and paging.
  ///   - session: The session to send with; by default an ephemeral session of its own.
  ///   - observer: Called with the operation name, document and variables of every request just
  ///     before it is sent (logging, tests); called on the sending task.
  public init(
    configuration: Configuration, session: URLSession? = nil,
    observer: (@Sendable (GraphQLRequestRecord) -> Void)? = nil
  ) {
    self.configuration = configuration
    ownsSession = session == nil
    if let session {
      self.session = session
    } else {
      let sessionConfiguration = URLSessionConfiguration.ephemeral
      sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
      sessionConfiguration.httpMaximumConnectionsPerHost = 16
      self.session = URLSession(configuration: sessionConfiguration)
    }
    self.observer = observer
  }

  /// Lets requests in flight finish, then releases a session the client created itself.
  deinit {
    if ownsSession { session.finishTasksAndInvalidate() }
  }

  /// The decoding context of this client: references and lists decoded with it load through it.
  public var decodingContext: APIModelDecodingContext { APIModelDecodingContext(client: self) }

  /// Sends `request` and returns `data.<responseField>`.
  ///
  /// - Returns: The decoded response (`nil` for a `get` that found nothing).
  /// - Throws: ``APIError``: `.graphQL` when the response has `errors` (with `partialData` when
  ///   `data` came too), `.httpStatus`, `.undecodableResponse`, `.timedOut`, `.transport`,
  ///   `.authorization`, `.cancelled`, or `.invalidRequest` when the variables cannot be encoded.
  public func send<Response>(_ request: GraphQLRequest<Response>) async throws -> Response {
    let response = try await self.response(for: request)
    if !response.errors.isEmpty {
      throw APIError.graphQL(
        operationName: request.operationName, errors: response.errors,
        partialData: Self.dataMember(of: response.body), body: response.body)
    }
    guard let data = response.data else {
      throw APIError.undecodableResponse(
        operationName: request.operationName, reason: "no data.\(request.responseField)",
        body: response.body)
    }
    return data
  }

  /// Sends `request` and returns data and errors side by side, for callers that accept partial
  /// results. `data` is `nil` when the response had errors and its data did not decode.
  ///
  /// - Throws: ``APIError`` for everything but GraphQL `errors` (see ``send(_:)``).
  public func response<Response>(for request: GraphQLRequest<Response>) async throws
    -> GraphQLResponse<Response>
  {
    try decodeResponse(try await post(request), for: request)
  }

  /// The HTTP body ``send(_:)`` posts for `request`: `{"operationName", "query", "variables"}` as
  /// JSON with sorted keys (the same request always gives the same bytes).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when a variable cannot be encoded
  ///   (a non-finite `Float`).
  public func httpBody<Response>(for request: GraphQLRequest<Response>) throws -> Data {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return try encoder.encode(
        Body(
          query: request.document, operationName: request.operationName,
          variables: request.variables))
    } catch {
      throw APIError.invalidRequest(
        operationName: request.operationName,
        reason: "variables cannot be encoded as JSON: \(error)")
    }
  }

  /// Decodes a 2xx response `body` for `request` exactly as ``response(for:)`` does, with this
  /// client's decoding context (for custom transports, and to measure decoding alone).
  ///
  /// - Throws: ``APIError/undecodableResponse(operationName:reason:body:)`` when `body` is not a
  ///   GraphQL response or `data.<responseField>` does not decode as `Response` without `errors`.
  public func decodeResponse<Response>(_ body: Data, for request: GraphQLRequest<Response>) throws
    -> GraphQLResponse<Response>
  {
    let decoder = JSONDecoder()
    decoder.userInfo[.modelDecodingContext] = APIModelDecodingContext(
      client: self, nestedLists: request.nestedLists)
    decoder.userInfo[responseFieldKey] = request.responseField
    if let nested = request.nestedField { decoder.userInfo[nestedFieldKey] = nested }
    do {
      let envelope = try decoder.decode(ResponseEnvelope<Response>.self, from: body)
      if envelope.errors.isEmpty, envelope.data == nil {
        throw APIError.undecodableResponse(
          operationName: request.operationName, reason: "the response has neither data nor errors",
          body: body)
      }
      return GraphQLResponse(data: envelope.data, errors: envelope.errors, body: body)
    } catch let error as APIError {
      throw error
    } catch {
      throw APIError.undecodableResponse(
        operationName: request.operationName, reason: Self.describe(error), body: body)
    }
  }

  /// Loads the `M` with `identifier` (`get<Name>`); `nil` when there is none.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``.
  public func get<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, includes: [any CodingKey] = []
  )
    async throws -> M?
  {
    try await send(ModelQueries.get(type, byIdentifier: identifier, includes: includes))
  }

  /// Creates `model` (`create<Name>`) and returns the stored model as the server echoes it.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func create<M: Model>(_ model: M, condition: GraphQLFilter? = nil) async throws -> M {
    try await send(ModelMutations.create(model, condition: condition))
  }

  /// Updates `model` (`update<Name>`) and returns the stored model.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``.
  @discardableResult
  public func update<M: Model>(_ model: M, condition: GraphQLFilter? = nil) async throws -> M {
    try await send(ModelMutations.update(model, condition: condition))
  }

  /// Deletes `model` (`delete<Name>`) and returns the deleted model.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``.
  @discardableResult
  public func delete<M: Model>(_ model: M, condition: GraphQLFilter? = nil) async throws -> M {
    try await send(ModelMutations.delete(model, condition: condition))
  }

  // MARK: - HTTP

  private struct Body: Encodable {
    let query: String
    let operationName: String
    let variables: [String: GraphQLValue]
  }

  private func post<Response>(_ request: GraphQLRequest<Response>) async throws -> Data {
    let name = request.operationName
    var urlRequest = URLRequest(url: configuration.endpoint)
    urlRequest.httpMethod = "POST"
    urlRequest.timeoutInterval = configuration.timeout
    urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
    urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
    for (header, value) in configuration.additionalHeaders {
      urlRequest.setValue(value, forHTTPHeaderField: header)
    }
    switch configuration.authorization {
    case .none:
      break
    case .apiKey(let key):
      urlRequest.setValue(key, forHTTPHeaderField: "x-api-key")
    case .headers(let hook):
      do {
        for (header, value) in try await hook(name) {
          urlRequest.setValue(value, forHTTPHeaderField: header)
        }
      } catch {
        if Task.isCancelled { throw APIError.cancelled(operationName: name) }
        throw APIError.authorization(operationName: name, underlying: error)
      }
    }
    urlRequest.httpBody = try httpBody(for: request)
    observer?(
      GraphQLRequestRecord(
        operationName: name, document: request.document, variables: request.variables))
    if Task.isCancelled { throw APIError.cancelled(operationName: name) }

    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: urlRequest)
    } catch {
      if Task.isCancelled { throw APIError.cancelled(operationName: name) }
      if let urlError = error as? URLError {
        switch urlError.code {
        case .timedOut: throw APIError.timedOut(operationName: name, seconds: configuration.timeout)
        case .cancelled: throw APIError.cancelled(operationName: name)
        default: break
        }
      }
      throw APIError.transport(operationName: name, underlying: error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw APIError.undecodableResponse(
        operationName: name, reason: "not an HTTP response", body: data)
    }
    guard (200..<300).contains(http.statusCode) else {
      let errors = (try? JSONDecoder().decode(ErrorsOnly.self, from: data))?.errors ?? []
      throw APIError.httpStatus(
        operationName: name, statusCode: http.statusCode, errors: errors, body: data)
    }
    return data
  }

  private struct ErrorsOnly: Decodable {
    let errors: [GraphQLError]
  }

  private struct DataOnly: Decodable {
    let data: GraphQLValue?
  }

  private static func dataMember(of body: Data) -> GraphQLValue? {
    guard let data = (try? JSONDecoder().decode(DataOnly.self, from: body))?.data, data != .null
    else { return nil }
    return data
  }

  private static func describe(_ error: any Error) -> String {
    guard let decodingError = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
        separator: ".")
    }
    switch decodingError {
    case .typeMismatch(let type, let context):
      return "\(type) expected at \(path(context)): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
      return "\(type) missing at \(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "key \(key.stringValue) missing at \(path(context))"
    case .dataCorrupted(let context):
      return "corrupt data at \(path(context)): \(context.debugDescription)"
    @unknown default: return "\(decodingError)"
    }
  }
}

/// A response whose GraphQL `errors` are returned instead of thrown (see ``APIClient/response(for:)``).
public struct GraphQLResponse<Response: Sendable>: Sendable {
  /// `data.<responseField>`, or `nil` when absent or (with errors) not decodable.
  public let data: Response?
  /// The response's `errors`, empty when there were none.
  public let errors: [GraphQLError]
  /// The raw response body.
  public let body: Data
}

/// What the client is about to send, as given to its observer.
public struct GraphQLRequestRecord: Sendable, Hashable {
  /// The operation name.
  public let operationName: String
  /// The document text.
  public let document: String
  /// The variables.
  public let variables: [String: GraphQLValue]
}

let responseFieldKey = CodingUserInfoKey(rawValue: "LazyModelAPI.responseField")!
let nestedFieldKey = CodingUserInfoKey(rawValue: "LazyModelAPI.nestedField")!

/// The connection under the field named by `userInfo[nestedFieldKey]` of a parent object
/// (`{"comments": {"items": […], "nextToken": …}}`); `nil` when the parent or the field is `null`.
struct NestedConnection<M: Model>: Decodable, Sendable {
  let connection: ModelConnection<M>?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let field = AnyCodingKey(decoder.userInfo[nestedFieldKey] as? String ?? "")
    connection = try container.decodeIfPresent(ModelConnection<M>.self, forKey: field)
  }
}

/// `{"data": {"<field>": Response}, "errors": [...]}`, reading the field named in `userInfo`.
struct ResponseEnvelope<Response: Decodable>: Decodable {
  let data: Response?
  let errors: [GraphQLError]

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    errors =
      try container.decodeIfPresent([GraphQLError].self, forKey: AnyCodingKey("errors")) ?? []
    let field = AnyCodingKey(decoder.userInfo[responseFieldKey] as? String ?? "")
    let dataKey = AnyCodingKey("data")
    guard container.contains(dataKey), try !container.decodeNil(forKey: dataKey) else {
      data = nil
      return
    }
    let members = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: dataKey)
    if errors.isEmpty {
      data = try members.decode(Response.self, forKey: field)
    } else {
      data = try? members.decode(Response.self, forKey: field)
    }
  }
}
