import Foundation
import SectionKit
import SectionKitTesting
import Testing

@testable import SectionKitStreaming

/// ``StreamChangeset/elements``, held as values in the order of their paths and built into a
/// dictionary when read: on random dictionaries (paths of two indexes, now and then one of
/// another length), what is set is what is read, the paths are held ascending, equality is the
/// dictionaries' whatever order they were built in, and a line written and read back gives the
/// same update.
///
/// Replay with `SECTIONKIT_SEED=<seed>`.
@Suite struct StreamChangesetElementsTests {
  static func randomElements(using random: inout SeededGenerator, pairsOnly: Bool)
    -> [IndexPath: Int]
  {
    var elements: [IndexPath: Int] = [:]
    for _ in 0..<Int.random(in: 0...20, using: &random) {
      let path: IndexPath
      switch pairsOnly ? 9 : Int.random(in: 0..<10, using: &random) {
      case 0: path = [Int.random(in: 0...3, using: &random)]
      case 1: path = [0, Int.random(in: 0...9, using: &random), 1]
      default:
        path = [Int.random(in: 0...3, using: &random), Int.random(in: 0...40, using: &random)]
      }
      elements[path] = Int.random(in: -99...99, using: &random)
    }
    return elements
  }

  @Test func theElementsReadAreTheElementsSet() throws {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xE1E_0001))
    for iteration in 0..<2_000 {
      let context = "seed \(random.seed) iteration \(iteration)"
      let elements = Self.randomElements(using: &random, pairsOnly: false)
      let changeset = Changeset(insertedElements: [])
      var update = StreamChangeset<Int>(sequence: 2, changeset: changeset, elements: elements)
      #expect(update.elements == elements, "\(context)")
      #expect(update.elementPaths == elements.keys.sorted(), "\(context)")
      #expect(update.elementValues == update.elementPaths.map { elements[$0]! }, "\(context)")
      // Equality is the dictionaries': the same entries inserted in another order are equal.
      var reordered: [IndexPath: Int] = [:]
      for (path, value) in elements.shuffled(using: &random) { reordered[path] = value }
      let same = StreamChangeset<Int>(sequence: 2, changeset: changeset, elements: reordered)
      #expect(same == update, "\(context)")
      if let path = elements.keys.randomElement(using: &random) {
        var other = same
        other.elements[path]! += 1
        #expect(other != update, "\(context)")
        #expect(other.elements[path] == elements[path]! + 1, "\(context)")
      }
      let replacement = Self.randomElements(using: &random, pairsOnly: false)
      update.elements = replacement
      #expect(update.elements == replacement, "\(context)")
      #expect(update.elementPaths == replacement.keys.sorted(), "\(context)")
    }
  }

  @Test func aChangesetWrittenAndReadBackIsTheSame() throws {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xE1E_0002))
    let encoder = StreamLineEncoder<Int>()
    for iteration in 0..<500 {
      let elements = Self.randomElements(using: &random, pairsOnly: true)
      let update = StreamChangeset<Int>(
        sequence: 2, changeset: Changeset(insertedElements: elements.keys.sorted()),
        elements: elements)
      var decoder = StreamLineDecoder<Int>(after: StreamPosition(stream: "s", sequence: 1))
      let read = try decoder.decode(line: try encoder.encode(.changeset(update)))
      #expect(read == .changeset(update), "seed \(random.seed) iteration \(iteration)")
    }
  }
}
