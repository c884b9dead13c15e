import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one HTTP exchange of ``HTTPTransport`` ended with.
struct HTTPExchangeResult: Sendable {
  let response: HTTPURLResponse
  let body: Data
}

/// Why ``HTTPTransport`` stopped an exchange itself (the client maps these to ``APIError``).
enum HTTPExchangeFailure: Error, Sendable {
  /// A 3xx answer; the redirect was refused (never followed).
  case redirected(statusCode: Int, location: String?)
  /// More than `limit` body bytes (after decompression) arrived.
  case tooLarge(limit: Int)
  /// The exchange's deadline passed; the transfer was cancelled.
  case deadline
  /// The URL loading system failed (`URLError` for refused, reset, idle timeout, cancelled).
  case failed(any Error)
  /// Not an HTTP response.
  case notHTTP
}

/// The session delegate of an ``APIClient``: refuses every redirect, counts body bytes as they
/// stream in (URLSession hands the delegate bytes after `Content-Encoding` decoding, on Apple
/// platforms and in FoundationNetworking over libcurl alike) and cancels the transfer once they pass
/// the limit, so neither an endless chunked body nor a decompression bomb is ever held in memory.
///
/// Thread-safety: the per-task state lives behind one lock (`APILock`), never held across I/O; URLSession
/// calls the delegate on its own serial delegate queue.
final class HTTPTransport: NSObject, URLSessionDataDelegate, Sendable {
  private struct Exchange {
    var continuation: CheckedContinuation<HTTPExchangeResult, any Error>?
    var limit: Int
    var body = Data()
    var response: URLResponse?
    var failure: HTTPExchangeFailure?
    var cancelledEarly = false
  }

  private let exchanges = APILock<[Int: Exchange]>([:])

  /// Sends `request` on `session` (whose delegate must be this transport) and collects the body.
  ///
  /// - Parameters:
  ///   - limit: The largest body accepted, in bytes after decompression.
  ///   - seconds: The time left for the whole transfer; a dispatch timer cancels it then.
  /// - Throws: ``HTTPExchangeFailure``; `CancellationError` when the calling task is cancelled
  ///   (the transfer is cancelled with it).
  func send(_ request: URLRequest, on session: URLSession, limit: Int, seconds: Double) async throws
    -> HTTPExchangeResult
  {
    let task = session.dataTask(with: request)
    let id = task.taskIdentifier
    exchanges.withLock { $0[id] = Exchange(limit: limit) }
    // At the deadline the caller is answered at once, from the timer: URLSession may deliver the
    // cancelled task's completion late (FoundationNetworking keeps handling a flood of header
    // lines first), and that late completion then finds no exchange to resume.
    let timer = DispatchWorkItem { [self] in
      let (running, waiting) = exchanges.withLock {
        exchanges -> (Bool, CheckedContinuation<HTTPExchangeResult, any Error>?) in
        guard let exchange = exchanges[id] else { return (false, nil) }
        if exchange.failure == nil, let continuation = exchange.continuation {
          exchanges[id] = nil
          return (true, continuation)
        }
        if exchange.failure == nil { exchanges[id]?.failure = .deadline }
        return (true, nil)
      }
      waiting?.resume(throwing: HTTPExchangeFailure.deadline)
      if running { task.cancel() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = exchanges.withLock { exchanges -> Bool in
          if exchanges[id]?.cancelledEarly ?? true {
            exchanges[id] = nil
            return true
          }
          exchanges[id]?.continuation = continuation
          return false
        }
        if cancelled {
          task.cancel()
          continuation.resume(throwing: CancellationError())
        } else {
          task.resume()
        }
      }
    } onCancel: {
      exchanges.withLock { exchanges in
        if exchanges[id]?.continuation == nil { exchanges[id]?.cancelledEarly = true }
      }
      task.cancel()
    }
  }

  // MARK: URLSessionDataDelegate

