import Foundation

@testable import LiveBoard

/// A small seeded generator (SplitMix64), so that a run can be repeated.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A random batch of valid commands for `data`, by identity.
func randomCommands(for data: BoardData, using random: inout SplitMix) -> [Command] {
  var commands: [Command] = []
  var cards = data.columns.flatMap(\.cards).map(\.id)
  for _ in 0..<Int.random(in: 1...4, using: &random) {
    let column = data.columns.randomElement(using: &random)!.id
    var command = Command(kind: .add, column: .id(column), title: "t\(random.next() % 1000)")
    switch Int.random(in: 0..<20, using: &random) {
    case 0..<5 where !cards.isEmpty:
      command = Command(
        kind: .rename, card: .id(cards.randomElement(using: &random)!),
        title: "r\(random.next() % 1000)")
    case 5..<9 where !cards.isEmpty:
      command = Command(
        kind: .move, card: .id(cards.randomElement(using: &random)!), column: .id(column), index: 0)
    case 9..<12 where !cards.isEmpty:
      let card = cards.remove(at: Int.random(in: 0..<cards.count, using: &random))
      command = Command(kind: .delete, card: .id(card))
    case 12:
      command = Command(kind: .renameColumn, column: .id(column), title: "C\(random.next() % 100)")
    case 13:
      command = Command(
        kind: .moveColumn, column: .id(column),
        index: Int.random(in: 0..<data.columns.count, using: &random))
    case 14:
      command = Command(kind: .segment, segment: data.segments.randomElement(using: &random)!.id)
      return commands + [command]  // ids of the other segment are not shown after it
    default: break
    }
    commands.append(command)
  }
  return commands
}
