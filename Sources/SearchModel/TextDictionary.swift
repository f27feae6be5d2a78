import Foundation
import SearchSupport

/// The words of an index's texts made of words (titles, display names,
/// descriptions and keywords), each given a code by how often a sample of
/// them occurs, so that a set keeps such a text as codes
/// (`PackedAttributes.compressed(with:)`).
///
/// Why: descriptions and keywords are most of an attribute set's bytes,
/// and nothing a keystroke does reads them: they are tokenised when an
/// item is indexed and shown when a result is. Coded, a word of seven
/// letters and its space take one to three bytes. Titles are read by
/// every result: decoded in one walk into a buffer on the stack
/// (`withDecoded`), they cost a keystroke a little and save more memory.
///
/// A coded text is a run of units, one for each piece between two single
/// spaces (`"a  b"` is three pieces, the middle one empty, so any text
/// comes back byte for byte):
///
/// ```
///  unit   varint  even: code << 1          a word of the dictionary
///                 odd:  length << 1 | 1    followed by `length` bytes of UTF-8
///
///  "lenou saramiber zzq"  →  [code 17 << 1] [code 2,301 << 1 (2 bytes)] [3 << 1 | 1] z z q
/// ```
///
/// The empty text is no unit at all. A dictionary never changes once
/// made: the sets coded with it keep a reference to it.
package final class TextDictionary: Sendable {
    /// Every word's bytes, one after another: word `code` is
    /// `bytes[starts[code]..<starts[code + 1]]`.
    private let bytes: [UInt8]
    private let starts: [UInt32]
    /// The codes by their words' bytes.
    private let buckets: HashBuckets

    /// Words in code order (most frequent first), each once.
    init(words: [[UInt8]]) {
        var bytes: [UInt8] = []
        var starts: [UInt32] = [0]
        starts.reserveCapacity(words.count + 1)
        for word in words {
            bytes.append(contentsOf: word)
            starts.append(UInt32(bytes.count))
        }
        // Room to read a word eight bytes at a time (`decode`).
        bytes.append(contentsOf: repeatElement(0, count: 8))
        var buckets = HashBuckets()
        buckets.reserve(for: words.count)
        bytes.withUnsafeBufferPointer { arena in
            starts.withUnsafeBufferPointer { starts in
                for code in words.indices {
                    let word = UnsafeBufferPointer(rebasing: arena[Int(starts[code])..<Int(starts[code + 1])])
                    let hash = Self.hash(word)
                    // A word named twice keeps its first code.
                    let probe = buckets.probe(hash: hash) { Self.isWord(Int($0), word, bytes: arena, starts: starts) }
                    if case .vacant(let bucket) = probe { buckets.fill(bucket, hash: hash, value: UInt32(code)) }
                }
            }
        }
        self.bytes = bytes
        self.starts = starts
        self.buckets = buckets
    }

    /// How many words it codes.
    var count: Int { starts.count - 1 }

    /// Bytes it holds (words, their starts, the table).
    package var memoryBytes: Int { bytes.capacity + starts.capacity * 4 + buckets.memoryBytes }

    /// Words worth a code in `texts` (UTF-8): those met at least twice,
    /// most frequent first (ties in byte order, so the same texts give the
    /// same dictionary), at most `limit`. Nil when none is.
    package static func trained(limit: Int = 1 << 20, texts: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> TextDictionary? {
        // Counted by string: most words fit in a string's own sixteen
        // bytes, where an array of their bytes was an allocation a word.
        var counts: [String: Int] = [:]
        texts { text in forEachPiece(of: text) { counts[String(decoding: $0, as: UTF8.self), default: 0] += 1 } }
        let words = counts.filter { $0.value >= 2 && !$0.key.isEmpty }
            .map { (word: Array($0.key.utf8), count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.word.lexicographicallyPrecedes($1.word) }
            .prefix(limit).map(\.word)
        return words.isEmpty ? nil : TextDictionary(words: Array(words))
    }

    /// `trained(limit:texts:)` on strings.
    package static func trained(on texts: [String], limit: Int = 1 << 20) -> TextDictionary? {
        trained(limit: limit) { feed in
            for var text in texts { text.withUTF8 { feed($0) } }
        }
    }

    /// The code of `word`, if it has one.
    func code(of word: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                Self.lookUp(word, hash: Self.hash(word), in: buckets, bytes: bytes, starts: starts)
            }
        }
    }

    /// Appends `text` coded to `out`, which has room for twice its bytes
    /// and three more (a piece of `n` bytes and its space take at most
    /// `n + 3`: a literal's length and its bytes).
    func encode(_ text: UnsafeBufferPointer<UInt8>, into out: inout ByteSink) {
        guard !text.isEmpty else { return }
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                Self.forEachPiece(of: text) { piece in
                    if let code = Self.lookUp(piece, hash: Self.hash(piece), in: buckets, bytes: bytes, starts: starts) {
                        out.varint(code << 1)
                    } else {
                        out.varint(piece.count << 1 | 1)
                        out.append(piece)
                    }
                }
            }
        }
    }

    /// `text` coded.
    func encoded(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { text in
            [UInt8](unsafeUninitializedCapacity: text.count * 2 + 3) { buffer, count in
                var sink = ByteSink(buffer.baseAddress!)
                encode(text, into: &sink)
                count = sink.count
            }
        }
    }

    /// The byte count of the text `coded` stands for (a walk of its units).
    func decodedCount(_ coded: UnsafeBufferPointer<UInt8>) -> Int {
        withUnits { words, wordStarts, codes in
            var total = 0
            var units = 0
            var offset = 0
            while offset < coded.count {
                total += Self.nextUnit(of: coded, at: &offset, words: words, wordStarts: wordStarts, codes: codes).count
                units += 1
            }
            return total + max(0, units - 1)
        }
    }

    /// Calls `body` with the UTF-8 of the text `coded` stands for, in a
    /// buffer that lives for the call.
    func withDecoded<R>(_ coded: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // Most texts (every result's title) fit a small buffer on the
        // stack, filled in one walk; a longer one is counted first.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.shortText) { buffer in
            if let end = decode(coded, into: buffer) { return body(UnsafeBufferPointer(rebasing: buffer[..<end])) }
            let count = decodedCount(coded)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { buffer in
                let end = decode(coded, into: buffer)
                precondition(end == count, "a coded text decodes to the bytes it counts")
                return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// Bytes of the buffer `withDecoded` tries first.
    private static let shortText = 512

    /// Writes the text `coded` stands for into `buffer`; returns its byte
    /// count, or nil when it does not fit. One walk, without a closure a
    /// unit: two walks through a closure a unit were most of a title's read.
    private func decode(_ coded: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        withUnits { words, wordStarts, codes in
            let out = buffer.baseAddress!
            let capacity = buffer.count
            var offset = 0
            var end = -1  // as if a space came before the first unit
            while offset < coded.count {
                let (source, count, isWord) = Self.nextUnit(of: coded, at: &offset, words: words, wordStarts: wordStarts, codes: codes)
                // A space before every unit but the first (which may be empty).
                guard end + 1 + count <= capacity else { return nil }
                if end >= 0 { out[end] = 0x20 }
                end += 1
                if isWord, count <= 8, end + 8 <= capacity {
                    // A word is read eight bytes at a time: the words
                    // are followed by eight bytes of room.
                    UnsafeMutableRawPointer(out + end).storeBytes(
                        of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
                } else {
                    for index in 0..<count { out[end + index] = source[index] }
                }
                end += count
            }
            return max(end, 0)
        }
    }

    /// The dictionary's words (followed by eight bytes of room), their
    /// starts, and how many there are, for a walk of coded units.
    @inline(__always)
    private func withUnits<R>(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt32>, Int) -> R) -> R {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in body(bytes.baseAddress!, starts.baseAddress!, starts.count - 1) }
        }
    }

    /// The unit of `coded` at `offset` (moved past it): a word of the
    /// dictionary, or a literal's bytes. The units are the dictionary's own
    /// writing (`encode`), so a malformed one stops the process.
    @inline(__always)
    private static func nextUnit(
        of coded: UnsafeBufferPointer<UInt8>, at offset: inout Int,
        words: UnsafePointer<UInt8>, wordStarts: UnsafePointer<UInt32>, codes: Int
    ) -> (bytes: UnsafePointer<UInt8>, count: Int, isWord: Bool) {
        let input = coded.baseAddress!
        var value = Int(input[offset])
        offset += 1
        if value >= 0x80 {
            value &= 0x7F
            var shift = 7
            while true {
                precondition(offset < coded.count && shift < 63, "a coded text is damaged")
                let byte = input[offset]
                offset += 1
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
        }
        if value & 1 == 0 {
            let code = value >> 1
            precondition(code < codes, "a coded text names a word the dictionary lacks")
            let start = Int(wordStarts[code])
            return (words + start, Int(wordStarts[code + 1]) - start, true)
        }
        let length = value >> 1
        precondition(length <= coded.count - offset, "a coded text is damaged")
        defer { offset += length }
        return (input + offset, length, false)
    }

    /// The text `coded` stands for.
    func decoded(_ coded: UnsafeBufferPointer<UInt8>) -> String {
        withDecoded(coded) { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Internals

    /// The pieces of `text` between single spaces, in order (an empty
    /// text is one empty piece).
    private static func forEachPiece(of text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        for index in text.indices where text[index] == 0x20 {
            body(UnsafeBufferPointer(rebasing: text[start..<index]))
            start = index + 1
        }
        body(UnsafeBufferPointer(rebasing: text[start...]))
    }

    /// FNV-1a over the bytes, its bits mixed at the end (the table's home
    /// bucket is the low bits): cheaper than SipHash, `Hasher`'s, for the
    /// words of every set coded.
    private static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in word {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash ^= hash >> 29
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 32
        return UInt32(truncatingIfNeeded: hash)
    }

    /// Whether word `code` is `word`.
    private static func isWord(
        _ code: Int, _ word: UnsafeBufferPointer<UInt8>, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        let start = Int(starts[code])
        let end = Int(starts[code + 1])
        return end - start == word.count && (word.isEmpty || memcmp(word.baseAddress!, bytes.baseAddress! + start, word.count) == 0)
    }

    private static func lookUp(
        _ word: UnsafeBufferPointer<UInt8>, hash: UInt32, in buckets: HashBuckets,
        bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<UInt32>
    ) -> Int? {
        let probe = buckets.probe(hash: hash) { isWord(Int($0), word, bytes: bytes, starts: starts) }
        guard case .found(_, let code) = probe else { return nil }
        return Int(code)
    }
}

/// Writes bytes into a buffer the caller made large enough.
struct ByteSink {
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always) mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    @inline(__always) mutating func varint(_ value: Int) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            byte(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        byte(UInt8(rest))
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Puts `varint(value)`'s bytes at `offset`, the bytes after it moved on.
    mutating func insertVarint(_ value: Int, at offset: Int) {
        let size = PackedWriter.varintSize(value)
        (base + offset + size).update(from: base + offset, count: count - offset)
        var rest = UInt64(value)
        for index in offset..<(offset + size) {
            base[index] = UInt8(truncatingIfNeeded: rest) | (index + 1 < offset + size ? 0x80 : 0)
            rest >>= 7
        }
        count += size
    }
}
