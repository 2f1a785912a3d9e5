/// What a built-in section in a built-in parent returns as its ``Section/updateDelegate``: the
/// section is its own link (``TreeLink``), so no delegate object exists; this view stands for it,
/// made when the delegate is read. Calling it carries the call up from the section's link, as
/// calling the link of any other child does; setting it back as the section's delegate (after a
/// delegate of the user's, say) makes the section report to its parent again.
final class SectionLinkDelegate: SectionUpdateDelegate {
  /// The section's own link: the section.
  let link: TreeLink

  init(_ link: TreeLink) { self.link = link }

  func willBeginUpdating(_ section: any Section) { link.carry(Hop(begin: true)) }
  func didEndUpdating(_ section: any Section) { link.carry(Hop(end: true)) }
  func invalidateAll(_ section: any Section) { link.carry(Hop(event: .invalidateAll)) }
  func section(_ section: any Section, didInsertElementAt index: Int) {
    link.carryElement(.insert(index))
  }
  func section(_ section: any Section, didRemoveElementAt index: Int) {
    link.carryElement(.remove(index))
  }
  func section(_ section: any Section, didUpdateElementAt index: Int) {
    link.carryElement(.update(index))
  }
  func section(_ section: any Section, didReconfigureElementAt index: Int) {
    link.carryElement(.reconfigure(index))
  }
  func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
    link.carryElement(.move(from: index, to: newIndex))
  }
}

extension TreeLink {
  /// The delegate of a built-in section that is this link: the view of the link while the section
  /// reports to its owner, otherwise the delegate of the user's (``CustomSectionDelegates``).
  final var sectionDelegate: (any SectionUpdateDelegate)? {
    if reportsToOwner { return SectionLinkDelegate(self) }
    guard hasCustomDelegate else { return nil }
    return CustomSectionDelegates.shared.delegate(of: self) as? any SectionUpdateDelegate
  }

  /// Sets the delegate of a built-in section that is this link to `delegate`: the section reports
  /// to its owner again when `delegate` is the view of this link (and an owner is there);
  /// otherwise `delegate`, held weakly, is the delegate of the user's.
  final func setSectionDelegate(_ delegate: (any SectionUpdateDelegate)?) {
    if let view = delegate as? SectionLinkDelegate, view.link === self, ownerObject != nil {
      reportsToOwner = true
      setCustomDelegate(nil)
      return
    }
    reportsToOwner = false
    setCustomDelegate(delegate)
  }

  /// Keeps `delegate` (or none) as the delegate of the user's of this built-in section.
  private func setCustomDelegate(_ delegate: AnyObject?) {
    guard delegate != nil || hasCustomDelegate else { return }
    CustomSectionDelegates.shared.set(delegate, of: self)
  }
}
