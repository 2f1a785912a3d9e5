import Foundation

/// The element counts of the presented sections, by global index, in 4 bytes a section.
///
/// A count that does not fit in a `UInt32` (a virtual section may report more than
/// 4,294,967,295 elements; a section of the user's, a negative count) turns every count into an
/// `Int` until the list is emptied: a count reads back exactly as it was written, whatever it is.
/// Where an `[Int]` took 8 bytes a section, this takes 4 (see `Docs/Performance.md`, Memory).
struct PresentedCounts: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral {
  /// Every count while all fit in 32 bits; empty once ``wide`` holds them.
  private(set) var narrow: [UInt32] = []
  /// Every count once one does not fit in 32 bits; empty until then.
  private(set) var wide: [Int] = []
  /// Whether ``wide`` holds the counts.
  private(set) var isWide = false

  /// No count.
  init() {}

  init(arrayLiteral counts: Int...) {
    reserveCapacity(counts.count)
    for count in counts { append(count) }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { isWide ? wide.count : narrow.count }

  /// The count of section `index`; traps when out of range, as an array does.
  subscript(index: Int) -> Int {
    get { isWide ? wide[index] : Int(narrow[index]) }
    set {
      if !isWide, let count = UInt32(exactly: newValue) {
        narrow[index] = count
        return
      }
      widen()
      wide[index] = newValue
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

  mutating func append(_ count: Int) {
    if !isWide, let narrowCount = UInt32(exactly: count) {
      narrow.append(narrowCount)
      return
    }
    widen()
    wide.append(count)
  }

  mutating func insert(_ count: Int, at index: Int) {
    if !isWide, let narrowCount = UInt32(exactly: count) {
      narrow.insert(narrowCount, at: index)
      return
    }
    widen()
    wide.insert(count, at: index)
  }

  mutating func removeSubrange(_ range: Range<Int>) {
    if isWide { wide.removeSubrange(range) } else { narrow.removeSubrange(range) }
  }

  /// Empties the list, keeping the capacity of its 32-bit storage (a wide list lets its storage
  /// go: its next counts start narrow again).
  mutating func removeAll(keepingCapacity keepCapacity: Bool) {
    narrow.removeAll(keepingCapacity: keepCapacity)
    wide = []
    isWide = false
  }

  mutating func reserveCapacity(_ capacity: Int) {
    if isWide { wide.reserveCapacity(capacity) } else { narrow.reserveCapacity(capacity) }
  }

  /// Moves every count into ``wide``, once.
  private mutating func widen() {
    guard !isWide else { return }
    wide.reserveCapacity(narrow.count + 1)
    for count in narrow { wide.append(Int(count)) }
    narrow = []
    isWide = true
  }
}
