import Foundation
import SectionKit

/// A changeset as UIKit's `_endItemAnimations` sees it after normalisation (`Docs/Batching.md`,
/// rules B2–B8): well-formed, de-duplicated, reloads split into a delete at the old
/// path and an insert at the destination UIKit computes, element operations inside deleted or
/// inserted sections pruned, and the section map of rule B8 — plus every violation found on the way.
///
/// Built once per validation or replay. When `oldCounts`/`newCounts` are `nil`, only the
/// count-independent parts (reload arithmetic) are meaningful.
struct NormalizedBatch {
  /// Whether an operation came from the caller's explicit lists or from a reload.
  enum Origin {
    case explicit
    case reload
  }

  let model: BatchValidator.Model
  let words: BatchViolation.Words

  // MARK: Sanitised explicit operations
  /// The section deletes and inserts used by the reload arithmetic: every valid index without
  /// counts; with counts, those in bounds plus, per range, the first one out of bounds UIKit meets.
  private(set) var sectionDeleteSet = IndexSet()
  private(set) var sectionInsertSet = IndexSet()
  /// The same, one by one; empty without counts (only the reload arithmetic runs then).
  private(set) var sectionDeletes: [Int] = []
  private(set) var sectionInserts: [Int] = []
  private(set) var sectionReloads: [Int] = []
  private(set) var sectionMoves: [(from: Int, to: Int)] = []
  private(set) var itemDeletes: [BatchOperation] = []
  private(set) var itemInserts: [BatchOperation] = []
  private(set) var itemReloads: [BatchOperation] = []
  private(set) var itemMoves: [(from: BatchOperation, to: BatchOperation)] = []

  // MARK: Derived
  /// Each reload (section and element, ascending) with the destination UIKit computes (rule B3).
  private(set) var reloadDestinations: [(BatchOperation, BatchOperation)] = []
  /// Old sections deleted explicitly or by a section reload.
  private(set) var removedSections: Set<Int> = []
  /// New sections inserted explicitly or by a section reload.
  private(set) var addedSections: Set<Int> = []
  /// Element deletes (explicit and reload halves) that survive pruning, in bounds.
  private(set) var effectiveItemDeletes: [BatchOperation] = []
  /// Element inserts (explicit and reload halves) that survive pruning, in bounds.
  private(set) var effectiveItemInserts: [BatchOperation] = []
  /// Rule B8: the new section of each old section (`nil`: deleted or reloaded).
  private(set) var oldToNew: [Int?] = []
  /// Rule B8: the old section of each new section (`nil`: inserted or a reload destination).
  private(set) var newToOld: [Int?] = []

  private(set) var violations: [BatchViolation] = []

  var hasErrors: Bool { violations.contains { $0.isError } }

  init(changeset: Changeset, oldCounts: [Int]?, newCounts: [Int]?, model: BatchValidator.Model) {
    self.model = model
    self.words = BatchViolation.Words(model)
    sanitize(changeset, oldSections: oldCounts?.count, newSections: newCounts?.count)
    removeDuplicates()
    computeReloads()
    checkDeletes(oldCounts)
    checkInserts(newCounts)
    checkMoves(oldCounts: oldCounts, newCounts: newCounts)
    if let oldCounts, let newCounts, !hasErrors {
      checkCounts(oldCounts: oldCounts, newCounts: newCounts)
    }
    checkUnsafeAndStrictRules()
    // Errors first (stable), in the order UIKit meets them.
    violations = violations.filter(\.isError) + violations.filter { !$0.isError }
  }

  // MARK: 1. Well-formedness

  private static func isValidIndex(_ index: Int) -> Bool {
    index >= 0 && index != NSNotFound
  }

