import Foundation
import TestSupport
import Testing
@testable import SearchIndex
@testable import SearchModel

/// Titles, descriptions and keywords are kept coded by a dictionary of words
/// (`TextDictionary`): every text must come back byte for byte, a coded
/// set must be the same set to every reader, and an index that codes its
/// sets must answer exactly as one that does not.
@Suite struct TextDictionaryTests {
    static let vocabulary = ["lenou", "saramiber", "imel", "exmarco", "a", "Zoë", "北极光", "brent.reid@example.com",
                             String(repeating: "w", count: 200), "tab\there", "x"]

    /// A text of known and unknown words, with the spacing that breaks a
    /// naive split: runs of spaces, spaces at either end, nothing at all.
    static func randomText(_ random: inout SeededGenerator) -> String {
        let pieces = (0..<Int(random.next() % 9)).map { _ -> String in
            switch random.next() % 5 {
            case 0: return ""
            case 1: return "unknown\(random.next() % 100_000)"
            default: return vocabulary.randomElement(using: &random)!
            }
        }
        return pieces.joined(separator: random.next() % 4 == 0 ? "  " : " ")
    }

    static var dictionary: TextDictionary {
        TextDictionary.trained(on: vocabulary + vocabulary + ["once only"])!
    }

    @Test func everyTextComesBackByteForByte() {
        let dictionary = Self.dictionary
        var random = SeededGenerator(seed: 41)
        // Past the 512 bytes decoded in one walk: words, and literals.
        let long = (0..<120).map { _ in Self.randomText(&random) }.joined(separator: " ")
        let texts = (0..<2_000).map { _ in Self.randomText(&random) } + ["", " ", "  ", " a", "a ", "lenou  imel ", long]
        #expect(long.utf8.count > 512)
        for text in texts {
            let coded = dictionary.encoded(text)
            let back = coded.withUnsafeBufferPointer { dictionary.decoded($0) }
            #expect(back == text, "\(text.debugDescription)")
            #expect(coded.withUnsafeBufferPointer { dictionary.decodedCount($0) } == text.utf8.count)
        }
    }

    @Test func wordsMetOnceHaveNoCodeAndTheCommonestHaveTheSmallest() throws {
        let dictionary = try #require(TextDictionary.trained(on: ["b a c a", "a b", "once", "b a"]))
        func code(_ word: String) -> Int? {
            var word = word
            return word.withUTF8 { dictionary.code(of: $0) }
        }
        #expect(code("a") == 0)
        #expect(code("b") == 1)
        #expect(code("c") == nil)
        #expect(code("once") == nil)
        #expect(dictionary.count == 2)
        // A known word is one byte; an unknown one its bytes and a length.
        #expect(dictionary.encoded("a b a") == [0, 2, 0])
        #expect(dictionary.encoded("a zz") == [0, 2 << 1 | 1, 122, 122])
        #expect(TextDictionary.trained(on: ["all different words"]) == nil)
    }

