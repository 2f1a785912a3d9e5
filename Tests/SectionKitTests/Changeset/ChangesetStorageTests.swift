import Foundation
import Testing

@testable import SectionKit

/// A changeset holds one element part without a box, and any other in one copy-on-write box
/// (`Changeset.Storage`). What a user relies on must not depend on that: copies are independent
/// after a write to either, equality, hashing, encoding and the description see only the parts,
/// and a write in place stays in place.
@Suite struct ChangesetStorageTests {
  /// The eight parts as plain arrays (the reducer's draft): the reference a changeset is checked
  /// against.
  typealias Parts = ChangesetDraft

  /// A write to one part, applied the same way to a changeset and to its reference.
  struct Write: CustomStringConvertible {
    var description: String
    var changeset: (inout Changeset) -> Void
    var parts: (inout Parts) -> Void
  }

  /// One append to each part, in place, with a value of `seed`.
  static func writes(_ seed: Int) -> [Write] {
    let path: IndexPath = [seed, seed + 1]
    let move = Changeset.Move(from: [seed, 0], to: [seed + 1, 2])
    let range = seed..<seed + 2
    let sectionMove = Changeset.SectionMove(from: seed, to: seed + 3)
    return [
      Write(
        description: "deletedSectionRanges", changeset: { $0.deletedSectionRanges.append(range) },
        parts: { $0.deletedSectionRanges.append(range) }),
      Write(
        description: "insertedSectionRanges",
        changeset: { $0.insertedSectionRanges.append(range) },
        parts: { $0.insertedSectionRanges.append(range) }),
      Write(
        description: "reloadedSectionRanges",
        changeset: { $0.reloadedSectionRanges.append(range) },
        parts: { $0.reloadedSectionRanges.append(range) }),
      Write(
        description: "movedSections", changeset: { $0.movedSections.append(sectionMove) },
        parts: { $0.movedSections.append(sectionMove) }),
      Write(
        description: "deletedElements", changeset: { $0.deletedElements.append(path) },
        parts: { $0.deletedElements.append(path) }),
      Write(
        description: "insertedElements", changeset: { $0.insertedElements.append(path) },
        parts: { $0.insertedElements.append(path) }),
      Write(
        description: "reloadedElements", changeset: { $0.reloadedElements.append(path) },
        parts: { $0.reloadedElements.append(path) }),
      Write(
        description: "movedElements", changeset: { $0.movedElements.append(move) },
        parts: { $0.movedElements.append(move) }),
    ]
  }

  /// Changesets in every form of storage: empty, each single element part, the moves, and boxes
  /// (one holding a single part, one holding several).
  static func starts() -> [(Changeset, Parts)] {
    var starts = [(Changeset(), Parts())]
    for write in writes(10) {
      var changeset = Changeset()
      var parts = Parts()
      write.changeset(&changeset)
      write.parts(&parts)
      starts.append((changeset, parts))
    }
    // Every part, as a valid changeset (so that it decodes), written part by part.
    var several = Changeset()
    several.deletedSectionRanges = [1..<3, 7..<8]
    several.insertedSectionRanges.append(0..<1)
    several.insertedSectionRanges.append(4..<5)
    several.reloadedSectionRanges = [3..<4]
    several.movedSections = [.init(from: 5, to: 6), .init(from: 6, to: 5)]
    several.deletedElements = [[0, 1], [4, 0]]
    several.insertedElements.append([1, 0])
    several.insertedElements.append([2, 3])
    several.reloadedElements = [[0, 0], [4, 2]]
    several.movedElements = [
      .init(from: [0, 3], to: [1, 1]), .init(from: [4, 1], to: [2, 0]),
    ]
    var severalParts = Parts()
    severalParts.deletedSectionRanges = [1..<3, 7..<8]
    severalParts.insertedSectionRanges = [0..<1, 4..<5]
    severalParts.reloadedSectionRanges = [3..<4]
    severalParts.movedSections = several.movedSections
    severalParts.deletedElements = [[0, 1], [4, 0]]
    severalParts.insertedElements = [[1, 0], [2, 3]]
    severalParts.reloadedElements = [[0, 0], [4, 2]]
    severalParts.movedElements = several.movedElements
    starts.append((several, severalParts))
    #expect(several.invariantViolation() == nil)
    // A box left with one part: two element parts written, the first emptied again.
    var boxed = Changeset()
    boxed.deletedElements.append([1, 1])
    boxed.insertedElements.append([2, 2])
    boxed.deletedElements.removeAll()
    var boxedParts = Parts()
    boxedParts.insertedElements = [[2, 2]]
    starts.append((boxed, boxedParts))
    return starts
  }

