// The Apple-platform transport. `.ci/run` also typechecks it on Linux against FoundationNetworking
// (`-D MODELGEN_TYPECHECK_URLSESSION`), where it would build but fail at run time without a libcurl
// built with WebSockets.
#if canImport(Darwin) || MODELGEN_TYPECHECK_URLSESSION
  import Foundation

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The Apple-platform transport: `URLSessionWebSocketTask` (RFC 6455 framing and TLS by Foundation).
  struct URLSessionWebSocketConnector: WebSocketConnector {
    /// `options.certificateAuthorityFile` is not used: URLSession verifies against the system
    /// trust store.
    func connect(to url: URL, options: WebSocketOptions) -> any WebSocketConnection {
      URLSessionWebSocketConnection(
        url: url, subprotocol: options.subprotocol,
        maximumMessageBytes: options.maximumMessageBytes)
    }
  }

  /// One `URLSessionWebSocketTask`; receives in a loop on a task of its own until closed.
  final class URLSessionWebSocketConnection: NSObject, WebSocketConnection,
    URLSessionWebSocketDelegate, @unchecked Sendable
  {
    // @unchecked (NSObject subclasses cannot be checked): every stored property is a `let` of a
    // Sendable type or an `APILock`.
    let events: AsyncStream<WebSocketEvent>
    private let continuation: AsyncStream<WebSocketEvent>.Continuation
    private let task = APILock<URLSessionWebSocketTask?>(nil)
    private let closed = APILock(false)

    init(url: URL, subprotocol: String, maximumMessageBytes: Int) {
      (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
      super.init()
      let session = URLSession(
        configuration: .ephemeral, delegate: self, delegateQueue: nil)
      let task = session.webSocketTask(with: url, protocols: [subprotocol])
      task.maximumMessageSize = maximumMessageBytes
      self.task.withLock { $0 = task }
      task.resume()
      session.finishTasksAndInvalidate()
      receive(task, limit: maximumMessageBytes)
    }

    private func receive(_ task: URLSessionWebSocketTask, limit: Int) {
      task.receive { [self] result in
        switch result {
        case .success(.string(let text)):
          continuation.yield(.text(Data(text.utf8)))
          receive(task, limit: limit)
        case .success(.data(let data)):
          continuation.yield(.text(data))
          receive(task, limit: limit)
        case .success:
          receive(task, limit: limit)
        case .failure(let error):
          finish(
            task.closeCode == .messageTooBig
              ? RealtimeError.messageTooLarge(limit: limit)
              : RealtimeError.transportClosed(reason: error.localizedDescription))
        }
      }
    }

    func urlSession(
      _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
      didOpenWithProtocol protocol: String?
    ) {
      continuation.yield(.opened)
    }

    func urlSession(
      _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
      didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
      finish(.transportClosed(reason: "the server closed the connection (status \(closeCode.rawValue))"))
    }

    func send(_ text: Data) {
      task.withLock { task in
        task?.send(.string(String(decoding: text, as: UTF8.self))) { _ in }
      }
    }

    func close() {
      task.withLock { $0?.cancel(with: .normalClosure, reason: nil) }
      finish(nil)
    }

    private func finish(_ failure: RealtimeError?) {
      let first = closed.withLock { closed in
        defer { closed = true }
        return !closed
      }
      guard first else { return }
      continuation.yield(.closed(failure))
      continuation.finish()
    }
  }
#endif
