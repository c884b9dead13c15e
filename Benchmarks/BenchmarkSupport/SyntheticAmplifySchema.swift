/// A deterministic generator of large Amplify-style GraphQL schemas for benchmarks.
///
/// The same `modelCount` and `seed` always produce the same bytes. Each model has a description,
/// `@model` with `@auth` rules (owner, groups, public, private, custom), a custom `@primaryKey`
/// with a sort key on every fourth model, scalar fields of every AWS scalar, lists, enums with
/// `@default`, embedded non-model types, `@index` secondary indexes, and relations to neighbouring
/// models: `@belongsTo` / `@hasMany` pairs through an indexed foreign key, `@manyToMany` on every
/// tenth model, and on every fifth model a `@hasOne` to an extra profile model that `@belongsTo`
/// it (so there are ``modelCount`` chained models plus ``profileModelCount`` profile models). The
/// output is valid GraphQL SDL and valid Amplify (every relation has its counterpart), so it also
/// serves the generator benchmarks.
///
/// Pure value type; safe to use from any thread.
public struct SyntheticAmplifySchema: Sendable {
  /// The number of `@model` types (at least 2).
  public let modelCount: Int
  /// The seed of the pseudo-random choices.
  public let seed: UInt64

  /// Creates a generator.
  /// - Parameters:
  ///   - modelCount: how many `@model` types to emit; values below 2 are raised to 2.
  ///   - seed: selects the pseudo-random field mix; the same seed gives the same text.
  public init(modelCount: Int, seed: UInt64 = 0x5D1_2026) {
    self.modelCount = max(2, modelCount)
    self.seed = seed
  }

  /// The number of enum types emitted (one per 20 models, at least 1).
  public var enumCount: Int { max(1, modelCount / 20) }
  /// The number of profile models (one per 5 chained models, for model indexes 2, 7, 12, …).
  public var profileModelCount: Int { (modelCount + 2) / 5 }
  /// The number of `@model` types: chained models plus profile models.
  public var totalModelCount: Int { modelCount + profileModelCount }
  /// The number of embedded non-model types emitted (one per 10 models, at least 1).
  public var embeddedTypeCount: Int { max(1, modelCount / 10) }

  /// The name of model `index` (0-based), for example `Model0042`.
  public static func modelName(_ index: Int) -> String { "Model" + padded(index) }

  /// The whole schema as SDL text (UTF-8, LF line endings, final newline).
  public func generate() -> String {
    var random = SplitMix64(seed: seed)
    var out = "# Synthetic Amplify schema: \(modelCount) models, seed \(seed). Generated; do not edit.\n\n"
    out.reserveCapacity(modelCount * 2_600)
    for index in 0..<enumCount { writeEnum(index, into: &out, random: &random) }
    for index in 0..<embeddedTypeCount { writeEmbedded(index, into: &out, random: &random) }
    for index in 0..<modelCount { writeModel(index, into: &out, random: &random) }
    return out
  }

