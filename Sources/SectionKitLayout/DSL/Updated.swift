/// `base` with the value at `keyPath` replaced by `value`: the body of every DSL modifier, which
/// returns a modified copy and never loses what was set before it.
func updated<Base, Value>(_ base: Base, _ keyPath: WritableKeyPath<Base, Value>, _ value: Value)
  -> Base
{
  var copy = base
  copy[keyPath: keyPath] = value
  return copy
}
