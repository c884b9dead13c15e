import Foundation
import LazyModel
import LazyModelDataStore
import Testing

/// The first `count` elements of `sequence`, or fewer when it ends or after 10 s (times
/// `testDeadlineScale`); an error the sequence throws is returned as the last element's place
/// (`thrown`).
func first<S: AsyncSequence & Sendable>(
  _ count: Int, of sequence: S
) async -> (elements: [S.Element], thrown: (any Error)?) where S.Element: Sendable {
  await withTaskGroup(of: ([S.Element], (any Error)?)?.self) { group in
    group.addTask {
      var elements: [S.Element] = []
      do {
        for try await element in sequence {
          elements.append(element)
          if elements.count == count { break }
        }
      } catch {
        return (elements, error)
      }
      return (elements, nil)
    }
    group.addTask {
      try? await Task.sleep(for: .seconds(10 * testDeadlineScale))
      return nil
    }
    let result = await group.next() ?? nil
    group.cancelAll()
    return result ?? ([], nil)
  }
}

@Suite("Observed changes that do not decode")
struct ObservationFailureTests {
  /// Two stores on one file: `old` with `Gauge` (narrow integers), `new` with `WideGauge` (the
  /// same table, every integer an `Int`), as two app versions sharing a file.
  func stores() throws -> (old: DataStore, new: DataStore) {
    let url = try temporaryFileURL()
    let old = try DataStore(fileURL: url, registry: ModelRegistry(models: [Gauge.self]))
    let new = try DataStore(fileURL: url, registry: ModelRegistry(models: [WideGauge.self]))
    return (old, new)
  }

  @Test("an undecodable committed change is reported with model, identifier and operation; the next one arrives")
  func observeReportsFailure() async throws {
    let (old, new) = try stores()
    let events = old.observe(Gauge.self)
    let failures = old.observeFailures()
    try await new.save(WideGauge(id: "bad", small: 1000))
    try await new.save(WideGauge(id: "good", small: 5, medium: 6, unsigned: 7, huge: 8))
    try await new.delete(WideGauge.self, byIdentifier: .init(id: "bad"))

    let seen = await first(1, of: events).elements
    #expect(seen.count == 1)
    if case .saved(let gauge)? = seen.first {
      #expect(gauge == Gauge(id: "good", small: 5, medium: 6, unsigned: 7, huge: 8))
    } else {
      Issue.record("expected saved good, got \(seen)")
    }
    let reported = await first(2, of: failures).elements
    let identifiers = [IdentifierComponent(name: "id", value: .string("bad"))]
    #expect(reported.count == 2)
    for (failure, operation) in zip(reported, ["save", "delete"]) {
      guard case .undecodableChange(let model, let ids, let op, let error) = failure else {
        Issue.record("\(failure)")
        continue
      }
      #expect(model == "Gauge")
      #expect(ids == identifiers)
      #expect(op == operation)
      guard case .decodingFailed(let errorModel, let field, let reason) = error else {
        Issue.record("\(error)")
        continue
      }
      #expect(errorModel == "Gauge")
      #expect(field == "small")
      #expect(reason.contains("1000"), "\(reason)")
    }
    #expect(reported.first?.description.contains("save of Gauge id: ") == true, "\(reported)")
  }

  @Test("observeChanges reports the same failure and goes on")
  func observeChangesReportsFailure() async throws {
    let (old, new) = try stores()
    let changes = old.observeChanges(Gauge.self)
    let failures = old.observeFailures()
    try await new.write { tx in
      try tx.save(WideGauge(id: "a", small: 1, unsigned: -1))
      try tx.save(WideGauge(id: "b", small: 2, unsigned: 3))
    }
    let seen = await first(1, of: changes).elements
    #expect(seen.count == 1)
    if case .saved(let gauge)? = seen.first?.event { #expect(gauge.id == "b") }
    let reported = await first(1, of: failures).elements
    guard case .undecodableChange("Gauge", let ids, "save", .decodingFailed("Gauge", "unsigned", _))? = reported.first
    else {
      Issue.record("\(reported)")
      return
    }
    #expect(ids == [IdentifierComponent(name: "id", value: .string("a"))])
  }

  @Test("a live query survives a committed row it cannot decode, reports it, and snapshots again once the row is fixed")
  func liveQuerySurvives() async throws {
    let (old, new) = try stores()
    try await new.save(WideGauge(id: "a", small: 1))
    let snapshots = old.observeQuery(Gauge.self, sort: [.ascending(Gauge.keys.id)], minimumInterval: .zero)
    let failures = old.observeFailures()
    let initial = await first(1, of: snapshots)
    #expect(initial.elements.map { $0.items.map(\.id) } == [["a"]])

    try await new.save(WideGauge(id: "b", small: -200))
    let reported = await first(1, of: failures).elements
    guard case .undecodableChange("Gauge", let ids, "save", .decodingFailed("Gauge", "small", _))? = reported.first
    else {
      Issue.record("\(reported)")
      return
    }
    #expect(ids == [IdentifierComponent(name: "id", value: .string("b"))])

    try await new.save(WideGauge(id: "b", small: -100))
    let next = await first(1, of: snapshots)
    #expect(next.thrown == nil, "\(String(describing: next.thrown))")
    #expect(next.elements.map { $0.items.map { "\($0.id) \($0.small)" } } == [["a 1", "b -100"]])
  }
}
