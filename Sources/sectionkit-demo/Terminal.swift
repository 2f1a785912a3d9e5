import Foundation
import SectionKitConsole

extension StandardOutput {
  /// Writes `text` and a newline.
  func writeLine(_ text: String) {
    var stream = self
    stream.write(text + "\n")
  }
}

/// Standard error, for diagnostics.
struct StandardError {
  /// Writes `text` and a newline.
  func writeLine(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
