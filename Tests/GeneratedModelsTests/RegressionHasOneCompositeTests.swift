import Foundation
import LazyModel
import Testing

@testable import RegressionHasOneBelongsToCompositeKeys

@Suite("Generated regression: has-one-belongs-to-composite-keys")
struct RegressionHasOneBelongsToCompositeKeysTests {
  @Test func bothDirectionsLoadWithEveryKeyComponent() async throws {
    let store = InMemoryModelStore()
    let project = Project(projectId: "p1", name: "Apollo", team: Team(teamId: "t1", name: "Blue"))
    let team = Team(teamId: "t1", name: "Blue", project: Project(projectId: "p1", name: "Apollo"))
    try store.save(project)
    try store.save(team)

    let storedProject = try #require(
      try store.model(Project.self, identifier: Project.Identifier(projectId: "p1", name: "Apollo"))
    )
    #expect(!storedProject._team.isLoaded)
    #expect(
      storedProject._team.identifiers == [
        IdentifierComponent(name: "teamId", value: .string("t1")),
        IdentifierComponent(name: "name", value: .string("Blue")),
      ])
    #expect(try await storedProject.team?.name == "Blue")

    let storedTeam = try #require(
      try store.model(Team.self, identifier: Team.Identifier(teamId: "t1", name: "Blue")))
    #expect(
      storedTeam._project.identifiers == [
        IdentifierComponent(name: "projectId", value: .string("p1")),
        IdentifierComponent(name: "name", value: .string("Apollo")),
      ])
    #expect(try await storedTeam.project?.projectId == "p1")
  }

  @Test func targetNamesCoverEveryComponentOfTheRelatedKey() {
    guard case .hasOne(_, let targetNames)? = Project.schema.field(named: "team")?.association,
      case .belongsTo(let associated, let teamTargets)? = Team.schema.field(named: "project")?
        .association
    else {
      Issue.record("missing associations")
      return
    }
    #expect(targetNames.count == 2)
    #expect(teamTargets.count == 2)
    #expect(associated == ["projectId", "name"])
  }
}
