import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionHasOneBelongsToCompositeKeys

@Suite("hasOne/belongsTo with composite keys on both sides, over HTTP")
struct HasOneBelongsToTests {
  @Test("both directions load lazily with every key component")
  func bothDirections() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/has-one-belongs-to-composite-keys/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let bareProject = Project(projectId: "p#1", name: "Apollo \"11\"")
    let team = Team(teamId: "t\\1", name: "Flight 🚀", project: bareProject)
    let project = Project(projectId: bareProject.projectId, name: bareProject.name, team: team)
    try await client.create(project)
    #expect(
      log.last?.variables["input"] == [
        "projectId": "p#1", "name": "Apollo \"11\"", "projectTeamTeamId": "t\\1",
        "projectTeamName": "Flight 🚀",
      ])
    try await client.create(team)
    #expect(
      log.last?.variables["input"] == [
        "teamId": "t\\1", "name": "Flight 🚀", "teamProjectProjectId": "p#1",
        "teamProjectName": "Apollo \"11\"",
      ])

    log.clear()
    let fetchedProject = try #require(
      try await client.get(Project.self, byIdentifier: project.identifier))
    #expect(
      log.last?.document
        == "query GetProject($projectId: ID!, $name: String!) { getProject(projectId: $projectId, name: $name) { projectId name projectTeamTeamId projectTeamName team { teamId name __typename } createdAt updatedAt __typename } }"
    )
    #expect(
      fetchedProject._team.notLoadedIdentifiers
        == [
          IdentifierComponent(name: "teamId", value: .string("t\\1")),
          IdentifierComponent(name: "name", value: .string("Flight 🚀")),
        ])
    let loadedTeam = try #require(try await fetchedProject.team)
    #expect(loadedTeam.teamId == "t\\1")
    #expect(log.last?.operationName == "GetTeam")
    #expect(log.last?.variables == ["teamId": "t\\1", "name": "Flight 🚀"])

    let backToProject = try #require(try await loadedTeam.project)
    #expect(backToProject.projectId == "p#1")
    #expect(backToProject.name == "Apollo \"11\"")
    #expect(log.last?.operationName == "GetProject")
    #expect(log.last?.variables == ["projectId": "p#1", "name": "Apollo \"11\""])
  }
}
