import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

@Suite("Streaming: an index path given against an earlier update, resolved or rejected")
struct PathResolutionTests {
  /// The board with one section of cards 1…5, at the stream's position after the first snapshot.
  func makeBoard(replay: Int = 8) -> (RandomBoard, ArraySection<Card>, StreamPosition) {
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: replay), sections: 1, cards: 5)
    return (board, board.sections[0], board.stream.position)
  }

  @Test func aPathFollowsItsElementThroughDeletesInsertsMovesAndReloads() throws {
    let (board, cards, start) = makeBoard()
    // The client saw card 4 at [0, 3].
    cards.remove(at: 0)  // 2 3 4 5
    cards.insert(Card(id: 9), at: 3)  // 2 3 4 9 5
    cards.move(from: 2, to: 4)  // 2 3 9 5 4
    cards[4].version += 1  // a reload
    let resolved = try board.stream.resolve([0, 3], at: start)
    #expect(resolved == [0, 4])
    #expect(cards[4].id == 4)
  }

  /// `[0…5]` → `[1, 4', 5', 0, 3']` (primes: updated): the changeset gives element 0's move as a
  /// delete plus an insert, and the moved and updated elements too; the publisher follows them by
  /// identity, so a path given before the update resolves to where its element went.
  @Test func anElementTheChangesetDeletesButTheModelKeptIsFollowedByIdentity() throws {
    let board = RandomBoard(sections: 1, cards: 0)
    let cards = board.sections[0]
    let changed = { (old: Card, new: Card) in old != new }
    try cards.replaceElements(
      with: (0..<6).map { Card(id: $0) }, identifiedBy: \.id, isUpdated: changed)
    let start = board.stream.position
    let subscription = board.stream.subscribe(after: start)
    let new = [
      Card(id: 1), Card(id: 4, version: 1), Card(id: 5, version: 1), Card(id: 0),
      Card(id: 3, version: 1),
    ]
    try cards.replaceElements(with: new, identifiedBy: \.id, isUpdated: changed)
    let updates = drain(subscription)
    guard updates.count == 1, case .changeset(let update) = updates[0] else {
      Issue.record("\(updates)")
      return
    }
    // The case under test: element 0 listed as deleted, though it only moved.
    #expect(update.changeset.deletedElements.contains([0, 0]))
    #expect(try board.stream.resolve([0, 0], at: start) == [0, 3])
    #expect(try board.stream.resolve([0, 3], at: start) == [0, 4])
    #expect(try board.stream.resolve([0, 4], at: start) == [0, 1])
    #expect(try board.stream.resolve([0, 5], at: start) == [0, 2])
    #expect(try board.stream.resolve([0, 1], at: start) == [0, 0])
    #expect(
      throws: PathResolutionError.elementGone(
        [0, 2], at: start.sequence, removedBy: update.sequence)
    ) {
      try board.stream.resolve([0, 2], at: start)
    }
  }

  @Test func aPathFollowsItsSectionWhenSectionsComeAndGo() throws {
    let board = RandomBoard(sections: 3, cards: 2)
    let start = board.stream.position
    let last = board.sections[2]
    board.removeSection(at: 0)
    board.insertSection(at: 0, cards: 1)
    board.insertSection(at: 0, cards: 1)
    #expect(try board.stream.resolve([2, 1], at: start) == [3, 1])
    #expect(board.sections[3] === last)
  }

  /// `moveChild` puts `movedSections` on the wire; a path follows its section's move, and a
  /// mirror fed the lines ends equal to the model.
  @Test func aSectionMoveTakesItsElementsAlongOnTheWireAndInResolve() throws {
    let board = RandomBoard(sections: 3, cards: 2)
    let start = board.stream.position
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<Card>()
    var decoder = StreamLineDecoder<Card>()
    let encoder = StreamLineEncoder<Card>()
    var moves: [Changeset.SectionMove] = []
    func follow() throws {
      for update in drain(subscription) {
        if case .changeset(let changeset) = update { moves += changeset.changeset.movedSections }
        decoder.append(try encoder.encode(update))
        while let decoded = try decoder.next() {
          try mirror.apply(decoded, line: decoder.lineNumber)
        }
      }
    }
    try follow()
    let first = board.sections[0]
    board.root.performBatchUpdates {
      board.moveSection(from: 0, to: 2)
      board.sections[0].append(Card(id: 50))
    }
    try follow()
    #expect(moves == [Changeset.SectionMove(from: 0, to: 2)])
    #expect(mirror.sections == board.content)
    #expect(board.sections[2] === first)
    #expect(try board.stream.resolve([0, 1], at: start) == [2, 1])
    #expect(try board.stream.resolve([1, 1], at: start) == [0, 1])

    // A section moved and changed in one batch is a section delete and insert, which a changeset
    // cannot tell from a section reloaded beside section moves (whose elements are new): the
    // elements of both are gone, never resolved to an element they may not be.
    var deletedSections = IndexSet()
    let moved = board.stream.position
    board.root.performBatchUpdates {
      board.moveSection(from: 2, to: 0)
      board.sections[0].remove(at: 0)
    }
    let reloaded = board.stream.position
    board.root.performBatchUpdates {
      board.moveSection(from: 0, to: 2)
      board.root.reloadChild(at: 1)  // the last section, which had cards 5 and 6
    }
    for update in drain(subscription) {
      if case .changeset(let changeset) = update {
        deletedSections.formUnion(changeset.changeset.deletedSections)
      }
      decoder.append(try encoder.encode(update))
      while let decoded = try decoder.next() {
        try mirror.apply(decoded, line: decoder.lineNumber)
      }
    }
    #expect(deletedSections == [2])
    #expect(mirror.sections == board.content)
    #expect(
      throws: PathResolutionError.elementGone(
        [0, 1], at: start.sequence, removedBy: moved.sequence + 1)
    ) {
      try board.stream.resolve([0, 1], at: start)
    }
    #expect(
      throws: PathResolutionError.elementGone(
        [2, 0], at: reloaded.sequence, removedBy: reloaded.sequence + 1)
    ) {
      try board.stream.resolve([2, 0], at: reloaded)
    }
    #expect(try board.stream.resolve([1, 2], at: reloaded) == [0, 2])
  }

  @Test func aRemovedElementIsRejectedWithTheUpdateThatRemovedIt() {
    let (board, cards, start) = makeBoard()
    cards.append(Card(id: 10))
    cards.remove(at: 1)
    let removal = board.stream.position.sequence
    #expect(
      throws: PathResolutionError.elementGone([0, 1], at: start.sequence, removedBy: removal)
    ) {
      try board.stream.resolve([0, 1], at: start)
    }
  }

  @Test func anElementOfARemovedSectionIsGone() {
    let board = RandomBoard(sections: 2, cards: 2)
    let start = board.stream.position
    board.removeSection(at: 1)
    #expect(throws: PathResolutionError.self) { try board.stream.resolve([1, 0], at: start) }
  }

  @Test func positionsTheStreamCannotFollowAreRejected() {
    let (board, cards, start) = makeBoard(replay: 2)
    for id in 10..<13 { cards.append(Card(id: id)) }
    let now = board.stream.position
    #expect(throws: PathResolutionError.tooOld(start.sequence, oldest: now.sequence - 2)) {
      try board.stream.resolve([0, 0], at: start)
    }
    #expect(throws: PathResolutionError.future(now.sequence + 1, current: now.sequence)) {
      try board.stream.resolve(
        [0, 0], at: StreamPosition(stream: now.stream, sequence: now.sequence + 1))
    }
    #expect(throws: PathResolutionError.otherStream("old run", current: now.stream)) {
      try board.stream.resolve([0, 0], at: StreamPosition(stream: "old run", sequence: 1))
    }
    // Element 8 of 8 at the current position; [0, 6] of 7 one update earlier.
    #expect(throws: PathResolutionError.outOfRange([0, 8], at: now.sequence, counts: [8])) {
      try board.stream.resolve([0, 8], at: now)
    }
    #expect(throws: PathResolutionError.outOfRange([0, 7], at: now.sequence - 1, counts: [7])) {
      try board.stream.resolve(
        [0, 7], at: StreamPosition(stream: now.stream, sequence: now.sequence - 1))
    }
    #expect(throws: PathResolutionError.self) { try board.stream.resolve([0], at: now) }
    #expect(throws: PathResolutionError.self) { try board.stream.resolve([0, -1], at: now) }
  }

  /// Random batches; every path of every mirror kept along the way resolves to where its card is
  /// now, or is rejected because the card is gone or its section was deleted (a section moved and
  /// changed in one batch is a delete and an insert). An updated card, which a batch may give as a
  /// delete and an insert, is followed by identity.
  @Test(arguments: streamSeeds(base: 9_100, count: 2))
  func randomPathsResolveToWhereTheirElementIsNow(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 24))
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<Card>()
    var history: [(StreamPosition, [[Card]])] = []
    var changesets: [Int: Changeset] = [:]
    for _ in 0..<60 {
      board.randomBatch(using: &random)
      for update in drain(subscription) {
        try mirror.apply(update)
        history.append((mirror.position!, mirror.sections))
        if case .changeset(let changeset) = update {
          changesets[changeset.sequence] = changeset.changeset
        }
      }
      var now: [Int: (IndexPath, Card)] = [:]
      for (section, cards) in board.content.enumerated() {
        for (index, card) in cards.enumerated() { now[card.id] = ([section, index], card) }
      }
      // Ten paths from the mirrors of the last 24 updates.
      for _ in 0..<10 {
        let (position, sections) = history.suffix(24).randomElement(using: &random)!
        guard
          let section = sections.indices.filter({ !sections[$0].isEmpty })
            .randomElement(using: &random)
        else { continue }
        let index = Int.random(in: 0..<sections[section].count, using: &random)
        let card = sections[section][index]
        let comment = Comment(
          rawValue: "seed \(seed): \(card) at [\(section), \(index)] in \(position)")
        do {
          let resolved = try board.stream.resolve([section, index], at: position)
          #expect(now[card.id]?.0 == resolved, comment)
        } catch {
          guard case .elementGone(_, _, let removedBy) = error else {
            Issue.record(error, comment)
            continue
          }
          // Gone, or its section moved and changed (a section delete and insert).
          let sectionsDeleted = !(changesets[removedBy]?.deletedSections.isEmpty ?? true)
          #expect(now[card.id] == nil || sectionsDeleted, comment)
        }
      }
    }
  }
}
