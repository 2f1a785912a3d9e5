import Foundation

/// The element counts of the presented sections, by global index, each in the narrowest of 16,
/// 32 or 64 bits that holds every count of the list: 2 bytes a section while no section holds
/// more than 65,535 elements (nearly every list a view shows), 4 while none holds more than
/// 4,294,967,295, 8 past that (a virtual section may report that many; a section of the user's,
/// a negative count).
///
/// A count that does not fit the list's width widens the whole list, once, until the list is
/// emptied (by a reload): a count reads back exactly as it was written, whatever it is. One array
/// of 16-bit units holds every width, so that a copy of the presented state retains one buffer
/// for its counts, as the `[Int]` of 8 bytes a section before it did (see `Docs/Performance.md`,
/// Memory).
struct PresentedCounts: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral {
  /// The width of every count of a list: `1 << rawValue` units of 16 bits.
  enum Width: UInt8, Comparable {
    case bits16, bits32, bits64

    /// The narrowest width that holds `count`.
    init(holding count: Int) {
      if UInt16(exactly: count) != nil {
        self = .bits16
      } else if UInt32(exactly: count) != nil {
        self = .bits32
      } else {
        self = .bits64
      }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Every count, in `1 << width.rawValue` units each, the lowest 16 bits first.
  private(set) var units: [UInt16] = []
  /// The width of every count.
  private(set) var width = Width.bits16

  /// The units a count takes, as a shift.
  private var shift: Int { Int(width.rawValue) }

  /// No count.
  init() {}

  init(arrayLiteral counts: Int...) {
    reserveCapacity(counts.count)
    for count in counts { append(count) }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }
  var count: Int { units.count &>> shift }

  /// The count of section `index`; traps when out of range, as an array does (the array of
  /// units checks every index read or written).
  ///
  /// Read and written with the units' own subscripts, inlined: with its wider reads in a call
  /// that passed the list, the units were retained and released on every read (a single change
  /// 5,284 instructions instead of 5,178, lookups 1.980 G instead of 1.905 G; callgrind, see
  /// `Docs/Performance.md`).
  subscript(index: Int) -> Int {
    @inline(__always) get {
      switch width {
      case .bits16:
        return Int(units[index])
      case .bits32:
        let first = index &<< 1
        return Int(units[first]) | Int(units[first + 1]) &<< 16
      case .bits64:
        let first = index &<< 2
        let low = UInt64(units[first]) | UInt64(units[first + 1]) &<< 16
        let high = UInt64(units[first + 2]) | UInt64(units[first + 3]) &<< 16
        return Int(bitPattern: UInt(truncatingIfNeeded: low | high &<< 32))
      }
    }
    @inline(__always) set {
      if width == .bits16, let unit = UInt16(exactly: newValue) {
        units[index] = unit
      } else {
        setWide(newValue, at: index)
      }
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

  mutating func append(_ count: Int) {
    if width == .bits16, let unit = UInt16(exactly: count) {
      units.append(unit)
      return
    }
    widen(toHold: count)
    units.append(contentsOf: repeatElement(0, count: 1 &<< shift))
    store(count, at: self.count - 1)
  }

  mutating func insert(_ count: Int, at index: Int) {
    if width == .bits16, let unit = UInt16(exactly: count) {
      units.insert(unit, at: index)
      return
    }
    precondition(
      index >= 0 && index <= self.count,
      "PresentedCounts.insert: index \(index) out of range 0...\(self.count)")
    widen(toHold: count)
    units.insert(contentsOf: repeatElement(0, count: 1 &<< shift), at: index &<< shift)
    store(count, at: index)
  }

  mutating func removeSubrange(_ range: Range<Int>) {
    units.removeSubrange((range.lowerBound &<< shift)..<(range.upperBound &<< shift))
  }

  /// Empties the list, keeping the capacity of its storage; its next counts start at 16 bits.
  mutating func removeAll(keepingCapacity keepCapacity: Bool) {
    units.removeAll(keepingCapacity: keepCapacity)
    width = .bits16
  }

  mutating func reserveCapacity(_ capacity: Int) {
    units.reserveCapacity(capacity &<< shift)
  }

  /// Writes `count` at `index` (in range), widening the list first when it does not fit.
  @inline(never)
  private mutating func setWide(_ count: Int, at index: Int) {
    precondition(
      index >= 0 && index < self.count,
      "PresentedCounts: index \(index) out of range 0..<\(self.count)")
    widen(toHold: count)
    store(count, at: index)
  }

  /// Writes `count`, which fits the list's width, into the units of `index`.
  private mutating func store(_ count: Int, at index: Int) {
    let first = index &<< shift
    var bits = UInt(bitPattern: count)
    for unit in first..<(first + (1 &<< shift)) {
      units[unit] = UInt16(truncatingIfNeeded: bits)
      bits &>>= 16
    }
  }

  /// Rewrites every count at the width that holds `count` too, when the list is narrower.
  @inline(never)
  private mutating func widen(toHold count: Int) {
    let needed = Width(holding: count)
    guard needed > width else { return }
    let old = Array(self)
    width = needed
    units = []
    units.reserveCapacity((old.count + 1) &<< shift)
    units.append(contentsOf: repeatElement(0, count: old.count &<< shift))
    for (index, count) in old.enumerated() { store(count, at: index) }
  }
}
