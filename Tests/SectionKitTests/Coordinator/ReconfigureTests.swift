import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Reconfigures through the pipe: an element whose content changed, identity and cell kind kept,
/// reaches the adapter in `reconfiguredElements`, placed as a reload (rule B3), and is a reload
/// where an update of the same element wins or where a reload would be converted.
@Suite struct ReconfigureTests {
  /// Two sections under a root, shown by a strict adapter that keeps its changesets.
  final class Tree {
    let first: ArraySection<String> = ["a", "b", "c"]
    let second: ArraySection<String> = ["x", "y"]
    let single = SingleElementSection<String?>(element: "s")
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    let adapter = TestAdapter.toleratingReloadsWithMoves { Issue.record("\($0)") }

    init() {
      root.append(first)
      root.append(second)
      root.append(single)
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
    }

    var last: Changeset? { adapter.lastChangeset }
  }

  @Test func aReconfigureOutsideABatchIsAReconfigure() {
    let tree = Tree()
    tree.first.reconfigure(at: 1, with: "B")
    #expect(tree.last == Changeset(reconfiguredElements: [[0, 1]]))
    #expect(tree.adapter.mirrorValues[0] == ["a", "B", "c"])
    tree.first.reconfigure(at: 2)
    #expect(tree.last == Changeset(reconfiguredElements: [[0, 2]]))
  }

  @Test func aReconfigureWithAnEqualElementReportsNothing() {
    let tree = Tree()
    tree.first.reconfigure(at: 1, with: "b")
    #expect(tree.adapter.applyCount == 0)
  }

  @Test func aReconfigureInABatchIsPlacedAsAReloadInOldCoordinates() {
    let tree = Tree()
    tree.coordinator.performBatchUpdates {
      tree.first.insert("new", at: 0)
      tree.first.reconfigure(at: 2, with: "B")  // "b", old index 1
      tree.second.reconfigure(at: 0, with: "X")
    }
    let changeset = tree.last
    #expect(changeset?.insertedElements == [[0, 0]])
    #expect(changeset?.reconfiguredElements == [[0, 1], [1, 0]])
    #expect(changeset?.reconfiguredElementDestinations == [[0, 2], [1, 0]])
    #expect(changeset?.reloadedElements == [])
    #expect(tree.adapter.mirrorValues[0] == ["new", "a", "B", "c"])
  }

  @Test func anUpdateOfTheSameElementWinsInEitherOrder() {
    let tree = Tree()
    tree.coordinator.performBatchUpdates {
      tree.first.reconfigure(at: 0, with: "A")
      tree.first[0] = "AA"
      tree.first[1] = "B"
      tree.first.reconfigure(at: 1, with: "BB")
      tree.first.reconfigure(at: 2, with: "C")
    }
    #expect(tree.last?.reloadedElements == [[0, 0], [0, 1]])
    #expect(tree.last?.reconfiguredElements == [[0, 2]])
  }

  @Test func aReconfiguredElementThatMovesIsDeletedAndInserted() {
    let tree = Tree()
    tree.coordinator.performBatchUpdates {
      tree.first.reconfigure(at: 0, with: "A")
      tree.first.move(from: 0, to: 2)
    }
    #expect(tree.last?.reconfiguredElements == [])
    #expect(tree.last?.deletedElements == [[0, 0]])
    #expect(tree.last?.insertedElements == [[0, 2]])
    #expect(tree.adapter.mirrorValues[0] == ["b", "c", "A"])
  }

  @Test func aReconfiguredElementThatIsRemovedIsADelete() {
    let tree = Tree()
    tree.coordinator.performBatchUpdates {
      tree.first.reconfigure(at: 1, with: "B")
      tree.first.remove(at: 1)
    }
    #expect(tree.last == Changeset(deletedElements: [[0, 1]]))
  }

  @Test func aReconfigureOfAnInsertedElementIsTheInsert() {
    let tree = Tree()
    tree.coordinator.performBatchUpdates {
      tree.first.append("d")
      tree.first.reconfigure(at: 3, with: "D")
    }
    #expect(tree.last == Changeset(insertedElements: [[0, 3]]))
  }

