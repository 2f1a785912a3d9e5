import Foundation
import SectionKit
import Testing
import UIKitStandIn

/// The `UICollectionView` adapter of Docs/Adapters.md, run against the UIKit stand-in, which
/// checks every batch as UIKit would and shows only what the batches tell it. The same file runs
/// in SectionKitTests (nonisolated by default) and SectionKitIsolationTests (main actor by
/// default).
@MainActor @Suite("Docs/Adapters.md: the UICollectionView adapter")
struct CollectionViewAdapterTests {
  /// A view and its adapter; a cell shows its element's description.
  static func makeView() -> (UICollectionView, CollectionViewAdapter) {
    let collectionView = UICollectionView()
    let adapter = CollectionViewAdapter(collectionView: collectionView) { cell, section, index in
      cell.text = describeElement(of: section, at: index)
    }
    return (collectionView, adapter)
  }

  @Test func showsTheModelAfterEveryBatch() {
    let (collectionView, adapter) = Self.makeView()
    let header = SingleElementSection(element: "Contacts")
    let family: ArraySection<String> = ["Mum", "Dad", "Gran"]
    let friends: ArraySection<String> = ["Ada", "Grace"]
    let contacts = ComposedSectionProvider()
    contacts.append(header)
    contacts.append(family)
    contacts.append(friends)
    let coordinator = Coordinator(sectionProvider: contacts)
    coordinator.adapter = adapter
    #expect(collectionView.shownText == [["Contacts"], ["Mum", "Dad", "Gran"], ["Ada", "Grace"]])

    contacts.performBatchUpdates {
      friends.append("Linus")
      family.remove(at: 0)
      family[0] = "Father"
      friends.move(from: 0, to: 2)
    }
    #expect(
      collectionView.shownText == [["Contacts"], ["Father", "Gran"], ["Grace", "Linus", "Ada"]])
    header.replace(element: "All contacts")
    contacts.insert(ArraySection(["Bob"]), at: 1)
    _ = contacts.remove(family)
    friends.removeAll { $0.hasPrefix("G") }

    #expect(collectionView.shownText == [["All contacts"], ["Bob"], ["Linus", "Ada"]])
    #expect(collectionView.batchCount == 5)
    #expect(collectionView.refusedBatches.isEmpty)
  }

  /// A reconfigured cell is configured again after the batch, at the path the batch left it.
  @Test func reconfiguresRefreshTheCellsWhereTheBatchLeftThem() {
    let (collectionView, adapter) = Self.makeView()
    let letters: ArraySection<String> = ["a", "b", "c"]
    let root = ComposedSectionProvider()
    root.append(letters)
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = adapter
    letters.performBatchUpdates {
      letters.insert("new", at: 0)
      letters.reconfigure(at: 2, with: "B")
    }
    letters.reconfigure(at: 3, with: "C")
    #expect(collectionView.shownText == [["new", "a", "B", "C"]])
    #expect(collectionView.batchCount == 2)
    #expect(collectionView.refusedBatches.isEmpty)
  }

  @Test func movesSwapsAndReloadsInOneBatch() {
    let (collectionView, adapter) = Self.makeView()
    let letters: ArraySection<String> = ["a", "b", "c", "d"]
    let root = ComposedSectionProvider()
    root.append(letters)
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = adapter
    letters.performBatchUpdates {
      letters.move(from: 3, to: 0)
      letters.swapAt(1, 2)
      letters.insert("e", at: 2)
      letters[4] = "C"
    }
    #expect(collectionView.shownText == [letters.elements])
    #expect(collectionView.refusedBatches.isEmpty)
  }
}
