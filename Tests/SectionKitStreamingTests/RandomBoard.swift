import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// An element of the test model: an identity, and a version bumped by each update.
struct Card: Hashable, Codable, Sendable, CustomStringConvertible {
  var id: Int
  var version = 0
  var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
  /// What digests hash: the card's id, not its version.
  @Sendable static func identity(_ card: Card) -> String { String(card.id) }
}

/// A model for the streaming tests: sections of cards under one provider, a coordinator, and an
/// ``UpdatePublisher`` attached to it. Random batches insert, remove, move, update and reconfigure
/// cards and
/// insert, remove and move sections.
final class RandomBoard {
  let root = ComposedSectionProvider()
  private(set) var sections: [ArraySection<Card>] = []
  let coordinator: Coordinator
  let publisher: UpdatePublisher<Card>
  private var nextID = 0
  /// The label of each section, by the section's object, when the board labels its sections.
  final class Names {
    var labels: [ObjectIdentifier: StreamSectionLabel] = [:]
    var next = 0
  }
  let names: Names?

  /// A board of `count` sections of `cards` cards; with `labelled`, every section has a label
  /// (an identity, and a header most of the time) that the publisher sends.
  init(
    policy: StreamPolicy = StreamPolicy(), digests: StreamDigestPolicy = .never,
    sections count: Int = 3, cards: Int = 4, labelled: Bool = false
  ) {
    let names = labelled ? Names() : nil
    self.names = names
    publisher = UpdatePublisher(
      policy: policy, digests: digests, identity: Card.identity,
      label: names.map { names in { section, _ in names.labels[ObjectIdentifier(section)] } }
    ) { section, index in
      (section as! ArraySection<Card>)[index]
    }
    coordinator = Coordinator(sectionProvider: root)
    for _ in 0..<count { insertSection(at: sections.count, cards: cards) }
    coordinator.adapter = publisher
  }

  var stream: UpdateStream<Card> { publisher.stream }

  /// What the model presents.
  var content: [[Card]] { sections.map { Array($0) } }

  /// The label of each section, or none.
  var labels: [StreamSectionLabel] {
    guard let names else { return [] }
    return sections.map { names.labels[ObjectIdentifier($0)] ?? StreamSectionLabel() }
  }

  private func newCard() -> Card {
    nextID += 1
    return Card(id: nextID)
  }

  func insertSection(at index: Int, cards: Int) {
    let section = ArraySection((0..<cards).map { _ in newCard() })
    if let names {
      names.next += 1
      // Every third section has no header; headers need escaping.
      names.labels[ObjectIdentifier(section)] = StreamSectionLabel(
        id: "s\(names.next)", header: names.next % 3 == 0 ? nil : "Column \"\(names.next)\" é")
    }
    sections.insert(section, at: index)
    root.insert(section, at: index)
  }

  func removeSection(at index: Int) {
    sections.remove(at: index)
    _ = root.remove(at: index)
  }

  /// Moves the section at `index` to `newIndex` (a section move on the wire: `movedSections`).
  func moveSection(from index: Int, to newIndex: Int) {
    sections.insert(sections.remove(at: index), at: newIndex)
    root.moveChild(at: index, to: newIndex)
  }

  /// One batch of 1 to `maximum` random changes.
  func randomBatch(maximum: Int = 6, using random: inout SeededGenerator) {
    root.performBatchUpdates {
      for _ in 0..<Int.random(in: 1...maximum, using: &random) { randomStep(using: &random) }
    }
  }

  func randomStep(using random: inout SeededGenerator) {
    let section = sections.randomElement(using: &random)!
    switch Int.random(in: 0..<20, using: &random) {
    case 0 where sections.count < 8:
      insertSection(
        at: Int.random(in: 0...sections.count, using: &random),
        cards: Int.random(in: 0...3, using: &random))
    case 1 where sections.count > 1:
      removeSection(at: Int.random(in: 0..<sections.count, using: &random))
    case 2..<8 where !section.isEmpty:
      section.remove(at: Int.random(in: 0..<section.count, using: &random))
    case 8..<11 where section.count > 1:
      section.move(
        from: Int.random(in: 0..<section.count, using: &random),
        to: Int.random(in: 0..<section.count, using: &random))
    case 11..<13 where !section.isEmpty:
      section[Int.random(in: 0..<section.count, using: &random)].version += 1
    case 13 where !section.isEmpty:
      // Sent as a reload: the wire has no reconfigures.
      let index = Int.random(in: 0..<section.count, using: &random)
      var card = section[index]
      card.version += 1
      section.reconfigure(at: index, with: card)
    case 14 where sections.count > 1:
      moveSection(
        from: Int.random(in: 0..<sections.count, using: &random),
        to: Int.random(in: 0..<sections.count, using: &random))
    default:
      section.insert(newCard(), at: Int.random(in: 0...section.count, using: &random))
    }
  }
}

/// Seeds for a randomized test: `SECTIONKIT_SEED=n` replays one seed; otherwise `count` seeds from
/// `base`.
func streamSeeds(base: UInt64, count: Int) -> [UInt64] {
  if let text = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"], let seed = UInt64(text) {
    return [seed]
  }
  return (0..<UInt64(count)).map { base &+ $0 }
}

/// `SECTIONKIT_FUZZ_ITERATIONS`, or `fallback`.
func fuzzIterations(default fallback: Int) -> Int {
  ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? fallback
}

/// Every update ready on `subscription`, without waiting.
func drain<Value>(_ subscription: StreamSubscription<Value>) -> [StreamUpdate<Value>] {
  var updates: [StreamUpdate<Value>] = []
  while let update = subscription.poll() { updates.append(update) }
  return updates
}
