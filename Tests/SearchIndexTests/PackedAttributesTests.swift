import TestSupport
import Testing
@testable import SearchIndex
@testable import SearchModel

/// An attribute set lives packed (`PackedAttributes`): every field must
/// come back as it went in, bytes from a snapshot must be refused unless
/// they are one whole set, and indexing's walk over the bytes must see the
/// texts the getters give.
@Suite struct PackedAttributesTests {
    /// Strings that cross the encoding's edges: empty, one byte, 127 and
    /// 128 bytes (a one- and a two-byte length), multi-byte scalars.
    static let samples = ["", "a", String(repeating: "x", count: 127), String(repeating: "y", count: 128),
                          "Zoë", "北极光", "brent.reid@example.com", "+1 (555) 010-2345", "\r\n", "🙂 emoji"]
    static let integers = [0, 1, -1, 63, 64, -64, -65, 127, 128, 300, Int.max, Int.min]

    static func randomFields(_ random: inout SeededGenerator) -> AttributeSet.Fields {
        func string() -> String { samples.randomElement(using: &random)! + String(random.next() % 1000) }
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        func strings() -> [String] { (0..<Int(random.next() % 4)).map { _ in string() } }
        var fields = AttributeSet.Fields(contentType: string())
        fields.title = maybe(string)
        fields.displayName = maybe(string)
        fields.contentDescription = maybe(string)
        fields.keywords = strings()
        fields.thumbnail = maybe {
            Thumbnail(format: maybe(string), width: maybe { integers.randomElement(using: &random)! },
                      height: maybe { integers.randomElement(using: &random)! },
                      byteCount: maybe { integers.randomElement(using: &random)! },
                      dominantColor: maybe(string), caption: maybe(string))
        }
        fields.phoneNumbers = strings()
        fields.emailAddresses = strings()
        fields.supportsPhoneCall = maybe { Bool.random(using: &random) }
        fields.rating = maybe { [0.5, 4.25, -3, 1e300, .infinity][Int(random.next() % 5)] }
        fields.relatedUniqueIdentifier = maybe(string)
        fields.url = maybe(string)
        fields.extras = Dictionary(strings().map { ($0, string()) }, uniquingKeysWith: { a, _ in a })
        return fields
    }

