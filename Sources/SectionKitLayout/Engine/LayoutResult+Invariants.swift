import Foundation

extension LayoutResult {
  /// Checks the result's internal consistency: sections in order, elements sorted by item and
  /// within range, frames finite. Compiled under `SECTIONKIT_INTERNAL_CHECKS`.
  func checkInvariants(itemCounts: [Int]) {
    precondition(
      sections.count == itemCounts.count,
      "LayoutResult: \(sections.count) sections for \(itemCounts.count) counts")
    for (index, section) in sections.enumerated() {
      precondition(
        section.index == index, "LayoutResult: section \(section.index) at position \(index)")
      precondition(
        section.itemCount == itemCounts[index], "LayoutResult: section \(index) count mismatch")
      var previous = -1
      for element in section.elements {
        precondition(
          element.item > previous && element.item < section.itemCount,
          "LayoutResult: element \(element.item) of section \(index) out of order or range 0..<\(section.itemCount)"
        )
        precondition(
          element.frame.minX.isFinite && element.frame.maxY.isFinite,
          "LayoutResult: non-finite frame")
        previous = element.item
      }
      if viewport == nil {
        precondition(
          section.elements.count == section.itemCount,
          "LayoutResult: section \(index) lays out \(section.elements.count) of \(section.itemCount) elements"
        )
      }
    }
  }
}