  @Test func everyFormOfStorage_isReached() {
    var forms = Set<String>()
    for (changeset, _) in Self.starts() {
      switch changeset.storage {
      case .empty: forms.insert("empty")
      case .elements(_, let part): forms.insert("elements \(part)")
      case .moves: forms.insert("moves")
      case .parts: forms.insert("parts")
      }
    }
    #expect(forms.count == 6, "\(forms.sorted())")
  }

  @Test func aWriteToOneCopy_leavesTheOtherAsItWas() {
    for (start, startParts) in Self.starts() {
      for write in Self.writes(30) {
        var written = start
        let kept = written
        write.changeset(&written)
        var expected = startParts
        write.parts(&expected)
        #expect(Parts(written) == expected, "\(write) on \(start.storage)")
        #expect(Parts(kept) == startParts, "\(write) on \(start.storage)")
        #expect(Parts(start) == startParts)
        // And the other way round: the original written, the copy kept.
        var original = start
        let copy = original
        write.changeset(&original)
        #expect(Parts(original) == expected)
        #expect(Parts(copy) == startParts)
      }
    }
  }

  @Test func equalityAndHash_seeOnlyTheParts() {
    for (start, parts) in Self.starts() {
      // The same parts, built by the initialiser (which holds a single part without a box).
      let built = Changeset(
        deletedSections: IndexSet(ranges: parts.deletedSectionRanges),
        insertedSections: IndexSet(ranges: parts.insertedSectionRanges),
        reloadedSections: IndexSet(ranges: parts.reloadedSectionRanges),
        movedSections: parts.movedSections, deletedElements: parts.deletedElements,
        insertedElements: parts.insertedElements, reloadedElements: parts.reloadedElements,
        movedElements: parts.movedElements)
      #expect(built == start, "\(start.storage)")
      #expect(built.hashValue == start.hashValue, "\(start.storage)")
      #expect(built.description == start.description)
      #expect(built.count == start.count)
      #expect(built.isEmpty == start.isEmpty)
      for write in Self.writes(40) {
        var other = start
        write.changeset(&other)
        #expect(other != start, "\(write) on \(start.storage)")
      }
    }
  }

  @Test func aBoxWithOnePart_equalsTheSamePartWithoutABox() throws {
    let (boxed, _) = try #require(Self.starts().last)
    guard case .parts = boxed.storage else {
      Issue.record("expected a box, got \(boxed.storage)")
      return
    }
    let single = Changeset(insertedElements: [[2, 2]])
    guard case .elements(_, .inserted) = single.storage else {
      Issue.record("expected one element part without a box, got \(single.storage)")
      return
    }
    #expect(boxed == single)
    #expect(boxed.hashValue == single.hashValue)
    var emptied = boxed
    emptied.insertedElements.removeAll()
    #expect(emptied == Changeset())
    #expect(emptied.isEmpty)
    #expect(emptied.hashValue == Changeset().hashValue)
  }

  @Test func everyFormOfStorage_roundTripsThroughCoding() throws {
    for (start, parts) in Self.starts() {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      let data = try encoder.encode(start)
      let decoded = try JSONDecoder().decode(Changeset.self, from: data)
      #expect(decoded == start)
      #expect(Parts(decoded) == parts)
      #expect(try encoder.encode(decoded) == data)
    }
  }

  @Test func emptyingTheOnlyPart_leavesAnEmptyChangeset() {
    var changeset = Changeset()
    changeset.reloadedElements.append([0, 0])
    changeset.reloadedElements.removeLast()
    #expect(changeset.isEmpty)
    #expect(changeset == Changeset())
    #expect(changeset.description == "no changes")
    changeset.movedElements.append(.init(from: [0, 0], to: [0, 1]))
    changeset.movedElements = []
    #expect(changeset.isEmpty)
    guard case .empty = changeset.storage else {
      Issue.record("expected no storage, got \(changeset.storage)")
      return
    }
  }

