import Foundation

@testable import SectionKit

/// A coordinator over `sections`, appended in order to one composed provider (its
/// `sectionProvider`), with `adapter` attached.
func coordinate(_ sections: [any Section], adapter: (any ViewAdapter)? = nil) -> Coordinator {
  let root = ComposedSectionProvider()
  for section in sections { root.append(section) }
  let coordinator = Coordinator(sectionProvider: root)
  coordinator.adapter = adapter
  return coordinator
}

extension Coordinator {
  /// The root of a tree built by ``coordinate(_:adapter:)``.
  var root: ComposedSectionProvider { sectionProvider as! ComposedSectionProvider }
}
