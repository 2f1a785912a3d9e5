import Foundation

extension LayoutResult: CustomStringConvertible {
  /// A stable, line-per-view text dump: the content size, each section with its elements, then
  /// supplementary and decoration views. Numbers are rounded to 3 decimals. Used by the golden
  /// files. Any result prints, also one with an infinite viewport or a decoded one (non-finite
  /// and huge numbers as Swift writes them, e.g. `inf`, `1e+300`).
  ///
  /// - Complexity: O(views).
  public var description: String {
    func number(_ value: Double) -> String {
      // A viewport's edges may be infinite, a decoded result's numbers anything: no Int shows them.
      guard value.isFinite && abs(value) < 1e15 else { return "\(value)" }
      let rounded = (value * 1000).rounded() / 1000
      if rounded == rounded.rounded() { return String(Int(rounded)) }
      var text = String(format: "%.3f", rounded)
      while text.hasSuffix("0") { text.removeLast() }
      return text
    }
    func rect(_ frame: Rect) -> String {
      "(\(number(frame.minX)), \(number(frame.minY)), \(number(frame.width)), \(number(frame.height)))"
    }
    func path(_ indexPath: IndexPath) -> String {
      "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
    }
    var lines: [String] = []
    lines.append(
      "layout \(scrollDirection) container \(number(container.width))x\(number(container.height)) "
        + "content \(number(contentSize.width))x\(number(contentSize.height))"
        + (viewport.map { " viewport \(rect($0))" } ?? ""))
    for section in sections {
      lines.append(
        "section \(section.index) count \(section.itemCount) frame \(rect(section.frame)) content \(rect(section.contentFrame))"
      )
      if let region = section.orthogonalRegion {
        lines.append(
          "  orthogonal \(region.behavior) frame \(rect(region.frame)) content "
            + "\(number(region.contentSize.width))x\(number(region.contentSize.height))")
      }
      for element in section.elements {
        lines.append("  element \(element.item) \(rect(element.frame)) z\(element.zIndex)")
      }
    }
    for supplementary in supplementaries {
      lines.append(
        "supplementary \(supplementary.kind) \(path(supplementary.indexPath)) \(rect(supplementary.frame)) z\(supplementary.zIndex)"
      )
    }
    for decoration in decorations {
      lines.append(
        "decoration \(decoration.kind) \(path(decoration.indexPath)) \(rect(decoration.frame)) z\(decoration.zIndex)"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
