import Foundation
import SectionKit
import SectionKitStreaming

/// One element of the board's stream: a column's header (the first element of each section) or
/// a card.
public struct BoardItem: Identifiable, Hashable, Codable, Sendable {
  /// Whether the element heads a column or is a card.
  public enum Kind: String, Codable, Sendable {
    /// The first element of each section: the column's title.
    case column
    /// A card.
    case card
  }

  /// The identity: `col-…` for a column, `k…` for a card; unique on the board.
  public var id: String
  /// Header or card.
  public var kind: Kind
  /// What is shown.
  public var title: String

  /// Creates an element.
  public init(id: String, kind: Kind, title: String) {
    self.id = id
    self.kind = kind
    self.title = title
  }
}

/// The board as data: segments of columns of cards. Only the selected segment is shown.
public struct BoardData: Hashable, Sendable {
  /// A card.
  public struct Card: Hashable, Sendable {
    /// The card's identity.
    public var id: String
    /// Its title.
    public var title: String
  }
  /// A column: a section of the stream, headed by its title.
  public struct Column: Hashable, Sendable {
    /// The column's identity.
    public var id: String
    /// Its title.
    public var title: String
    /// Its cards, top to bottom.
    public var cards: [Card]
  }
  /// A segment: a set of columns, shown when selected.
  public struct Segment: Hashable, Sendable {
    /// The segment's identity.
    public var id: String
    /// Its columns, left to right.
    public var columns: [Column]
  }

  /// Every segment.
  public var segments: [Segment]
  /// The index of the segment shown.
  public var selected: Int
  /// The number behind the next identity handed out.
  public var nextID: Int

  /// The columns shown.
  public var columns: [Column] {
    get { segments[selected].columns }
    set { segments[selected].columns = newValue }
  }

  /// What the stream presents: one section per column shown, its header then its cards.
  public var sections: [[BoardItem]] {
    columns.map { column in
      [BoardItem(id: column.id, kind: .column, title: column.title)]
        + column.cards.map { BoardItem(id: $0.id, kind: .card, title: $0.title) }
    }
  }

  /// A board with segments `week` (To do, Doing, Done) and `later` (Ideas, Someday), and
  /// `cards` cards spread over the columns of `week`.
  public static func sample(cards: Int = 6) -> BoardData {
    var data = BoardData(
      segments: [
        Segment(
          id: "week",
          columns: [
            Column(id: "col-1", title: "To do", cards: []),
            Column(id: "col-2", title: "Doing", cards: []),
            Column(id: "col-3", title: "Done", cards: []),
          ]),
        Segment(
          id: "later",
          columns: [
            Column(id: "col-4", title: "Ideas", cards: [Card(id: "k1", title: "A dark theme")]),
            Column(id: "col-5", title: "Someday", cards: []),
          ]),
      ], selected: 0, nextID: 2)
    for index in 0..<max(0, cards) {
      let id = data.makeID(prefix: "k")
      data.segments[0].columns[index % 3].cards.append(Card(id: id, title: "Card \(index + 1)"))
    }
    return data
  }

  /// A new identity.
  public mutating func makeID(prefix: String) -> String {
    defer { nextID += 1 }
    return "\(prefix)\(nextID)"
  }

  /// The column and index of the card `id` in the selected segment.
  func locate(card id: String) -> (column: Int, index: Int)? {
    for (column, entry) in columns.enumerated() {
      if let index = entry.cards.firstIndex(where: { $0.id == id }) { return (column, index) }
    }
    return nil
  }
}

