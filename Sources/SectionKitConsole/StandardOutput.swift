import Foundation

/// A `TextOutputStream` that writes to the process's standard output, unbuffered.
///
/// Each `write` goes straight to file descriptor 1 through `FileHandle`, so there is no shared
/// buffer and no global mutable state. Text written with `print` goes through the C library's
/// buffer instead, and can come out in a different order when standard output is a pipe: write
/// through one or the other (the adapter's ``ConsoleAdapter/announce(_:)`` writes through the
/// adapter's own stream).
public struct StandardOutput: TextOutputStream, Sendable {
  /// Creates a stream on standard output.
  public init() {}

  /// Writes `string` as UTF-8.
  public mutating func write(_ string: String) {
    guard !string.isEmpty else { return }
    FileHandle.standardOutput.write(Data(string.utf8))
  }
}
