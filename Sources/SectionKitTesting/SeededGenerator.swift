import Foundation

/// A fast, seeded, reproducible random number generator (SplitMix64), for randomized tests that
/// print their seed and can be replayed exactly.
///
/// ```swift
/// var random = SeededGenerator(seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED"))
/// print("seed:", random.seed)                    // rerun with SECTIONKIT_SEED=<seed>
/// let index = Int.random(in: 0..<10, using: &random)
/// let shuffled = [1, 2, 3].shuffled(using: &random)
/// ```
///
/// The same seed yields the same sequence on every platform and Swift version (unlike
/// `SystemRandomNumberGenerator`). Not suitable for cryptography.
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
  /// The seed the generator was created with.
  public let seed: UInt64
  private var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    self.state = seed
  }

  /// The next 64 random bits.
  ///
  /// - Complexity: O(1).
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The seed named by the environment variable `name` when it is set to a decimal or `0x`
  /// hexadecimal number; otherwise `fallback`, or a fresh random seed when `fallback` is `nil`.
  ///
  /// Print the seed a test uses, so that a failure can be reproduced by setting the variable.
  ///
  /// - Parameters:
  ///   - name: The environment variable to read.
  ///   - fallback: The seed to use when the variable is not set.
  public static func seed(fromEnvironment name: String, default fallback: UInt64? = nil)
    -> UInt64
  {
    if let text = ProcessInfo.processInfo.environment[name] {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let parsed =
        trimmed.hasPrefix("0x") ? UInt64(trimmed.dropFirst(2), radix: 16) : UInt64(trimmed)
      precondition(
        parsed != nil, "SeededGenerator: \(name)=\(text) is not a decimal or 0x-hex UInt64")
      return parsed!
    }
    return fallback ?? UInt64.random(in: .min ... .max)
  }
}
