import Foundation

/// The first cell where UIKit's replay of a batch differs from the model (see
/// ``BatchValidator/check(old:new:changeset:strict:)``).
public struct ReplayMismatch: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The new index path of the cell.
  public var indexPath: IndexPath
  /// What the model holds there (`String(describing:)`).
  public var expected: String
  /// What the view would show there after UIKit applies the batch (`String(describing:)`).
  public var actual: String

  /// Creates a mismatch.
  public init(indexPath: IndexPath, expected: String, actual: String) {
    self.indexPath = indexPath
    self.expected = expected
    self.actual = actual
  }

  /// `replay mismatch at [s, i]: expected …, got …`.
  public var description: String {
    "replay mismatch at \(indexPath.bracketed): expected \(expected), got \(actual)"
  }
}
