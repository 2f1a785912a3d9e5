import SectionKit
import SectionKitPostgres
import SectionKitStreaming

/// An element of the tests' model: an identity and a version bumped by each update.
public struct Card: Hashable, Codable, Sendable {
  /// The identity.
  public var id: Int
  /// Bumped by each update.
  public var version = 0

  /// A card.
  ///
  /// - Parameters:
  ///   - id: the identity.
  ///   - version: the version.
  public init(id: Int, version: Int = 0) {
    self.id = id
    self.version = version
  }
}

/// SplitMix64, so that a run can be repeated.
public struct SplitMix: RandomNumberGenerator, Sendable {
  /// The state.
  public var state: UInt64

  /// A generator from `seed`.
  ///
  /// - Parameter seed: the first state.
  public init(state seed: UInt64) { state = seed }

  /// The next number.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The model an owner keeps in memory: sections of cards, a coordinator, a publisher, built
/// from the log's state at its head.
public final class Board {
  let root = ComposedSectionProvider()
  private(set) var sections: [ArraySection<Card>] = []
  let coordinator: Coordinator
  /// The publisher the owner follows.
  public let publisher: UpdatePublisher<Card>
  private var nextID: Int

  /// A model showing `content`.
  ///
  /// - Parameter content: the cards of each section.
  public init(_ content: [[Card]]) {
    publisher = UpdatePublisher { section, index in (section as! ArraySection<Card>)[index] }
    coordinator = Coordinator(sectionProvider: root)
    nextID = content.joined().map(\.id).max() ?? 0
    for cards in content {
      let section = ArraySection(cards)
      sections.append(section)
      root.append(section)
    }
    coordinator.adapter = publisher
  }

  /// The cards of each section.
  public var content: [[Card]] { sections.map { Array($0) } }

  private func newCard() -> Card {
    nextID += 1
    return Card(id: nextID)
  }

  /// One batch of 1 to 5 random changes: cards inserted, removed, moved, updated; sections
  /// inserted and removed.
  ///
  /// - Parameter random: the generator.
  public func randomBatch(using random: inout SplitMix) {
    root.performBatchUpdates {
      for _ in 0..<Int.random(in: 1...5, using: &random) {
        let index = Int.random(in: 0..<sections.count, using: &random)
        let section = sections[index]
        switch Int.random(in: 0..<20, using: &random) {
        case 0 where sections.count < 6:
          let new = ArraySection([newCard()])
          sections.insert(new, at: index)
          root.insert(new, at: index)
        case 1 where sections.count > 1:
          sections.remove(at: index)
          _ = root.remove(at: index)
        case 2..<7 where !section.isEmpty:
          section.remove(at: Int.random(in: 0..<section.count, using: &random))
        case 7..<10 where section.count > 1:
          section.move(
            from: Int.random(in: 0..<section.count, using: &random),
            to: Int.random(in: 0..<section.count, using: &random))
        case 10..<13 where !section.isEmpty:
          section[Int.random(in: 0..<section.count, using: &random)].version += 1
        default:
          section.insert(newCard(), at: Int.random(in: 0...section.count, using: &random))
        }
      }
    }
  }
}

/// An owner's model, on its own actor: writers call ``batch()`` concurrently.
public actor OwnedBoard {
  let board: Board
  /// The owner that appends the model's updates to the log.
  public nonisolated let owner: PostgresStreamOwner<Card>
  var random: SplitMix

  /// The model of `owner`, attached to it.
  ///
  /// - Parameters:
  ///   - owner: the owner, its model not attached yet.
  ///   - seed: the seed of the random batches.
  public init(_ owner: PostgresStreamOwner<Card>, seed: UInt64) async {
    self.owner = owner
    board = Board(owner.start.sections)
    random = SplitMix(state: seed)
    await owner.attach(board.publisher.stream)
  }

  /// One random batch, durable: returns its sequence number in the log.
  @discardableResult
  public func batch() async throws -> Int {
    board.randomBatch(using: &random)
    return try await owner.commit()
  }

  /// The cards of each section.
  public var content: [[Card]] { board.content }
}

/// Takes `stream` for `instance`, retrying while another instance's lease runs.
///
/// - Parameters:
///   - stream: the stream's name.
///   - instance: this instance's name.
///   - database: the database.
///   - reset: whether to start a new epoch.
///   - initial: the sections of a new stream.
///   - limit: how long to retry.
/// - Throws: ``PostgresStreamError/leaseHeld(stream:owner:)`` after `limit`, what
///   ``PostgresStreamOwner/acquire(stream:instance:in:reset:initial:)`` throws.
public func acquire(
  _ stream: String, _ instance: String, _ database: PostgresStreamDatabase, reset: Bool = false,
  initial: [[Card]] = [[Card(id: 1)], [Card(id: 2)], []], within limit: Duration = .seconds(20)
) async throws -> PostgresStreamOwner<Card> {
  let deadline = ContinuousClock.now + limit
  while true {
    do {
      return try await PostgresStreamOwner<Card>.acquire(
        stream: stream, instance: instance, in: database, reset: reset, initial: { initial })
    } catch PostgresStreamError.leaseHeld where ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
    }
  }
}
