import Foundation
import Testing

@testable import SectionKit

/// The bytes every section costs: the instance sizes of the objects a section brings (a built-in
/// section, which is its own link; another section and its link) and of the values stored per
/// section, so that a change that makes them larger
/// fails here (the per-section figure of `Docs/Performance.md` is the sum of these).
@Suite("Memory per section: instance sizes and stored layouts")
struct MemoryLayoutTests {
  /// Two probes check where the runtime keeps the instance size before it is read for the types
  /// of the library.
  @Test func theInstanceSizeIsReadFromTheClassMetadata() {
    #expect(instanceSize(of: ProbeWord.self) == 24)
    #expect(instanceSize(of: ProbeWordAndByte.self) == 25)
  }

  @Test func aSectionsMutationRecordTakesTwoBytesAtTheEndOfTheObject() {
    #expect(MemoryLayout<MutationInProgress?>.size == 2)
    // A built-in section is its own link: header 16, owner 8, open brackets, position and global
    // index 4 each, the owner's kind and two marks in 1; then the mutation record 2 (in what
    // would be padding), custom delegate 8, bracket 8, elements 8. (Before the fold: the section
    // 50 and a link object of its own 54.)
    #expect(instanceSize(of: TreeLink.self) <= 37)
    #expect(instanceSize(of: ArraySection<Int>.self) <= 64)
    #expect(instanceSize(of: ArraySection<String>.self) <= 64)
    // The same, then element 8 and count 8 in place of the elements (before the fold: 58 + 54).
    #expect(instanceSize(of: SingleElementSection<Int>.self) <= 72)
  }

  @Test func aBuiltInSectionTakesSixWords() {
    // Issue 31's last cuts: the open brackets and the bracket in 2 bytes each, the custom
    // delegate in a side table (`CustomSectionDelegates`). Header 16, owner 8, position and global
    // index 4 each, open brackets 2, the owner's kind and three marks 1, the mutation record 2,
    // the bracket 2 (the last two in what would be padding), elements 8.
    #expect(MemoryLayout<UpdateBracket>.size == 2)
    #expect(instanceSize(of: TreeLink.self) <= 35)
    #expect(instanceSize(of: ArraySection<Int>.self) <= 48)
    #expect(instanceSize(of: ArraySection<String>.self) <= 48)
    #expect(instanceSize(of: SingleElementSection<Int>.self) <= 56)
  }

  @Test func aLinkStoresItsOwnerAsAnObjectAndAKind() {
    #expect(MemoryLayout<LinkOwnerKind>.size == 1)
    #expect(MemoryLayout<SectionProviderChild>.size == 16)
    // The link of a provider or a section of the user's (a built-in section has none): the
    // link's fields (37, as above) and the child 16, aligned to 8.
    #expect(instanceSize(of: ChildLink.self) <= 56)
  }

  @Test func aProviderKeepsItsChildrenInItsLinksOnly() {
    // Links, positions checked, providers counted, offsets, offsets checked, lookups counted:
    // no array of the children beside that of the links.
    #expect(MemoryLayout<ChildList>.size <= 48)
  }

  @Test func aReloadWritesTheCountsIntoTheStorageOfTheOldOnes() {
    let root = ComposedSectionProvider()
    for count in 0..<50 { root.append(ArraySection<Int>(Array(0..<count % 7))) }
    let coordinator = Coordinator(sectionProvider: root)
    let first = countsStorage(coordinator)
    // The first flush reloads: the new counts go where those of the first state were.
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    #expect(countsStorage(coordinator) == first)
    #expect(adapter.entries == [.reload(counts: (0..<50).map { $0 % 7 })])
    // A later reload with more sections than the storage holds grows it, and counts right.
    for _ in 0..<100 { root.append(ArraySection<Int>([1])) }
    coordinator.replace(sectionProvider: root)
    #expect(
      RecordingAdapter.counts(coordinator) == (0..<50).map { $0 % 7 }
        + Array(repeating: 1, count: 100))
  }

  @Test func aMappingKeepsItsListOfSectionsAtItsFinalSize() {
    // 10,000 sections under 10 providers: an array grown by appending would hold 16,384 or so.
    let root = ComposedSectionProvider()
    for _ in 0..<10 {
      let provider = ComposedSectionProvider()
      for index in 0..<1_000 { provider.append(ArraySection<Int>([index])) }
      root.append(provider)
    }
    let mapping = SectionProviderMapping(sectionProvider: root)
    #expect(mapping.sections.count == 10_000)
    #expect(mapping.sections.capacity < 10_100)
    #expect(root.sections.capacity < 10_100)
  }
}

/// The address of the coordinator's presented counts, 16 bits each (all these counts fit).
private func countsStorage(_ coordinator: Coordinator) -> UnsafePointer<UInt16>? {
  #expect(coordinator.presented.counts.width == .bits16)
  return coordinator.presented.counts.units.withUnsafeBufferPointer { $0.baseAddress }
}

/// The size the runtime allocates for an instance of `type`: the `InstanceSize` field of its
/// class metadata, after the kind, the superclass, the flags and the instance address point (on a
/// platform without Objective-C interoperability, as Linux).
private func instanceSize(of type: AnyClass) -> Int {
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
}

private final class ProbeWord {
  var word = 0
}

private final class ProbeWordAndByte {
  var word = 0
  var byte: UInt8 = 0
}