  @Test func aSingleElementSectionReconfigures() {
    let tree = Tree()
    tree.single.reconfigure(element: "S")
    #expect(tree.last == Changeset(reconfiguredElements: [[2, 0]]))
    tree.single.reconfigure()
    #expect(tree.last == Changeset(reconfiguredElements: [[2, 0]]))
    #expect(tree.adapter.applyCount == 2)
    // Appearing and disappearing stay an insert and a remove.
    tree.single.reconfigure(element: nil)
    #expect(tree.last == Changeset(deletedElements: [[2, 0]]))
    tree.single.reconfigure()
    #expect(tree.adapter.applyCount == 3)
  }

  @Test func aDelegateThatDoesNotTellThemApartHearsAnUpdate() {
    final class Listener: SectionUpdateDelegate {
      var heard: [String] = []
      func willBeginUpdating(_ section: any Section) {}
      func didEndUpdating(_ section: any Section) {}
      func invalidateAll(_ section: any Section) {}
      func section(_ section: any Section, didInsertElementAt index: Int) {}
      func section(_ section: any Section, didRemoveElementAt index: Int) {}
      func section(_ section: any Section, didUpdateElementAt index: Int) {
        heard.append("update \(index)")
      }
      func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {}
    }
    let section: ArraySection<String> = ["a", "b"]
    let listener = Listener()
    section.updateDelegate = listener
    section.reconfigure(at: 1, with: "B")
    #expect(listener.heard == ["update 1"])
  }

  /// Every batch of up to three changes of one three-element section, reconfigures among them,
  /// through the strict adapter: valid, replaying to the model, and each element only
  /// reconfigured (never updated) in the batch is a reconfigure or a delete and an insert, never
  /// a reload.
  @Test func everyTripleOfChangesWithReconfigures() {
    enum Step: CaseIterable {
      case insert0, insert3, remove0, remove2, update0, update1, reconfigure0, reconfigure1
      case reconfigure2, move02, move20, move11
    }
    var batches = 0
    for first in Step.allCases {
      for second in Step.allCases {
        for third in Step.allCases {
          let tree = Tree()
          var updated: Set<String> = []
          var reconfigured: Set<String> = []
          func version(_ index: Int) -> String { tree.first[index].lowercased() + "'" }
          tree.coordinator.performBatchUpdates {
            for step in [first, second, third] {
              let count = tree.first.count
              switch step {
              case .insert0: tree.first.insert("N\(count)", at: 0)
              case .insert3 where count >= 3: tree.first.insert("M\(count)", at: 3)
              case .remove0 where count > 0: tree.first.remove(at: 0)
              case .remove2 where count > 2: tree.first.remove(at: 2)
              case .update0 where count > 0, .update1 where count > 1:
                let index = step == .update0 ? 0 : 1
                updated.insert(String(tree.first[index].prefix(1)).lowercased())
                tree.first[index] = version(index)
              case .reconfigure0 where count > 0, .reconfigure1 where count > 1,
                .reconfigure2 where count > 2:
                let index = step == .reconfigure0 ? 0 : step == .reconfigure1 ? 1 : 2
                reconfigured.insert(String(tree.first[index].prefix(1)).lowercased())
                tree.first.reconfigure(at: index, with: version(index))
              case .move02 where count > 2: tree.first.move(from: 0, to: 2)
              case .move20 where count > 2: tree.first.move(from: 2, to: 0)
              case .move11 where count > 1: tree.first.move(from: 1, to: 1)
              default: break
              }
            }
          }
          batches += 1
          let description = "\([first, second, third])"
          #expect(
            tree.adapter.mirrorValues[0] == tree.first.elements, "\(description)")
          guard let changeset = tree.last, tree.adapter.applyCount == 1 else { continue }
          let old = ["a", "b", "c"]
          let onlyReconfigured = reconfigured.subtracting(updated)
          for path in changeset.reconfiguredElements {
            #expect(onlyReconfigured.contains(old[path[1]]), "\(description): \(changeset)")
          }
          for path in changeset.reloadedElements {
            #expect(!onlyReconfigured.contains(old[path[1]]), "\(description): \(changeset)")
          }
        }
      }
    }
    #expect(batches == 12 * 12 * 12)
  }
}
