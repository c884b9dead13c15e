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
  /// How requests are authorized: one AppSync authorization mode (see the README's
  /// "Authorization" table). Every provider and hook is called before each request, inside the
  /// request deadline (``Configuration/timeout``); if one throws, or returns an empty token, the
  /// request is not sent and ``APIError/authorization(operationName:underlying:)`` is thrown with
  /// an ``AuthorizationError`` naming the mode. Credentials go only to ``Configuration/endpoint``
  /// (redirects are never followed) and are never logged.
  public enum Authorization: Sendable {
    /// No authorization header.
    case none
    /// AppSync API key (`API_KEY`), sent as the `x-api-key` header.
    case apiKey(String)
    /// A user hook called before each request; the headers it returns are added to the request.
    /// It receives the operation name only (see ``custom(_:)`` for a hook that sees the request).
    case headers(@Sendable (_ operationName: String) async throws -> [String: String])
    /// Amazon Cognito user pools (`AMAZON_COGNITO_USER_POOLS`): the provider's JWT (ID or
    /// access token) is sent as the `Authorization` header.
    case userPools(TokenProvider)
    /// OpenID Connect (`OPENID_CONNECT`): the provider's JWT is sent as `Authorization`.
    case oidc(TokenProvider)
    /// A Lambda authorizer (`AWS_LAMBDA`): the provider's token is sent as `Authorization`.
    case lambda(TokenProvider)
    /// AWS IAM (`AWS_IAM`): the request is signed with Signature Version 4 (service `appsync`,
    /// `region`) with the provider's credentials: method, path, query, every header sent by the
    /// client, and the SHA-256 of the body; a session token goes in `X-Amz-Security-Token`.
    case iam(CredentialsProvider, region: String)
    /// A request-signing hook that sees the method, URL, headers and body of each request
    /// (``AuthorizationRequest``) and returns the headers to add.
    case custom(@Sendable (AuthorizationRequest) async throws -> [String: String])
  }

  /// Everything the client needs to know about the endpoint.
  public struct Configuration: Sendable {
    /// The GraphQL endpoint (`https://…/graphql`).
    public var endpoint: URL
    /// How requests are authorized (under the ``AuthorizationStrategy/default`` strategy).
    public var authorization: Authorization
    /// How the authorization of each request is chosen: ``authorization`` for all, or
    /// ``AuthorizationStrategy/multiAuth(_:)`` from the model's `@auth` rules.
    public var authorizationStrategy: AuthorizationStrategy
    /// The deadline of one exchange, in seconds: authorizing (a token provider included),
    /// connecting, sending and reading the whole body must finish within it, or the request fails
    /// with ``APIError/timedOut(operationName:seconds:)`` and its transfer is cancelled.
    public var timeout: Double
    /// Seconds without any byte arriving after which a request fails with
    /// ``APIError/timedOut(operationName:seconds:)`` (URLSession's `timeoutInterval`), or `nil` to
    /// rely on ``timeout`` alone.
    public var idleTimeout: Double?
    /// The largest response body accepted, in bytes, counted after `Content-Encoding`
    /// decompression while the body streams in; a larger one stops the transfer and throws
    /// ``APIError/responseTooLarge(operationName:limit:)``. Default 8 MiB.
    public var maximumResponseBytes: Int
    /// `limit` sent by lazy lists for each page, or `nil` for the server's default (100 on AppSync).
    public var listPageSize: Int?
    /// Extra headers sent with every request.
    public var additionalHeaders: [String: String]
    /// The real-time (subscription) connection's endpoint, timeouts and reconnect policy.
    public var realtime = RealtimeConfiguration()

    /// The default ``maximumResponseBytes``: 8 MiB.
    public static let defaultMaximumResponseBytes = 8 << 20

    /// Creates a configuration.
    public init(
      endpoint: URL, authorization: Authorization = .none, timeout: Double = 30,
      listPageSize: Int? = nil,
      additionalHeaders: [String: String] = [:],
      idleTimeout: Double? = nil,
      maximumResponseBytes: Int = Configuration.defaultMaximumResponseBytes,
      authorizationStrategy: AuthorizationStrategy = .default
    ) {
      self.authorizationStrategy = authorizationStrategy
      self.endpoint = endpoint
      self.authorization = authorization
      self.timeout = timeout
      self.listPageSize = listPageSize
      self.additionalHeaders = additionalHeaders
      self.idleTimeout = idleTimeout
      self.maximumResponseBytes = maximumResponseBytes
    }
  }

  /// The configuration this client was created with.
  public let configuration: Configuration
  private let session: URLSession
  private let transport: HTTPTransport
  /// Sees every request (and every subscription `start`) just before it is sent.
  let observer: (@Sendable (GraphQLRequestRecord) -> Void)?
  /// The real-time connection all subscriptions of this client share (see `subscribe(to:)`).
  let subscriptionHub = SubscriptionHub()
  /// The fields each record's last read refused to this client (``UnreadableFields``).
  let unreadableFields = APILock(UnreadableFields())

  /// Creates a client with an ephemeral URLSession of its own, whose delegate refuses every
  /// redirect (``APIError/redirected(operationName:statusCode:location:)``) and bounds every
  /// response body (``Configuration/maximumResponseBytes``).
  ///
  /// - Parameters:
  ///   - configuration: Endpoint, authorization, deadline, limits and paging.
  ///   - observer: Called with the operation name, document, variables and authorization mode of
  ///     every request just before it is sent (logging, tests), on the sending task, and of every
  ///     subscription `start` message, on the real-time connection's actor. It never sees headers
  ///     or credentials.
  public init(
    configuration: Configuration,
    observer: (@Sendable (GraphQLRequestRecord) -> Void)? = nil
  ) {
    self.configuration = configuration
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = configuration.idleTimeout ?? configuration.timeout
    sessionConfiguration.httpMaximumConnectionsPerHost = 16
    sessionConfiguration.httpShouldSetCookies = false
    sessionConfiguration.httpCookieAcceptPolicy = .never
    sessionConfiguration.urlCache = nil
    let transport = HTTPTransport()
    self.transport = transport
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    session = URLSession(configuration: sessionConfiguration, delegate: transport, delegateQueue: queue)
    self.observer = observer
  }

  /// Lets requests in flight finish, then releases the client's session.
  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The decoding context of this client: references and lists decoded with it load through it.
  public var decodingContext: APIModelDecodingContext { APIModelDecodingContext(client: self) }

  /// Sends `request` and returns `data.<responseField>`.
  ///
  /// Fields refused by field-level authorization do not fail the request: AppSync answers a
  /// nullable field the caller may not read with `null` and an error of `errorType`
  /// `Unauthorized` whose `path` names the field (`["getMemo", "secret"]`,
  /// `["listMemos", "items", 0, "secret"]`; message "Not Authorized to access secret on type
  /// Memo"; Amplify's field-level `@auth` rules, a Lambda authorizer's `deniedFields`). When every
  /// error of a response is such a refusal (``isFieldRefusal(_:in:)``) and the data decodes, the
  /// model is returned with `nil` in those fields — for every request sent through here: `get`,
  /// `list`, index queries, lazy loads and pages, nested selections, and mutation answers (the
  /// mutation ran). The refused fields are remembered for the record
  /// (``unreadableFields(of:)``; an update leaves them out while `nil`); ``response(for:)``
  /// returns the errors themselves. Any other error, or a refused non-null field (AppSync's null
  /// propagation then nulls its parent, so the path no longer ends at a `null` member), is thrown.
  ///
  /// - Returns: The decoded response (`nil` for a `get` that found nothing).
  /// - Throws: ``APIError``: `.graphQL` when the response has `errors` other than field refusals
  ///   (with `partialData` when `data` came too), `.httpStatus`, `.undecodableResponse`,
  ///   `.timedOut`, `.transport`, `.authorization`, `.cancelled`, or `.invalidRequest` when the
  ///   variables cannot be encoded.
  public func send<Response>(_ request: GraphQLRequest<Response>) async throws -> Response {
    let response = try await self.response(for: request)
    if !response.errors.isEmpty {
      guard response.data != nil, Self.onlyFieldRefusals(response.errors, in: response.body) else {
        throw Self.graphQLError(response, of: request)
      }
    }
    return try Self.data(of: response, for: request)
  }

  /// Whether `error` is AppSync's refusal of one field the caller may not read, with the field
  /// answered `null`: `errorType` `Unauthorized`, a `path` of at least two steps (a member of the
  /// root field's result, never the root field itself, which is a refusal of the operation) ending
  /// in a field name, and `data` (`body`'s `data` member) holding `null` at exactly that path (its
  /// parent present and not `null`). Thread-safe (a pure function).
  public static func isFieldRefusal(_ error: GraphQLError, in data: GraphQLValue) -> Bool {
    guard error.errorType == "Unauthorized", let path = error.path, path.count >= 2,
      case .string = path.last
    else { return false }
    var value = data
    for step in path {
      switch (step, value) {
      case (.string(let name), .object(let members)):
        guard let member = members[name] else { return false }
        value = member
      case (.int(let index), .list(let elements)):
        guard elements.indices.contains(index) else { return false }
        value = elements[index]
      default: return false
      }
    }
    return value == .null
  }

  /// Whether every one of `errors` is a field refusal (``isFieldRefusal(_:in:)``) in `body`.
  static func onlyFieldRefusals(_ errors: [GraphQLError], in body: Data) -> Bool {
    guard errors.allSatisfy({ $0.errorType == "Unauthorized" }), let data = dataMember(of: body) else {
      return false
    }
    return errors.allSatisfy { isFieldRefusal($0, in: data) }
  }

  /// The fields of `model`'s record (its model and primary key) that this client's responses
  /// refused: answered `null` with `Unauthorized` at their path, or (protected fields) `null` in
  /// the answer to this client's create or update while subscriptions redact them; a field a
  /// later response showed is forgotten. Empty for a record never read with refusals, or one
  /// forgotten past the 10,000 records the client remembers. This is how a caller of ``get(_:byIdentifier:includes:)``
  /// or ``send(_:)`` tells a refused `nil` from a stored `nil` (``response(for:)`` gives the
  /// errors themselves).
  ///
  /// Thread-safe (reads the client's memo under its lock).
  public func unreadableFields<M: Model>(of model: M) -> Set<String> {
    guard let input = try? ModelMutations.input(.update, of: model),
      let record = UnreadableFields.record(of: input, schema: M.schema)
    else { return [] }
    return unreadableFields.withLock { $0.names(of: record) }
  }

  /// The ``APIError/graphQL(operationName:errors:partialData:body:)`` that ``send(_:)`` throws for
  /// `response`'s `errors` (`partialData` is the body's `data` member), for a caller of
  /// ``response(for:)`` that accepts some errors and refuses the rest.
  public static func graphQLError<Response>(
    _ response: GraphQLResponse<Response>, of request: GraphQLRequest<Response>
  ) -> APIError {
    APIError.graphQL(
      operationName: request.operationName, errors: response.errors,
      partialData: dataMember(of: response.body), body: response.body)
  }

  /// `response`'s decoded `data.<responseField>`, as ``send(_:)`` returns it.
  ///
  /// - Throws: ``APIError/undecodableResponse(operationName:reason:body:)`` when it has none.
  public static func data<Response>(
    of response: GraphQLResponse<Response>, for request: GraphQLRequest<Response>
  ) throws -> Response {
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
    let request = withoutUnreadableFields(request)
    return try decodeResponse(try await post(request), for: request)
  }

  /// The HTTP body ``send(_:)`` posts for `request`: `{"operationName", "query", "variables"}` as
  /// JSON with sorted keys (the same request always gives the same bytes).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when a variable cannot be encoded
  ///   (a non-finite `Float`).
  public func httpBody<Response>(for request: GraphQLRequest<Response>) throws -> Data {
    // Written directly (a `JSONEncoder` with sorted keys was about 40,000 instructions per
    // request, the largest part of a lazy load's own cost): the same bytes as the encoder's,
    // pinned by DocumentTests; variables holding a `Double` keep the encoder's number format.
    if let body = JSONBodyWriter.body(
      query: request.document, operationName: request.operationName, variables: request.variables)
    {
      return body
    }
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
  /// client's decoding context (for custom transports, and to measure decoding alone). Fields the
  /// body refuses with `Unauthorized` are remembered for later updates, as for every response
  /// (see ``update(_:condition:includes:)``).
  ///
  /// - Throws: ``APIError/undecodableResponse(operationName:reason:body:)`` when `body` is not a
  ///   GraphQL response or `data.<responseField>` does not decode as `Response` without `errors`.
  public func decodeResponse<Response>(_ body: Data, for request: GraphQLRequest<Response>) throws
    -> GraphQLResponse<Response>
  {
    if Response.self == GraphQLValue.self,
      let data = Self.valueData(of: body, responseField: request.responseField) as? Response
    {
      // Untyped answers (the sync engine's pages, mutation answers and gets) take one
      // `JSONSerialization` pass; anything unusual (errors, no data, no field, not JSON) decodes
      // below, so every error is the one it always was.
      let response = GraphQLResponse(data: data, errors: [], body: body)
      recordReadableFields(in: response, for: request)
      return response
    }
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
      let response = GraphQLResponse(data: envelope.data, errors: envelope.errors, body: body)
      recordReadableFields(in: response, for: request)
      return response
    } catch let error as APIError {
      throw error
    } catch let mismatch as TypenameMismatch {
      throw APIError.unexpectedTypename(
        operationName: request.operationName, expected: mismatch.expected,
        received: mismatch.received, path: mismatch.path, body: body)
    } catch {
      throw APIError.undecodableResponse(
        operationName: request.operationName, reason: Self.describe(error), body: body)
    }
  }

  /// `data.<responseField>` of `body` as a ``GraphQLValue`` (its `null` as ``GraphQLValue/null``),
  /// when `body` is a JSON object without `errors` (absent, `null` or `[]`) whose `data` is an
  /// object holding the field; `nil` otherwise (the `JSONDecoder` path then decodes it or says
  /// why not).
  static func valueData(of body: Data, responseField: String) -> GraphQLValue? {
    guard let envelope = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
    return valueData(ofEnvelope: envelope, responseField: responseField)
  }

  /// ``valueData(of:responseField:)`` of a response object `JSONSerialization` made.
  static func valueData(ofEnvelope envelope: [String: Any], responseField: String) -> GraphQLValue? {
    guard let data = envelope["data"] as? [String: Any], let field = data[responseField] else { return nil }
    switch envelope["errors"] {
    case nil, is NSNull: break
    case let errors as [Any] where errors.isEmpty: break
    default: return nil
    }
    return GraphQLValue(foundationObject: field)
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
  /// `includes:` selects associations of the returned model eagerly (coding keys or `ModelPath`s
  /// such as `Comment4V2.path.post.comments`, at any depth).
  ///
  /// `condition:` is a typed predicate on `M` the stored model must meet (sent as the
  /// `Model<Name>ConditionInput`; `Post.keys.title.eq("a")`), or `nil` for none.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``: `.invalidRequest` (nothing sent) for a condition
  ///   the filter input cannot express; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func create<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.create(model, condition: condition, includes: includes))
  }

  /// ``create(_:condition:includes:)`` with a `Model<Name>ConditionInput` as written (the escape
  /// hatch: nothing checks `condition` against `M`; see ``GraphQLFilter``).
  ///
  /// - Throws: ``APIError``, as ``send(_:)``; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func create<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.create(model, uncheckedCondition: condition, includes: includes))
  }

  /// Updates `model` (`update<Name>`) and returns the stored model.
  ///
  /// A field this client's last read of the record got back as `null` with AppSync's
  /// `Unauthorized` (field-level `@auth`) is left out of the input while it is still `nil`, so
  /// the stored value survives (``ModelMutations/update(_:condition:includes:)`` sent through
  /// ``send(_:)`` does the same); a field set to a value is sent.
  ///
  /// `condition:` is a typed predicate on `M` the stored model must meet (sent as the
  /// `Model<Name>ConditionInput`; `Post.keys.title.eq("a")`), or `nil` for none.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``: `.invalidRequest` (nothing sent) for a condition
  ///   the filter input cannot express; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func update<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.update(model, condition: condition, includes: includes))
  }

  /// ``update(_:condition:includes:)`` with a `Model<Name>ConditionInput` as written (the escape
  /// hatch: nothing checks `condition` against `M`; see ``GraphQLFilter``).
  ///
  /// - Throws: ``APIError``, as ``send(_:)``; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func update<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.update(model, uncheckedCondition: condition, includes: includes))
  }

  /// Deletes `model` (`delete<Name>`) and returns the deleted model.
  ///
  /// `condition:` is a typed predicate on `M` the stored model must meet (sent as the
  /// `Model<Name>ConditionInput`; `Post.keys.title.eq("a")`), or `nil` for none.
  ///
  /// - Throws: ``APIError``, as ``send(_:)``: `.invalidRequest` (nothing sent) for a condition
  ///   the filter input cannot express; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func delete<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.delete(model, condition: condition, includes: includes))
  }

  /// ``delete(_:condition:includes:)`` with a `Model<Name>ConditionInput` as written (the escape
  /// hatch: nothing checks `condition` against `M`; see ``GraphQLFilter``).
  ///
  /// - Throws: ``APIError``, as ``send(_:)``; a failed `condition` is a `.graphQL` error.
  @discardableResult
  public func delete<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) async throws -> M {
    try await send(ModelMutations.delete(model, uncheckedCondition: condition, includes: includes))
  }

  // MARK: - HTTP

  private struct Body: Encodable {
    let query: String
    let operationName: String
    let variables: [String: GraphQLValue]
  }

  /// Builds, authorizes and sends `request` under the deadline of ``Configuration/timeout``;
  /// returns the body of a 2xx answer.
  private func post<Response>(_ request: GraphQLRequest<Response>) async throws -> Data {
    let name = request.operationName
    let body = try httpBody(for: request)
    let record = GraphQLRequestRecord(
      operationName: name, document: request.document, variables: request.variables)
    let deadline = ContinuousClock.now + .seconds(configuration.timeout)
    do {
      let modes: [Authorization]
      switch configuration.authorizationStrategy {
      case .default: modes = [configuration.authorization]
      case .multiAuth(let configured):
        if request.authRules == nil, let parent = request.parentRead, let child = request.modelSchema {
          modes = AuthorizationStrategy.ordered(
            configured, forPageOf: child, through: parent.schema, field: parent.field)
        } else {
          modes = AuthorizationStrategy.ordered(
            configured, for: request.modelSchema, operation: request.ruleOperation,
            writtenFields: request.writtenFields)
        }
      }
      guard let last = modes.last else {
        let through = request.parentRead.map { " read through \($0.schema.name).\($0.field)" } ?? ""
        throw APIError.invalidRequest(
          operationName: name,
          reason:
            "multi-auth: no configured mode is allowed by the @auth rules of \(request.modelSchema?.name ?? "the request")\(through) for \(request.ruleOperation.rawValue)"
        )
      }
      for authorization in modes.dropLast() {
        do {
          return try await exchange(
            body: body, record: record, authorization: authorization,
            responseField: request.responseField, deadline: deadline)
        } catch APIError.authorization {
          continue  // the next mode in priority order
        }
      }
      return try await exchange(
        body: body, record: record, authorization: last, responseField: request.responseField,
        deadline: deadline)
    } catch is CancellationError {
      throw APIError.cancelled(operationName: name)
    }
  }

  /// One exchange: headers, authorization, the transfer, the status, all before `deadline`.
  private func exchange(
    body: Data, record: GraphQLRequestRecord, authorization: Authorization, responseField: String,
    deadline: ContinuousClock.Instant
  ) async throws -> Data {
    let name = record.operationName
    var urlRequest = URLRequest(url: configuration.endpoint)
    urlRequest.httpMethod = "POST"
    urlRequest.timeoutInterval = configuration.idleTimeout ?? configuration.timeout
    urlRequest.httpShouldHandleCookies = false
    urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
    urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
    for (header, value) in configuration.additionalHeaders {
      urlRequest.setValue(value, forHTTPHeaderField: header)
    }
    let sent = urlRequest.allHTTPHeaderFields ?? [:]
    do {
      let added: [String: String]
      switch authorization {
      case .none, .apiKey:
        added = try await Self.authorizationHeaders(
          authorization, url: configuration.endpoint, body: body, headers: sent,
          operationName: name)
      default:
        // A provider may ignore cancellation: it runs in a task of its own, raced by the deadline.
        let endpoint = configuration.endpoint
        let timedOut: @Sendable () -> any Error = { [configuration] in
          APIError.timedOut(operationName: name, seconds: configuration.timeout)
        }
        added = try await withDeadline(seconds: Self.seconds(until: deadline), onDeadline: timedOut) {
          try await Self.authorizationHeaders(
            authorization, url: endpoint, body: body, headers: sent, operationName: name)
        }
      }
      for (header, value) in added where header.lowercased() != "host" {
        urlRequest.setValue(value, forHTTPHeaderField: header)
      }
    } catch let error as AuthorizationError {
      throw APIError.authorization(operationName: name, underlying: error)
    }
    urlRequest.httpBody = body
    observer?(
      GraphQLRequestRecord(
        operationName: record.operationName, document: record.document, variables: record.variables,
        authorizationMode: authorization.mode))
    if Task.isCancelled { throw CancellationError() }

    let result: HTTPExchangeResult
    do {
      result = try await transport.send(
        urlRequest, on: session, limit: configuration.maximumResponseBytes,
        seconds: Self.seconds(until: deadline))
    } catch let failure as HTTPExchangeFailure {
      switch failure {
      case .redirected(let status, let location):
        throw APIError.redirected(operationName: name, statusCode: status, location: location)
      case .tooLarge(let limit):
        throw APIError.responseTooLarge(operationName: name, limit: limit)
      case .deadline:
        throw APIError.timedOut(operationName: name, seconds: configuration.timeout)
      case .notHTTP:
        throw APIError.undecodableResponse(
          operationName: name, reason: "not an HTTP response", body: Data())
      case .failed(let error):
        if Task.isCancelled { throw CancellationError() }
        if let urlError = error as? URLError {
          switch urlError.code {
          case .timedOut:
            throw APIError.timedOut(
              operationName: name, seconds: configuration.idleTimeout ?? configuration.timeout)
          case .cancelled: throw CancellationError()
          default: break
          }
        }
        throw APIError.transport(operationName: name, underlying: error)
      }
    }
    let http = result.response
    guard (200..<300).contains(http.statusCode) else {
      let errors = (try? JSONDecoder().decode(ErrorsOnly.self, from: result.body))?.errors ?? []
      if let mode = authorization.mode, http.statusCode == 401 || http.statusCode == 403 {
        throw APIError.authorization(
          operationName: name,
          underlying: AuthorizationError(
            mode: mode, reason: .rejected(statusCode: http.statusCode, errors: errors)))
      }
      throw APIError.httpStatus(
        operationName: name, statusCode: http.statusCode, errors: errors, body: result.body)
    }
    if let mode = authorization.mode,
      let errors = Self.unauthorizedErrors(in: result.body, field: responseField)
    {
      throw APIError.authorization(
        operationName: name,
        underlying: AuthorizationError(
          mode: mode, reason: .rejected(statusCode: http.statusCode, errors: errors)))
    }
    return result.body
  }

  /// The seconds left until `deadline` (0 when it passed).
  private static func seconds(until deadline: ContinuousClock.Instant) -> Double {
    let left = deadline - ContinuousClock.now
    let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
    return max(0, seconds)
  }

  /// The `Unauthorized` errors at the root path `[field]` of a body whose `data.<field>` is null
  /// or absent — AppSync's answer when the operation itself was refused to this mode (its auth
  /// resolver ran before any read or write) — else `nil`. An `Unauthorized` error on a nested
  /// field (`["createMemo", "secret"]`: the operation ran, and a field of its result may not be
  /// read) is not a refusal of the operation, even when null propagation leaves `data.<field>`
  /// null: multi-auth must not re-send a mutation that already ran, so such a body is returned
  /// as it is (the caller sees its errors).
  static func unauthorizedErrors(in body: Data, field: String) -> [GraphQLError]? {
    guard body.range(of: Data("Unauthorized".utf8)) != nil,
      let envelope = try? JSONDecoder().decode(UnauthorizedProbe.self, from: body),
      (envelope.data?[field] ?? .null) == .null
    else { return nil }
    let refusals = envelope.errors.filter {
      $0.errorType == "Unauthorized" && $0.path == [.string(field)]
    }
    return refusals.isEmpty ? nil : refusals
  }

  private struct UnauthorizedProbe: Decodable {
    let data: GraphQLValue?
    let errors: [GraphQLError]
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

/// What the client is about to send, as given to its observer: an HTTP request, or a real-time
/// subscription's `start` message.
public struct GraphQLRequestRecord: Sendable, Hashable {
  /// The operation name.
  public let operationName: String
  /// The document text.
  public let document: String
  /// The variables.
  public let variables: [String: GraphQLValue]
  /// The AppSync authorization mode the request is sent with (under
  /// ``AuthorizationStrategy/multiAuth(_:)``, the mode being tried: a request refused and re-sent
  /// with the next mode is recorded once per mode), or `nil` for ``APIClient/Authorization/none``.
  /// The mode only, never a credential.
  public let authorizationMode: AuthorizationMode?

  init(
    operationName: String, document: String, variables: [String: GraphQLValue],
    authorizationMode: AuthorizationMode? = nil
  ) {
    self.operationName = operationName
    self.document = document
    self.variables = variables
    self.authorizationMode = authorizationMode
  }
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

/// A response type that is an optional model (`M?`), whose object's `__typename` is checked
/// (`M` itself is checked through `any Model.Type`).
protocol ModelResponse {
  static func checkTypename(in container: KeyedDecodingContainer<AnyCodingKey>) throws
}

extension Optional: ModelResponse where Wrapped: Model {
  static func checkTypename(in container: KeyedDecodingContainer<AnyCodingKey>) throws {
    try container.checkTypename(of: Wrapped.self)
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
    if members.contains(field), try !members.decodeNil(forKey: field) {
      if let model = Response.self as? any Model.Type {
        try members.nestedContainer(keyedBy: AnyCodingKey.self, forKey: field).checkTypename(
          of: model)
      } else if let model = Response.self as? any ModelResponse.Type {
        try model.checkTypename(
          in: members.nestedContainer(keyedBy: AnyCodingKey.self, forKey: field))
      }
    }
    if errors.isEmpty {
      data = try members.decode(Response.self, forKey: field)
    } else {
      data = try? members.decode(Response.self, forKey: field)
    }
  }
}
