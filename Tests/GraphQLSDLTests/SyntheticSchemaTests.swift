import BenchmarkSupport
import GraphQLSDL
import Testing

/// The benchmark's synthetic Amplify schema is deterministic, valid SDL, and as large as promised.
@Suite struct SyntheticSchemaTests {
  @Test func generatorIsDeterministicAndSeedDependent() {
    let schema = SyntheticAmplifySchema(modelCount: 40)
    #expect(schema.generate() == SyntheticAmplifySchema(modelCount: 40).generate())
    #expect(schema.generate() != SyntheticAmplifySchema(modelCount: 40, seed: 7).generate())
  }

  @Test func thousandModelSchemaParsesWithoutDiagnostics() {
    let generator = SyntheticAmplifySchema(modelCount: 1_000)
    let text = generator.generate()
    #expect(text.utf8.count > 1_000_000)
    let result = SDLParser.parse(text, fileName: "synthetic.graphql")
    #expect(result.diagnostics.isEmpty, "\(DiagnosticPrinter.headlines(Array(result.diagnostics.prefix(5))))")
    let models = result.document.objectTypes.filter { type in type.directives.contains { $0.name.value == "model" } }
    #expect(models.count == generator.totalModelCount)
    #expect(generator.totalModelCount == 1_200)
    #expect(models.first?.name.value == SyntheticAmplifySchema.modelName(0))
    #expect(result.document.enumTypes.count == generator.enumCount)
    let relations = Set(models.flatMap { $0.fields.flatMap { $0.directives.map(\.name.value) } })
    #expect(
      relations.isSuperset(of: ["primaryKey", "index", "belongsTo", "hasMany", "hasOne", "manyToMany", "default"]))
  }
}