  /// Refuses the redirect: the task completes with the 3xx response, which ``send`` turns into
  /// ``HTTPExchangeFailure/redirected(statusCode:location:)`` without reading its body.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let location = response.value(forHTTPHeaderField: "Location")
    exchanges.withLock {
      $0[task.taskIdentifier]?.failure = .redirected(
        statusCode: response.statusCode, location: location)
    }
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let refuse = exchanges.withLock { exchanges -> Bool in
      guard var exchange = exchanges[dataTask.taskIdentifier] else { return true }
      defer { exchanges[dataTask.taskIdentifier] = exchange }
      exchange.response = response
      if let http = response as? HTTPURLResponse, (300..<400).contains(http.statusCode) {
        exchange.failure =
          exchange.failure
          ?? .redirected(
            statusCode: http.statusCode, location: http.value(forHTTPHeaderField: "Location"))
        return true
      }
      // A declared length over the limit fails before any byte is read (an encoded body is
      // counted again after decoding, below).
      if let http = response as? HTTPURLResponse,
        http.value(forHTTPHeaderField: "Content-Encoding") == nil,
        response.expectedContentLength > Int64(exchange.limit)
      {
        exchange.failure = .tooLarge(limit: exchange.limit)
        return true
      }
      return false
    }
    completionHandler(refuse ? .cancel : .allow)
    // FoundationNetworking does not always end a task refused here; cancelling it does.
    if refuse { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let over = exchanges.withLock { exchanges -> Bool in
      // Only scalars are read out: a copy of the exchange would share, and so copy, its body.
      let id = dataTask.taskIdentifier
      guard let limit = exchanges[id]?.limit, let count = exchanges[id]?.body.count,
        exchanges[id]?.failure == nil
      else { return false }
      if count + data.count > limit {
        exchanges[id]?.failure = .tooLarge(limit: limit)
        exchanges[id]?.body = Data()
        return true
      }
      exchanges[id]?.body.append(data)
      return false
    }
    if over { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }),
      let continuation = exchange.continuation
    else { return }
    let response = exchange.response ?? task.response
    if let failure = exchange.failure {
      continuation.resume(throwing: failure)
    } else if let http = response as? HTTPURLResponse, (300..<400).contains(http.statusCode) {
      continuation.resume(
        throwing: HTTPExchangeFailure.redirected(
          statusCode: http.statusCode, location: http.value(forHTTPHeaderField: "Location")))
    } else if let error {
      continuation.resume(throwing: HTTPExchangeFailure.failed(error))
    } else if let http = response as? HTTPURLResponse {
      continuation.resume(returning: HTTPExchangeResult(response: http, body: exchange.body))
    } else {
      continuation.resume(throwing: HTTPExchangeFailure.notHTTP)
    }
  }
}

/// Runs `operation` with a deadline: returns its value, or throws `onDeadline()` once `seconds`
/// have passed, whichever comes first, and cancels the loser. The caller never waits for an
/// operation that ignores cancellation (a hanging token provider): it runs in a task of its own
/// that is cancelled and left behind.
///
/// - Throws: What `operation` throws, `onDeadline()`, or `CancellationError` when the calling task
///   is cancelled.
func withDeadline<T: Sendable>(
  seconds: Double, onDeadline: @escaping @Sendable () -> any Error,
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let race = DeadlineRace<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.start(continuation)
      let work = Task {
        let result: Result<T, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        race.finish(result)
      }
      let timer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        if !Task.isCancelled { race.finish(.failure(onDeadline())) }
      }
      race.attach(work: work, timer: timer)
    }
  } onCancel: {
    race.finish(.failure(CancellationError()))
  }
}

/// The shared state of one ``withDeadline(seconds:onDeadline:_:)``: the first result wins.
private final class DeadlineRace<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T, any Error>?
    var pending: Result<T, any Error>?
    var work: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var finished = false
  }

  private let state = APILock(State())

  func start(_ continuation: CheckedContinuation<T, any Error>) {
    let pending = state.withLock { state -> Result<T, any Error>? in
      if let pending = state.pending {
        state.pending = nil
        return pending
      }
      state.continuation = continuation
      return nil
    }
    if let pending { continuation.resume(with: pending) }
  }

  func attach(work: Task<Void, Never>, timer: Task<Void, Never>) {
    let finished = state.withLock { state -> Bool in
      state.work = work
      state.timer = timer
      return state.finished
    }
    if finished {
      work.cancel()
      timer.cancel()
    }
  }

  func finish(_ result: Result<T, any Error>) {
    let (continuation, work, timer) = state.withLock {
      state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
      guard !state.finished else { return (nil, nil, nil) }
      state.finished = true
      if state.continuation == nil { state.pending = result }
      defer { state.continuation = nil }
      return (state.continuation, state.work, state.timer)
    }
    work?.cancel()
    timer?.cancel()
    continuation?.resume(with: result)
  }
}
