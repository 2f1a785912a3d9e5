import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `IndexPath` literals in tests: `[0, 1]`.
func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(indexes: [section, item]) }

func move(_ from: IndexPath, _ to: IndexPath) -> Changeset.Move {
  Changeset.Move(from: from, to: to)
}

func validate(
  _ oldCounts: [Int], _ newCounts: [Int], _ changeset: Changeset,
  model: BatchValidator.Model = .modern
) -> [BatchViolation] {
  BatchValidator(model: model).validate(
    oldCounts: oldCounts, newCounts: newCounts, changeset: changeset)
}

/// Expects the batch to be rejected, with `rule` as its first error (the exception UIKit raises)
/// and, when given, exactly `message`. Returns the violations.
@discardableResult
func expectRejected(
  _ rule: BatchViolation.Rule, _ oldCounts: [Int], _ newCounts: [Int], _ changeset: Changeset,
  message: String? = nil, model: BatchValidator.Model = .modern,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [BatchViolation] {
  let violations = validate(oldCounts, newCounts, changeset, model: model)
  let first = violations.first(where: \.isError)
  #expect(first?.rule == rule, "\(violations)", sourceLocation: sourceLocation)
  if let message {
    #expect(first?.message == message, sourceLocation: sourceLocation)
  }
  return violations
}

/// Expects `rule` among the violations, with its default severity.
func expectViolation(
  _ rule: BatchViolation.Rule, _ oldCounts: [Int], _ newCounts: [Int], _ changeset: Changeset,
  model: BatchValidator.Model = .modern, sourceLocation: SourceLocation = #_sourceLocation
) {
  let violations = validate(oldCounts, newCounts, changeset, model: model)
  #expect(
    violations.contains { $0.rule == rule && $0.severity == rule.severity }, "\(violations)",
    sourceLocation: sourceLocation)
}

/// Expects no violation at all (strict warnings included).
func expectClean(
  _ oldCounts: [Int], _ newCounts: [Int], _ changeset: Changeset,
  model: BatchValidator.Model = .modern, sourceLocation: SourceLocation = #_sourceLocation
) {
  let violations = validate(oldCounts, newCounts, changeset, model: model)
  #expect(violations.isEmpty, "\(violations)", sourceLocation: sourceLocation)
}

/// Expects no error, and only the given strict warnings.
func expectOnlyWarnings(
  _ rules: Set<BatchViolation.Rule>, _ oldCounts: [Int], _ newCounts: [Int],
  _ changeset: Changeset, model: BatchValidator.Model = .modern,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let violations = validate(oldCounts, newCounts, changeset, model: model)
  #expect(violations.allSatisfy { !$0.isError }, "\(violations)", sourceLocation: sourceLocation)
  #expect(Set(violations.map(\.rule)) == rules, "\(violations)", sourceLocation: sourceLocation)
}