    @Test func everyFieldComesBackAsItWentIn() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<500 {
            let fields = Self.randomFields(&random)
            let set = AttributeSet(fields)
            #expect(set.fields == fields)
            #expect(set.contentType == fields.contentType)
            #expect(set.title == fields.title && set.displayName == fields.displayName)
            #expect(set.contentDescription == fields.contentDescription && set.keywords == fields.keywords)
            #expect(set.thumbnail == fields.thumbnail && set.phoneNumbers == fields.phoneNumbers)
            #expect(set.emailAddresses == fields.emailAddresses && set.supportsPhoneCall == fields.supportsPhoneCall)
            #expect(set.rating == fields.rating && set.relatedUniqueIdentifier == fields.relatedUniqueIdentifier)
            #expect(set.url == fields.url && set.extras == fields.extras)
            #expect(set.shownTitle == fields.title ?? fields.displayName ?? "")
            // Equal content packed twice: equal sets with equal hashes.
            #expect(AttributeSet(fields) == set && AttributeSet(fields).hashValue == set.hashValue)
        }
    }

    @Test func aRatingOfMinusZeroIsStoredAsZero() {
        var fields = AttributeSet.Fields()
        fields.rating = -0.0
        var positive = fields
        positive.rating = 0
        #expect(AttributeSet(fields) == AttributeSet(positive))
        #expect(AttributeSet(fields).rating == 0)
    }

    /// A set with none of the tail's fields (phone call flag, rating,
    /// related identifier, URL, extras: most sets) ends with its lists;
    /// each of those fields reads as absent, and one of them there brings
    /// the whole tail back.
    @Test func aSetWithNoneOfTheTailsFieldsEndsWithItsLists() {
        var fields = AttributeSet.Fields()
        fields.title = "Harbour"
        fields.phoneNumbers = ["555-0100"]
        let plain = AttributeSet(fields)
        #expect(plain.packed.withBytesAndTail { $0.count == $1 })
        #expect(plain.supportsPhoneCall == nil && plain.rating == nil && plain.relatedUniqueIdentifier == nil)
        #expect(plain.url == nil && plain.extras.isEmpty && plain.fields == fields)
        for change in 0..<5 {
            var more = fields
            switch change {
            case 0: more.supportsPhoneCall = false
            case 1: more.rating = 0
            case 2: more.relatedUniqueIdentifier = "r/1"
            case 3: more.url = "https://x.example"
            default: more.extras = ["k": "v"]
            }
            let set = AttributeSet(more)
            let (count, tail) = set.packed.withBytesAndTail { ($0.count, $1) }
            #expect(count > tail + 4, "change \(change)")
            #expect(set.fields == more && set != plain, "change \(change)")
        }
    }

    /// A thumbnail's first byte names the integers and caption it has:
    /// those it lacks take no byte, and a first byte naming anything else
    /// is refused.
    @Test func aThumbnailsFirstByteNamesTheFieldsItHas() {
        var fields = AttributeSet.Fields()
        fields.thumbnail = Thumbnail(format: "jpeg", width: 120, height: nil, byteCount: 37_040, dominantColor: "#5C43FA")
        let set = AttributeSet(fields)
        #expect(set.thumbnail == fields.thumbnail && set.fields == fields)
        var bytes = set.packed.withBytes { Array($0) }
        // Content type, title, display name, description, keywords: a byte each here.
        #expect(bytes[5] == 1 | 2 | 8, "present, width, byte count")
        // format 1, width 2, byte count 3, colour 4: no byte for the height or caption.
        #expect(bytes.count == 6 + 1 + 2 + 3 + 4 + 2)
        var captioned = fields
        captioned.thumbnail?.caption = "harbour at dusk"
        #expect(AttributeSet(captioned).thumbnail?.caption == "harbour at dusk")
        #expect(AttributeSet(captioned).packed.withBytes { $0[5] } == 1 | 2 | 8 | 16)
        for lead: UInt8 in [2, 1 | 32, 0x81] {
            bytes[5] = lead
            #expect(bytes.withUnsafeBytes { PackedAttributes.validating($0) } == nil, "first byte \(lead)")
        }
    }

    @Test func bytesFromOutsideMustBeOneWholeSet() {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<50 {
            let set = AttributeSet(Self.randomFields(&random))
            let bytes = set.packed.withBytes { Array($0) }
            let validated = bytes.withUnsafeBytes { PackedAttributes.validating($0) }.map { AttributeSet(packed: $0) }
            #expect(validated == set)
            // Read field by field too: the fields after the lists start from
            // the tail offset the check found.
            #expect(validated?.fields == set.fields && validated?.url == set.url && validated?.extras == set.extras)
            // A snapshot stores the tail: a walk must find the one stored, and
            // a set taken on trust at it reads as the walked one.
            let tail = set.packed.withBytesAndTail { $1 }
            for cut in 0..<bytes.count {
                let cutSet = bytes[..<cut].withUnsafeBytes { PackedAttributes.validating($0) }
                if cut == tail {
                    // Cut where its tail starts, a set is the same set with
                    // none of the tail's fields (a tail of none is left out).
                    var fields = set.fields
                    (fields.supportsPhoneCall, fields.rating, fields.relatedUniqueIdentifier, fields.url, fields.extras)
                        = (nil, nil, nil, nil, [:])
                    #expect(cutSet.map { AttributeSet(packed: $0) } == AttributeSet(fields))
                } else {
                    #expect(cutSet == nil)
                }
            }
            #expect((bytes + [0]).withUnsafeBytes { PackedAttributes.validating($0) } == nil)
            if tail == bytes.count {
                // A tail of none of its fields written out is not the canonical form.
                #expect((bytes + [0, 0, 0, 0, 0]).withUnsafeBytes { PackedAttributes.validating($0) } == nil)
            }
            #expect(bytes.withUnsafeBytes { PackedAttributes.validating($0, tail: tail) } != nil)
            #expect(bytes.withUnsafeBytes { PackedAttributes.validating($0, tail: tail + 1) } == nil)
            #expect(bytes.withUnsafeBytes { PackedAttributes.validating($0, tail: tail - 1) } == nil)
            let trusted = bytes.withUnsafeBytes { AttributeSet(packed: PackedAttributes.trusting($0, tail: tail)) }
            #expect(trusted == set && trusted.fields == set.fields && trusted.url == set.url && trusted.extras == set.extras)
        }
        // A length running past the end, a flag out of range.
        #expect([UInt8]([5, 0x61]).withUnsafeBytes { PackedAttributes.validating($0) } == nil)
        var withTail = AttributeSet.Fields()
        withTail.url = "u"
        var flag = AttributeSet(withTail).packed.withBytes { Array($0) }
        let flagTail = AttributeSet(withTail).packed.withBytesAndTail { $1 }
        #expect(flag.withUnsafeBytes { PackedAttributes.validating($0) } != nil)
        flag[flagTail] = 7 // the supportsPhoneCall byte: none, false or true only
        #expect(flag.withUnsafeBytes { PackedAttributes.validating($0) } == nil)
    }

    /// A common content type is one byte (its index); any other, its
    /// bytes. Both read back as they went in, and bytes from outside must
    /// say a common type the one way (equal sets have equal bytes).
    @Test func aCommonContentTypeIsOneByte() {
        func bytes(_ type: String) -> [UInt8] { AttributeSet(contentType: type).packed.withBytes { Array($0) } }
        for (index, type) in PackedAttributes.commonContentTypes.enumerated() {
            #expect(bytes(type).first == UInt8(index << 1 | 1))
            #expect(bytes(type).count == bytes("public.item").count)
            #expect(AttributeSet(contentType: type).contentType == type)
            #expect(AttributeSet(contentType: type).fields.contentType == type)
        }
        for type in ["com.example.recipe", "", "public.items", "日本語.type", String(repeating: "x", count: 300)] {
            let set = AttributeSet(contentType: type)
            #expect(set.contentType == type && set.fields.contentType == type)
            let packed = bytes(type)
            #expect(packed.withUnsafeBytes { PackedAttributes.validating($0) }.map { AttributeSet(packed: $0) } == set)
        }
        #expect(bytes("com.example.recipe").count == bytes("public.item").count + "com.example.recipe".utf8.count)
        // "public.contact" spelled out, and an index past the list: refused.
        var spelled = bytes("public.contacts")
        spelled.remove(at: 1 + "public.contact".utf8.count)
        spelled[0] = UInt8("public.contact".utf8.count << 1)
        #expect(spelled.withUnsafeBytes { PackedAttributes.validating($0) } == nil)
        var other = spelled
        other["public.contact".utf8.count] = UInt8(ascii: "x") // "public.contacx": no common type, valid
        #expect(other.withUnsafeBytes { PackedAttributes.validating($0) }.map { AttributeSet(packed: $0).contentType } == "public.contacx")
        var past = bytes("public.item")
        past[0] = UInt8(PackedAttributes.commonContentTypes.count << 1 | 1)
        #expect(past.withUnsafeBytes { PackedAttributes.validating($0) } == nil)
    }

    /// A thumbnail's common format is one byte and an upper-case `#RRGGBB`
    /// colour four; any other spelling is kept as it is, and bytes from
    /// outside must use the short form wherever it applies.
    @Test func aThumbnailsFormatAndColourArePackedShort() {
        func set(_ format: String?, _ colour: String?) -> AttributeSet {
            var fields = AttributeSet.Fields(contentType: "public.image")
            fields.thumbnail = Thumbnail(format: format, width: 120, height: 90, byteCount: 37_040, dominantColor: colour, caption: "a cat")
            return AttributeSet(fields)
        }
        func bytes(_ set: AttributeSet) -> [UInt8] { set.packed.withBytes { Array($0) } }
        let cases: [(String?, String?)] = [
            ("jpeg", "#5C43FA"), ("png", "#000000"), ("webp", "#FFFFFF"), (nil, nil), ("tiff", "#5c43fa"),
            ("JPEG", "#5C43F"), ("", "red"), ("jpeg", "#5C43FG"), ("heic", ""),
        ]
        for (format, colour) in cases {
            let made = set(format, colour)
            #expect(made.thumbnail?.format == format && made.thumbnail?.dominantColor == colour, "\(String(describing: format)) \(String(describing: colour))")
            #expect(made.fields.thumbnail == made.thumbnail && made.thumbnail?.caption == "a cat")
            let validated = bytes(made).withUnsafeBytes { PackedAttributes.validating($0) }.map { AttributeSet(packed: $0) }
            #expect(validated == made && validated?.thumbnail == made.thumbnail)
        }
        // "jpeg" and "#5C43FA" take 1 and 4 bytes, against 5 and 8 spelled out.
        #expect(bytes(set("jpeg", "#5C43FA")).count + 8 == bytes(set("jpeg!", "#5C43FA!")).count - 2)
        // Spelled out where the short form applies: refused.
        let long = bytes(set("jpeX", "#5C43FX"))
        let formatAt = long.firstIndex(of: UInt8(ascii: "X"))!
        var spelledFormat = long
        spelledFormat[formatAt] = UInt8(ascii: "g")
        #expect(spelledFormat.withUnsafeBytes { PackedAttributes.validating($0) } == nil)
        var spelledColour = long
        spelledColour[long.lastIndex(of: UInt8(ascii: "X"))!] = UInt8(ascii: "A")
        #expect(spelledColour.withUnsafeBytes { PackedAttributes.validating($0) } == nil)
        #expect(long.withUnsafeBytes { PackedAttributes.validating($0) } != nil)
    }

    @Test func indexingReadsTheTextsTheGettersGive() {
        var random = SeededGenerator(seed: 13)
        for _ in 0..<300 {
            let set = AttributeSet(Self.randomFields(&random))
            var walked: [String] = []
            set.packed.forEachSearchableText { field, utf8 in walked.append("\(field) \(String(decoding: utf8, as: UTF8.self))") }
            #expect(walked == FieldText.texts(of: set).map { "\($0.0) \($0.1)" })
        }
    }
}
