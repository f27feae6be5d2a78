import SearchSupport

/// An attribute set's fields packed and read in place: in an allocation
/// of its own, or with the other sets of a bulk build in a shared one
/// (`PackedStorage`).
///
/// As a box of thirteen fields (264 bytes, mostly empty optionals) plus an
/// allocation for every string over fifteen bytes and every list, the
/// attribute sets would be much of the engine. Packed, a set is its bytes
/// and one header.
///
/// ```
///  contentType · title? · displayName? · contentDescription? · keywords · thumbnail?
///  · phoneNumbers · emailAddresses · supportsPhoneCall? · rating? · relatedUniqueIdentifier?
///  · url? · extras · rankingHint?
///
///  contentType       varint: 2·index + 1 for one of `commonContentTypes`,
///                    else 2·byte count, then UTF-8
///  string            varint byte count, UTF-8
///  optional string   varint 0 for none, else byte count + 1, UTF-8
///  list              varint count, strings
///  optional bool     byte: 0 none, 1 false, 2 true
///  integer           zig-zag varint
///  optional double   byte 0 none, else 1 and 8 bytes
///  thumbnail         byte 0 none, else 1 | 2 width | 4 height | 8 byteCount | 16 caption, then
///                    format, the integers and colour, the caption string, each there if its bit is
///  format            varint: 0 none, 2·index + 1 for one of `commonImageFormats`,
///                    else 2·(byte count + 1), then UTF-8
///  colour            varint: 0 none, 1 and three bytes for "#RRGGBB" in upper-case
///                    hex, else 2·(byte count + 1), then UTF-8
///  extras            varint count, (key, value) in key order
/// ```
///
/// The tail, the fields after the lists (supportsPhoneCall to extras), is
/// left out when none of them is there: a set then ends with its lists,
/// and the tail reads as six absent marks (`absentTail`).
///
/// The encoding is canonical (extras in key order, a rating or hint of -0 as 0),
/// so two sets are equal exactly when their bytes are (a title in another
/// Unicode normalization form is another set, as its exported JSON is
/// other bytes; `String`'s equality would call them equal). Bytes that come
/// from outside (a snapshot) are checked whole before a set is made of
/// them (`validating`); a field is read by skipping those before it.
@usableFromInline package struct PackedAttributes: @unchecked Sendable {
    // Sendable: the storage is immutable once made (`make` writes the
    // bytes, nothing changes them), and a ManagedBuffer subclass cannot
    // declare itself Sendable.

    /// The allocation that holds the set: its own, or one it shares with
    /// the other sets of a bulk build (`sharing(_:codedWith:)`).
    @usableFromInline package let storage: PackedStorage
    /// Where the set's record starts among a shared storage's records (0
    /// for a storage of its own).
    @usableFromInline package let offset: UInt32

    @inlinable package init(storage: PackedStorage, offset: UInt32 = 0) {
        self.storage = storage
        self.offset = offset
    }

    /// Whether `self` and `other` are the same set in the same storage
    /// (a document built from a record shares the record's).
    package func isSameSet(as other: PackedAttributes) -> Bool { storage === other.storage && offset == other.offset }

    /// Whether the bytes are borrowed from a loaded snapshot.
    var isBorrowed: Bool { storage.withUnsafeMutablePointerToHeader { $0.pointee.isBorrowed } }

    /// The dictionary that coded this set's texts, if one did.
    package var dictionary: TextDictionary? { withBase { _, layout in layout.dictionary?.takeUnretainedValue() } }

    /// Bytes before a coded storage's own: its dictionary.
    static let dictionaryPrefix = MemoryLayout<Unmanaged<TextDictionary>>.size

    /// The byte count and tail offset: what a cursor needs of the header.
    struct Layout {
        var count: Int
        var tail: Int
        /// The dictionary of a coded set (unretained: the storage holds it).
        var dictionary: Unmanaged<TextDictionary>? = nil
    }

    /// The bytes (borrowed, the storage's elements, or a record among
    /// them) and their layout.
    @inline(__always) private func withBase<R>(_ body: (UnsafePointer<UInt8>, Layout) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { header, elements in
            let stored = header.pointee
            if stored.isShared {
                let records = stored.isBorrowed
                    ? UnsafeRawPointer(UnsafeRawPointer(elements).loadUnaligned(as: PackedStorage.Borrowed.self).bytes)
                    : UnsafeRawPointer(elements) + (stored.isCoded ? Self.dictionaryPrefix : 0)
                let record = records + Int(offset)
                let word = record.loadUnaligned(as: UInt32.self)
                let dictionary = word & PackedStorage.codedRecordFlag != 0
                    ? UnsafeRawPointer(elements).loadUnaligned(as: Unmanaged<TextDictionary>.self) : nil
                return try body(
                    (record + PackedStorage.recordHeaderSize).assumingMemoryBound(to: UInt8.self),
                    Layout(count: Int(word & PackedStorage.recordCountMask), tail: Int(word >> 16), dictionary: dictionary))
            }
            if stored.isBorrowed {
                let base = UnsafeRawPointer(elements).loadUnaligned(as: PackedStorage.Borrowed.self).bytes
                return try body(base, Layout(count: stored.count, tail: Int(stored.tail)))
            }
            if stored.isCoded {
                let dictionary = UnsafeRawPointer(elements).loadUnaligned(as: Unmanaged<TextDictionary>.self)
                return try body(
                    UnsafePointer(elements + Self.dictionaryPrefix),
                    Layout(count: stored.count, tail: Int(stored.tail), dictionary: dictionary))
            }
            return try body(UnsafePointer(elements), Layout(count: stored.count, tail: Int(stored.tail)))
        }
    }

    /// A byte of the storage's header: read only to bring it into the
    /// cache (the step before `leadingBytes`, which reads through it).
    @inlinable package var headerByte: UInt8 {
        storage.withUnsafeMutablePointers { header, _ in UInt8(truncatingIfNeeded: header.pointee.storedCount) }
    }

    /// The first packed byte plus the 33rd (or last), zero for an empty
    /// set: read only to bring the header and the bytes a result reads
    /// first (content type, title) into the cache ahead of their use.
    package var leadingBytes: UInt8 {
        withBase { base, layout in layout.count > 0 ? base[0] &+ base[min(layout.count - 1, 32)] : 0 }
    }

    /// Content types nearly every item has, written as their index (one
    /// byte instead of a dozen) and read back as these literals (every
    /// result reads its type: decoding it would be a UTF-8 check and a new
    /// string each time). Part of the packed format, so of snapshots: append
    /// only, never reorder. (Each under sixteen bytes: a string held
    /// inline, copied without a retain.)
    package static let commonContentTypes: [String] = [
        "public.item", "public.contact", "public.image", "public.movie", "public.html", "public.folder",
    ]

    /// Image formats nearly every thumbnail has, written as their index
    /// (part of the packed format: append only, never reorder).
    static let commonImageFormats: [String] = ["jpeg", "png", "heic", "gif", "webp"]

    /// The red, green and blue of a colour spelled `#RRGGBB` in upper-case
    /// hex (the one spelling packed as three bytes), else nil.
    static func packedColour(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt8, UInt8, UInt8)? {
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return nil }
        var rgb: UInt32 = 0
        for byte in utf8.dropFirst() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            rgb = rgb << 4 | UInt32(digit)
        }
        return (UInt8(truncatingIfNeeded: rgb >> 16), UInt8(truncatingIfNeeded: rgb >> 8), UInt8(truncatingIfNeeded: rgb))
    }

    /// `#RRGGBB` for a packed colour.
    static func colourString(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> String {
        String(unsafeUninitializedCapacity: 7) { out in
            out[0] = UInt8(ascii: "#")
            func spell(_ channel: UInt8, at index: Int) {
                out[index] = hexDigits[Int(channel >> 4)]
                out[index + 1] = hexDigits[Int(channel & 15)]
            }
            spell(red, at: 1)
            spell(green, at: 3)
            spell(blue, at: 5)
            return 7
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The index among `literals` of the string with these bytes, if any.
    static func literalIndex(_ utf8: UnsafeBufferPointer<UInt8>, among literals: [String]) -> Int? {
        literals.firstIndex { $0.utf8.count == utf8.count && $0.utf8.elementsEqual(utf8) }
    }

    /// The fields in packed order.
    enum Slot: Int {
        case contentType, title, displayName, contentDescription, keywords, thumbnail
        case phoneNumbers, emailAddresses, supportsPhoneCall, rating, relatedUniqueIdentifier, url, extras
        case rankingHint
    }

    /// The tail of a set that has none of its fields, as it would be
    /// written: no phone call flag, no rating, no related identifier, no
    /// URL, no extras, no ranking hint. Such a tail is left out of the bytes (canonical:
    /// never written), and a cursor at a tail field of a set without one
    /// reads these bytes instead.
    static let absentTail: StaticString = "\0\0\0\0\0\0"

    /// Whether `tail` is `absentTail`'s bytes (which are never written).
    static func isAbsentTail(_ tail: some Collection<UInt8>) -> Bool {
        tail.count == absentTail.utf8CodeUnitCount && tail.allSatisfy { $0 == 0 }
    }

    static func make(_ fields: AttributeSet.Fields) -> PackedAttributes {
        var out = PackedWriter()
        out.literal(fields.contentType, among: commonContentTypes, optional: false)
        out.optionalString(fields.title)
        out.optionalString(fields.displayName)
        out.optionalString(fields.contentDescription)
        out.list(fields.keywords)
        if let thumbnail = fields.thumbnail {
            var lead: UInt8 = 1
            if thumbnail.width != nil { lead |= 2 }
            if thumbnail.height != nil { lead |= 4 }
            if thumbnail.byteCount != nil { lead |= 8 }
            if thumbnail.caption != nil { lead |= 16 }
            out.byte(lead)
            out.literal(thumbnail.format, among: commonImageFormats, optional: true)
            if let width = thumbnail.width { out.integer(width) }
            if let height = thumbnail.height { out.integer(height) }
            if let byteCount = thumbnail.byteCount { out.integer(byteCount) }
            out.colour(thumbnail.dominantColor)
            if let caption = thumbnail.caption { out.string(caption) }
        } else {
            out.byte(0)
        }
        out.list(fields.phoneNumbers)
        out.list(fields.emailAddresses)
        let tail = out.bytes.count
        out.byte(fields.supportsPhoneCall.map { $0 ? 2 : 1 } ?? 0)
        if let rating = fields.rating {
            out.byte(1)
            out.double(rating == 0 ? 0 : rating)
        } else {
            out.byte(0)
        }
        out.optionalString(fields.relatedUniqueIdentifier)
        out.optionalString(fields.url)
        out.varint(fields.extras.count)
        for key in fields.extras.keys.sorted() {
            out.string(key)
            out.string(fields.extras[key]!)
        }
        if let hint = fields.rankingHint {
            out.byte(1)
            out.double(hint == 0 ? 0 : hint)
        } else {
            out.byte(0)
        }
        // Nearly every set has none of the tail's fields: their six
        // absent marks are left out.
        if Self.isAbsentTail(out.bytes[tail...]) { out.bytes.removeLast(out.bytes.count - tail) }
        return out.bytes.withUnsafeBytes { make(copying: $0, tail: tail) }
    }

    /// A set of `bytes` from outside, or nil unless they are exactly one
    /// packed set (every length within them, nothing left over).
    ///
    /// With an `owner` that keeps the bytes valid and unchanged while it
    /// lives, the set reads them where they lie (a loaded snapshot's sets,
    /// a large part of it, stay in the mapped file instead of being copied
    /// into fresh pages).
    package static func validating(
        _ bytes: UnsafeRawBufferPointer, tail expectedTail: Int? = nil, borrowingFrom owner: (AnyObject & Sendable)? = nil
    ) -> PackedAttributes? {
        guard let tail = wellFormedTail(bytes), expectedTail.map({ $0 == tail }) ?? true else { return nil }
        return trusting(bytes, tail: tail, borrowingFrom: owner)
    }

    /// The tail of `bytes` if they are exactly one packed set, else nil.
    package static func wellFormedTail(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var cursor = PackedCursor(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard let tail = cursor.skipAll(), cursor.isAtEnd else { return nil }
        return tail
    }

    /// A set of `bytes` as a writer packed them, whose tail (see
    /// `Header.tail`) starts at `tail`, taken without a walk: only for
    /// bytes known to be a writer's (a snapshot file whose checksum held).
    package static func trusting(
        _ bytes: UnsafeRawBufferPointer, tail: Int, borrowingFrom owner: (AnyObject & Sendable)? = nil
    ) -> PackedAttributes {
        precondition(!bytes.isEmpty && tail <= bytes.count)
        guard let owner else { return make(copying: bytes, tail: tail) }
        let buffer = PackedStorage.create(minimumCapacity: MemoryLayout<PackedStorage.Borrowed>.size) { _ in
            PackedStorage.Header(count: bytes.count, tail: tail, borrowed: true)
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            let borrowed = PackedStorage.Borrowed(
                bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), owner: .passRetained(owner as AnyObject))
            UnsafeMutableRawPointer(elements).storeBytes(of: borrowed, as: PackedStorage.Borrowed.self)
        }
        return PackedAttributes(storage: unsafeDowncast(buffer, to: PackedStorage.self))
    }

    private static func make(copying bytes: UnsafeRawBufferPointer, tail: Int, dictionary: TextDictionary? = nil) -> PackedAttributes {
        let prefix = dictionary == nil ? 0 : dictionaryPrefix
        let buffer = PackedStorage.create(minimumCapacity: prefix + bytes.count) { _ in
            PackedStorage.Header(count: bytes.count, tail: tail, borrowed: false, coded: dictionary != nil)
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            if let dictionary {
                UnsafeMutableRawPointer(elements).storeBytes(of: Unmanaged.passRetained(dictionary), as: Unmanaged<TextDictionary>.self)
            }
            (UnsafeMutableRawPointer(elements) + prefix).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        return PackedAttributes(storage: unsafeDowncast(buffer, to: PackedStorage.self))
    }

    /// `sets`, in order, with their titles, descriptions and keywords coded by
    /// `dictionary` where that makes them smaller, laid out together in
    /// storages of about a megabyte (`PackedStorage`'s shared layout).
    /// A set in a storage of its own was its object header, its own header
    /// and its dictionary's reference, and the allocator's header and
    /// rounding, where a shared record's header is 4 bytes. A set too large for a record keeps a
    /// storage of its own (`compressed(with:)`).
    ///
    /// The storage lives while any of its sets does: a set replaced or
    /// deleted leaves its bytes there until the others go too.
    package static func sharing(_ sets: some Collection<PackedAttributes>, codedWith dictionary: TextDictionary) -> [PackedAttributes] {
        var result: [PackedAttributes] = []
        result.reserveCapacity(sets.count)
        var records: [UInt8] = []
        // Room for a full storage, or for what a small batch needs (a
        // one-item update is a batch of one).
        records.reserveCapacity(min(PackedStorage.sharedBytes + 64 * 1_024, sets.count * 256))
        // Records of the storage being filled: their place in `result` and offset.
        var pending: [(index: Int, offset: UInt32)] = []
        func flush() {
            guard !pending.isEmpty else { return }
            let storage = PackedStorage.shared(records: records, dictionary: dictionary)
            for (index, offset) in pending { result[index] = PackedAttributes(storage: storage, offset: offset) }
            records.removeAll(keepingCapacity: true)
            pending.removeAll(keepingCapacity: true)
        }
        for set in sets {
            let fits = set.withBase { base, layout -> Bool in
                let canonicalDictionary = layout.dictionary?.takeUnretainedValue()
                guard canonicalDictionary == nil || canonicalDictionary === dictionary, layout.count <= PackedStorage.recordCountMask
                else { return false }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.codingRoom(layout)) { buffer in
                    var coded = false
                    var out = ByteSink(buffer.baseAddress!)
                    if canonicalDictionary == nil {
                        Self.code(base: base, layout: layout, with: dictionary, into: &out)
                        coded = out.count < layout.count
                    }
                    let bytes = coded ? UnsafeBufferPointer(start: buffer.baseAddress!, count: out.count)
                        : UnsafeBufferPointer(start: base, count: layout.count)
                    let tail = coded ? layout.tail - (layout.count - out.count) : layout.tail
                    let isCoded = coded || canonicalDictionary != nil
                    if records.count + bytes.count + PackedStorage.recordHeaderSize > PackedStorage.sharedBytes { flush() }
                    pending.append((result.count, UInt32(records.count)))
                    let word = PackedStorage.recordWord(count: bytes.count, tail: tail)!
                        | (isCoded ? PackedStorage.codedRecordFlag : 0)
                    withUnsafeBytes(of: word) { records.append(contentsOf: $0) }
                    records.append(contentsOf: bytes)
                    return true
                }
            }
            // Placeholder until its storage is made; a set that does not fit keeps its own.
            result.append(fits ? set : set.compressed(with: dictionary) ?? set)
        }
        flush()
        return result
    }

    /// This set with its titles, description and keywords coded by `dictionary`;
    /// nil when that would not make it smaller (or it is coded already).
    func compressed(with dictionary: TextDictionary) -> PackedAttributes? {
        withBase { base, layout -> PackedAttributes? in
            guard layout.dictionary == nil else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.codingRoom(layout)) { buffer in
                var out = ByteSink(buffer.baseAddress!)
                Self.code(base: base, layout: layout, with: dictionary, into: &out)
                let shrunk = layout.count - out.count
                guard shrunk > Self.dictionaryPrefix else { return nil }
                return PackedAttributes.make(
                    copying: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: out.count), tail: layout.tail - shrunk,
                    dictionary: dictionary)
            }
        }
    }

    /// Room for a set's bytes coded: the worst case, every coded text
    /// twice its bytes and three more.
    private static func codingRoom(_ layout: Layout) -> Int { layout.count * 3 + 64 }

    /// Writes the set's bytes (at `base`, laid out as `layout`, not coded)
    /// to `out` with its texts coded by `dictionary`.
    private static func code(base: UnsafePointer<UInt8>, layout: Layout, with dictionary: TextDictionary, into out: inout ByteSink) {
        rewriteCodableTexts(base: base, layout: layout, into: &out) { text, bias, out in
            // Coded in place, its length put before it afterwards.
            let start = out.count
            dictionary.encode(text, into: &out)
            out.insertVarint(out.count - start + bias, at: start)
        }
    }

    /// Writes the set's bytes (at `base`, laid out as `layout`) to `out`,
    /// each text a dictionary codes (the title, the display name, the
    /// description, then each keyword) written by `text` in place of its
    /// length and bytes: `text` gets those bytes and the bias its length
    /// is written with (1 for the three optional texts, 0 for a keyword).
    /// Coding a set and decoding it are this walk with the two ways of
    /// writing a text.
    private static func rewriteCodableTexts(
        base: UnsafePointer<UInt8>, layout: Layout, into out: inout ByteSink,
        _ text: (UnsafeBufferPointer<UInt8>, Int, inout ByteSink) -> Void
    ) {
        var cursor = PackedCursor(at: .title, in: base, header: layout)
        out.append(UnsafeBufferPointer(start: base, count: cursor.position))
        // The title, the display name and the description: optional texts.
        for _ in 0..<3 {
            if let optional = cursor.optionalUTF8() { text(optional, 1, &out) } else { out.byte(0) }
        }
        let keywords = cursor.listCount()
        out.varint(keywords)
        for _ in 0..<keywords { text(cursor.utf8(), 0, &out) }
        let rest = cursor.position
        out.append(UnsafeBufferPointer(start: base + rest, count: layout.count - rest))
    }

    /// The texts a dictionary codes (the title, the display name, the
    /// description, then each keyword), as UTF-8, decoded if they are coded.
    package func forEachCodableText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withBase { base, layout in
            var cursor = PackedCursor(at: .title, in: base, header: layout)
            cursor.withOptionalText(body)
            cursor.withOptionalText(body)
            cursor.withOptionalText(body)
            cursor.forEachListText(body)
        }
    }

    /// Whether a dictionary coded this set's titles, description and keywords.
    var isCoded: Bool { withBase { _, layout in layout.dictionary != nil } }

    /// This set as `make` packs its fields: itself, unless coded.
    var canonical: PackedAttributes {
        guard isCoded else { return self }
        return withCanonicalBytesAndTail { PackedAttributes.make(copying: $0, tail: $1) }
    }

    /// The byte count and tail offset of `canonical`, found without making it.
    package var canonicalLayout: (count: Int, tail: Int) {
        withBase { base, layout in
            guard let dictionary = layout.dictionary?.takeUnretainedValue() else { return (layout.count, layout.tail) }
            var cursor = PackedCursor(at: .title, in: base, header: layout)
            var grown = 0
            func grow(_ coded: UnsafeBufferPointer<UInt8>, bias: Int) {
                let plain = dictionary.decodedCount(coded)
                grown += PackedWriter.varintSize(plain + bias) + plain - PackedWriter.varintSize(coded.count + bias) - coded.count
            }
            for _ in 0..<3 {
                if let optional = cursor.optionalUTF8() { grow(optional, bias: 1) }
            }
            for _ in 0..<cursor.listCount() { grow(cursor.utf8(), bias: 0) }
            return (layout.count + grown, layout.tail + grown)
        }
    }

    /// Reads with a cursor placed at `slot`.
    @inline(__always) func read<R>(_ slot: Slot, _ body: (inout PackedCursor) -> R) -> R {
        withBase { base, header in
            var cursor = PackedCursor(at: slot, in: base, header: header)
            return body(&cursor)
        }
    }

    /// Bytes the set's storage holds on the heap (its object: header and,
    /// unless borrowed, its bytes: every set's, when shared) and bytes it
    /// reads from a snapshot's mapping.
    package var footprint: (owned: Int, borrowed: Int) {
        storage.withUnsafeMutablePointerToHeader { header in
            let object = HeapObject.headerBytes + MemoryLayout<PackedStorage.Header>.stride
            let count = header.pointee.count
            // A window's bytes are counted set by set (`windowBytes`): the
            // windows of two chunks of a load may overlap.
            if header.pointee.isBorrowed {
                return (object + MemoryLayout<PackedStorage.Borrowed>.size, header.pointee.isShared ? 0 : count)
            }
            return (object + (header.pointee.isCoded ? Self.dictionaryPrefix : 0) + count, 0)
        }
    }

    /// The bytes this set reads through a window over a loaded snapshot
    /// (its record's word and bytes), or 0 when it reads none that way.
    package var windowBytes: Int {
        let isWindow = storage.withUnsafeMutablePointerToHeader { $0.pointee.isShared && $0.pointee.isBorrowed }
        return isWindow ? PackedStorage.recordHeaderSize + withBytes(\.count) : 0
    }

    /// The packed bytes as they are (coded or not).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBase { base, header in try body(UnsafeRawBufferPointer(start: base, count: header.count)) }
    }

    /// The packed bytes as they are and the offset of their tail.
    func withBytesAndTail<R>(_ body: (UnsafeRawBufferPointer, Int) throws -> R) rethrows -> R {
        try withBase { base, header in try body(UnsafeRawBufferPointer(start: base, count: header.count), header.tail) }
    }

    /// The bytes `make` would pack this set's fields into, and the offset
    /// of their tail: what a snapshot keeps (it has no dictionary). A
    /// coded set's texts are decoded into a buffer for the call, the
    /// other bytes copied as they are.
    package func withCanonicalBytesAndTail<R>(_ body: (UnsafeRawBufferPointer, Int) throws -> R) rethrows -> R {
        let (count, tail) = canonicalLayout
        return try withBase { base, layout in
            guard let dictionary = layout.dictionary?.takeUnretainedValue() else {
                return try body(UnsafeRawBufferPointer(start: base, count: layout.count), layout.tail)
            }
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                var out = ByteSink(buffer.baseAddress!)
                Self.rewriteCodableTexts(base: base, layout: layout, into: &out) { coded, bias, out in
                    dictionary.withDecoded(coded) { text in
                        out.varint(text.count + bias)
                        out.append(text)
                    }
                }
                precondition(out.count == count, "a coded set decodes to the bytes its layout counts")
                return try body(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), tail)
            }
        }
    }

    /// Every field, read in packed order (arguments are evaluated left to right).
    var fields: AttributeSet.Fields {
        read(.contentType) { cursor in
            let (contentType, title, displayName) = (cursor.contentType(), cursor.optionalText(), cursor.optionalText())
            let (contentDescription, keywords, thumbnail) = (cursor.optionalText(), cursor.textList(), cursor.thumbnail())
            let (phoneNumbers, emailAddresses) = (cursor.list(), cursor.list())
            cursor.enterTail()
            return AttributeSet.Fields(
                contentType: contentType, title: title, displayName: displayName,
                contentDescription: contentDescription, keywords: keywords, thumbnail: thumbnail,
                phoneNumbers: phoneNumbers, emailAddresses: emailAddresses, supportsPhoneCall: cursor.optionalBool(),
                rating: cursor.optionalDouble(), relatedUniqueIdentifier: cursor.optionalString(),
                url: cursor.optionalString(), extras: cursor.extras(), rankingHint: cursor.optionalDouble())
        }
    }

    /// Every searchable text in `FieldText` order, as UTF-8 in place
    /// (indexing tokenises them without making a string of each).
    package func forEachSearchableText(_ body: (Field, UnsafeBufferPointer<UInt8>) -> Void) {
        withBase { base, header in
            func cursor(at slot: Slot) -> PackedCursor {
                PackedCursor(at: slot, in: base, header: header)
            }
            var titles = cursor(at: .title)
            titles.withOptionalText { body(.title, $0) }
            titles.withOptionalText { body(.title, $0) }
            var keywords = cursor(at: .keywords)
            keywords.forEachListText { body(.keywords, $0) }
            var emails = cursor(at: .emailAddresses)
            emails.forEachListUTF8 { body(.other, $0) }
            var phones = cursor(at: .phoneNumbers)
            phones.forEachListUTF8 { body(.other, $0) }
            var thumbnail = cursor(at: .thumbnail)
            if let caption = thumbnail.captionUTF8() { body(.other, caption) }
            var extras = cursor(at: .extras)
            extras.forEachExtraValueUTF8 { body(.other, $0) }
            var description = cursor(at: .contentDescription)
            description.withOptionalText { body(.contentDescription, $0) }
        }
    }

    /// Equal when their fields are: their bytes, when both are coded by
    /// the same dictionary or neither is; else their canonical bytes.
    static func == (a: PackedAttributes, b: PackedAttributes) -> Bool {
        if a.isSameSet(as: b) { return true }
        let (x, y) = a.dictionary === b.dictionary ? (a, b) : (a.canonical, b.canonical)
        return x.withBytes { x in y.withBytes { y in x.count == y.count && x.elementsEqual(y) } }
    }
}

