// The UICollectionView adapter of Docs/Adapters.md, as written there after its imports (UIKit is
// UIKitStandIn here, and Foundation, which UIKit exports, is imported by name);
// `AdaptersGuideTests` compares the two. The same file is compiled in SectionKitTests (where
// declarations are nonisolated by default) and in SectionKitIsolationTests (main actor by default).

import Foundation
import SectionKit
import UIKitStandIn

@MainActor
final class CollectionViewAdapter: NSObject, @MainActor ViewAdapter, UICollectionViewDataSource {
  let collectionView: UICollectionView
  weak var coordinator: Coordinator?
  let configure: (UICollectionViewCell, any Section, Int) -> Void

  init(
    collectionView: UICollectionView,
    configure: @escaping (UICollectionViewCell, any Section, Int) -> Void
  ) {
    self.collectionView = collectionView
    self.configure = configure
    super.init()
    collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    collectionView.dataSource = self
  }

  // MARK: ViewAdapter

  func reloadData(from coordinator: Coordinator) {
    self.coordinator = coordinator
    collectionView.reloadData()
  }

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    self.coordinator = coordinator
    collectionView.performBatchUpdates { [self] in
      updateData()  // from here on the data source answers the new counts
      collectionView.deleteSections(changeset.deletedSections)
      collectionView.insertSections(changeset.insertedSections)
      collectionView.reloadSections(changeset.reloadedSections)
      for move in changeset.movedSections {
        collectionView.moveSection(move.from, toSection: move.to)
      }
      collectionView.deleteItems(at: changeset.deletedElements)
      collectionView.insertItems(at: changeset.insertedElements)
      collectionView.reloadItems(at: changeset.reloadedElements)
      for move in changeset.movedElements {
        collectionView.moveItem(at: move.from, to: move.to)
      }
    }
    // The cells kept and refreshed, at the paths the batch left them (an adapter that does not
    // tell them apart reloads `reconfiguredElements` with the reloads above instead).
    if !changeset.reconfiguredElements.isEmpty {
      collectionView.reconfigureItems(at: changeset.reconfiguredElementDestinations)
    }
  }

  // MARK: UICollectionViewDataSource

  func numberOfSections(in collectionView: UICollectionView) -> Int {
    coordinator?.numberOfSections ?? 0
  }

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int)
    -> Int
  {
    coordinator?.numberOfElements(inSection: section) ?? 0
  }

  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    if let (section, index) = coordinator.map({ $0.sectionAndIndex(for: indexPath) }) {
      configure(cell, section, index)
    }
    return cell
  }
}