  /// The valid part of the section `ranges` of `part`, reporting negative indexes once per range.
  ///
  /// With a `bound` (the number of sections the part is checked against), indexes beyond it are
  /// dropped except the first one UIKit meets in each range (the highest for deletes and reloads,
  /// `descending`; the lowest for inserts), which the bounds checks then report: the result never
  /// holds more than `bound` plus one index per range, whatever the numbers in the changeset.
  private mutating func sections(
    _ ranges: [Range<Int>], _ part: String, bound: Int?, descending: Bool
  ) -> IndexSet {
    var result = IndexSet()
    for range in ranges {
      if range.lowerBound < 0 {
        let negative = range.lowerBound..<min(range.upperBound, 0)
        violations.append(
          .negative(
            negative.count == 1 ? "\(negative.lowerBound)" : "\(negative)", in: part))
      }
      var kept = max(range.lowerBound, 0)..<max(range.upperBound, 0)
      if let bound, kept.upperBound > bound {
        result.insert(descending ? kept.upperBound - 1 : max(kept.lowerBound, bound))
        kept = kept.lowerBound..<max(kept.lowerBound, bound)
      }
      result.insert(integersIn: kept)
    }
    return result
  }

  private mutating func sanitize(_ changeset: Changeset, oldSections: Int?, newSections: Int?) {
    func path(_ path: IndexPath, _ part: String) -> BatchOperation? {
      guard path.count == 2 else {
        violations.append(.malformed(path, in: part))
        return nil
      }
      guard Self.isValidIndex(path[0]) && Self.isValidIndex(path[1]) else {
        violations.append(.negative(path.bracketed, in: part))
        return nil
      }
      return BatchOperation(path)
    }
    sectionDeleteSet = sections(
      changeset.deletedSectionRanges, "deletedSections", bound: oldSections, descending: true)
    sectionInsertSet = sections(
      changeset.insertedSectionRanges, "insertedSections", bound: newSections, descending: false)
    let reloadSet = sections(
      changeset.reloadedSectionRanges, "reloadedSections", bound: oldSections, descending: true)
    // Without counts the sets can be as wide as the numbers in the changeset: only the reload
    // arithmetic runs, on ranges, and section reloads (whose destinations it does not need) are
    // left out.
    if oldSections != nil && newSections != nil {
      sectionDeletes = Array(sectionDeleteSet)
      sectionInserts = Array(sectionInsertSet)
      sectionReloads = Array(reloadSet)
    }
    for move in changeset.movedSections {
      if Self.isValidIndex(move.from) && Self.isValidIndex(move.to) {
        sectionMoves.append((move.from, move.to))
      } else {
        violations.append(.negative("\(move.from) → \(move.to)", in: "movedSections"))
      }
    }
    itemDeletes = changeset.deletedElements.compactMap { path($0, "deletedElements") }
    itemInserts = changeset.insertedElements.compactMap { path($0, "insertedElements") }
    itemReloads = changeset.reloadedElements.compactMap { path($0, "reloadedElements") }
    // A reconfigure is placed as a reload (rule B3) and is one for an adapter that does not tell
    // them apart: it is checked, and replayed, as one.
    itemReloads += changeset.reconfiguredElements.compactMap { path($0, "reconfiguredElements") }
    for move in changeset.movedElements {
      let from = path(move.from, "movedElements")
      let to = path(move.to, "movedElements")
      if let from, let to { itemMoves.append((from, to)) }
    }
  }

  // MARK: 2. Duplicates

