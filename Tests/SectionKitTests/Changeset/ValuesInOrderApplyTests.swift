import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("Changeset.apply: new values given in the order of their paths, against values by path")
struct ValuesInOrderApplyTests {
  /// The random changesets of ``ElementMirrorApplyTests`` with the values the rebuilding applier
  /// asks for (or one left out, one more, one at another path), given in the order of their paths
  /// (`applyElementChanges(to:newValues:at:)`, a decoded stream changeset's way): the same
  /// outcome as giving them by path, the mirror applied or left as it was.
  @Test func valuesInPathOrderApplyAsValuesByPath() {
    var applied = 0
    var declined = 0
    for seed in randomizedSeeds(base: 85_000, count: 3_000) {
      let (old, changeset, generator) = ElementMirrorApplyTests.randomCase(seed: seed)
      var rng = generator
      var given: [IndexPath: String] = [:]
      var scratch = old
      try? changeset.applyByRebuilding(
        to: &scratch,
        newElement: { path in
          given[path] = ElementMirrorApplyTests.value(path)
          return given[path]!
        })
      switch Int.random(in: 0...5, using: &rng) {
      case 0 where !given.isEmpty: given.removeValue(forKey: given.keys.min()!)
      case 1:
        let path: IndexPath = [
          Int.random(in: 0...old.count, using: &rng), Int.random(in: -1...8, using: &rng),
        ]
        given[path] = "extra"
      case 2 where !given.isEmpty:
        let first = given.keys.min()!
        given.removeValue(forKey: first)
        given[[first[0], first[1] + 1]] = "moved"
      default: break
      }
      let sorted = given.sorted { $0.key < $1.key }
      var byPath = old
      var inOrder = old
      let shared = inOrder
      let tookByPath = changeset.applyElementChanges(to: &byPath, newValues: given)
      let tookInOrder = changeset.applyElementChanges(
        to: &inOrder, newValues: sorted.map(\.value), at: sorted.map(\.key))
      let context = "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(old)"
      #expect(tookInOrder == tookByPath, "\(context), given \(given)")
      #expect(inOrder == byPath, "\(context), given \(given)")
      #expect(shared == old, "\(context)")
      if tookInOrder { applied += 1 } else { declined += 1 }
    }
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(
      replaying || (applied > 500 && declined > 100), "\(applied) applied, \(declined) declined")
  }
}