/// The allocation behind one or more packed sets (`PackedAttributes`).
///
/// The byte count, and where `supportsPhoneCall` starts: the fields
/// after the lists (the URL and related identifier that indexing reads
/// for every item, the extras) are reached without skipping the lists.
///
/// Eight bytes: a set's own bytes follow it. A set that borrows its
/// bytes (from a loaded snapshot) marks its count, and its elements
/// hold where the bytes are and what keeps them valid instead:
///
/// ```
///  own:       object header │ count   tail │ bytes …
///  borrowed:  object header │ count|B tail │ pointer owner ──► the mapping
/// ```
///
/// (A header with the pointer and the owner beside the counts would be
/// 32 bytes for every set, nearly none of which borrows.)
///
/// A set whose titles, description and keywords a `TextDictionary` coded
/// (`compressed(with:)`) marks its count too, and holds the
/// dictionary before its bytes:
///
/// ```
///  coded:     object header │ count|C tail │ dictionary ──► TextDictionary │ bytes …
/// ```
///
/// A bulk build's sets share storages (`PackedAttributes.sharing`): the
/// header counts the records' bytes, and each record is a word of its
/// byte count (15 bits), whether the storage's dictionary coded it (1)
/// and its tail (16), then its bytes. A set is its storage and the
/// offset of its record:
///
/// ```
///  shared:    object header │ count|S|C 0 │ dictionary │ count·c·tail bytes … │ count·c·tail bytes … │ …
///                                                      ▲ offset 0             ▲ offset 4 + count
///  window:    object header │ count|S|B 0 │ pointer owner ──► records in a loaded snapshot's run of sets
/// ```
@usableFromInline package final class PackedStorage: ManagedBuffer<PackedStorage.Header, UInt8> {
    @usableFromInline package struct Header {
        @usableFromInline var storedCount: UInt32
        var tail: UInt32

        static let borrowedFlag: UInt32 = 1 << 31
        static let codedFlag: UInt32 = 1 << 30
        static let sharedFlag: UInt32 = 1 << 29
        static let flags = borrowedFlag | codedFlag | sharedFlag

        init(count: Int, tail: Int, borrowed: Bool, coded: Bool = false, shared: Bool = false) {
            precondition(count < Int(Self.sharedFlag), "an attribute set holds less than 512 MB")
            storedCount = UInt32(count) | (borrowed ? Self.borrowedFlag : 0) | (coded ? Self.codedFlag : 0)
                | (shared ? Self.sharedFlag : 0)
            self.tail = UInt32(tail)
        }

        var count: Int { Int(storedCount & ~Self.flags) }
        var isBorrowed: Bool { storedCount & Self.borrowedFlag != 0 }
        var isCoded: Bool { storedCount & Self.codedFlag != 0 }
        var isShared: Bool { storedCount & Self.sharedFlag != 0 }
    }

    /// What a borrowing set's elements hold: its bytes' place and their
    /// owner, retained while the set lives.
    struct Borrowed {
        var bytes: UnsafePointer<UInt8>
        var owner: Unmanaged<AnyObject>
    }

    /// A shared record's header: byte count, coded flag, tail.
    package static let recordHeaderSize = 4
    static let recordCountMask: UInt32 = 0x7FFF
    static let codedRecordFlag: UInt32 = 0x8000
    /// Records' bytes a shared storage is filled to (offsets stay below 2^24:
    /// a document keeps its set's offset in 24 bits).
    static let sharedBytes = 1 << 20

    deinit {
        withUnsafeMutablePointers { header, elements in
            if header.pointee.isBorrowed {
                UnsafeRawPointer(elements).loadUnaligned(as: Borrowed.self).owner.release()
            } else if header.pointee.isCoded {
                UnsafeRawPointer(elements).loadUnaligned(as: Unmanaged<TextDictionary>.self).release()
            }
        }
    }

    /// The word before a shared record's bytes, or nil when the set is
    /// too large for a record (its own storage then).
    package static func recordWord(count: Int, tail: Int) -> UInt32? {
        count <= Int(recordCountMask) && tail <= count ? UInt32(count) | UInt32(tail) << 16 : nil
    }

    /// Largest byte count of a window: a document keeps its set's offset in 24 bits.
    package static let windowLimit = (1 << 24) - 1

    /// A shared storage whose `count` bytes of records lie at `base`, in a
    /// loaded snapshot's run of sets that `owner` keeps valid (see above:
    /// each set borrowed through an object of its own would cost a cold
    /// start an allocation a set).
    package static func window(over base: UnsafeRawPointer, count: Int, owner: AnyObject & Sendable) -> PackedStorage {
        precondition(count <= windowLimit)
        let buffer = create(minimumCapacity: MemoryLayout<Borrowed>.size) { _ in
            Header(count: count, tail: 0, borrowed: true, shared: true)
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            let borrowed = Borrowed(bytes: base.assumingMemoryBound(to: UInt8.self), owner: .passRetained(owner as AnyObject))
            UnsafeMutableRawPointer(elements).storeBytes(of: borrowed, as: Borrowed.self)
        }
        return unsafeDowncast(buffer, to: PackedStorage.self)
    }

    /// A shared storage of `records` (see above), coded ones by `dictionary`.
    static func shared(records: [UInt8], dictionary: TextDictionary) -> PackedStorage {
        let prefix = PackedAttributes.dictionaryPrefix
        let buffer = create(minimumCapacity: prefix + records.count) { _ in
            Header(count: records.count, tail: 0, borrowed: false, coded: true, shared: true)
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            UnsafeMutableRawPointer(elements).storeBytes(of: Unmanaged.passRetained(dictionary), as: Unmanaged<TextDictionary>.self)
            records.withUnsafeBytes { (UnsafeMutableRawPointer(elements) + prefix).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
        return unsafeDowncast(buffer, to: PackedStorage.self)
    }
}

/// Appends fields in the packed form.
struct PackedWriter {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: Int) { unsignedVarint(UInt64(value)) }

    /// Bytes `varint(value)` writes.
    static func varintSize(_ value: Int) -> Int {
        var size = 1
        var rest = UInt64(value) >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    mutating func unsignedVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ value: String) {
        utf8(of: value, lengthBias: 0)
    }

    /// A string that is most often one of `literals` (a content type, a
    /// thumbnail's format): one of them as one varint, 2·index + 1; any
    /// other as 2·(byte count + bias) and its UTF-8, where an `optional`
    /// string's bias of 1 leaves 0 for none (see `PackedAttributes`).
    mutating func literal(_ value: String?, among literals: [String], optional: Bool) {
        guard let value else { return byte(0) }
        if let index = literals.firstIndex(of: value) { return varint(index << 1 | 1) }
        evenTaggedUTF8(of: value, bias: optional ? 1 : 0)
    }

    mutating func optionalString(_ value: String?) {
        guard let value else { return byte(0) }
        utf8(of: value, lengthBias: 1)
    }

    /// A thumbnail's colour: four bytes for `#RRGGBB` (see `PackedAttributes`).
    mutating func colour(_ value: String?) {
        guard var value else { return byte(0) }
        if let (red, green, blue) = value.withUTF8({ PackedAttributes.packedColour($0) }) {
            byte(1)
            byte(red)
            byte(green)
            byte(blue)
            return
        }
        evenTaggedUTF8(of: value, bias: 1)
    }

    /// 2·(byte count + `bias`) as a varint, then the UTF-8.
    private mutating func evenTaggedUTF8(of value: String, bias: Int) {
        var value = value
        value.withUTF8 { utf8 in
            varint((utf8.count + bias) << 1)
            bytes.append(contentsOf: utf8)
        }
    }

    /// The string's byte count plus `lengthBias` as a varint, then its UTF-8.
    private mutating func utf8(of value: String, lengthBias: Int) {
        var value = value
        value.withUTF8 { utf8 in
            varint(utf8.count + lengthBias)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func list(_ values: [String]) {
        varint(values.count)
        for value in values { string(value) }
    }

    mutating func integer(_ value: Int) {
        let wide = Int64(value)
        unsignedVarint(UInt64(bitPattern: wide << 1 ^ wide >> 63))
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads packed fields in order. Every read checks its bounds and stops
/// the process on a violation: a set is only ever made of bytes that
/// `make` wrote or that `skipAll` walked whole first.
struct PackedCursor {
    private var base: UnsafePointer<UInt8>
    private var count: Int
    private var offset = 0
    /// The dictionary that coded the set's titles, description and keywords, if
    /// one did: the `…Text` reads decode them.
    private var dictionary: Unmanaged<TextDictionary>?

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// A cursor at `slot` of a made set: from its start, or from its tail
    /// for the fields after the lists.
    init(at slot: PackedAttributes.Slot, in base: UnsafePointer<UInt8>, header: PackedAttributes.Layout) {
        self.init(base: base, count: header.count)
        dictionary = header.dictionary
        var from = PackedAttributes.Slot.contentType
        if slot.rawValue >= PackedAttributes.Slot.supportsPhoneCall.rawValue {
            offset = header.tail
            enterTail()
            from = .supportsPhoneCall
        }
        for index in from.rawValue..<slot.rawValue {
            guard skip(PackedAttributes.Slot(rawValue: index)!) else { Self.damaged() }
        }
    }

    var isAtEnd: Bool { offset == count }

    /// Moves a cursor that has read the lists onto the tail: the bytes
    /// that follow, or `PackedAttributes.absentTail` when the set ends
    /// there (it has none of the tail's fields).
    mutating func enterTail() {
        guard offset == count else { return }
        base = PackedAttributes.absentTail.utf8Start
        count = PackedAttributes.absentTail.utf8CodeUnitCount
        offset = 0
    }

    /// Where the next read starts.
    var position: Int { offset }

    // MARK: Checked steps (nil when the bytes run out or a value is malformed)

    private mutating func nextByte() -> UInt8? {
        guard offset < count else { return nil }
        defer { offset += 1 }
        return base[offset]
    }

    /// Most varints are one byte (lengths under 128): that case inline,
    /// the rest in the loop (a load checks every set's lengths).
    @inline(__always) private mutating func nextVarint() -> UInt64? {
        if offset < count, base[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(base[offset])
        }
        return nextLongVarint()
    }

    private mutating func nextLongVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = nextByte() {
            guard shift < 64 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    private mutating func nextLength() -> Int? {
        guard let length = nextVarint(), length <= UInt64(count - offset) else { return nil }
        return Int(length)
    }

    private mutating func skipBytes(_ length: Int) -> Bool {
        guard length <= count - offset else { return false }
        offset += length
        return true
    }

    private mutating func skipString() -> Bool {
        guard let length = nextLength() else { return false }
        return skipBytes(length)
    }

    /// A string `PackedWriter.literal` wrote (checked canonical: one of
    /// `literals` only as its index).
    private mutating func skipLiteral(among literals: [String], optional: Bool) -> Bool {
        guard let tagged = nextVarint() else { return false }
        if optional, tagged == 0 { return true }
        if tagged & 1 == 1 { return tagged >> 1 < UInt64(literals.count) }
        guard let utf8 = evenTaggedUTF8(tagged, bias: optional ? 1 : 0) else { return false }
        return PackedAttributes.literalIndex(utf8, among: literals) == nil
    }

    private mutating func skipOptionalString() -> Bool {
        guard let tagged = nextVarint() else { return false }
        guard tagged > 0 else { return true }
        return tagged - 1 <= UInt64(count - offset) && skipBytes(Int(tagged - 1))
    }

    private mutating func skipList() -> Bool {
        guard let items = nextVarint(), items <= UInt64(count - offset) else { return false }
        for _ in 0..<items where !skipString() { return false }
        return true
    }

    /// A thumbnail's first byte: 0 for none, else 1 and a bit for each of
    /// its integers and caption that is there (nil if it is none of those).
    private mutating func thumbnailLead() -> UInt8? {
        guard let lead = nextByte(), lead == 0 || (lead & 1 == 1 && lead < 32) else { return nil }
        return lead
    }

    /// Whether bit `bit` of a thumbnail's first byte says its field is there.
    @inline(__always) private static func has(_ lead: UInt8, _ bit: Int) -> Bool { lead & (2 << bit) != 0 }

    private mutating func skipThumbnail() -> Bool {
        guard let lead = thumbnailLead() else { return false }
        guard lead != 0 else { return true }
        guard skipLiteral(among: PackedAttributes.commonImageFormats, optional: true) else { return false }
        for bit in 0..<3 where Self.has(lead, bit) && nextVarint() == nil { return false }
        return skipColour() && (!Self.has(lead, 3) || skipString())
    }

    /// An even-tagged string's bytes (nil when they run out), its tag read:
    /// 2·(byte count + `bias`).
    private mutating func evenTaggedUTF8(_ tagged: UInt64, bias: UInt64) -> UnsafeBufferPointer<UInt8>? {
        guard tagged >> 1 >= bias else { return nil }
        let length = (tagged >> 1) - bias
        guard length <= UInt64(count - offset) else { return nil }
        defer { offset += Int(length) }
        return UnsafeBufferPointer(start: base + offset, count: Int(length))
    }

    /// A colour (checked canonical: `#RRGGBB` only as three bytes).
    private mutating func skipColour() -> Bool {
        guard let tagged = nextVarint() else { return false }
        if tagged == 0 { return true }
        if tagged == 1 { return skipBytes(3) }
        guard tagged & 1 == 0, let utf8 = evenTaggedUTF8(tagged, bias: 1) else { return false }
        return PackedAttributes.packedColour(utf8) == nil
    }

    @inline(__always) private mutating func skip(_ slot: PackedAttributes.Slot) -> Bool {
        switch slot {
        case .contentType: return skipLiteral(among: PackedAttributes.commonContentTypes, optional: false)
        case .title, .displayName, .contentDescription, .relatedUniqueIdentifier, .url: return skipOptionalString()
        case .keywords, .phoneNumbers, .emailAddresses: return skipList()
        case .thumbnail: return skipThumbnail()
        case .supportsPhoneCall:
            guard let byte = nextByte() else { return false }
            return byte <= 2
        case .rating, .rankingHint:
            switch nextByte() {
            case 0: return true
            case 1: return skipBytes(8)
            default: return false
            }
        case .extras:
            guard let pairs = nextVarint(), pairs <= UInt64(count - offset) else { return false }
            for _ in 0..<pairs where !(skipString() && skipString()) { return false }
            return true
        }
    }

    /// Walks every field; nil if the bytes are not a packed set, else the
    /// offset of the tail (`Header.tail`).
    mutating func skipAll() -> Int? {
        // The fields in `Slot` order, written out (a loop over the slots
        // switched on each one).
        guard skip(.contentType), skip(.title), skip(.displayName), skip(.contentDescription), skip(.keywords),
              skip(.thumbnail), skip(.phoneNumbers), skip(.emailAddresses) else { return nil }
        let tail = offset
        // A tail of none of its fields is never written (see `absentTail`).
        if offset == count { return tail }
        guard skip(.supportsPhoneCall), skip(.rating), skip(.relatedUniqueIdentifier), skip(.url), skip(.extras), skip(.rankingHint),
              !PackedAttributes.isAbsentTail(UnsafeBufferPointer(start: base + tail, count: offset - tail))
        else {
            return nil
        }
        return tail
    }

    private static func damaged() -> Never {
        preconditionFailure("packed attributes are damaged (they are checked whole when made)")
    }

    // MARK: Values

    mutating func string() -> String {
        String(decoding: utf8(), as: UTF8.self)
    }

    /// The content type (a common one is a shared literal, nothing decoded).
    mutating func contentType() -> String {
        literal(among: PackedAttributes.commonContentTypes, optional: false)!
    }

    /// A string `PackedWriter.literal` wrote: one of `literals` is handed
    /// back as it is, nothing decoded.
    private mutating func literal(among literals: [String], optional: Bool) -> String? {
        guard let tagged = nextVarint() else { Self.damaged() }
        if optional, tagged == 0 { return nil }
        if tagged & 1 == 1 {
            let index = Int(tagged >> 1)
            guard index < literals.count else { Self.damaged() }
            return literals[index]
        }
        guard let utf8 = evenTaggedUTF8(tagged, bias: optional ? 1 : 0) else { Self.damaged() }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func optionalString() -> String? {
        optionalUTF8().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next optional string's UTF-8 bytes, in place (nil for none).
    mutating func optionalUTF8() -> UnsafeBufferPointer<UInt8>? {
        guard let tagged = nextVarint(), tagged <= UInt64(count - offset) + 1 else { Self.damaged() }
        guard tagged > 0 else { return nil }
        defer { offset += Int(tagged - 1) }
        return UnsafeBufferPointer(start: base + offset, count: Int(tagged - 1))
    }

    /// The next string's UTF-8 bytes, in place.
    mutating func utf8() -> UnsafeBufferPointer<UInt8> {
        guard let length = nextLength() else { Self.damaged() }
        defer { offset += length }
        return UnsafeBufferPointer(start: base + offset, count: length)
    }

    mutating func forEachListUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let items = nextVarint() else { Self.damaged() }
        for _ in 0..<items { body(utf8()) }
    }

    /// A list's count; its strings follow (`utf8()` each).
    mutating func listCount() -> Int {
        guard let items = nextVarint() else { Self.damaged() }
        return Int(items)
    }

    // MARK: Texts a dictionary may have coded (descriptions, keywords)

    /// The next optional string of a codable field.
    mutating func optionalText() -> String? {
        guard let dictionary else { return optionalString() }
        return optionalUTF8().map { coded in dictionary._withUnsafeGuaranteedRef { $0.decoded(coded) } }
    }

    /// The next list of a codable field.
    mutating func textList() -> [String] {
        guard let dictionary else { return list() }
        let items = listCount()
        guard items > 0 else { return [] }
        var values: [String] = []
        values.reserveCapacity(items)
        for _ in 0..<items {
            let coded = utf8()
            values.append(dictionary._withUnsafeGuaranteedRef { $0.decoded(coded) })
        }
        return values
    }

    /// The next optional string of a codable field, as UTF-8 (decoded
    /// into a buffer that lives for the call); nothing for none.
    mutating func withOptionalText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let text = optionalUTF8() else { return }
        guard let dictionary else { return body(text) }
        dictionary._withUnsafeGuaranteedRef { $0.withDecoded(text, body) }
    }

    /// The next list of a codable field, each string as UTF-8.
    mutating func forEachListText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let dictionary else { return forEachListUTF8(body) }
        for _ in 0..<listCount() {
            let coded = utf8()
            dictionary._withUnsafeGuaranteedRef { $0.withDecoded(coded, body) }
        }
    }

    /// A thumbnail's caption in place (nil without a thumbnail or caption).
    mutating func captionUTF8() -> UnsafeBufferPointer<UInt8>? {
        guard let lead = thumbnailLead() else { Self.damaged() }
        guard lead != 0, Self.has(lead, 3) else { return nil }
        // Past the format and colour without making their strings
        // (indexing reads every item's caption).
        guard skipLiteral(among: PackedAttributes.commonImageFormats, optional: true) else { Self.damaged() }
        for bit in 0..<3 where Self.has(lead, bit) { _ = integer() }
        guard skipColour() else { Self.damaged() }
        return utf8()
    }

    /// The extras' values in place, in key order.
    mutating func forEachExtraValueUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let pairs = nextVarint() else { Self.damaged() }
        for _ in 0..<pairs {
            _ = utf8()
            body(utf8())
        }
    }

    mutating func list() -> [String] {
        guard let items = nextVarint() else { Self.damaged() }
        guard items > 0 else { return [] }
        var values: [String] = []
        values.reserveCapacity(Int(items))
        for _ in 0..<items { values.append(string()) }
        return values
    }

    mutating func integer() -> Int {
        guard let zigzag = nextVarint() else { Self.damaged() }
        return Int(truncatingIfNeeded: Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
    }

    mutating func thumbnail() -> Thumbnail? {
        guard let lead = thumbnailLead() else { Self.damaged() }
        guard lead != 0 else { return nil }
        // Arguments are evaluated left to right, in packed order.
        return Thumbnail(
            format: imageFormat(), width: Self.has(lead, 0) ? integer() : nil, height: Self.has(lead, 1) ? integer() : nil,
            byteCount: Self.has(lead, 2) ? integer() : nil, dominantColor: colour(),
            caption: Self.has(lead, 3) ? string() : nil)
    }

    /// A thumbnail's format (a common one is a shared literal).
    mutating func imageFormat() -> String? {
        literal(among: PackedAttributes.commonImageFormats, optional: true)
    }

    /// A thumbnail's colour.
    mutating func colour() -> String? {
        guard let tagged = nextVarint() else { Self.damaged() }
        if tagged == 0 { return nil }
        if tagged == 1 {
            guard count - offset >= 3 else { Self.damaged() }
            defer { offset += 3 }
            return PackedAttributes.colourString(base[offset], base[offset + 1], base[offset + 2])
        }
        guard tagged & 1 == 0, let utf8 = evenTaggedUTF8(tagged, bias: 1) else { Self.damaged() }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func optionalBool() -> Bool? {
        switch nextByte() {
        case 0: return nil
        case 1: return false
        case 2: return true
        default: Self.damaged()
        }
    }

    mutating func optionalDouble() -> Double? {
        switch nextByte() {
        case 0: return nil
        case 1:
            guard 8 <= count - offset else { Self.damaged() }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)))
        default: Self.damaged()
        }
    }

    mutating func extras() -> [String: String] {
        guard let pairs = nextVarint() else { Self.damaged() }
        guard pairs > 0 else { return [:] }
        var extras: [String: String] = [:]
        extras.reserveCapacity(Int(pairs))
        for _ in 0..<pairs {
            let key = string()
            extras[key] = string()
        }
        return extras
    }
}
