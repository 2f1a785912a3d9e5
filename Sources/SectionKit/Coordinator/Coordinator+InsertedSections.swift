/// Element events of sections inserted in the open batch: the coordinator ignores them (the
/// section's insertion covers its elements), so where no one else would hear them, the section
/// drops them instead of sending them up the tree. Filling a section inserted in the batch then
/// costs no climb per element.
///
/// The coordinator marks the link of each section its mapping reports inserted
/// (``ChildLink/coversElementEvents``) when every node between the section and the mapping is a
/// built-in provider passing events on through its link. The mark holds only while all of this
/// stays true; every mark is cleared when the batch ends, when the mapping gets another delegate
/// (the coordinator is released or replaces its tree, or the user sets one), and when a provider
/// between gets another delegate (its parent detaches it, or the user sets one:
/// ``uncoverElementEvents(above:)``). A section removed from its parent gets a new link, unmarked,
/// when it is added again; a section in a segment switched away keeps its mark until then, but
/// its events stop at the segmented provider anyway.
extension Coordinator {
  /// Marks the links of `sections`, which the mapping reported inserted, when their element
  /// events would reach only this coordinator and it ignores them until the batch ends.
  ///
  /// - Complexity: O(s + d·p) for s sections under p distinct parents d levels deep.
  func coverElementEvents(of sections: [any Section]) {
    // Ignored until the batch ends: the reducer reads the sections as inserted, or the batch is
    // a reload.
    guard depth > 0 else { return }
    switch batchDraft {
    case .reducing, .reload: break
    case .empty, .single: return
    }
    var checked: AnyObject?
    for section in sections {
      guard let link = section.updateDelegate as? ChildLink, link.childObject === section,
        !link.coversElementEvents, let owner = link.owner
      else { continue }
      if owner !== checked {
        guard passesOnThroughLinks(owner, to: mapping) else { continue }
        checked = owner
      }
      link.coversElementEvents = true
      coveredLinks.append(link)
    }
  }

  /// Clears every mark ``coverElementEvents(of:)`` set.
  func uncoverElementEvents() {
    guard !coveredLinks.isEmpty else { return }
    for link in coveredLinks { link.coversElementEvents = false }
    coveredLinks = []
  }
}
