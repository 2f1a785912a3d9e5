/// The bounds of an ``UpdateStream``: how much history it keeps for subscribers that resume, and
/// how far one subscriber may fall behind before it is moved to "needs snapshot".
public struct StreamPolicy: Hashable, Sendable {
  /// The number of recent changesets kept for subscribers that resume from a sequence number
  /// (``UpdateStream/subscribe(after:)``) and for resolving old index paths
  /// (``UpdateStream/resolve(_:at:)``). Older positions get a snapshot, or an error. Default 256.
  public var replayCapacity: Int
  /// The number of changesets one subscriber may have waiting. When one more arrives, its queue
  /// is dropped and its next update is a snapshot of the model as it is then. Default 1,024.
  public var subscriberCapacity: Int

  /// Creates a policy.
  ///
  /// - Precondition: both bounds are 0 or more.
  public init(replayCapacity: Int = 256, subscriberCapacity: Int = 1_024) {
    precondition(
      replayCapacity >= 0 && subscriberCapacity >= 0,
      "StreamPolicy.init(replayCapacity:subscriberCapacity:): bounds \(replayCapacity) and "
        + "\(subscriberCapacity) must be 0 or more")
    self.replayCapacity = replayCapacity
    self.subscriberCapacity = subscriberCapacity
  }
}
