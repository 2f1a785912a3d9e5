import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
  extension IndexPath {
    /// An index path `[section, item]`, as UIKit and AppKit spell it.
    ///
    /// Built from one index and an append, which fill `IndexPath`'s inline storage for two
    /// indexes: `init(indexes:)` would allocate and free an array first (callgrind: about 400
    /// instructions, against about 40).
    public init(item: Int, section: Int) {
      self.init(index: section)
      append(item)
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