  private static func padded(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private func writeEnum(_ index: Int, into out: inout String, random: inout SplitMix64) {
    let name = "Status" + Self.padded(index)
    out += "\"Lifecycle states, variant \(index).\"\nenum \(name) {\n"
    let count = 3 + Int(random.next() % 6)
    for value in 0..<count { out += "  STATE_\(value)\n" }
    out += "  ARCHIVED\n}\n\n"
  }

  private func writeEmbedded(_ index: Int, into out: inout String, random: inout SplitMix64) {
    out += "type Address\(Self.padded(index)) {\n"
    out += "  street: String!\n  city: String!\n  postalCode: String\n  country: String! \n"
    if random.next() % 2 == 0 { out += "  location: [Float!]\n" }
    out += "}\n\n"
  }

  private func writeModel(_ index: Int, into out: inout String, random: inout SplitMix64) {
    let name = Self.modelName(index)
    let lower = "model" + Self.padded(index)
    let parent = index > 0 ? Self.modelName(index - 1) : nil
    let child = index + 1 < modelCount ? Self.modelName(index + 1) : nil
    let compositeKey = index % 4 == 0
    let enumName = "Status" + Self.padded(index % enumCount)
    let embedded = "Address" + Self.padded(index % embeddedTypeCount)

    out += "\"\"\"\n\(name) stores record \(index) of the synthetic workload.\n"
    out += "Relations: belongs to \(parent ?? "nothing"), has many \(child ?? "nothing").\n\"\"\"\n"
    out += "type \(name) @model(subscriptions: null, timestamps: {createdAt: \"createdOn\", updatedAt: \"updatedOn\"})"
    out += " @auth(rules: ["
    out += "{allow: owner, ownerField: \"owner\", operations: [create, read, update, delete]}, "
    out += "{allow: groups, groups: [\"Admin\", \"Editors\"], operations: [read, update]}, "
    switch random.next() % 3 {
    case 0: out += "{allow: public, provider: apiKey, operations: [read]}"
    case 1: out += "{allow: private, provider: iam, operations: [read]}"
    default: out += "{allow: custom}"
    }
    out += "]) {\n"
    if compositeKey {
      out += "  id: ID! @primaryKey(sortKeyFields: [\"sku\"])\n  sku: String!\n"
    } else {
      out += "  id: ID!\n"
    }
    out += "  \"Display title, shown in lists.\"\n  title: String!\n"
    out += "  body: String\n  status: \(enumName)! @default(value: \"STATE_0\")\n"
    out += "  rank: Int @index(name: \"by\(name)Rank\", queryField: \"\(lower)ByRank\")\n"
    out += "  score: Float\n  isPublished: Boolean\n  publishedAt: AWSDateTime\n  releaseDate: AWSDate\n"
    out += "  email: AWSEmail\n  website: AWSURL\n  metadata: AWSJSON\n  tags: [String!]!\n"
    out += "  address: \(embedded)\n  owner: String\n"
    if random.next() % 2 == 0 {
      out += "  phone: AWSPhone\n  lastSeen: AWSTimestamp\n  ip: AWSIPAddress\n  opensAt: AWSTime\n"
    }
    if let parent {
      let parentKey = index - 1
      let sortKey = parentKey % 4 == 0 ? "parentSku" : "title"
      out += "  parentID: ID! @index(name: \"by\(parent)\", sortKeyFields: [\"\(sortKey)\"])\n"
      if parentKey % 4 == 0 { out += "  parentSku: String!\n" }
      let fields = parentKey % 4 == 0 ? "[\"parentID\", \"parentSku\"]" : "[\"parentID\"]"
      out += "  parent: \(parent) @belongsTo(fields: \(fields))\n"
    }
    if let child {
      let childKeys = compositeKey ? "[\"id\", \"sku\"]" : "[\"id\"]"
      out += "  children: [\(child)] @hasMany(indexName: \"by\(name)\", fields: \(childKeys))\n"
    }
    if index % 10 == 0, let child {
      out += "  peers: [\(child)] @manyToMany(relationName: \"\(name)Peers\")\n"
    }
    if index % 10 == 1, let parent {
      out += "  peers: [\(parent)] @manyToMany(relationName: \"\(parent)Peers\")\n"
    }
    let hasProfile = index % 5 == 2
    if hasProfile {
      out += "  profileID: ID\n  profile: \(name)Profile @hasOne(fields: [\"profileID\"])\n"
    }
    out += "}\n\n"
    if hasProfile {
      out += "type \(name)Profile @model @auth(rules: [{allow: owner}]) {\n  id: ID!\n  bio: String\n"
      out += "  avatar: AWSURL\n  subject: \(name) @belongsTo\n}\n\n"
    }
  }
}

/// SplitMix64: a tiny, fast, deterministic pseudo-random generator (Steele, Lea and Flood, 2014).
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
