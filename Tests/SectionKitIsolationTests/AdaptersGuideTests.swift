import Foundation
import SectionKit
import Testing
import UIKitStandIn

/// What this target proves, and the link between Docs/Adapters.md and the compiled adapter.
@Suite("Default main-actor isolation, and Docs/Adapters.md")
struct AdaptersGuideTests {
  /// Nothing here is annotated: the target's default isolation puts the test on the main actor.
  @Test func unannotatedCodeIsIsolatedToTheMainActor() {
    #expect(Self.isolation() === MainActor.shared)
  }

  @Test func theSketchInDocs_isTheCompiledAdapter() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let root = tests.deletingLastPathComponent().deletingLastPathComponent()
    let guide = try String(
      contentsOf: root.appendingPathComponent("Docs/Adapters.md"), encoding: .utf8)
    let compiled = try String(
      contentsOf: tests.appendingPathComponent("CollectionViewAdapter.swift"), encoding: .utf8)

    let heading = try #require(guide.range(of: "## A `UICollectionView` adapter"))
    let fence = try #require(
      guide.range(of: "```swift\n", range: heading.upperBound..<guide.endIndex))
    let end = try #require(guide.range(of: "\n```", range: fence.upperBound..<guide.endIndex))
    let sketch = Self.split(guide[fence.upperBound..<end.lowerBound])
    let file = Self.split(Substring(compiled))

    for line in sketch.imports {
      let here = line == "import UIKit" ? "import UIKitStandIn" : line
      #expect(file.imports.contains(here), "Docs/Adapters.md has \(line); the compiled file not")
    }
    #expect(
      sketch.code == file.code,
      "Docs/Adapters.md's sketch and CollectionViewAdapter.swift differ: change both")
  }

  @Test func theStandInRefusesWhatUIKitRefuses() {
    final class Counts: UICollectionViewDataSource {
      var counts = [2]
      func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }
      func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int)
        -> Int
      { counts[section] }
      func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
        -> UICollectionViewCell
      { UICollectionViewCell() }
    }
    let dataSource = Counts()
    let collectionView = UICollectionView()
    collectionView.dataSource = dataSource
    collectionView.reloadData()
    // An adapter that inserts without the data source answering the new count first.
    collectionView.performBatchUpdates { collectionView.insertItems(at: [[0, 2]]) }
    #expect(collectionView.refusedBatches.count == 1)
    dataSource.counts = [3]
    collectionView.performBatchUpdates { collectionView.insertItems(at: [[0, 2]]) }
    #expect(collectionView.refusedBatches.count == 1)
  }

  /// The isolation of the caller.
  private static func isolation(_ isolation: isolated (any Actor)? = #isolation) -> (any Actor)? {
    isolation
  }

  /// The comment and import lines at the top, and the code after them.
  private static func split(_ text: Substring) -> (imports: [String], code: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    var imports: [String] = []
    while let first = lines.first,
      first.isEmpty || first.hasPrefix("//") || first.hasPrefix("import ")
    {
      if first.hasPrefix("import ") { imports.append(String(first)) }
      lines = lines.dropFirst()
    }
    return (imports, lines.joined(separator: "\n").trimmingCharacters(in: .newlines))
  }
}