    @Test func aCodedSetIsTheSameSetToEveryReader() throws {
        let dictionary = Self.dictionary
        var random = SeededGenerator(seed: 42)
        var coded = 0
        for _ in 0..<500 {
            var fields = PackedAttributesTests.randomFields(&random)
            fields.contentDescription = Bool.random(using: &random) ? Self.randomText(&random) : nil
            fields.keywords = (0..<Int(random.next() % 5)).map { _ in Self.randomText(&random) }
            // Titles and display names are coded too.
            if Bool.random(using: &random) { fields.title = Self.randomText(&random) }
            if Bool.random(using: &random) { fields.displayName = Self.randomText(&random) }
            let original = AttributeSet(fields)
            let set = original.compressed(with: dictionary)
            if set.packed.isCoded { coded += 1 } else { continue }
            #expect(set == original && original == set)
            #expect(set.hashValue == original.hashValue)
            #expect(set.fields == fields)
            #expect(set.contentDescription == fields.contentDescription)
            #expect(set.keywords == fields.keywords)
            #expect(set.title == fields.title && set.shownTitle == original.shownTitle)
            #expect(set.displayName == fields.displayName)
            #expect(set.thumbnail == fields.thumbnail && set.extras == fields.extras && set.url == fields.url)
            var texts: [String] = [], originalTexts: [String] = []
            set.packed.forEachSearchableText { texts.append("\($0) \(String(decoding: $1, as: UTF8.self))") }
            original.packed.forEachSearchableText { originalTexts.append("\($0) \(String(decoding: $1, as: UTF8.self))") }
            #expect(texts == originalTexts)
            // What a snapshot keeps: the original's bytes and tail.
            let (bytes, tail) = original.packed.withBytesAndTail { (Array($0), $1) }
            #expect(set.packed.withCanonicalBytesAndTail { (Array($0), $1) } == (bytes, tail))
            #expect(set.packed.canonicalLayout == (bytes.count, tail))
            #expect(set.packed.footprint.owned < original.packed.footprint.owned)
            // Another set with other fields is another set, coded or not.
            var other = fields
            other.keywords.append("lenou")
            #expect(set != AttributeSet(other) && set != AttributeSet(other).compressed(with: dictionary))
        }
        #expect(coded > 100)
        // A title of the dictionary's words is coded: only a title here.
        let titled = AttributeSet(contentType: "public.item", title: "saramiber exmarco saramiber")
        let codedTitle = titled.compressed(with: dictionary)
        #expect(codedTitle.packed.isCoded && codedTitle.title == titled.title && codedTitle.shownTitle == titled.shownTitle)
        #expect(codedTitle.packed.withBytes(\.count) < titled.packed.withBytes(\.count) - 16)
        var titleTexts: [String] = []
        codedTitle.packed.forEachSearchableText { titleTexts.append("\($0) \(String(decoding: $1, as: UTF8.self))") }
        #expect(titleTexts == ["title saramiber exmarco saramiber"])
        // Coding a coded set again changes nothing.
        let set = AttributeSet(contentType: "public.item", contentDescription: "lenou imel lenou imel saramiber")
            .compressed(with: dictionary)
        #expect(set.packed.isCoded)
        #expect(set.compressed(with: dictionary).packed.isSameSet(as: set.packed))
    }

    /// A bulk build lays its sets out together (`PackedAttributes.sharing`):
    /// each must read back as its original, coded or not, whatever sits
    /// beside it, and a set too large for a shared record keeps its own.
    @Test func setsSharingAStorageAreTheSameSetsToEveryReader() throws {
        let dictionary = Self.dictionary
        let otherDictionary = try #require(TextDictionary.trained(on: ["imel imel lenou lenou"]))
        var random = SeededGenerator(seed: 43)
        var originals: [AttributeSet] = (0..<20_000).map { index in
            var fields = PackedAttributesTests.randomFields(&random)
            if index % 3 != 0 {
                fields.title = Bool.random(using: &random) ? Self.randomText(&random) : nil
                fields.contentDescription = Bool.random(using: &random) ? Self.randomText(&random) : nil
                fields.keywords = (0..<Int(random.next() % 5)).map { _ in Self.randomText(&random) }
            }
            return AttributeSet(fields)
        }
        // Past a record's 32,767 bytes, coded before, coded by another dictionary.
        originals[7].contentDescription = String(repeating: "lenou imel unknownword ", count: 3_000)
        originals[8] = AttributeSet(contentType: "public.item", contentDescription: "lenou imel lenou").compressed(with: dictionary)
        originals[9] = AttributeSet(contentType: "public.item", keywords: [String(repeating: "imel lenou ", count: 9)])
            .compressed(with: otherDictionary)
        #expect(originals[8].packed.isCoded && originals[9].packed.isCoded)
        let shared = PackedAttributes.sharing(originals.map(\.packed), codedWith: dictionary).map(AttributeSet.init(packed:))
        #expect(shared.count == originals.count)
        for (set, original) in zip(shared, originals) {
            #expect(set == original && original == set)
            #expect(set.hashValue == original.hashValue)
            #expect(set.fields == original.fields)
            #expect(set.shownTitle == original.shownTitle && set.contentType == original.contentType)
            var texts: [String] = [], originalTexts: [String] = []
            set.packed.forEachSearchableText { texts.append("\($0) \(String(decoding: $1, as: UTF8.self))") }
            original.packed.forEachSearchableText { originalTexts.append("\($0) \(String(decoding: $1, as: UTF8.self))") }
            #expect(texts == originalTexts)
            let canonical = original.packed.withCanonicalBytesAndTail { (Array($0), $1) }
            #expect(set.packed.withCanonicalBytesAndTail { (Array($0), $1) } == canonical)
            #expect(set.packed.canonicalLayout == (canonical.0.count, canonical.1))
        }
        // Most sets share a few storages; the large one and the one another
        // dictionary coded keep storages of their own.
        let storages = Dictionary(grouping: shared.indices) { ObjectIdentifier(shared[$0].packed.storage) }
        #expect(storages.count < 20)
        #expect(storages.values.filter { $0.count == 1 }.map { $0[0] }.sorted() == [7, 9])
        #expect(shared.filter(\.packed.isCoded).count > originals.count / 2)
        for members in storages.values where members.count > 1 {
            #expect(Set(members.map { shared[$0].packed.offset }).count == members.count)
        }
        let sharedBytes = storages.values.reduce(0) { $0 + shared[$1[0]].packed.footprint.owned }
        let ownBytes = originals.reduce(0) { $0 + $1.compressed(with: dictionary).packed.footprint.owned }
        // Each record's header is 4 bytes; each own storage's object header,
        // header and dictionary (if coded) 24 or 32, and the allocator's, not counted here.
        #expect(sharedBytes < ownBytes - originals.count * 20)
        // A set outlives the others of its storage.
        let survivor = try #require(shared.last)
        let survivorFields = survivor.fields
        _ = consume shared
        #expect(survivor.fields == survivorFields && survivor == originals.last)
    }

