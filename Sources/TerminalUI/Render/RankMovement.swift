/// How a result moved between two consecutive answers (one keystroke, one
/// step of a demo): the vocabulary of type-ahead demonstrations.
public enum RankMovement: Sendable, Hashable, CustomStringConvertible {
    /// Not in the previous answer's list.
    case new
    /// Up by this many places.
    case up(Int)
    /// Down by this many places.
    case down(Int)
    /// Same place.
    case same

    public var description: String {
        switch self {
        case .new: "new"
        case .up(let n): "↑\(n)"
        case .down(let n): "↓\(n)"
        case .same: "="
        }
    }

    /// The movement of each of `current` against `previous` (identifiers in
    /// rank order), and the identifiers of `previous` that are gone.
    ///
    /// Compared over the lists as shown: a result that was below the
    /// previous cut-off counts as new.
    public static func compare(previous: [String], current: [String]) -> (movements: [RankMovement], dropped: [String]) {
        var before: [String: Int] = [:]
        for (rank, id) in previous.enumerated() where before[id] == nil { before[id] = rank }
        let movements = current.enumerated().map { rank, id -> RankMovement in
            guard let old = before[id] else { return .new }
            if old == rank { return .same }
            return old > rank ? .up(old - rank) : .down(rank - old)
        }
        let now = Set(current)
        return (movements, previous.filter { !now.contains($0) })
    }
}
