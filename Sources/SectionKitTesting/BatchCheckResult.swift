import Foundation

/// The outcome of ``BatchValidator/check(old:new:changeset:strict:)``: the batch's violations and,
/// when it validates, the first cell where UIKit's replay differs from the model.
public struct BatchCheckResult: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Every violation, errors first.
  public var violations: [BatchViolation]
  /// The first cell (in index-path order) where the replay differs from the new values; `nil`
  /// when they agree or when the batch has errors (no replay).
  public var mismatch: ReplayMismatch?
  /// Whether strict warnings count as failures.
  public var strict: Bool

  /// Creates a result.
  public init(violations: [BatchViolation], mismatch: ReplayMismatch?, strict: Bool) {
    self.violations = violations
    self.mismatch = mismatch
    self.strict = strict
  }

  /// The violations that are errors.
  public var errors: [BatchViolation] { violations.filter(\.isError) }
  /// The violations that are strict warnings.
  public var warnings: [BatchViolation] { violations.filter { !$0.isError } }

  /// The violations that fail the check: the errors, plus the strict warnings in strict mode.
  public var failingViolations: [BatchViolation] { strict ? violations : errors }

  /// Whether the batch is valid (no failing violation) and replays onto the new values exactly.
  public var isSuccess: Bool { failingViolations.isEmpty && mismatch == nil }

  /// `passed`, or one line per failing violation and the mismatch.
  public var description: String {
    guard !isSuccess else { return "passed" }
    var lines = failingViolations.map(\.description)
    if let mismatch { lines.append(mismatch.description) }
    return lines.joined(separator: "\n")
  }
}
