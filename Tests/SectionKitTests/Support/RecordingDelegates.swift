import Foundation

@testable import SectionKit

/// Records a mapping's events and replays them onto a mirror of counts and section identities.
final class MappingRecorder: SectionProviderMappingDelegate {
  var events: [SectionProviderMapping.Event] = []
  var counts: [Int]
  var sections: [ObjectIdentifier]

  init(_ mapping: SectionProviderMapping) {
    counts = mapping.sections.map(\.numberOfElements)
    sections = mapping.sections.map { ObjectIdentifier($0) }
    mapping.delegate = self
  }

  func mapping(_ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event) {
    events.append(event)
    switch event {
    case .willBeginUpdating, .didEndUpdating: break
    case .invalidateAll:
      counts = mapping.sections.map(\.numberOfElements)
      sections = mapping.sections.map { ObjectIdentifier($0) }
    case .insertSections(let indexes):
      for index in indexes {
        counts.insert(mapping.section(at: index).numberOfElements, at: index)
        sections.insert(ObjectIdentifier(mapping.section(at: index)), at: index)
      }
    case .removeSections(let indexes):
      for index in indexes.reversed() {
        counts.remove(at: index)
        sections.remove(at: index)
      }
    case .element(let change, let section):
      switch change {
      case .insert: counts[section] += 1
      case .remove: counts[section] -= 1
      case .update, .reconfigure, .move: break
      }
    case .moveSection(let from, let to):
      counts.insert(counts.remove(at: from), at: to)
      sections.insert(sections.remove(at: from), at: to)
    case .reloadSections(let indexes):
      for index in indexes { counts[index] = mapping.section(at: index).numberOfElements }
    }
  }

  func take() -> [SectionProviderMapping.Event] {
    defer { events = [] }
    return events
  }
}

/// Records the events a section or provider sends to its delegate.
final class EventRecorder: SectionUpdateDelegate, SectionProviderUpdateDelegate {
  var log: [String] = []

  func willBeginUpdating(_ section: any Section) { log.append("begin") }
  func didEndUpdating(_ section: any Section) { log.append("end") }
  func invalidateAll(_ section: any Section) { log.append("invalidate") }
  func section(_ section: any Section, didInsertElementAt index: Int) {
    log.append("insert \(index)")
  }
  func section(_ section: any Section, didRemoveElementAt index: Int) {
    log.append("remove \(index)")
  }
  func section(_ section: any Section, didUpdateElementAt index: Int) {
    log.append("update \(index)")
  }
  func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
    log.append("move \(index)->\(newIndex)")
  }

  func willBeginUpdating(_ provider: any SectionProvider) { log.append("begin") }
  func didEndUpdating(_ provider: any SectionProvider) { log.append("end") }
  func invalidateAll(_ provider: any SectionProvider) { log.append("invalidate") }
  func provider(
    _ provider: any SectionProvider, didInsertSections sections: [any Section], at indexes: IndexSet
  ) { log.append("insertSections \(describe(indexes))") }
  func provider(
    _ provider: any SectionProvider, didRemoveSections sections: [any Section], at indexes: IndexSet
  ) { log.append("removeSections \(describe(indexes))") }
  func provider(
    _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
    didChange change: ElementChange
  ) { log.append("section \(sectionIndex): \(change)") }

  func take() -> [String] {
    defer { log = [] }
    return log
  }
}
