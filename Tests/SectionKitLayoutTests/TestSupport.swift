import Foundation
import SectionKitLayout
import Testing

/// `[section, item]`.
func ip(_ section: Int, _ item: Int) -> IndexPath {
  IndexPath(indexes: [section, item])
}

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
  Rect(x: x, y: y, width: width, height: height)
}

/// The frames of one section, in item order.
func elementFrames(_ result: LayoutResult, section: Int = 0) -> [Rect] {
  result.sections[section].elements.map(\.frame)
}

/// A layout with one section repeated for every index.
func layout(_ section: LayoutSection, configuration: CompositionalLayout.Configuration = .init())
  -> CompositionalLayout
{
  CompositionalLayout(configuration: configuration, sections: [section])
}

/// A deterministic generator (SplitMix64), so failures print a seed that replays.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Golden files under `Golden/`, loaded through `Bundle.module`; `SECTIONKIT_RECORD=1`
/// rewrites them in the source tree instead of comparing.
enum Golden {
  static var recording: Bool { ProcessInfo.processInfo.environment["SECTIONKIT_RECORD"] == "1" }

  static func sourceURL(_ name: String, filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
      .appendingPathComponent(name)
  }

  static func check(
    _ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if recording {
      try actual.write(to: sourceURL(name), atomically: true, encoding: .utf8)
      return
    }
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden")
        ?? Bundle.module.url(forResource: name, withExtension: nil),
      "missing golden file \(name); run with SECTIONKIT_RECORD=1", sourceLocation: sourceLocation)
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      actual == expected, "golden \(name) differs; re-record with SECTIONKIT_RECORD=1",
      sourceLocation: sourceLocation)
  }
}
