import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The coordinator's presented counts in 16 bits, widened to 32 or 64 when one needs it: every
/// count reads back as written, through the list's own edits and through a coordinator whose
/// section reports more elements than a `UInt32` holds.
@Suite("Presented counts: 2 bytes a section, exact past 16 and 32 bits")
struct PresentedCountsTests {
  /// Counts that fit in 16 bits mostly, now and then one that does not (or only just does).
  static func count(using random: inout SeededGenerator) -> Int {
    switch Int.random(in: 0..<30, using: &random) {
    case 0:
      return [-1, Int(UInt32.max) + 1, 5_000_000_000, Int.max, Int.min].randomElement(
        using: &random)!
    case 1: return [Int(UInt16.max), Int(UInt32.max)].randomElement(using: &random)!
    case 2: return Int(UInt16.max) + 1 + Int.random(in: 0..<100_000, using: &random)
    default: return Int.random(in: 0..<100, using: &random)
    }
  }

  @Test(arguments: randomizedSeeds(base: 3_100, count: 40))
  func randomEditsMatchAnArrayOfInt(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var counts = PresentedCounts()
    var reference: [Int] = []
    for step in 0..<300 {
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<30:
        let value = Self.count(using: &random)
        counts.append(value)
        reference.append(value)
      case 30..<50:
        let value = Self.count(using: &random)
        let index = Int.random(in: 0...reference.count, using: &random)
        counts.insert(value, at: index)
        reference.insert(value, at: index)
      case 50..<70 where !reference.isEmpty:
        let value = Self.count(using: &random)
        let index = Int.random(in: 0..<reference.count, using: &random)
        counts[index] = value
        reference[index] = value
      case 70..<90:
        let lower = Int.random(in: 0...reference.count, using: &random)
        let upper = Int.random(in: lower...min(reference.count, lower + 5), using: &random)
        counts.removeSubrange(lower..<upper)
        reference.removeSubrange(lower..<upper)
      case 90..<93:
        counts.removeAll(keepingCapacity: Bool.random(using: &random))
        reference.removeAll()
        #expect(counts.width == .bits16, "seed \(seed), step \(step): emptied, back to 16 bits")
      default:
        counts.reserveCapacity(reference.count + Int.random(in: 0..<10, using: &random))
      }
      let context = "seed \(seed), step \(step)"
      #expect(Array(counts) == reference, "\(context)")
      #expect(counts.count == reference.count, "\(context)")
      #expect(counts == PresentedCounts(reference), "\(context)")
      // Wide enough for every count, each in 1, 2 or 4 units of 16 bits.
      let needed = reference.map(PresentedCounts.Width.init(holding:)).max() ?? .bits16
      #expect(counts.width >= needed, "\(context)")
      #expect(counts.units.count == reference.count << counts.width.rawValue, "\(context)")
    }
  }

  @Test func eachWidthHoldsItsLargestCountAndOneMoreWidens() {
    var counts: PresentedCounts = [0, 7, Int(UInt16.max)]
    #expect(counts.width == .bits16)
    #expect(counts.units == [0, 7, UInt16.max])
    counts.append(Int(UInt16.max) + 1)
    #expect(counts.width == .bits32)
    #expect(Array(counts) == [0, 7, Int(UInt16.max), Int(UInt16.max) + 1])
    #expect(counts.units.count == 8)
    counts[0] = Int(UInt32.max)
    #expect(counts.width == .bits32)
    counts.insert(Int(UInt32.max) + 1, at: 1)
    #expect(counts.width == .bits64)
    #expect(
      Array(counts) == [
        Int(UInt32.max), Int(UInt32.max) + 1, 7, Int(UInt16.max), Int(UInt16.max) + 1,
      ])
    // From 16 bits straight to 64.
    var negative: PresentedCounts = [3]
    negative.append(-1)
    #expect(negative.width == .bits64 && Array(negative) == [3, -1])
    // Lists of different widths holding the same counts are equal.
    var narrow: PresentedCounts = [0, 1]
    var wide: PresentedCounts = [-1, 1]
    wide[0] = 0
    #expect(wide.width == .bits64 && narrow.width == .bits16)
    #expect(narrow == wide)
    narrow[1] = 2
    #expect(narrow != wide)
  }

  @Test func aCoordinatorKeepsItsCountsIn16Bits() {
    let root = ComposedSectionProvider()
    let sections = (0..<1_000).map { ArraySection<Int>(Array(0..<$0 % 5)) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    sections[3].append(9)
    root.performBatchUpdates {
      sections[4].remove(at: 0)
      root.insert(ArraySection<Int>([1, 2]), at: 0)
    }
    #expect(adapter.reloads == 1 && adapter.changesets.count == 2)
    #expect(coordinator.presented.counts.width == .bits16)
    #expect(coordinator.presented.counts.units.count == 1_001)
    #expect(MemoryLayout<UInt16>.stride * coordinator.presented.counts.units.capacity < 4_000)
  }

  /// A section of more elements than a `UInt32` holds, changed through the single-change path,
  /// the reducer and a reload.
  @Test func aCoordinatorPresentsASectionOfMoreThan32BitsOfElements() {
    final class Virtual: Section {
      weak var updateDelegate: (any SectionUpdateDelegate)?
      var numberOfElements: Int
      init(_ count: Int) { numberOfElements = count }
      func insert(at index: Int) {
        updateDelegate?.willBeginUpdating(self)
        numberOfElements += 1
        updateDelegate?.section(self, didInsertElementAt: index)
        updateDelegate?.didEndUpdating(self)
      }
    }
    let huge = 5_000_000_000
    let virtual = Virtual(huge)
    let small = ArraySection<Int>([1, 2])
    let root = ComposedSectionProvider()
    root.append(virtual)
    root.append(small)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    #expect(adapter.take() == [.reload(counts: [huge, 2])])
    #expect(coordinator.presented.counts.width == .bits64)
    #expect(coordinator.numberOfElements(inSection: 0) == huge)
    #expect(coordinator.sectionAndIndex(for: [0, huge - 1]).index == huge - 1)
    // A single change.
    virtual.insert(at: huge)
    #expect(
      adapter.take() == [
        .changeset(
          Changeset(insertedElements: [[0, huge]]), before: [huge, 2], after: [huge + 1, 2])
      ])
    // A batch through the reducer: a section inserted before it, an element into it.
    root.performBatchUpdates {
      root.insert(ArraySection<Int>([7]), at: 0)
      virtual.insert(at: 0)
      small.append(3)
    }
    #expect(
      adapter.take() == [
        .changeset(
          Changeset(
            insertedSections: [0], insertedElements: [[1, 0], [2, 2]]),
          before: [huge + 1, 2], after: [1, huge + 2, 3])
      ])
    #expect(coordinator.numberOfElements(inSection: 1) == huge + 2)
    // A reload without it: the counts are 16-bit again.
    root.remove(at: 1)
    coordinator.replace(sectionProvider: root)
    #expect(adapter.entries.last == .reload(counts: [1, 3]))
    #expect(coordinator.presented.counts.width == .bits16)
  }
}

extension PresentedCounts {
  /// The counts of `array`, in order.
  init(_ array: [Int]) {
    self.init()
    for count in array { append(count) }
  }
}