  private mutating func removeDuplicates() {
    func occurrences<T: Hashable>(_ values: [T]) -> (unique: [T], counts: [T: Int]) {
      var counts: [T: Int] = [:]
      var unique: [T] = []
      for value in values {
        counts[value, default: 0] += 1
        if counts[value] == 1 { unique.append(value) }
      }
      return (unique, counts)
    }
    for (verb, list) in [("delete", itemDeletes), ("insert", itemInserts)] {
      let (unique, counts) = occurrences(list)
      for op in unique where counts[op]! > 1 {
        violations.append(.duplicate(op, verb: verb, times: counts[op]!, words))
      }
      // Legacy UITableView removes duplicates silently; modern UICollectionView counts each copy.
      if model == .legacy {
        if verb == "delete" { itemDeletes = unique } else { itemInserts = unique }
      }
    }
    let reloads = occurrences(itemReloads)
    for op in reloads.unique where reloads.counts[op]! > 1 {
      violations.append(
        .duplicateEntry(
          "reload of \(words.item) (\(op.uikitDescription))", times: reloads.counts[op]!))
    }
    itemReloads = reloads.unique

    struct ItemMove: Hashable {
      var from: BatchOperation
      var to: BatchOperation
    }
    let moves = occurrences(itemMoves.map { ItemMove(from: $0.from, to: $0.to) })
    for move in moves.unique where moves.counts[move]! > 1 {
      violations.append(
        .duplicateEntry(
          "move of \(words.item) \(move.from.uikitDescription) to \(move.to.uikitDescription)",
          times: moves.counts[move]!))
    }
    itemMoves = moves.unique.map { ($0.from, $0.to) }

    struct SectionMove: Hashable {
      var from: Int
      var to: Int
    }
    let sectionMoveCounts = occurrences(sectionMoves.map { SectionMove(from: $0.from, to: $0.to) })
    for move in sectionMoveCounts.unique where sectionMoveCounts.counts[move]! > 1 {
      violations.append(
        .duplicateEntry(
          "move of section \(move.from) to section \(move.to)",
          times: sectionMoveCounts.counts[move]!))
    }
    sectionMoves = sectionMoveCounts.unique.map { ($0.from, $0.to) }
  }

  // MARK: 3. Reload → delete + insert (rule B3)

  /// Each reload's destination, by the arithmetic of rule B3. Section deletes and inserts are
  /// counted by range (an element's section shifts by the deleted sections before it, then
  /// climbs over the inserted sections at or before it), so the cost never depends on how wide
  /// the section sets are; element deletes and inserts are replayed one by one, as UIKit does.
  private mutating func computeReloads() {
    let deletedSections = sectionDeleteSet
    let insertedSections = sectionInsertSet
    let legacy = model == .legacy
    let explicitItemDeletes = Set(itemDeletes)
    let itemDeletesDescending = itemDeletes.sorted(by: >)
    let itemInsertsAscending = itemInserts.sorted()
    let reloads = (sectionReloads.map(BatchOperation.section) + itemReloads).sorted()
    for reload in reloads {
      let conflicts =
        reload.isSection
        ? deletedSections.contains(reload.section) : explicitItemDeletes.contains(reload)
      // UIKit raises on a delete + reload conflict; later checks skip the reload.
      if conflicts {
        violations.append(.deleteAndReload(reload))
        continue
      }
      // Deletes, descending: when UIKit meets an element delete in section t ≤ s, the section
      // deletes in t..<s have moved s down already; the delete counts if that brings s to t.
      var row = reload.item ?? 0
      if !reload.isSection {
        for delete in itemDeletesDescending where delete.section <= reload.section {
          let current =
            reload.section - deletedSections.count(in: delete.section..<reload.section)
          if delete.section == current, delete.item! <= row,
            legacy || !deletedSections.contains(delete.section)
          {
            row -= 1
          }
        }
      }
      var section = reload.section - deletedSections.count(in: 0..<reload.section)
      // Inserts, ascending: a section insert sorts after the element inserts of its section.
      var pending = insertedSections.rangeView.makeIterator()
      var current = pending.next()
      func climb(below limit: Int?) {
        while let range = current, limit.map({ range.lowerBound < $0 }) ?? true {
          guard range.lowerBound <= section else {
            current = nil  // every later section insert is after the section: it stays put
            return
          }
          let upper = limit.map { min(range.upperBound, $0) } ?? range.upperBound
          section = Self.saturatingAdd(section, upper - range.lowerBound)
          current = upper < range.upperBound ? upper..<range.upperBound : pending.next()
        }
      }
      for insert in itemInsertsAscending {
        climb(below: insert.section)
        if !reload.isSection, insert.section == section, insert.item! <= row,
          legacy || !insertedSections.contains(insert.section)
        {
          row = Self.saturatingAdd(row, 1)
        }
      }
      climb(below: nil)
      let destination = BatchOperation(section: section, item: reload.isSection ? nil : row)
      reloadDestinations.append((reload, destination))
    }
    removedSections = Set(sectionDeletes).union(sectionReloads)
    addedSections = Set(sectionInserts)
    for (reload, destination) in reloadDestinations where reload.isSection {
      addedSections.insert(destination.section)
    }
  }

