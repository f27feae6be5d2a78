import SearchSupport

/// The documents each set of words names exactly, for SPEC 2's exact rule
/// (the query's terms are exactly the words of the title or of the display
/// name, nothing left over, in any order): one probe a query finds them,
/// however far down the other rules would put them.
///
/// ```
///  buckets   [ 0 │ 5e·7 │ 0 │ 09·7 │ … ]   tag · slot + 1 (`TaggedBuckets`), at a name's signature's home
///                  title     display name
///  tag       bits 7 … 1 the signature's low seven bits · bit 0 which name (0 title, 1 display name)
/// ```
///
/// A name's words are its query terms (`Tokenizer.queryTerms`), what typing
/// it gives, as a set; its signature is a hash of them that is the same in
/// every process, so a snapshot keeps the table. Signatures collide, so a
/// document found here is checked against the query (`isExact`). Moving a
/// bucket reads its document's names again (`NamesOf`).
package struct ExactNames: Sendable {
    private var buckets = TaggedBuckets(loadPercent: Self.loadPercent)

    /// Two thirds full at most: a common name files hundreds of documents in one
    /// run of buckets, which every probe whose home falls in it walks, and
    /// fuller tables merge such runs into far longer ones.
    static let loadPercent = 67

    /// The signatures of a document's names: its title's and, when it
    /// differs, its display name's (nil where there is none).
    struct Signatures: Sendable, Equatable {
        var title: UInt32?
        var displayName: UInt32?
    }

    /// The signatures of the names of the document in a slot.
    typealias NamesOf = (UInt32) -> Signatures

    init() {}

    /// The table a snapshot kept (`storedBuckets`).
    package init(storedBuckets: [UInt32]) {
        buckets = TaggedBuckets(storedBuckets: storedBuckets, loadPercent: Self.loadPercent)
    }

    package var storedBuckets: [UInt32] { buckets.storedBuckets }
    var memoryBytes: Int { buckets.memoryBytes }
    /// How many names are filed.
    var count: Int { buckets.count }

    /// The slots filed under `signature`, some perhaps by a collision.
    func slots(named signature: UInt32) -> [UInt32] {
        buckets.slots(hash: signature, tag: Self.tag(signature, kind: 0), tagMask: 0xFE)
    }

    /// Files `slot` under each of `signatures`.
    mutating func insert(_ signatures: Signatures, slot: UInt32, namesOf: NamesOf) {
        for (kind, signature) in Self.named(signatures) {
            buckets.reserve(for: buckets.count + 1) { Self.hash(namesOf($0), tag: $1) }
            let tag = Self.tag(signature, kind: kind)
            guard case .vacant(let bucket) = buckets.probe(hash: signature, tag: tag, isKey: { _ in false }) else { continue }
            buckets.fill(bucket, tag: tag, slot: slot)
        }
    }

    /// Takes `slot` out from under each of `signatures` (those it was filed
    /// under); every slot filed is still readable through `namesOf`.
    mutating func remove(_ signatures: Signatures, slot: UInt32, namesOf: NamesOf) {
        for (kind, signature) in Self.named(signatures) {
            let tag = Self.tag(signature, kind: kind)
            guard case .found(let bucket, _) = buckets.probe(hash: signature, tag: tag, isKey: { $0 == slot }) else { continue }
            buckets.empty(bucket) { Self.hash(namesOf($0), tag: $1) }
        }
    }

    /// Room for `count` names without growing.
    mutating func reserveCapacity(_ count: Int, namesOf: NamesOf) {
        buckets.reserve(for: count) { Self.hash(namesOf($0), tag: $1) }
    }

    private static func named(_ signatures: Signatures) -> [(kind: UInt8, signature: UInt32)] {
        [(0, signatures.title), (1, signatures.displayName)].compactMap { kind, signature in signature.map { (kind, $0) } }
    }

    /// Low bits: the home is read off the top ones, which the buckets of a run mostly share.
    private static func tag(_ signature: UInt32, kind: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: signature) << 1 | kind
    }

    /// The signature a bucket with `tag` was filed under, of a document with `names`.
    private static func hash(_ names: Signatures, tag: UInt8) -> UInt32 {
        (tag & 1 == 0 ? names.title : names.displayName) ?? 0
    }
}

extension ExactNames {
    /// Whether `attributes` has a name whose words have `signature` (`fullSignature(ofTerms:)`).
    static func isNamed(_ attributes: AttributeSet, signature: UInt64) -> Bool {
        if attributes.withShownTitleUTF8({ fullSignature(ofNameUTF8: $0) }) == signature { return true }
        guard let displayName = attributes.displayName else { return false }
        var name = displayName
        return name.withUTF8 { fullSignature(ofNameUTF8: $0) } == signature
    }

    /// The signatures of the names `attributes` shows.
    static func signatures(of attributes: AttributeSet) -> Signatures {
        let title = attributes.title.flatMap(signature(ofName:))
        let displayName = attributes.displayName.flatMap(signature(ofName:))
        return Signatures(title: title, displayName: displayName == title ? nil : displayName)
    }

    /// The signature of the words of a query or name (nil for none), what
    /// the table files by: `fullSignature(ofTerms:)` folded to 32 bits.
    static func signature(ofTerms terms: [String]) -> UInt32? {
        fullSignature(ofTerms: terms).map(fold)
    }

    /// The signature of a name's words (`signature(ofTerms:)` of its query terms).
    static func signature(ofName name: String) -> UInt32? {
        var name = name
        return name.withUTF8 { fullSignature(ofNameUTF8: $0) }.map(fold)
    }

    /// The words' hashes, once each, in order of value, hashed together:
    /// the same for any order of the same words, and 64 bits, so that two
    /// sets of words that agree here are taken for the same set.
    static func fullSignature(ofTerms terms: [String]) -> UInt64? {
        var hashes = terms.map { term in
            var term = term
            return term.withUTF8 { bytes in bytes.reduce(fnvBasis) { fnv($0, $1) } }
        }
        return combine(&hashes)
    }

    /// `fullSignature(ofTerms:)` of a name's query terms, read off its
    /// bytes when they are only ASCII letters, digits and spaces (most
    /// titles), else through the tokenizer.
    static func fullSignature(ofNameUTF8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let plain = { () -> (Bool, UInt64?) in
            var hashes: [UInt64] = []
            var hash = fnvBasis
            var inWord = false
            for byte in bytes {
                if byte == 0x20 {
                    if inWord { hashes.append(hash) }
                    (hash, inWord) = (fnvBasis, false)
                } else if Tokenizer.isASCIIWord(byte) {
                    hash = fnv(hash, byte >= 65 && byte <= 90 ? byte + 32 : byte)
                    inWord = true
                } else {
                    return (false, nil)
                }
            }
            if inWord { hashes.append(hash) }
            return (true, combine(&hashes))
        }()
        return plain.0 ? plain.1 : fullSignature(ofTerms: Tokenizer.queryTerms(String(decoding: bytes, as: UTF8.self)))
    }

    private static func fold(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash ^ hash >> 32) }

    private static let fnvBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) private static func fnv(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// Word hashes, sorted and once each, hashed together (nil for none).
    private static func combine(_ hashes: inout [UInt64]) -> UInt64? {
        guard !hashes.isEmpty else { return nil }
        hashes.sort()
        var hash = fnvBasis
        var previous: UInt64?
        for word in hashes where word != previous {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            previous = word
        }
        return hash
    }
}
