import Foundation

// Internal spellings of `[section, item]` index paths. They avoid UIKit's `init(item:section:)`,
// `section` and `item` (absent from Foundation on Linux and declared publicly by SectionKit),
// so a file importing both modules is never ambiguous.
extension IndexPath {
  init(layoutSection section: Int, item: Int) {
    self.init(indexes: [section, item])
  }

  var layoutSection: Int { self[0] }
  var layoutItem: Int { self[1] }
}
