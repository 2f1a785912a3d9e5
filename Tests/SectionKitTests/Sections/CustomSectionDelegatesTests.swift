import Foundation
import Testing

@testable import SectionKit

/// A delegate of the user's set on a built-in section is kept beside the section, in
/// `CustomSectionDelegates`, not in it: it still hears every event, is held weakly, and goes when
/// it is replaced, when the section reports to its parent again, or when the section is released.
@Suite("Delegates of the user's of built-in sections, kept beside them")
struct CustomSectionDelegatesTests {
  @Test func aDelegateOfTheUsersHearsEveryEventAndIsHeldWeakly() {
    let array = ArraySection<Int>([1, 2])
    let single = SingleElementSection<Int?>(element: nil)
    var log: EventRecorder? = EventRecorder()
    array.updateDelegate = log
    single.updateDelegate = log
    #expect(array.updateDelegate === log && single.updateDelegate === log)
    #expect(array.hasCustomDelegate && single.hasCustomDelegate)
    array.append(3)
    array.move(from: 0, to: 2)
    single.replace(element: 7)
    #expect(
      log?.log == [
        "begin", "insert 2", "end", "begin", "move 0->2", "end", "begin", "insert 0", "end",
      ])
    log = nil
    #expect(array.updateDelegate == nil && single.updateDelegate == nil)
    array.append(4)
  }

  @Test func aDelegateReplacedOrClearedLeavesNoEntry() {
    let section = ArraySection<Int>()
    let first = EventRecorder()
    let second = EventRecorder()
    section.updateDelegate = first
    section.updateDelegate = second
    section.append(1)
    #expect(first.log.isEmpty && second.log == ["begin", "insert 0", "end"])
    #expect(CustomSectionDelegates.shared.delegate(of: section) === second)
    section.updateDelegate = nil
    #expect(!section.hasCustomDelegate)
    #expect(CustomSectionDelegates.shared.delegate(of: section) == nil)
  }

  @Test func aSectionReportingToItsParentAgainLeavesNoEntry() {
    let root = ComposedSectionProvider()
    let section = ArraySection<Int>([1])
    root.append(section)
    let link = section.updateDelegate
    let log = EventRecorder()
    section.updateDelegate = log
    #expect(!section.reportsToOwner && section.hasCustomDelegate)
    section.updateDelegate = link
    #expect(section.reportsToOwner && !section.hasCustomDelegate)
    #expect(CustomSectionDelegates.shared.delegate(of: section) == nil)
    section.append(2)
    #expect(log.log.isEmpty)
    #expect(root.numberOfElements(inSection: 0) == 2)
  }

  @Test func aReleasedSectionRemovesItsEntry() {
    let log = EventRecorder()
    var identity: ObjectIdentifier?
    do {
      let section = ArraySection<Int>()
      section.updateDelegate = log
      identity = ObjectIdentifier(section)
      #expect(CustomSectionDelegates.shared.hasEntry(for: identity!))
    }
    #expect(!CustomSectionDelegates.shared.hasEntry(for: identity!))
  }
}