  /// `a + b`, or `Int.max` when that overflows (a destination no view has).
  private static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  // MARK: 4. Deletes (old, descending)

  private mutating func checkDeletes(_ oldCounts: [Int]?) {
    let moveSources = Set(
      itemMoves.map(\.from) + sectionMoves.map { BatchOperation.section($0.from) })
    let explicitlyDeleted = Set(sectionDeletes)
    var deletes: [(BatchOperation, Origin)] =
      sectionDeletes.map { (.section($0), .explicit) } + itemDeletes.map { ($0, .explicit) }
    deletes += reloadDestinations.map { ($0.0, .reload) }
    deletes.sort { $0.0 > $1.0 }
    for (op, origin) in deletes {
      if moveSources.contains(op) { violations.append(.deleteAndMove(op)) }
      if op.isSection {
        if let oldCounts, op.section >= oldCounts.count {
          violations.append(.deleteSectionOutOfBounds(op.section, sections: oldCounts.count))
        }
        continue
      }
      if removedSections.contains(op.section) {
        let sectionVerb = explicitlyDeleted.contains(op.section) ? "deleted" : "reloaded"
        if origin == .explicit {
          violations.append(
            .deleteOrReloadInsideRemovedSection(
              op, verb: "delete", sectionVerb: sectionVerb, words))
        } else if sectionVerb == "reloaded" {
          // A reload inside an explicitly deleted section is an unsafe error, reported later.
          violations.append(
            .deleteOrReloadInsideRemovedSection(
              op, verb: "reload", sectionVerb: sectionVerb, words))
        }
        continue
      }
      if let oldCounts {
        guard op.section < oldCounts.count else {
          violations.append(.deleteItemSectionOutOfBounds(op, sections: oldCounts.count, words))
          continue
        }
        guard op.item! < oldCounts[op.section] else {
          violations.append(.deleteItemOutOfBounds(op, count: oldCounts[op.section], words))
          continue
        }
      }
      effectiveItemDeletes.append(op)
    }
  }

  // MARK: 5. Inserts (new, ascending)

  private mutating func checkInserts(_ newCounts: [Int]?) {
    let moveDestinations = Set(
      itemMoves.map(\.to) + sectionMoves.map { BatchOperation.section($0.to) })
    let explicitlyInserted = Set(sectionInserts)
    var inserts: [(BatchOperation, Origin)] =
      sectionInserts.map { (.section($0), .explicit) } + itemInserts.map { ($0, .explicit) }
    inserts += reloadDestinations.map { ($0.1, .reload) }
    inserts.sort { $0.0 < $1.0 }
    for (op, origin) in inserts {
      if moveDestinations.contains(op) { violations.append(.insertAndMove(op)) }
      if op.isSection {
        if let newCounts, op.section < 0 || op.section >= newCounts.count {
          violations.append(.insertSectionOutOfBounds(op.section, sections: newCounts.count))
        }
        continue
      }
      if let newCounts {
        guard op.section >= 0 && op.section < newCounts.count else {
          violations.append(.insertItemSectionOutOfBounds(op, sections: newCounts.count, words))
          continue
        }
        guard op.item! >= 0 && op.item! < newCounts[op.section] else {
          violations.append(.insertItemOutOfBounds(op, count: newCounts[op.section], words))
          continue
        }
      }
      if addedSections.contains(op.section) {
        if origin == .explicit {
          let sectionVerb = explicitlyInserted.contains(op.section) ? "inserted" : "reloaded"
          violations.append(.insertInsideInsertedSection(op, sectionVerb: sectionVerb, words))
        }
        continue
      }
      effectiveItemInserts.append(op)
    }
  }