  /// A write in place keeps the array's buffer: reserved room is still there on the next read,
  /// in each form of storage.
  @Test func reservedCapacity_isKept() {
    for (start, _) in Self.starts() {
      var changeset = start
      changeset.insertedElements.reserveCapacity(64)
      #expect(changeset.insertedElements.capacity >= 64, "\(start.storage)")
      changeset.movedElements.reserveCapacity(64)
      #expect(changeset.movedElements.capacity >= 64, "\(start.storage)")
    }
  }

  /// The section sets stored in a shared box are stored in a copy of it: the other changeset
  /// keeps its own answer.
  @Test func storingSectionSets_inASharedBox_copiesIt() {
    var changeset = Changeset()
    changeset.deletedSectionRanges = [1..<3]
    let copy = changeset
    changeset.storeSectionSets()
    changeset.deletedSectionRanges.append(5..<6)
    #expect(changeset.deletedSections == [1, 2, 5])
    #expect(copy.deletedSections == [1, 2])
    #expect(copy.deletedSectionRanges == [1..<3])
  }

  /// What a batch of one element change hands the adapter holds its one part without a box.
  @Test func aSingleChange_isHandedOutWithoutABox() {
    let adapter = RecordingAdapter()
    let section = ArraySection([1, 2, 3])
    let coordinator = coordinate([section], adapter: adapter)
    section.append(4)
    section.remove(at: 0)
    section[0] = 9
    section.move(from: 0, to: 2)
    let changesets = adapter.changesets.suffix(4)
    #expect(
      Array(changesets) == [
        Changeset(insertedElements: [[0, 3]]), Changeset(deletedElements: [[0, 0]]),
        Changeset(reloadedElements: [[0, 0]]),
        Changeset(movedElements: [.init(from: [0, 0], to: [0, 2])]),
      ])
    for changeset in changesets {
      switch changeset.storage {
      case .elements, .moves: break
      case .empty, .parts: Issue.record("\(changeset) is held as \(changeset.storage)")
      }
    }
    withExtendedLifetime(coordinator) {}
  }

  /// An adapter that reads each changeset and keeps none: where the array of each insert is.
  final class ForgetfulAdapter: ViewAdapter {
    var buffers: [UnsafeRawPointer?] = []
    var parts: [Changeset] = []
    func reloadData(from coordinator: Coordinator) {}
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      updateData()
      if !changeset.insertedElements.isEmpty {
        buffers.append(
          changeset.insertedElements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
      }
      // Copied element by element, so that no array of the changeset is kept.
      parts.append(
        Changeset(
          deletedElements: changeset.deletedElements.map { $0 },
          insertedElements: changeset.insertedElements.map { $0 }))
    }
  }

  /// Single changes that nobody keeps are built in the array of the one before, which the
  /// coordinator keeps meanwhile; every changeset is still right.
  @Test func singleChangesNobodyKeeps_reuseOneArray() {
    let adapter = ForgetfulAdapter()
    let section = ArraySection([1, 2, 3])
    let coordinator = coordinate([section], adapter: adapter)
    var spares: [UnsafeRawPointer?] = []
    for value in 4...8 {
      section.append(value)
      #expect(coordinator.spareArrays.paths.isEmpty)
      #expect(coordinator.spareArrays.paths.capacity > 0)
      spares.append(
        coordinator.spareArrays.paths.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
    }
    section.remove(at: 0)
    #expect(
      adapter.parts == [
        Changeset(insertedElements: [[0, 3]]), Changeset(insertedElements: [[0, 4]]),
        Changeset(insertedElements: [[0, 5]]), Changeset(insertedElements: [[0, 6]]),
        Changeset(insertedElements: [[0, 7]]), Changeset(deletedElements: [[0, 0]]),
      ])
    // Each insert after the first was built in the spare the one before left.
    #expect(adapter.buffers.count == 5)
    #expect(Array(adapter.buffers.dropFirst()) == Array(spares.dropLast()))
    withExtendedLifetime(coordinator) {}
  }
}

extension ChangesetDraft {
  /// The parts of `changeset`, read through its public accessors.
  init(_ changeset: Changeset) {
    self.init(
      deletedSectionRanges: changeset.deletedSectionRanges,
      insertedSectionRanges: changeset.insertedSectionRanges,
      reloadedSectionRanges: changeset.reloadedSectionRanges,
      movedSections: changeset.movedSections, deletedElements: changeset.deletedElements,
      insertedElements: changeset.insertedElements, reloadedElements: changeset.reloadedElements,
      movedElements: changeset.movedElements)
  }
}
