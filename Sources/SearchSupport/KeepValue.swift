/// Keeps a value the optimiser would otherwise find unused, and with it
/// the loads that made it: loads made together so that their cache misses
/// overlap, for code that reads the same memory next (`TokenTrie`'s walk
/// reads each child's node ahead, `SearchEngine.gather` each result's
/// document and attribute set).
@_optimize(none)
public func keepValue(_ value: UInt32) {}