  // MARK: 6. Moves

  private mutating func checkMoves(oldCounts: [Int]?, newCounts: [Int]?) {
    for move in sectionMoves {
      if let oldCounts, move.from >= oldCounts.count {
        violations.append(.moveSectionFromOutOfBounds(move.from, sections: oldCounts.count))
      }
      if let newCounts, move.to >= newCounts.count {
        violations.append(
          .moveSectionToOutOfBounds(move.from, move.to, sections: newCounts.count))
      }
    }
    var sectionDestination: [Int: Int] = [:]
    var sectionSource: [Int: Int] = [:]
    for move in sectionMoves {
      if let first = sectionDestination[move.from] {
        violations.append(.moveSectionToTwoDestinations(move.from, first, move.to))
      } else {
        sectionDestination[move.from] = move.to
      }
      if let first = sectionSource[move.to] {
        violations.append(.moveTwoSectionsToSameDestination(first, move.from, move.to))
      } else {
        sectionSource[move.to] = move.from
      }
    }

    for (from, to) in itemMoves {
      if let oldCounts {
        if from.section >= oldCounts.count {
          violations.append(.moveItemFromSectionOutOfBounds(from, sections: oldCounts.count))
        } else if from.item! >= oldCounts[from.section] {
          violations.append(.moveItemFromOutOfBounds(from, count: oldCounts[from.section], words))
        }
      }
      if let newCounts {
        if to.section >= newCounts.count {
          violations.append(.moveItemToSectionOutOfBounds(from, to, sections: newCounts.count))
        } else if to.item! >= newCounts[to.section] {
          violations.append(
            .moveItemToOutOfBounds(from, to, count: newCounts[to.section], words))
        }
      }
      if removedSections.contains(from.section) {
        violations.append(.moveFromDeletedSection(from.section, words))
      }
      if addedSections.contains(to.section) {
        violations.append(.moveIntoInsertedSection(to.section, words))
      }
    }
    var itemDestination: [BatchOperation: BatchOperation] = [:]
    var itemSource: [BatchOperation: BatchOperation] = [:]
    for (from, to) in itemMoves {
      if let first = itemDestination[from] {
        violations.append(.moveItemToTwoDestinations(from, first, to, words))
      } else {
        itemDestination[from] = to
      }
      if let first = itemSource[to] {
        violations.append(.moveTwoItemsToSameDestination(first, from, to, words))
      } else {
        itemSource[to] = from
      }
    }
  }

  // MARK: 7. Counts (rule B7) with the section map (rule B8)

  private mutating func checkCounts(oldCounts: [Int], newCounts: [Int]) {
    let expectedSections = oldCounts.count + sectionInserts.count - sectionDeletes.count
    guard newCounts.count == expectedSections else {
      violations.append(
        .invalidNumberOfSections(
          new: newCounts.count, old: oldCounts.count, inserted: sectionInserts.count,
          deleted: sectionDeletes.count, words))
      return
    }
    buildSectionMap(oldSections: oldCounts.count, newSections: newCounts.count)

    var inserted = [Int](repeating: 0, count: newCounts.count)
    var deleted = [Int](repeating: 0, count: oldCounts.count)
    var movedIn = [Int](repeating: 0, count: newCounts.count)
    var movedOut = [Int](repeating: 0, count: oldCounts.count)
    for op in effectiveItemInserts { inserted[op.section] += 1 }
    for op in effectiveItemDeletes { deleted[op.section] += 1 }
    for (from, to) in itemMoves where oldToNew[from.section] != to.section {
      movedOut[from.section] += 1
      movedIn[to.section] += 1
    }
    for new in newCounts.indices {
      guard let old = newToOld[new], !addedSections.contains(new) else { continue }
      let expected = oldCounts[old] + inserted[new] - deleted[old] + movedIn[new] - movedOut[old]
      if newCounts[new] != expected {
        violations.append(
          .invalidNumberOfItems(
            section: new, new: newCounts[new], old: oldCounts[old], inserted: inserted[new],
            deleted: deleted[old], movedIn: movedIn[new], movedOut: movedOut[old], words))
      }
    }
  }

