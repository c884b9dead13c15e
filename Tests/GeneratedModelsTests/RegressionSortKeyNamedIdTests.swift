import Foundation
import LazyModel
import RegressionCompositeKeySortKeyNamedId
import Testing

@Suite("Generated regression: composite-key-sort-key-named-id")
struct RegressionCompositeKeySortKeyNamedIdTests {
  @Test func theIdentifierHasBothComponentsPartitionKeyFirst() {
    let task = TaskType(ownerId: "o1", id: "t1", title: "Write")
    #expect(
      task.identifier.components == [
        IdentifierComponent(name: "ownerId", value: .string("o1")),
        IdentifierComponent(name: "id", value: .string("t1")),
      ])
    #expect(TaskType.schema.primaryKey == ["ownerId", "id"])
    #expect(task.modelIdentifier.description == #"Task(ownerId: "o1", id: "t1")"#)
  }

  @Test func twoTasksWithTheSameIdButOtherOwnersAreDistinct() throws {
    let store = InMemoryModelStore()
    try store.save(TaskType(ownerId: "a", id: "same", title: "A"))
    try store.save(TaskType(ownerId: "b", id: "same", title: "B"))
    #expect(
      try store.model(TaskType.self, identifier: TaskType.Identifier(ownerId: "a", id: "same"))?.title
        == "A")
    #expect(
      try store.model(TaskType.self, identifier: TaskType.Identifier(ownerId: "b", id: "same"))?.title
        == "B")
  }
}
