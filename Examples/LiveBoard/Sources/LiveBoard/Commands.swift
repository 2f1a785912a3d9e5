import Foundation
import SectionKitStreaming

/// A card named by its identity (`"k12"`) or by the index path a client saw it at (`[1, 3]`;
/// element 0 of each section is the column's header).
public enum CardReference: Decodable, Hashable, Sendable {
  /// By identity.
  case id(String)
  /// By `[section, element]`, as seen at the batch's `seenAt`.
  case path([Int])

  /// Decodes a string or an array of two integers.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let id = try? container.decode(String.self) {
      self = .id(id)
    } else if let path = try? container.decode([Int].self), path.count == 2,
      path.allSatisfy({ $0 >= 0 })
    {
      self = .path(path)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a card id or a path [section, element]")
    }
  }
}

/// A column named by its identity (`"col-2"`) or by the section index a client saw it at.
public enum ColumnReference: Decodable, Hashable, Sendable {
  /// By identity.
  case id(String)
  /// By section index, as seen at the batch's `seenAt`.
  case index(Int)

  /// Decodes a string or a non-negative integer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let id = try? container.decode(String.self) {
      self = .id(id)
    } else if let index = try? container.decode(Int.self), index >= 0 {
      self = .index(index)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a column id or a section index")
    }
  }
}

/// One command of a batch (`POST /commands`).
///
/// ```json
/// {"kind": "add", "column": "col-1", "index": 0, "title": "Buy milk"}
/// {"kind": "rename", "card": [0, 2], "title": "Buy oat milk"}
/// {"kind": "move", "card": "k7", "column": 2, "index": 0}
/// {"kind": "delete", "card": [1, 1]}
/// {"kind": "renameColumn", "column": 0, "title": "Backlog"}
/// {"kind": "moveColumn", "column": "col-3", "index": 0}
/// {"kind": "segment", "segment": "later"}
/// ```
///
/// `index` counts cards only (0 is the top card) in the column as the command finds it.
public struct Command: Decodable, Hashable, Sendable {
  /// What the command does.
  public enum Kind: String, Decodable, Hashable, Sendable {
    /// Adds a card to `column` at `index` (the end by default).
    case add
    /// Renames `card`.
    case rename
    /// Moves `card` to `column` (its own by default) at `index` (the end by default).
    case move
    /// Deletes `card`.
    case delete
    /// Renames `column`.
    case renameColumn
    /// Moves `column` to `index` among the columns shown.
    case moveColumn
    /// Shows the segment `segment`.
    case segment
  }

  /// What the command does.
  public var kind: Kind
  /// The card it acts on.
  public var card: CardReference?
  /// The column it acts on, or the destination.
  public var column: ColumnReference?
  /// A position among cards, or among columns for `moveColumn`.
  public var index: Int?
  /// A new title.
  public var title: String?
  /// A segment's identity.
  public var segment: String?

  /// Creates a command; each kind reads the fields its documentation names.
  public init(
    kind: Kind, card: CardReference? = nil, column: ColumnReference? = nil, index: Int? = nil,
    title: String? = nil, segment: String? = nil
  ) {
    self.kind = kind
    self.card = card
    self.column = column
    self.index = index
    self.title = title
    self.segment = segment
  }

  /// The identities a command's references name, resolved before the batch.
  struct Targets {
    var card: String?
    var column: String?
  }

  /// The longest title accepted, in characters.
  public static let maximumTitleLength = 200

