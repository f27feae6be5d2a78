/// Which texts the tokenizer reads as plain runs of letters and digits,
/// so that a result's highlights can be found without tokenising its title.
extension Tokenizer {
    /// Whether the tokenizer reads `bytes` as its runs of letters and
    /// digits, each a token at its byte offset: ASCII without a carriage
    /// return (`"\r\n"` is one character), without `@` (e-mail addresses
    /// are tokens whole) and without a chunk between separators written
    /// only with digits and number punctuation (numbers' digit groups are
    /// also joined into tokens). `Tokenizer.asciiIndexTokens` has the rules.
    package static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most titles have none of the bytes the rules below look for:
        // checked eight bytes at a time.
        if !containsNonPlainCandidate(bytes) { return true }
        var chunkHasDigit = false
        var chunkIsNumber = true
        for byte in bytes {
            if byte >= 0x80 || byte == 0x0D || byte == UInt8(ascii: "@") { return false }
            if byte <= 0x20 || byte == 0x7F {
                if chunkHasDigit && chunkIsNumber { return false }
                chunkHasDigit = false
                chunkIsNumber = true
                continue
            }
            if byte >= 48 && byte <= 57 {
                chunkHasDigit = true
            } else if !isNumberPunctuation(byte) {
                chunkIsNumber = false
            }
        }
        return !(chunkHasDigit && chunkIsNumber)
    }

    /// Whether `bytes` hold a byte `isPlain` must look at: one beyond
    /// ASCII, a carriage return, `@` or a digit. Eight bytes a step, the
    /// last few read into a word padded with zeros (a zero is none of those).
    static func containsNonPlainCandidate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if isNonPlainCandidate(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        guard offset < bytes.count else { return false }
        var tail: UInt64 = 0
        withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw + offset, count: bytes.count - offset)) }
        return isNonPlainCandidate(tail)
    }

    /// `containsNonPlainCandidate` for the eight bytes of `word`.
    @inline(__always)
    private static func isNonPlainCandidate(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if word & highs != 0 { return true }
        // Every byte is below 0x80 now: adding up to 0x7F carries into no
        // other byte, and a byte equal to `c` is a zero byte of `word ^ c`.
        @inline(__always) func hasByte(_ c: UInt8) -> Bool {
            let v = word ^ (ones &* UInt64(c))
            return (v &- ones) & ~v & highs != 0
        }
        if hasByte(0x0D) || hasByte(UInt8(ascii: "@")) { return true }
        let atLeast0 = (word &+ ones &* (0x80 - 0x30)) & highs
        let pastNine = (word &+ ones &* (0x80 - 0x3A)) & highs
        return atLeast0 & ~pastNine != 0
    }
}
