import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `DuplicatePolicy` on `ArraySection.replaceElements` and `SnapshotSectionProvider.apply`:
/// random contents full of duplicate identities, against a reference that keeps the first or the
/// last of each identity, through the strict `TestAdapter` (keeping its changesets and letting
/// them go).
@Suite struct DuplicatePolicyTests {
  /// The reference: the positions kept (the first, or the last, of each identity, in order) and
  /// the drops, in flat order of `ids`.
  static func reference(_ ids: [Int], keepLast: Bool) -> (kept: [Int], dropped: [(Int, Int)]) {
    var kept: [Int] = []
    var dropped: [(Int, Int)] = []
    for position in ids.indices {
      let same = ids.indices.filter { ids[$0] == ids[position] }
      let keeper = keepLast ? same.last! : same.first!
      if keeper == position { kept.append(position) } else { dropped.append((position, keeper)) }
    }
    return (kept, dropped)
  }

  @Test(arguments: [false, true])
  func randomLists_keepTheReferencesElements(keepsChangesets: Bool) throws {
    var random = SeededGenerator(seed: 3000)
    for round in 0..<300 {
      let keepLast = round % 2 == 1
      let old = Array(
        (0..<12).shuffled(using: &random).prefix(Int.random(in: 0...8, using: &random)))
      let section = ArraySection(old.map { Item(id: $0) })
      let root = ComposedSectionProvider()
      root.append(section)
      let coordinator = Coordinator(sectionProvider: root)
      // Strict, but for the reloads beside moves the coordinator keeps only where they land
      // right (the replay checks them).
      let view = TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves])
      view.keepsChangesets = keepsChangesets
      coordinator.adapter = view

      let ids = (0..<Int.random(in: 0...14, using: &random)).map { _ in
        Int.random(in: 0..<12, using: &random)
      }
      let new = ids.map { Item(id: $0, version: Int.random(in: 0...1, using: &random)) }
      let (kept, dropped) = Self.reference(ids, keepLast: keepLast)
      let reported = try section.replaceElements(
        with: new, identifiedBy: \.id, isUpdated: !=, duplicates: keepLast ? .keepLast : .keepFirst)
      #expect(section.elements == kept.map { new[$0] })
      #expect(
        reported
          == dropped.map {
            DroppedDuplicate(id: "\(ids[$0.0])", position: [$0.0], kept: [$0.1])
          })
      #expect(view.failures.isEmpty)
      #expect(view.mirrorValues == [kept.map { "\(new[$0])" }])

      // The default throws on the same contents when they hold a duplicate, changing nothing.
      let before = section.elements
      if !dropped.isEmpty {
        #expect(throws: DuplicateIdentityError.self) {
          try section.replaceElements(with: new, identifiedBy: \.id, isUpdated: !=)
        }
        #expect(
          throws: DuplicateIdentityError.self,
          performing: {
            try section.replaceElements(
              with: new, identifiedBy: \.id, isUpdated: !=, duplicates: .throwError)
          })
        #expect(section.elements == before)
      }
    }
  }

  @Test(arguments: [false, true])
  func randomSnapshots_keepTheReferencesElements(keepsChangesets: Bool) throws {
    var random = SeededGenerator(seed: 3001)
    for round in 0..<300 {
      let keepLast = round % 2 == 1
      let provider = SnapshotSectionProvider<Int, Item>(identifiedBy: \.id, isUpdated: !=)
      let coordinator = Coordinator(sectionProvider: provider.provider)
      var failures: [TestAdapterFailure] = []
      let view = TestAdapter.toleratingReloadsWithMoves { failures.append($0) }
      view.keepsChangesets = keepsChangesets
      coordinator.adapter = view
      for _ in 0..<3 {
        let sectionIDs = Array(
          (0..<5).shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)))
        let ids = sectionIDs.map { _ in
          (0..<Int.random(in: 0...5, using: &random)).map { _ in
            Int.random(in: 0..<15, using: &random)
          }
        }
        let snapshot = zip(sectionIDs, ids).map { id, elements in
          SectionContents(
            id: id,
            elements: elements.map { Item(id: $0, version: Int.random(in: 0...1, using: &random)) })
        }
        // The reference, on the flattened snapshot.
        let flatIDs = ids.flatMap { $0 }
        let paths = ids.indices.flatMap { s in
          ids[s].indices.map { IndexPath(item: $0, section: s) }
        }
        let (kept, dropped) = Self.reference(flatIDs, keepLast: keepLast)
        let keptPaths = Set(kept.map { paths[$0] })
        let expected = snapshot.enumerated().map { s, contents in
          SectionContents(
            id: contents.id,
            elements: contents.elements.indices.filter { keptPaths.contains([s, $0]) }.map {
              contents.elements[$0]
            })
        }
        let reported = try provider.apply(snapshot, duplicates: keepLast ? .keepLast : .keepFirst)
        #expect(provider.snapshot == expected)
        #expect(
          reported
            == dropped.map {
              DroppedDuplicate(id: "\(flatIDs[$0.0])", position: paths[$0.0], kept: paths[$0.1])
            })
        #expect(view.mirrorValues == expected.map { $0.elements.map(\.description) })
        if !dropped.isEmpty {
          #expect(throws: SnapshotError.self) { try provider.apply(snapshot) }
          #expect(provider.snapshot == expected)
        }
      }
      #expect(failures.isEmpty, "\(failures.first.map(String.init(describing:)) ?? "")")
    }
  }

  @Test func descriptions_sayPositionsOneWay() throws {
    let section = ArraySection([Item(id: 1)])
    let dropped = try section.replaceElements(
      with: [Item(id: 7), Item(id: 7, version: 1)], identifiedBy: \.id, isUpdated: !=,
      duplicates: .keepLast)
    #expect(dropped.map(\.description) == ["dropped duplicate 7 at 0 (kept 1)"])
    #expect(section.elements == [Item(id: 7, version: 1)])

    let provider = SnapshotSectionProvider<String, Item>(identifiedBy: \.id, isUpdated: !=)
    let snapshot = [
      SectionContents(id: "a", elements: [Item(id: 1), Item(id: 2)]),
      SectionContents(id: "b", elements: [Item(id: 2)]),
    ]
    #expect(
      try provider.apply(snapshot, duplicates: .keepFirst).map(\.description)
        == ["dropped duplicate 2 at [1, 0] (kept [0, 1])"])
    #expect(
      throws: SnapshotError.duplicateElement(
        id: "2", contents: .new, positions: [[0, 1], [1, 0]])
    ) {
      try provider.apply(snapshot)
    }
  }
}
