import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
  extension IndexPath {
    /// An index path `[section, item]`, as UIKit and AppKit spell it.
    public init(item: Int, section: Int) {
      // Not `init(indexes: [section, item])`, which allocates an array for the literal.
      self = IndexPath(index: section).appending(item)
    }

    /// The section of a `[section, item]` index path.
    public var section: Int {
      get { self[0] }
      set { self[0] = newValue }
    }

    /// The item (element) of a `[section, item]` index path.
    public var item: Int {
      get { self[1] }
      set { self[1] = newValue }
    }
  }
#endif