  func apply(to data: inout BoardData, targets: Targets, field: String) throws(CommandError) {
    func require<T>(_ value: T?, _ name: String) throws(CommandError) -> T {
      guard let value else {
        throw CommandError(
          status: 400, field: "\(field).\(name)", message: "required by \"\(kind.rawValue)\"")
      }
      return value
    }
    func checkedTitle() throws(CommandError) -> String {
      let text = try require(title, "title").trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty, text.count <= Command.maximumTitleLength else {
        throw CommandError(
          status: 422, field: "\(field).title",
          message: "a title has 1 to \(Command.maximumTitleLength) characters")
      }
      return text
    }
    func columnIndex() throws(CommandError) -> Int {
      let id = try require(targets.column, "column")
      guard let index = data.columns.firstIndex(where: { $0.id == id }) else {
        throw CommandError(
          status: 422, field: "\(field).column", message: "no column \(id) is shown")
      }
      return index
    }
    func cardLocation() throws(CommandError) -> (column: Int, index: Int) {
      let id = try require(targets.card, "card")
      guard let location = data.locate(card: id) else {
        throw CommandError(status: 422, field: "\(field).card", message: "no card \(id) is shown")
      }
      return location
    }
    func checkedIndex(_ index: Int?, upTo limit: Int) throws(CommandError) -> Int {
      guard let index else { return limit }
      guard (0...limit).contains(index) else {
        throw CommandError(
          status: 422, field: "\(field).index", message: "\(index) is out of range 0...\(limit)")
      }
      return index
    }

    switch kind {
    case .add:
      let column = try columnIndex()
      let title = try checkedTitle()
      let index = try checkedIndex(index, upTo: data.columns[column].cards.count)
      let id = data.makeID(prefix: "k")
      data.columns[column].cards.insert(BoardData.Card(id: id, title: title), at: index)
    case .rename:
      let (column, index) = try cardLocation()
      data.columns[column].cards[index].title = try checkedTitle()
    case .move:
      let (column, index) = try cardLocation()
      let destination = targets.column == nil ? column : try columnIndex()
      let card = data.columns[column].cards.remove(at: index)
      let at = try checkedIndex(self.index, upTo: data.columns[destination].cards.count)
      data.columns[destination].cards.insert(card, at: at)
    case .delete:
      let (column, index) = try cardLocation()
      data.columns[column].cards.remove(at: index)
    case .renameColumn:
      let column = try columnIndex()
      data.columns[column].title = try checkedTitle()
    case .moveColumn:
      let column = try columnIndex()
      let index = try require(index, "index")
      guard data.columns.indices.contains(index) else {
        throw CommandError(
          status: 422, field: "\(field).index",
          message: "\(index) is out of range 0..<\(data.columns.count)")
      }
      data.columns.insert(data.columns.remove(at: column), at: index)
    case .segment:
      let id = try require(segment, "segment")
      guard let index = data.segments.firstIndex(where: { $0.id == id }) else {
        throw CommandError(
          status: 422, field: "\(field).segment",
          message: "no segment \(id); there are \(data.segments.map(\.id))")
      }
      data.selected = index
    }
  }
}

/// The body of `POST /commands`: commands applied in order as one batch.
///
/// ```json
/// {"seenAt": "5A0E…#41", "commands": [{"kind": "delete", "card": [0, 2]}]}
/// ```
///
/// Paths and section indexes are those of the client's mirror at `seenAt` (its last event id);
/// they are followed to where their elements are now, or refused (409) when an element is gone or
/// the position too old. Without `seenAt` they are taken as the board is now.
public struct CommandBatch: Decodable, Hashable, Sendable {
  /// The position the client's paths were seen at: `stream#sequence`.
  public var seenAt: String?
  /// The commands, at most ``maximumCommands``.
  public var commands: [Command]

  /// The most commands one batch holds.
  public static let maximumCommands = 100

  /// Creates a batch.
  public init(seenAt: String? = nil, commands: [Command]) {
    self.seenAt = seenAt
    self.commands = commands
  }

  /// Decodes `data`, or throws a ``CommandError`` naming the field at fault.
  public static func decode(_ data: Data) throws(CommandError) -> CommandBatch {
    let batch: CommandBatch
    do {
      batch = try JSONDecoder().decode(CommandBatch.self, from: data)
    } catch let error as DecodingError {
      throw CommandError(decoding: error)
    } catch {
      throw CommandError(status: 400, field: "body", message: "not JSON: \(error)")
    }
    guard batch.commands.count <= maximumCommands else {
      throw CommandError(
        status: 422, field: "commands",
        message: "\(batch.commands.count) commands, at most \(maximumCommands) in one batch")
    }
    return batch
  }
}

/// A refused command batch: nothing changed. Sent to the client as
/// `{"error": message, "field": field}` with status `status`.
public struct CommandError: Error, Hashable, Sendable, Encodable {
  /// The HTTP status: 400 malformed, 409 stale position, 413 too large, 422 not applicable.
  public var status: Int
  /// The field at fault: `commands[2].card`, `seenAt`, `body`.
  public var field: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(status: Int, field: String, message: String) {
    self.status = status
    self.field = field
    self.message = message
  }

  init(decoding error: DecodingError) {
    func path(_ codingPath: [any CodingKey]) -> String {
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      return text.isEmpty ? "body" : text
    }
    switch error {
    case .keyNotFound(let key, let context):
      self.init(status: 400, field: path(context.codingPath + [key]), message: "missing")
    case .typeMismatch(let type, let context):
      self.init(status: 400, field: path(context.codingPath), message: "expected \(type)")
    case .valueNotFound(let type, let context):
      self.init(status: 400, field: path(context.codingPath), message: "expected \(type)")
    case .dataCorrupted(let context):
      self.init(
        status: 400, field: path(context.codingPath),
        message: context.codingPath.isEmpty ? "not JSON" : context.debugDescription)
    @unknown default:
      self.init(status: 400, field: "body", message: "\(error)")
    }
  }
}
