import Testing
@testable import SearchIndex

/// `AttributeSet` keeps its fields packed in one shared allocation: it
/// must still behave as a value.
@Suite struct AttributeSetTests {
    @Test func aCopyChangesAloneAndComparesByContent() {
        let original = AttributeSet(contentType: "public.contact", title: "Brent Reid", keywords: ["search"],
                                    extras: ["team": "Search"])
        var copy = original
        #expect(copy == original)
        copy.title = "Brenda Okafor"
        copy.keywords.append("ranking")
        copy.extras["team"] = "Sales"
        copy.thumbnail = Thumbnail(format: "png", width: 1, height: 1, byteCount: 1)
        #expect(original.title == "Brent Reid")
        #expect(original.keywords == ["search"])
        #expect(original.extras == ["team": "Search"])
        #expect(original.thumbnail == nil)
        #expect(copy.title == "Brenda Okafor" && copy.keywords == ["search", "ranking"])
        #expect(copy != original)

        // Equal content in two boxes: equal, with equal hashes.
        var rebuilt = AttributeSet(contentType: "public.contact")
        rebuilt.title = "Brent Reid"
        rebuilt.keywords = ["search"]
        rebuilt.extras = ["team": "Search"]
        #expect(rebuilt == original)
        #expect(rebuilt.hashValue == original.hashValue)
        #expect(Set([rebuilt, original]).count == 1)
    }
}