    /// Two engines with the same history, one coding its sets from the
    /// first batch (a threshold of 8 items) and one never.
    func engines(_ seed: UInt64) -> (coded: SearchEngine, plain: SearchEngine) {
        let snapshots = SnapshotTests()
        // Descriptions and keywords from a vocabulary of a few hundred
        // words (of the syllables the queries are made of), as real ones
        // share their words: most sets are coded, some are not.
        var generator = SeededGenerator(seed: seed)
        let vocabulary = (0..<400).map { _ in
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in ScanTests.syllables.randomElement(using: &generator)! }.joined()
        }
        let items = snapshots.richItems(seed, count: 1_200).enumerated().map { offset, plain in
            var item = plain
            guard offset % 5 != 0 else { return item }
            let words = (0..<Int.random(in: 4...12, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            item.attributeSet.contentDescription = words.joined(separator: " ")
            item.attributeSet.keywords = Array(words.prefix(offset % 4))
            return item
        }
        func engine(codingFrom threshold: Int) -> SearchEngine {
            var engine = SearchEngine()
            engine.tuning.textDictionaryMinimumBatch = threshold
            engine.topListThreshold = 50
            engine.index(items)
            // A one-item batch after it, coded with the same dictionary.
            var one = items[1]
            one.uniqueIdentifier = "one/\(one.uniqueIdentifier)"
            engine.index([one])
            engine.deleteItems(identifiers: items.map(\.uniqueIdentifier).filter { $0.hasSuffix("3") })
            return engine
        }
        return (engine(codingFrom: 8), engine(codingFrom: .max))
    }

    @Test(arguments: [5, 6])
    func anIndexThatCodesItsSetsAnswersAsOneThatDoesNot(seed: UInt64) throws {
        let (coded, plain) = engines(seed)
        #expect(coded.textDictionary != nil && plain.textDictionary == nil)
        let sets = coded.records.values.map(\.item.attributeSet.packed)
        // The bulk batch and the one-item batch after it were both coded.
        #expect(sets.filter(\.isCoded).count > sets.count / 2)
        #expect(coded.records.values.contains { $0.item.uniqueIdentifier.hasPrefix("one/") && $0.item.attributeSet.packed.isCoded })
        #expect(coded.memoryUsage()["attributeSets"] < plain.memoryUsage()["attributeSets"])
        SnapshotTests().expectSameAnswers(coded, plain, "coded", seed: seed)
        // A snapshot keeps the sets decoded: as many bytes as the plain
        // engine's (whose are not in the same order from one run to another).
        let bytes = try SnapshotTests.bytes(of: coded)
        #expect(bytes.count == (try SnapshotTests.bytes(of: plain)).count)
        let loaded = try SnapshotTests.load(bytes)
        #expect(!loaded.records.values.contains { $0.item.attributeSet.packed.isCoded })
        SnapshotTests().expectSameAnswers(loaded, plain, "loaded", seed: seed, queries: 30)
    }
}
