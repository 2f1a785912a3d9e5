import SectionKit
import SectionKitTesting

extension TestAdapter {
  /// A strict adapter, except for the one warning the coordinator relies on: a reload in a batch
  /// with moves, kept only where UIKit's arithmetic lands it right — the replay proves it. Every
  /// other failure goes to `record`.
  static func toleratingReloadsWithMoves(record: @escaping (TestAdapterFailure) -> Void)
    -> TestAdapter
  {
    TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves], onFailure: record)
  }
}
