import SectionKitTesting
import Testing

@testable import SectionKit

/// `sortUnstably(by:)`, the allocation-free sort of the reducer's touched sections: the same keys
/// in the same order as the standard library's sort, for every shape of input and every path of
/// the introsort (insertion sort, quicksort, heapsort past the depth limit).
@Suite struct UnstableSortTests {
  /// Inputs of `count` keys in the shapes that break naive quicksorts.
  static func shapes(_ count: Int, using random: inout SeededGenerator) -> [[Int]] {
    let ascending = Array(0..<count)
    return [
      ascending,
      ascending.reversed(),
      Array(repeating: 7, count: count),
      ascending.map { $0 < count / 2 ? $0 : count - $0 },  // organ pipe
      ascending.map { $0 % 3 },
      ascending.shuffled(using: &random),
      ascending.map { _ in Int.random(in: -5...5, using: &random) },
    ]
  }

  @Test(arguments: [nil, 0, 1] as [Int?])
  func sortsLikeTheStandardLibrary(depthLimit: Int?) {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5027)
    var random = SeededGenerator(seed: seed)
    for count in Array(0...40) + [63, 64, 65, 100, 257, 1_000] {
      for keys in Self.shapes(count, using: &random) {
        // Each element carries its position, so that the elements are checked, not the keys alone.
        var elements = keys.enumerated().map { (key: $0.element, position: $0.offset) }
        elements.withUnsafeMutableBufferPointer {
          $0.sortUnstably(depthLimit: depthLimit) { $0.key }
        }
        #expect(elements.map(\.key) == keys.sorted(), "seed \(seed), \(count) keys: \(keys)")
        #expect(
          elements.map(\.position).sorted() == Array(keys.indices),
          "seed \(seed): an element was lost or repeated")
      }
    }
  }
}
