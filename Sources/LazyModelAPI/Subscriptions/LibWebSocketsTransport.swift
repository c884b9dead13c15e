#if !canImport(Darwin)
  import CWebSockets
  import Foundation

  /// The Linux transport: the system libwebsockets (RFC 6455 framing by libwebsockets, TLS for
  /// `wss://` by its OpenSSL). Each connection has its own lws context, served by a dedicated
  /// thread (never a cooperative-pool thread); other threads only queue work and wake it with
  /// `lws_cancel_service`.
  struct LibWebSocketsConnector: WebSocketConnector {
    func connect(to url: URL, options: WebSocketOptions) -> any WebSocketConnection {
      let connection = LibWebSocketsConnection(maximumMessageBytes: options.maximumMessageBytes)
      connection.start(
        url: url, subprotocol: options.subprotocol,
        certificateAuthorityFile: options.certificateAuthorityFile ?? Self.systemBundle)
      return connection
    }

    /// The system's CA bundle: `SSL_CERT_FILE`, else the first that exists of Debian/Ubuntu's,
    /// Fedora/RHEL's and Alpine's. (Debian's libwebsockets is built with a default CA directory
    /// that does not exist, so the bundle is always passed explicitly.)
    static let systemBundle: String? = {
      if let file = ProcessInfo.processInfo.environment["SSL_CERT_FILE"], !file.isEmpty {
        return file
      }
      return [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem",
      ].first { FileManager.default.fileExists(atPath: $0) }
    }()
  }

  /// One libwebsockets client connection and the thread that serves it.
  final class LibWebSocketsConnection: WebSocketConnection {
    let events: AsyncStream<WebSocketEvent>
    private let continuation: AsyncStream<WebSocketEvent>.Continuation
    private let maximumMessageBytes: Int
    private let state = APILock(State())

    private struct State {
      /// The lws context while the service thread runs (used off that thread only for
      /// `lws_cancel_service`, which libwebsockets allows from any thread).
      var context: LWSHandle?
      var outgoing: [Data] = []
      var closeRequested = false
      var finished = false
    }

    /// Service-thread-only state (the message being reassembled, the connection handle).
    private let service = APILock(ServiceState())

    private struct ServiceState {
      var wsi: LWSHandle?
      var incoming = Data()
      var failure: RealtimeError?
      var opened = false
    }

    init(maximumMessageBytes: Int) {
      self.maximumMessageBytes = maximumMessageBytes
      (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
    }

    func start(url: URL, subprotocol: String, certificateAuthorityFile: String?) {
      let thread = Thread { [self] in
        run(url: url, subprotocol: subprotocol, certificateAuthorityFile: certificateAuthorityFile)
      }
      thread.name = "LazyModelAPI.libwebsockets"
      thread.start()
    }

    func send(_ text: Data) {
      state.withLock { state in
        guard !state.finished, !state.closeRequested else { return }
        state.outgoing.append(text)
        if let context = state.context { lws_cancel_service(context.pointer) }
      }
    }

    func close() {
      state.withLock { state in
        state.closeRequested = true
        if let context = state.context { lws_cancel_service(context.pointer) }
      }
    }

    // MARK: - Service thread

    private static let quietLogs: Void = lws_set_log_level(0, nil)

    private func run(url: URL, subprotocol: String, certificateAuthorityFile: String?) {
      _ = Self.quietLogs
      let secure = url.scheme?.lowercased() == "wss"
      guard let host = url.host, !host.isEmpty else {
        finish(.handshakeFailed(reason: "the real-time endpoint has no host"))
        return
      }
      let port = url.port ?? (secure ? 443 : 80)
      var path = url.path.isEmpty ? "/" : url.path
      if let query = url.query { path += "?" + query }

      // C strings and the protocol table live until the context is destroyed.
      let protocolName = strdup(subprotocol)
      let address = strdup(host)
      let cPath = strdup(path)
      let caFile = certificateAuthorityFile.map { strdup($0) } ?? nil
      let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
      protocols.initialize(repeating: lws_protocols(), count: 2)
      protocols[0].name = UnsafePointer(protocolName)
      protocols[0].callback = libWebSocketsCallback
      protocols[0].rx_buffer_size = 65_536
      defer {
        protocols.deallocate()
        free(protocolName)
        free(address)
        free(cPath)
        free(caFile)
      }

      var info = lws_context_creation_info()
      info.port = modelgen_lws_port_no_listen()
      info.protocols = UnsafePointer(protocols)
      info.gid = -1
      info.uid = -1
      info.user = Unmanaged.passUnretained(self).toOpaque()
      if secure {
        info.options = modelgen_lws_option_ssl_global_init()
        info.client_ssl_ca_filepath = UnsafePointer(caFile)
      }
      guard let context = lws_create_context(&info) else {
        finish(.handshakeFailed(reason: "libwebsockets could not create a context"))
        return
      }
      state.withLock { $0.context = LWSHandle(pointer: context) }

      var connect = lws_client_connect_info()
      connect.context = context
      connect.address = UnsafePointer(address)
      connect.port = Int32(port)
      connect.path = UnsafePointer(cPath)
      connect.host = UnsafePointer(address)
      connect.origin = UnsafePointer(address)
      connect.protocol = UnsafePointer(protocolName)
      connect.ietf_version_or_minus_one = -1
      connect.ssl_connection = secure ? Int32(LCCSCF_USE_SSL.rawValue) : 0
      if lws_client_connect_via_info(&connect) == nil {
        service.withLock { $0.failure = .handshakeFailed(reason: "cannot connect to \(host):\(port)") }
        state.withLock { $0.finished = true }
      }
      while true {
        let (finished, closeRequested) = state.withLock { ($0.finished, $0.closeRequested) }
        // A close before the handshake completed has no connection to close: drop the attempt.
        if finished || (closeRequested && !service.withLock({ $0.opened })) { break }
        lws_service(context, 0)
      }
      state.withLock { $0.context = nil }
      lws_context_destroy(context)
      finish(service.withLock { $0.failure })
    }

    /// Ends the event stream once.
    private func finish(_ failure: RealtimeError?) {
      let closedByUs = state.withLock { state -> Bool in
        state.finished = true
        return state.closeRequested
      }
      continuation.yield(
        .closed(
          closedByUs ? nil : failure ?? .transportClosed(reason: "the server closed the connection")))
      continuation.finish()
    }

    /// Handles one libwebsockets callback on the service thread; a non-zero result closes.
    fileprivate func handle(
      _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?,
      _ length: Int
    ) -> Int32 {
      switch reason {
      case LWS_CALLBACK_CLIENT_ESTABLISHED:
        service.withLock {
          $0.wsi = wsi.map(LWSHandle.init)
          $0.opened = true
        }
        continuation.yield(.opened)
        lws_callback_on_writable(wsi)
      case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let text = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "unknown"
        service.withLock { $0.failure = .handshakeFailed(reason: text) }
        state.withLock { $0.finished = true }
      case LWS_CALLBACK_CLIENT_CLOSED:
        state.withLock { $0.finished = true }
      case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        var code = 1005
        if let input, length >= 2 {
          let bytes = input.assumingMemoryBound(to: UInt8.self)
          code = Int(bytes[0]) << 8 | Int(bytes[1])
        }
        service.withLock { service in
          if service.failure == nil {
            service.failure = .transportClosed(reason: "the server closed the connection (status \(code))")
          }
        }
      case LWS_CALLBACK_CLIENT_RECEIVE:
        return receive(wsi, input, length)
      case LWS_CALLBACK_CLIENT_WRITEABLE:
        return write(wsi)
      case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if let wsi = service.withLock({ $0.wsi }) { lws_callback_on_writable(wsi.pointer) }
      default:
        break
      }
      return 0
    }

    private func receive(_ wsi: OpaquePointer?, _ input: UnsafeMutableRawPointer?, _ length: Int)
      -> Int32
    {
      let complete = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
      let message: Data? = service.withLock { service in
        if service.incoming.count + length > maximumMessageBytes {
          service.failure = .messageTooLarge(limit: maximumMessageBytes)
          service.incoming = Data()
          return nil
        }
        if let input, length > 0 { service.incoming.append(input.assumingMemoryBound(to: UInt8.self), count: length) }
        guard complete else { return Data() }
        defer { service.incoming = Data() }
        return service.incoming
      }
      guard let message else { return -1 }
      if complete { continuation.yield(.text(message)) }
      return 0
    }

    private func write(_ wsi: OpaquePointer?) -> Int32 {
      let (next, more, closing) = state.withLock { state -> (Data?, Bool, Bool) in
        guard !state.outgoing.isEmpty else { return (nil, false, state.closeRequested) }
        let next = state.outgoing.removeFirst()
        return (next, !state.outgoing.isEmpty || state.closeRequested, false)
      }
      if let next {
        let pre = modelgen_lws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + next.count)
        let written = buffer.withUnsafeMutableBufferPointer { pointer in
          let payload = pointer.baseAddress! + pre
          next.copyBytes(to: payload, count: next.count)
          return lws_write(wsi, payload, next.count, LWS_WRITE_TEXT)
        }
        if written < next.count {
          service.withLock { $0.failure = .transportClosed(reason: "a write failed") }
          return -1
        }
        if more { lws_callback_on_writable(wsi) }
        return 0
      }
      if closing {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
        return -1
      }
      return 0
    }
  }

  /// A libwebsockets handle (`struct lws_context *` or `struct lws *`) kept in locked state.
  /// `@unchecked Sendable`: it is only dereferenced on the service thread, except
  /// `lws_cancel_service(context)`, which libwebsockets documents as safe from any thread.
  struct LWSHandle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// The protocol callback: finds the connection through the context's user pointer.
  private func libWebSocketsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
      return 0
    }
    return Unmanaged<LibWebSocketsConnection>.fromOpaque(owner).takeUnretainedValue().handle(
      wsi, reason, input, length)
  }
#endif