  /// Rule B8: deleted and reloaded old sections map to nothing, a moved section maps `from → to`,
  /// and the remaining old sections fill, in order, the new slots that are neither inserted nor
  /// move targets.
  mutating func buildSectionMap(oldSections: Int, newSections: Int) {
    oldToNew = Array(repeating: nil, count: oldSections)
    newToOld = Array(repeating: nil, count: newSections)
    for move in sectionMoves where move.from < oldSections && move.to < newSections {
      oldToNew[move.from] = move.to
      newToOld[move.to] = move.from
    }
    let movedFrom = Set(sectionMoves.map(\.from))
    let movedTo = Set(sectionMoves.map(\.to))
    let removed = removedSections
    let added = addedSections
    let remaining = (0..<oldSections).lazy.filter {
      !removed.contains($0) && !movedFrom.contains($0)
    }
    let free = (0..<newSections).lazy.filter { !added.contains($0) && !movedTo.contains($0) }
    for (old, new) in zip(remaining, free) {
      oldToNew[old] = new
      newToOld[new] = old
    }
  }

  // MARK: 8. Unsafe rules and strict warnings

  private mutating func checkUnsafeAndStrictRules() {
    let movedFrom = Set(sectionMoves.map(\.from))
    let movedTo = Set(sectionMoves.map(\.to))
    let explicitlyDeleted = Set(sectionDeletes)
    if !movedTo.isEmpty {
      for op in itemInserts where movedTo.contains(op.section) {
        violations.append(.insertIntoMovedSection(op, isReload: false, words))
      }
      for (reload, destination) in reloadDestinations
      where !reload.isSection && movedTo.contains(destination.section) {
        violations.append(.insertIntoMovedSection(destination, isReload: true, words))
      }
    }
    if !movedFrom.isEmpty || !movedTo.isEmpty {
      for (from, to) in itemMoves
      where movedFrom.contains(from.section) || movedTo.contains(to.section) {
        violations.append(.moveTouchingMovedSection(from, to, words))
      }
    }
    for op in itemReloads {
      if explicitlyDeleted.contains(op.section) {
        violations.append(.reloadInMovedOrDeletedSection(op, deleted: true, words))
      } else if movedFrom.contains(op.section) {
        violations.append(.reloadInMovedOrDeletedSection(op, deleted: false, words))
      }
    }
    for op in itemDeletes
    where movedFrom.contains(op.section) && !removedSections.contains(op.section) {
      violations.append(.deleteInMovedSection(op, words))
    }
    // A reload a move can land on the wrong cell: any, when sections move; else an element
    // reload in a section an element moves out of, or into (UIKit's arithmetic ignores moves,
    // which shift nothing in the other sections).
    let moves = itemMoves.count + sectionMoves.count
    guard moves > 0 else { return }
    let atRisk: Int
    if !sectionMoves.isEmpty {
      atRisk = itemReloads.count + sectionReloads.count
    } else {
      let sources = Set(itemMoves.map(\.from.section))
      let destinations = Set(itemMoves.map(\.to.section))
      atRisk =
        itemReloads.filter { op in
          let new = op.section < oldToNew.count ? oldToNew[op.section] : op.section
          return sources.contains(op.section) || new.map(destinations.contains) == true
        }.count
    }
    if atRisk > 0 {
      violations.append(.reloadCombinedWithMoves(reloads: atRisk, moves: moves))
    }
  }
}
