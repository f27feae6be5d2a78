import Foundation

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes start with `text`'s UTF-8. A `memcmp`: the
    /// generic `starts(with:)` over a string's UTF-8 view cost more than
    /// the rest of a token's test in a result's highlights.
    @inlinable @inline(__always)
    package func starts(withUTF8Of text: String) -> Bool {
        var text = text
        return text.withUTF8 { prefix in
            prefix.count <= count && (prefix.isEmpty || memcmp(baseAddress!, prefix.baseAddress!, prefix.count) == 0)
        }
    }
}