/// The board's model, owned by this actor: the data, the `SectionTree` rendering it, the
/// coordinator and the publisher never leave it; only ``stream`` does.
public actor Board {
  private var data: BoardData
  private let tree: SectionTree<BoardItem>
  private let coordinator: Coordinator
  /// The stream every client follows.
  public nonisolated let stream: UpdateStream<BoardItem>

  /// A board showing `data`, its stream bounded by `policy`.
  public init(data: BoardData = .sample(), policy: StreamPolicy = StreamPolicy()) {
    let tree = SectionTree<BoardItem>()
    // Each column is labelled with its identity and title, so that a client names an inserted
    // column before it reads its elements.
    let publisher = UpdatePublisher<BoardItem>(
      policy: policy,
      label: { section, _ in
        tree.id(of: section).map { id in
          StreamSectionLabel(
            id: "\(id.base)", header: (section as? ArraySection<BoardItem>)?.first?.title)
        }
      },
      value: { section, index in (section as! ArraySection<BoardItem>)[index] })
    let coordinator = Coordinator(sectionProvider: tree.provider)
    coordinator.adapter = publisher
    do {
      try Board.render(data, into: tree)
    } catch {
      preconditionFailure("Board.init(data:policy:): the board has duplicate identities: \(error)")
    }
    self.data = data
    self.tree = tree
    self.coordinator = coordinator
    self.stream = publisher.stream
  }

  /// The whole tree from the data: one render, so one changeset.
  private static func render(_ data: BoardData, into tree: SectionTree<BoardItem>) throws {
    try tree.render {
      SectionNode(segmented: "segments", selected: data.segments[data.selected].id) {
        for segment in data.segments {
          SectionNode(group: segment.id) {
            for column in segment.columns {
              SectionNode(
                id: column.id,
                elements: [BoardItem(id: column.id, kind: .column, title: column.title)]
                  + column.cards.map { BoardItem(id: $0.id, kind: .card, title: $0.title) })
            }
          }
        }
      }
    }
  }

  /// The data now.
  public var current: BoardData { data }

  /// Performs `batch` as one changeset: its positions are resolved, every command is checked and
  /// applied to a copy of the data, and only when all succeed is the copy rendered. Returns the
  /// stream's sequence number after the batch.
  ///
  /// - Throws: ``CommandError`` naming the field at fault; the board is then unchanged.
  // snippet:perform
  @discardableResult
  public func perform(_ batch: CommandBatch) throws(CommandError) -> Int {
    var next = data
    let targets = try resolve(batch)
    for (index, command) in batch.commands.enumerated() {
      try command.apply(to: &next, targets: targets[index], field: "commands[\(index)]")
    }
    if next != data {
      do {
        try Board.render(next, into: tree)
      } catch {
        throw CommandError(status: 500, field: "commands", message: "the board refused: \(error)")
      }
      data = next
    }
    return stream.position.sequence
  }
  // snippet:end

  /// The identities the commands' references name now: paths seen at `batch.seenAt` are followed
  /// through the changesets since (`UpdateStream.resolve`).
  private func resolve(_ batch: CommandBatch) throws(CommandError) -> [Command.Targets] {
    var position: StreamPosition?
    if let seenAt = batch.seenAt {
      guard let parsed = EventPosition.parse(seenAt) else {
        throw CommandError(
          status: 400, field: "seenAt", message: "expected \"stream#sequence\", as an event's id")
      }
      position = parsed
    }
    let sections = data.sections
    func card(_ reference: CardReference?, _ field: String) throws(CommandError) -> String? {
      switch reference {
      case nil: return nil
      case .id(let id): return id
      case .path(let path):
        let now = try current(path, field: field)
        guard now[1] > 0 else {
          throw CommandError(
            status: 422, field: field, message: "[\(path[0]), 0] is a column's header, not a card")
        }
        return sections[now[0]][now[1]].id
      }
    }
    func column(_ reference: ColumnReference?, _ field: String) throws(CommandError) -> String? {
      switch reference {
      case nil: return nil
      case .id(let id): return id
      case .index(let section):
        let now = try current([section, 0], field: field)
        return sections[now[0]][0].id
      }
    }
    func current(_ path: [Int], field: String) throws(CommandError) -> IndexPath {
      let indexPath = IndexPath(indexes: path)
      guard let position else {
        guard path.count == 2, sections.indices.contains(path[0]),
          sections[path[0]].indices.contains(path[1])
        else {
          throw CommandError(
            status: 422, field: field, message: "\(path) is not on the board now")
        }
        return indexPath
      }
      do {
        return try stream.resolve(indexPath, at: position)
      } catch {
        throw CommandError(status: 409, field: field, message: error.description)
      }
    }
    var result: [Command.Targets] = []
    for (index, command) in batch.commands.enumerated() {
      let field = "commands[\(index)]"
      result.append(
        Command.Targets(
          card: try card(command.card, field + ".card"),
          column: try column(command.column, field + ".column")))
    }
    return result
  }

  /// Ends the stream: every subscription ends once it delivered what it holds, and `GET /events`
  /// answers 204.
  public func finish() {
    stream.finish()
  }
}
