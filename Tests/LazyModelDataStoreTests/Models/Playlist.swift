import Foundation
import LazyModel

// A hasMany through an index whose sort key field is optional (`position: Int`), which no schema in
// `Schemas/` has: the list order puts tracks without a position last, and pages through them.
//
//   type Playlist @model { id: ID!  name: String!  tracks: [Track] @hasMany(indexName: "byPlaylist", fields: ["id"]) }
//   type Track @model { id: ID!  playlistID: ID! @index(name: "byPlaylist", sortKeyFields: ["position"])
//                       position: Int  title: String! }

public struct Playlist: Model {
  public let id: String
  public var name: String
  public var tracks: LazyList<Track>?

  public init(id: String, name: String) {
    self.id = id
    self.name = name
    self.tracks = LazyList([Track]())
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    name = try values.decode(String.self, forKey: .name)
    tracks = try values.decodeLazyList(
      Track.self, forKey: .tracks, associatedFields: ["playlistID"],
      parent: Identifier(id: id).components, decoder: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(tracks, forKey: .tracks)
  }
}

extension Playlist {
  public enum CodingKeys: String, ModelKey { case id, name, tracks }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Playlist, String>("id")
    public static let name = ModelFieldKey<Playlist, String>("name")
    public static let tracks = ModelFieldKey<Playlist, LazyList<Track>?>("tracks")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Playlist", pluralName: "Playlists", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.name, .required, .string),
      .hasMany(
        CodingKeys.tracks, .optional, Track.self, associatedFields: ["playlistID"],
        indexName: "byPlaylist"),
    ],
    timestamps: ModelTimestampFields(createdAt: nil, updatedAt: nil))
}

public struct Track: Model {
  public let id: String
  public var playlistID: String
  public var position: Int?
  public var title: String

  public init(id: String, playlistID: String, position: Int?, title: String) {
    self.id = id
    self.playlistID = playlistID
    self.position = position
    self.title = title
  }
}

extension Track {
  public enum CodingKeys: String, ModelKey { case id, playlistID, position, title }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Track, String>("id")
    public static let playlistID = ModelFieldKey<Track, String>("playlistID")
    public static let position = ModelFieldKey<Track, Int?>("position")
    public static let title = ModelFieldKey<Track, String>("title")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Track", pluralName: "Tracks", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.playlistID, .required, .id),
      .field(CodingKeys.position, .optional, .int),
      .field(CodingKeys.title, .required, .string),
    ],
    indexes: [.index("byPlaylist", fields: ["playlistID", "position"])],
    timestamps: ModelTimestampFields(createdAt: nil, updatedAt: nil))
}
