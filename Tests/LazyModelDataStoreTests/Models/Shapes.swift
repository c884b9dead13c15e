// Hand-written in exactly the shape modelgen generates (see GENERATED-SHAPE.md), one pair per
// relationship shape of /work/shared/schemas/regressions (names adapted where they would clash in
// one test module: Task -> TodoTask; Reading also has a Bool sort key component and a child).
import Foundation
import LazyModel

public enum Priority: String, Codable, Sendable, CaseIterable, KeyValueConvertible {
  case low = "LOW"
  case high = "HIGH"
}

public enum Visibility: String, Codable, Sendable, CaseIterable, KeyValueConvertible {
  case `public` = "public"
  case `private` = "private"
  case `default` = "default"
}

public struct Label: Embeddable {
  public var text: String?
  public init(text: String?) { self.text = text }
  public enum CodingKeys: String, CodingKey { case text }
  public static let schema = EmbeddedSchema(name: "Label", fields: [.field(CodingKeys.text, .optional, .string)])
}

public struct Reading: Model {
  public let id: String
  public let takenAt: Temporal.DateTime
  public let day: Temporal.Date
  public let time: Temporal.Time
  public let seq: Int
  public let priority: Priority
  public let value: Double
  public let flagged: Bool
  public var note: String?
  public var notes: LazyList<ReadingNote>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String, takenAt: Temporal.DateTime, day: Temporal.Date, time: Temporal.Time, seq: Int, priority: Priority, value: Double, flagged: Bool, note: String? = nil, notes: [ReadingNote] = []) {
    self.id = id
    self.takenAt = takenAt
    self.day = day
    self.time = time
    self.seq = seq
    self.priority = priority
    self.value = value
    self.flagged = flagged
    self.note = note
    self.notes = LazyList(notes)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    takenAt = try values.decode(Temporal.DateTime.self, forKey: .takenAt)
    day = try values.decode(Temporal.Date.self, forKey: .day)
    time = try values.decode(Temporal.Time.self, forKey: .time)
    seq = try values.decode(Int.self, forKey: .seq)
    priority = try values.decode(Priority.self, forKey: .priority)
    value = try values.decode(Double.self, forKey: .value)
    flagged = try values.decode(Bool.self, forKey: .flagged)
    note = try values.decodeIfPresent(String.self, forKey: .note)
    notes = try values.decodeLazyList(
      ReadingNote.self, forKey: .notes, associatedFields: ["readingNotesId", "readingNotesTakenAt", "readingNotesDay", "readingNotesTime", "readingNotesSeq", "readingNotesPriority", "readingNotesValue", "readingNotesFlagged"], parent: Identifier(id: id, takenAt: takenAt, day: day, time: time, seq: seq, priority: priority, value: value, flagged: flagged).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(takenAt, forKey: .takenAt)
    try container.encode(day, forKey: .day)
    try container.encode(time, forKey: .time)
    try container.encode(seq, forKey: .seq)
    try container.encode(priority, forKey: .priority)
    try container.encode(value, forKey: .value)
    try container.encode(flagged, forKey: .flagged)
    try container.encodeIfPresent(note, forKey: .note)
    try container.encodeIfPresent(notes, forKey: .notes)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Reading {
  public enum CodingKeys: String, ModelKey { case id, takenAt, day, time, seq, priority, value, flagged, note, notes, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public let takenAt: Temporal.DateTime
    public let day: Temporal.Date
    public let time: Temporal.Time
    public let seq: Int
    public let priority: Priority
    public let value: Double
    public let flagged: Bool
    public init(id: String, takenAt: Temporal.DateTime, day: Temporal.Date, time: Temporal.Time, seq: Int, priority: Priority, value: Double, flagged: Bool) {
      self.id = id
      self.takenAt = takenAt
      self.day = day
      self.time = time
      self.seq = seq
      self.priority = priority
      self.value = value
      self.flagged = flagged
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue), IdentifierComponent(name: "takenAt", value: takenAt.keyValue), IdentifierComponent(name: "day", value: day.keyValue), IdentifierComponent(name: "time", value: time.keyValue), IdentifierComponent(name: "seq", value: seq.keyValue), IdentifierComponent(name: "priority", value: priority.keyValue), IdentifierComponent(name: "value", value: value.keyValue), IdentifierComponent(name: "flagged", value: flagged.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id, takenAt: takenAt, day: day, time: time, seq: seq, priority: priority, value: value, flagged: flagged) }
  public static let schema = ModelSchema(
    name: "Reading", pluralName: "Readings", primaryKey: [keys.id, keys.takenAt, keys.day, keys.time, keys.seq, keys.priority, keys.value, keys.flagged],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.takenAt, .required, .scalar(.awsDateTime)),
      .field(keys.day, .required, .scalar(.awsDate)),
      .field(keys.time, .required, .scalar(.awsTime)),
      .field(keys.seq, .required, .int),
      .field(keys.priority, .required, .enumeration("Priority")),
      .field(keys.value, .required, .double),
      .field(keys.flagged, .required, .bool),
      .field(keys.note, .optional, .string),
      .hasMany(keys.notes, .optional, ReadingNote.self, associatedFields: ["reading"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct ReadingNote: Model {
  public let id: String
  public var text: String
  internal var _reading: LazyReference<Reading>
  public var reading: Reading? { get async throws { try await _reading.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, text: String, reading: Reading? = nil) {
    self.id = id
    self.text = text
    _reading = LazyReference(reading)
  }
  public mutating func setReading(_ reading: Reading?) { _reading = LazyReference(reading) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    text = try values.decode(String.self, forKey: .text)
    _reading = try values.decodeLazyReference(Reading.self, forKey: .reading, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(text, forKey: .text)
    try container.encode(_reading, forKey: .reading)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension ReadingNote {
  public enum CodingKeys: String, ModelKey { case id, text, reading, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "ReadingNote", pluralName: "ReadingNotes", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.text, .required, .string),
      .belongsTo(keys.reading, .optional, Reading.self, targetNames: ["readingNotesId", "readingNotesTakenAt", "readingNotesDay", "readingNotesTime", "readingNotesSeq", "readingNotesPriority", "readingNotesValue", "readingNotesFlagged"], associatedFields: ["id", "takenAt", "day", "time", "seq", "priority", "value", "flagged"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct TodoTask: Model {
  public let ownerId: String
  public let id: String
  public var title: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(ownerId: String, id: String, title: String) {
    self.ownerId = ownerId
    self.id = id
    self.title = title
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    ownerId = try values.decode(String.self, forKey: .ownerId)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ownerId, forKey: .ownerId)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension TodoTask {
  public enum CodingKeys: String, ModelKey { case ownerId, id, title, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let ownerId: String
    public let id: String
    public init(ownerId: String, id: String) {
      self.ownerId = ownerId
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "ownerId", value: ownerId.keyValue), IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(ownerId: ownerId, id: id) }
  public static let schema = ModelSchema(
    name: "TodoTask", pluralName: "TodoTasks", primaryKey: [keys.ownerId, keys.id],
    fields: [
      .field(keys.ownerId, .required, .string),
      .field(keys.id, .required, .id),
      .field(keys.title, .required, .string),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Project: Model {
  public let projectId: String
  public let name: String
  internal var _team: LazyReference<Team>
  public var team: Team? { get async throws { try await _team.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(projectId: String, name: String, team: Team? = nil) {
    self.projectId = projectId
    self.name = name
    _team = LazyReference(team)
  }
  public mutating func setTeam(_ team: Team?) { _team = LazyReference(team) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    projectId = try values.decode(String.self, forKey: .projectId)
    name = try values.decode(String.self, forKey: .name)
    _team = try values.decodeLazyReference(Team.self, forKey: .team, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(projectId, forKey: .projectId)
    try container.encode(name, forKey: .name)
    try container.encode(_team, forKey: .team)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Project {
  public enum CodingKeys: String, ModelKey { case projectId, name, team, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let projectId: String
    public let name: String
    public init(projectId: String, name: String) {
      self.projectId = projectId
      self.name = name
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "projectId", value: projectId.keyValue), IdentifierComponent(name: "name", value: name.keyValue)] }
  }
  public var identifier: Identifier { Identifier(projectId: projectId, name: name) }
  public static let schema = ModelSchema(
    name: "Project", pluralName: "Projects", primaryKey: [keys.projectId, keys.name],
    fields: [
      .field(keys.projectId, .required, .id),
      .field(keys.name, .required, .string),
      .hasOne(keys.team, .optional, Team.self, associatedFields: ["teamId", "name"], targetNames: ["projectTeamTeamId", "projectTeamName"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Team: Model {
  public let teamId: String
  public let name: String
  internal var _project: LazyReference<Project>
  public var project: Project? { get async throws { try await _project.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(teamId: String, name: String, project: Project? = nil) {
    self.teamId = teamId
    self.name = name
    _project = LazyReference(project)
  }
  public mutating func setProject(_ project: Project?) { _project = LazyReference(project) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    teamId = try values.decode(String.self, forKey: .teamId)
    name = try values.decode(String.self, forKey: .name)
    _project = try values.decodeLazyReference(Project.self, forKey: .project, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(teamId, forKey: .teamId)
    try container.encode(name, forKey: .name)
    try container.encode(_project, forKey: .project)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Team {
  public enum CodingKeys: String, ModelKey { case teamId, name, project, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let teamId: String
    public let name: String
    public init(teamId: String, name: String) {
      self.teamId = teamId
      self.name = name
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "teamId", value: teamId.keyValue), IdentifierComponent(name: "name", value: name.keyValue)] }
  }
  public var identifier: Identifier { Identifier(teamId: teamId, name: name) }
  public static let schema = ModelSchema(
    name: "Team", pluralName: "Teams", primaryKey: [keys.teamId, keys.name],
    fields: [
      .field(keys.teamId, .required, .id),
      .field(keys.name, .required, .string),
      .belongsTo(keys.project, .optional, Project.self, targetNames: ["teamProjectProjectId", "teamProjectName"], associatedFields: ["projectId", "name"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Customer: Model {
  public let id: String
  public var name: String?
  internal var _activeCart: LazyReference<Cart>
  public var activeCart: Cart? { get async throws { try await _activeCart.get() } }
  public var orders: LazyList<Order>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, name: String? = nil, activeCart: Cart? = nil, orders: [Order] = []) {
    self.id = id
    self.name = name
    _activeCart = LazyReference(activeCart)
    self.orders = LazyList(orders)
  }
  public mutating func setActiveCart(_ activeCart: Cart?) { _activeCart = LazyReference(activeCart) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    name = try values.decodeIfPresent(String.self, forKey: .name)
    _activeCart = try values.decodeLazyReference(
      Cart.self, forKey: .activeCart, associatedFields: ["customerId"], parent: Identifier(id: id).components, decoder: decoder)
    orders = try values.decodeLazyList(
      Order.self, forKey: .orders, associatedFields: ["customerId"], parent: Identifier(id: id).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(name, forKey: .name)
    try container.encode(_activeCart, forKey: .activeCart)
    try container.encodeIfPresent(orders, forKey: .orders)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Customer {
  public enum CodingKeys: String, ModelKey { case id, name, activeCart, orders, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Customer", pluralName: "Customers", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.name, .optional, .string),
      .hasOne(keys.activeCart, .optional, Cart.self, associatedFields: ["customerId"], targetNames: []),
      .hasMany(keys.orders, .optional, Order.self, associatedFields: ["customer"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Cart: Model {
  public let id: String
  public var items: [String?]
  internal var _customer: LazyReference<Customer>
  public var customer: Customer? { get async throws { try await _customer.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, items: [String?], customer: Customer? = nil) {
    self.id = id
    self.items = items
    _customer = LazyReference(customer)
  }
  public mutating func setCustomer(_ customer: Customer?) { _customer = LazyReference(customer) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    items = try values.decode([String?].self, forKey: .items)
    _customer = try values.decodeLazyReference(Customer.self, forKey: .customer, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(items, forKey: .items)
    try container.encode(_customer, forKey: .customer)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Cart {
  public enum CodingKeys: String, ModelKey { case id, items, customer, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Cart", pluralName: "Carts", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.items, .required, .list(.string, elementRequired: false)),
      .belongsTo(keys.customer, .optional, Customer.self, targetNames: ["customerId"], associatedFields: ["id"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Order: Model {
  public let id: String
  public var total: Double?
  internal var _customer: LazyReference<Customer>
  public var customer: Customer? { get async throws { try await _customer.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, total: Double? = nil, customer: Customer? = nil) {
    self.id = id
    self.total = total
    _customer = LazyReference(customer)
  }
  public mutating func setCustomer(_ customer: Customer?) { _customer = LazyReference(customer) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    total = try values.decodeIfPresent(Double.self, forKey: .total)
    _customer = try values.decodeLazyReference(Customer.self, forKey: .customer, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(total, forKey: .total)
    try container.encode(_customer, forKey: .customer)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Order {
  public enum CodingKeys: String, ModelKey { case id, total, customer, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Order", pluralName: "Orders", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.total, .optional, .double),
      .belongsTo(keys.customer, .optional, Customer.self, targetNames: ["customerId"], associatedFields: ["id"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Blog: Model {
  public let id: String
  public var name: String
  public var posts: LazyList<BlogPost>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, name: String, posts: [BlogPost] = []) {
    self.id = id
    self.name = name
    self.posts = LazyList(posts)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    name = try values.decode(String.self, forKey: .name)
    posts = try values.decodeLazyList(
      BlogPost.self, forKey: .posts, associatedFields: ["blogPostsId"], parent: Identifier(id: id).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(posts, forKey: .posts)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Blog {
  public enum CodingKeys: String, ModelKey { case id, name, posts, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Blog", pluralName: "Blogs", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.name, .required, .string),
      .hasMany(keys.posts, .optional, BlogPost.self, associatedFields: ["blogPostsId"], indexName: "gsi-Blog.posts"),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct BlogPost: Model {
  public let id: String
  public var title: String
  public var blogPostsId: String?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, blogPostsId: String? = nil) {
    self.id = id
    self.title = title
    self.blogPostsId = blogPostsId
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    blogPostsId = try values.decodeIfPresent(String.self, forKey: .blogPostsId)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(blogPostsId, forKey: .blogPostsId)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension BlogPost {
  public enum CodingKeys: String, ModelKey { case id, title, blogPostsId, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "BlogPost", pluralName: "BlogPosts", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.title, .required, .string),
      .field(keys.blogPostsId, .optional, .id),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("gsi-Blog.posts", fields: ["blogPostsId"])],
    authRules: [AuthRule(allow: .public)])
}

public struct Post: Model {
  public let id: String
  public var title: String
  public var comments: LazyList<Comment>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, comments: [Comment] = []) {
    self.id = id
    self.title = title
    self.comments = LazyList(comments)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    comments = try values.decodeLazyList(
      Comment.self, forKey: .comments, associatedFields: ["postID"], parent: Identifier(id: id).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(comments, forKey: .comments)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Post {
  public enum CodingKeys: String, ModelKey { case id, title, comments, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Post", pluralName: "Posts", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.title, .required, .string),
      .hasMany(keys.comments, .optional, Comment.self, associatedFields: ["postID"], indexName: "byPost"),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Comment: Model {
  public let id: String
  public var postID: String
  public var content: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, postID: String, content: String) {
    self.id = id
    self.postID = postID
    self.content = content
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    postID = try values.decode(String.self, forKey: .postID)
    content = try values.decode(String.self, forKey: .content)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(postID, forKey: .postID)
    try container.encode(content, forKey: .content)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Comment {
  public enum CodingKeys: String, ModelKey { case id, postID, content, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Comment", pluralName: "Comments", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.postID, .required, .id),
      .field(keys.content, .required, .string),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("byPost", fields: ["postID", "content"])],
    authRules: [AuthRule(allow: .public)])
}

public struct Employee: Model {
  public let id: String
  public var name: String
  internal var _manager: LazyReference<Employee>
  public var manager: Employee? { get async throws { try await _manager.get() } }
  public var reports: LazyList<Employee>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, name: String, manager: Employee? = nil, reports: [Employee] = []) {
    self.id = id
    self.name = name
    _manager = LazyReference(manager)
    self.reports = LazyList(reports)
  }
  public mutating func setManager(_ manager: Employee?) { _manager = LazyReference(manager) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    name = try values.decode(String.self, forKey: .name)
    _manager = try values.decodeLazyReference(Employee.self, forKey: .manager, decoder: decoder)
    reports = try values.decodeLazyList(
      Employee.self, forKey: .reports, associatedFields: ["managerID"], parent: Identifier(id: id).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(_manager, forKey: .manager)
    try container.encodeIfPresent(reports, forKey: .reports)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Employee {
  public enum CodingKeys: String, ModelKey { case id, name, manager, reports, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Employee", pluralName: "Employees", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.name, .required, .string),
      .belongsTo(keys.manager, .optional, Employee.self, targetNames: ["managerID"], associatedFields: ["id"]),
      .hasMany(keys.reports, .optional, Employee.self, associatedFields: ["manager"], indexName: "byManager"),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("byManager", fields: ["managerID"])],
    authRules: [AuthRule(allow: .public)])
}

public struct Board: Model {
  public let id: String
  public var cards: LazyList<Card>?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, cards: [Card] = []) {
    self.id = id
    self.cards = LazyList(cards)
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    cards = try values.decodeLazyList(
      Card.self, forKey: .cards, associatedFields: ["boardCardsId"], parent: Identifier(id: id).components, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(cards, forKey: .cards)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Board {
  public enum CodingKeys: String, ModelKey { case id, cards, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Board", pluralName: "Boards", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .hasMany(keys.cards, .optional, Card.self, associatedFields: ["board"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct Card: Model {
  public let id: String
  public var labelsA: [Label?]
  public var labelsB: [Label]?
  public var labelsC: [Label]
  public var labelsD: [Label?]?
  public var scores: [Int?]
  public var visibility: Visibility?
  internal var _board: LazyReference<Board>
  public var board: Board? { get async throws { try await _board.get() } }
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, labelsA: [Label?], labelsB: [Label]? = nil, labelsC: [Label], labelsD: [Label?]? = nil, scores: [Int?], visibility: Visibility? = nil, board: Board? = nil) {
    self.id = id
    self.labelsA = labelsA
    self.labelsB = labelsB
    self.labelsC = labelsC
    self.labelsD = labelsD
    self.scores = scores
    self.visibility = visibility
    _board = LazyReference(board)
  }
  public mutating func setBoard(_ board: Board?) { _board = LazyReference(board) }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    labelsA = try values.decode([Label?].self, forKey: .labelsA)
    labelsB = try values.decodeIfPresent([Label].self, forKey: .labelsB)
    labelsC = try values.decode([Label].self, forKey: .labelsC)
    labelsD = try values.decodeIfPresent([Label?].self, forKey: .labelsD)
    scores = try values.decode([Int?].self, forKey: .scores)
    visibility = try values.decodeIfPresent(Visibility.self, forKey: .visibility)
    _board = try values.decodeLazyReference(Board.self, forKey: .board, decoder: decoder)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(labelsA, forKey: .labelsA)
    try container.encodeIfPresent(labelsB, forKey: .labelsB)
    try container.encode(labelsC, forKey: .labelsC)
    try container.encodeIfPresent(labelsD, forKey: .labelsD)
    try container.encode(scores, forKey: .scores)
    try container.encodeIfPresent(visibility, forKey: .visibility)
    try container.encode(_board, forKey: .board)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension Card {
  public enum CodingKeys: String, ModelKey { case id, labelsA, labelsB, labelsC, labelsD, scores, visibility, board, createdAt, updatedAt }
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Card", pluralName: "Cards", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.labelsA, .required, .list(.embedded(Label.self), elementRequired: false)),
      .field(keys.labelsB, .optional, .list(.embedded(Label.self), elementRequired: true)),
      .field(keys.labelsC, .required, .list(.embedded(Label.self), elementRequired: true)),
      .field(keys.labelsD, .optional, .list(.embedded(Label.self), elementRequired: false)),
      .field(keys.scores, .required, .list(.int, elementRequired: false)),
      .field(keys.visibility, .optional, .enumeration("Visibility")),
      .belongsTo(keys.board, .optional, Board.self, targetNames: ["boardCardsId"], associatedFields: ["id"]),
      .field(keys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(keys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}
