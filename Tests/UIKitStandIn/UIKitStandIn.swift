import Foundation
import SectionKit
import SectionKitTesting

// The few UIKit types a `UICollectionView` adapter uses, with UIKit's names and isolation (the
// main actor), so that the adapter sketch of Docs/Adapters.md compiles here as written. The view
// does what UIKit does with a batch: it reads the old counts it cached, runs the updates closure,
// reads the new counts from its data source, checks the batch against UIKit's rules and shows the
// result (only inserted and reloaded cells are configured anew; `reconfigureItems(at:)`, called
// after a batch, configures the cells it names again, in place).

/// Stands in for UIKit's `UICollectionViewCell`: the text the cell shows.
@MainActor open class UICollectionViewCell {
  /// What the cell shows; `nil` until configured.
  public var text: String?

  /// Creates an empty cell.
  public required init() {}
}

/// Stands in for UIKit's `UICollectionViewDataSource`.
@MainActor public protocol UICollectionViewDataSource: AnyObject {
  /// The number of sections.
  func numberOfSections(in collectionView: UICollectionView) -> Int
  /// The number of items in `section`.
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int)
    -> Int
  /// A configured cell for the item at `indexPath`.
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
}

/// Stands in for UIKit's `UICollectionView`.
@MainActor public final class UICollectionView {
  /// The data source, held weakly as UIKit does.
  public weak var dataSource: (any UICollectionViewDataSource)?
  /// What the view shows: the text of each cell, one array per section.
  public private(set) var shownText: [[String?]] = []
  /// The batches UIKit would have refused (it raises an exception), with the rule each broke.
  public private(set) var refusedBatches: [String] = []
  /// The number of batches applied.
  public private(set) var batchCount = 0
  private var cellClasses: [String: UICollectionViewCell.Type] = [:]
  private var batch: Changeset?

  /// Creates a view with no data source.
  public init() {}

  /// Registers the class of the cells dequeued with `identifier`.
  public func register(
    _ cellClass: UICollectionViewCell.Type?, forCellWithReuseIdentifier identifier: String
  ) {
    cellClasses[identifier] = cellClass
  }

  /// A new cell of the class registered for `identifier`; traps when none is registered.
  public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
    -> UICollectionViewCell
  {
    guard let cellClass = cellClasses[identifier] else {
      preconditionFailure(
        "UICollectionView.dequeueReusableCell(withReuseIdentifier:for:): no class is registered "
          + "for \"\(identifier)\" (registered: \(cellClasses.keys.sorted()))")
    }
    return cellClass.init()
  }

  /// Reads every count and cell afresh from the data source.
  public func reloadData() {
    let counts = readCounts()
    shownText = counts.indices.map { section in
      (0..<counts[section]).map { cellText(at: IndexPath(item: $0, section: section)) }
    }
  }

  /// Runs `updates`, which issue the batch's operations, then checks the batch against the counts
  /// shown before and the data source's counts after, and shows the result.
  public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
    precondition(batch == nil, "UICollectionView.performBatchUpdates(_:completion:): nested call")
    batch = Changeset()
    updates?()
    let changeset = batch ?? Changeset()
    batch = nil
    let oldCounts = shownText.map(\.count)
    let newCounts = readCounts()
    let validator = BatchValidator()
    let errors = validator.validate(
      oldCounts: oldCounts, newCounts: newCounts, changeset: changeset
    )
    .filter(\.isError)
    batchCount += 1
    if errors.isEmpty {
      shownText = validator.replay(
        old: shownText, changeset: changeset, newValues: cellText(at:), newCounts: newCounts)
    } else {
      refusedBatches.append("\(changeset): \(errors.map(\.description).joined(separator: "; "))")
      reloadData()
    }
    completion?(errors.isEmpty)
  }

  /// Deletes sections (old indexes).
  public func deleteSections(_ sections: IndexSet) {
    inBatch { $0.deletedSections.formUnion(sections) }
  }
  /// Inserts sections (new indexes).
  public func insertSections(_ sections: IndexSet) {
    inBatch { $0.insertedSections.formUnion(sections) }
  }
  /// Reloads sections (old indexes).
  public func reloadSections(_ sections: IndexSet) {
    inBatch { $0.reloadedSections.formUnion(sections) }
  }
  /// Moves a section from its old index to its new one.
  public func moveSection(_ section: Int, toSection newSection: Int) {
    inBatch { $0.movedSections.append(.init(from: section, to: newSection)) }
  }
  /// Deletes items (old index paths).
  public func deleteItems(at indexPaths: [IndexPath]) {
    inBatch { $0.deletedElements += indexPaths }
  }
  /// Inserts items (new index paths).
  public func insertItems(at indexPaths: [IndexPath]) {
    inBatch { $0.insertedElements += indexPaths }
  }
  /// Reloads items (old index paths).
  public func reloadItems(at indexPaths: [IndexPath]) {
    inBatch { $0.reloadedElements += indexPaths }
  }
  /// Moves an item from its old index path to its new one.
  public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
    inBatch { $0.movedElements.append(.init(from: indexPath, to: newIndexPath)) }
  }

  /// Configures the cells at `indexPaths` (current paths: after the last batch) again, keeping
  /// them. Refused inside a batch: SectionKit's adapters call it once the batch is applied, on
  /// the reconfigures' destinations (`Docs/Adapters.md`).
  public func reconfigureItems(at indexPaths: [IndexPath]) {
    precondition(batch == nil, "UICollectionView.reconfigureItems(at:): called inside a batch")
    for path in indexPaths {
      precondition(
        shownText.indices.contains(path[0]) && shownText[path[0]].indices.contains(path[1]),
        "UICollectionView.reconfigureItems(at:): \(path) is not shown")
      shownText[path[0]][path[1]] = cellText(at: path)
    }
  }

  /// Adds to the open batch, or makes a batch of its own, as UIKit does outside a batch.
  private func inBatch(_ operation: @escaping (inout Changeset) -> Void) {
    guard batch != nil else {
      performBatchUpdates { self.inBatch(operation) }
      return
    }
    operation(&batch!)
  }

  private func readCounts() -> [Int] {
    guard let dataSource else { return [] }
    return (0..<dataSource.numberOfSections(in: self)).map {
      dataSource.collectionView(self, numberOfItemsInSection: $0)
    }
  }

  private func cellText(at indexPath: IndexPath) -> String? {
    dataSource?.collectionView(self, cellForItemAt: indexPath).text
  }
}
