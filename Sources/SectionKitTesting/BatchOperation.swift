import Foundation

/// One update item as UIKit sees it: a section operation (`item == nil`, UIKit's
/// `(section, NSNotFound)`) or an element operation.
///
/// Ordered as UIKit's `compareIndexPaths:` orders update items: by section, then by item, with a
/// section operation after every element of its section.
struct BatchOperation: Hashable, Comparable {
  var section: Int
  var item: Int?

  static func section(_ section: Int) -> BatchOperation {
    BatchOperation(section: section, item: nil)
  }

  init(section: Int, item: Int?) {
    self.section = section
    self.item = item
  }

  /// Precondition: `indexPath` is `[section, item]`.
  init(_ indexPath: IndexPath) {
    self.init(section: indexPath[0], item: indexPath[1])
  }

  var isSection: Bool { item == nil }

  /// The element path; only for element operations.
  var indexPath: IndexPath { IndexPath(indexes: [section, item!]) }

  static func < (lhs: BatchOperation, rhs: BatchOperation) -> Bool {
    (lhs.section, lhs.item ?? Int.max) < (rhs.section, rhs.item ?? Int.max)
  }

  /// UIKit's `%@` rendering of the operation's index path, without the object address:
  /// `{length = 2, path = 1 - 0}`; a section operation shows `NSNotFound` as its item.
  var uikitDescription: String {
    "{length = 2, path = \(section) - \(item ?? NSNotFound)}"
  }
}

extension IndexPath {
  /// UIKit's `%@` rendering of an index path, without the object address:
  /// `{length = 2, path = 1 - 0}`.
  var uikitDescription: String {
    "{length = \(count), path = " + map(String.init).joined(separator: " - ") + "}"
  }

  /// `[section, item]`.
  var bracketed: String {
    "[" + map(String.init).joined(separator: ", ") + "]"
  }
}
