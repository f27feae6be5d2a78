import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchText

@Suite struct TokenizerTests {
    func texts(_ s: String) -> [String] { Tokenizer.indexTokens(s).map(\.text) }

    @Test func foldsCaseDiacriticsAndWidth() {
        #expect(texts("Zoë Marchetti") == ["zoe", "marchetti"])
        #expect(texts("ÉCOLE Straße") == ["ecole", TextNormalizer.normalize("Straße")])
        #expect(texts("ＡＢＣ１２") == ["abc12"])
        #expect(TextNormalizer.normalize("ｶﾀｶﾅ") == "カタカナ")
    }

    /// Plain queries (ASCII letters, digits, spaces) skip the general path:
    /// they must give its terms, and anything else must go to it.
    @Test func plainQueriesGiveTheGeneralPathsTerms() {
        var generator = SeededGenerator(seed: 51)
        let plain = Array("abzAQZ0189     ")
        let other: [Character] = ["-", "@", ".", "é", "\t", "北", "Ｋ", "_", "'"]
        var plainCount = 0
        for _ in 0..<3_000 {
            var query = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in plain.randomElement(using: &generator)! })
            if Int.random(in: 0..<3, using: &generator) == 0 {
                query.insert(other.randomElement(using: &generator)!, at: query.index(query.startIndex, offsetBy: Int.random(in: 0...query.count, using: &generator)))
            }
            let general = Tokenizer.generalQueryTerms(query)
            if let fast = Tokenizer.plainQueryTerms(query) {
                plainCount += 1
                #expect(fast == general, "\(query)")
            }
            #expect(Tokenizer.queryTerms(query) == general, "\(query)")
        }
        #expect(plainCount > 1_500)
        #expect(Tokenizer.plainQueryTerms("zoë") == nil)
        #expect(Tokenizer.plainQueryTerms("555-0100") == nil)
    }

    /// Han ideographs skip Foundation's fold: each must fold as it would.
    @Test func hanIdeographsFoldAsFoundationFoldsThem() {
        let ideographs = Array(0x3400...0x4DBF) + Array(0x4E00...0x9FFF)
        let differing = ideographs.filter { value in
            let character = Character(Unicode.Scalar(UInt32(value))!)
            // Scalar by scalar: String equality is canonical equivalence.
            return Array(TextNormalizer.fold(character).unicodeScalars)
                != Array(TextNormalizer.foldedByFoundation(character).unicodeScalars)
        }
        #expect(differing.isEmpty)
    }

    @Test func cjkGivesCharactersAndAdjacentPairs() {
        #expect(texts("北极光") == ["北", "北极", "极", "极光", "光"])
        #expect(Tokenizer.queryTerms("北极光") == ["北极", "极光"])
        #expect(Tokenizer.queryTerms("北") == ["北"])
        // Mixed scripts split at the boundary.
        #expect(texts("photo北极") == ["photo", "北", "北极", "极"])
    }

    @Test func emailIsWholeAndByParts() {
        let tokens = texts("Write to <Brent.Reid@Example.com>.")
        #expect(tokens.contains("brent.reid@example.com"))
        #expect(tokens.contains("brent") && tokens.contains("reid") && tokens.contains("example"))
        #expect(Tokenizer.queryTerms("brent.reid@exa") == ["brent.reid@exa"])
    }

    @Test func phoneWithAndWithoutPunctuation() {
        let tokens = texts("+1 (555) 010-2345")
        #expect(tokens.contains("15550102345"))
        #expect(tokens.contains("5550102345"))
        #expect(tokens.contains("0102345"))
        #expect(tokens.contains("555") && tokens.contains("2345"))
        #expect(Tokenizer.queryTerms("555-010-2345") == ["5550102345"])
        #expect(Tokenizer.queryTerms("(555) 010") == ["555", "010"])
    }

    @Test func tokensKnowWhereTheyCameFrom() {
        let tokens = Tokenizer.indexTokens("Hi Zoë!")
        #expect(tokens.map(\.start) == [0, 3])
        #expect(tokens.map(\.length) == [2, 3])
    }

    @Test func controlCharactersSeparateTokens() {
        #expect(texts("a\u{1B}[2Jb\u{07}c") == ["a", "2jb", "c"])
    }
}

@Suite struct ASCIITokenizerTests {
    /// The general path, forced (a non-ASCII suffix that adds nothing of its own).
    func general(_ s: String) -> [Token] {
        Array(Tokenizer.indexTokens(s + " é").dropLast())
    }

    @Test(arguments: [
        "Brent Reid", "+1 (555) 010-2001", "Write to <brent.reid@example.com>.", "a@b", "x@y.z@w",
        "2026-11-22 meeting room 4.12", "O'Brien & co., Ltd.", "tab\tseparated\nlines", "...", "(555)",
        "ka ren 555-0000 ka.ren@example.com", "a\u{1B}[2Jb\u{07}c", "line one\r\nline two",
    ])
    func asciiPathMatchesTheGeneralPath(text: String) {
        #expect(Tokenizer.indexTokens(text) == general(text))
    }

    /// Han text (ideographs and spaces, anywhere, however many) is
    /// tokenized without the general path, into exactly its tokens; text
    /// with anything else in it is left to the general path.
    @Test func hanPathMatchesTheGeneralPath() {
        var generator = SeededGenerator(seed: 7)
        let alphabet: [String] = ["北", "极", "光", "京", "夏", "空", "㐀", "䶿", "一", "鿿", " ", " "]
        var compared = 0
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let fast = Tokenizer.hanIndexTokens(text)
            #expect(fast != nil, "\(text)")
            #expect(fast == general(text), "\(text)")
            #expect(Tokenizer.indexTokens(text) == general(text), "\(text)")
            if fast?.isEmpty == false { compared += 1 }
        }
        #expect(compared > 300)
        #expect(Tokenizer.indexTokens("北极光") == [
            Token(text: "北", start: 0, length: 1), Token(text: "北极", start: 0, length: 2),
            Token(text: "极", start: 1, length: 1), Token(text: "极光", start: 1, length: 2),
            Token(text: "光", start: 2, length: 1),
        ])
        for mixed in ["北极 light", "北极\u{FE00}", "北\t极", "北极。", "ｶﾀｶﾅ", "北极5", "\u{F900}", "カタ"] {
            #expect(Tokenizer.hanIndexTokens(mixed) == nil, "\(mixed)")
        }
    }
}

/// A document's distinct tokens: first-seen order, each with its best field,
/// whether it has a few tokens or more than the short linear search holds,
/// and with tokens that share their first eight bytes.
@Suite struct DocumentTokenTests {
    func expected(_ sets: [AttributeSet]) -> (tokens: [String], fields: [Field]) {
        var best: [String: Field] = [:]
        var order: [String] = []
        for attributes in sets {
            for (field, text) in FieldText.texts(of: attributes) {
                for token in Tokenizer.indexTokens(text) {
                    if let seen = best[token.text] {
                        best[token.text] = min(seen, field)
                    } else {
                        best[token.text] = field
                        order.append(token.text)
                    }
                }
            }
        }
        return (order, order.map { best[$0]! })
    }

    @Test(arguments: [5, 63, 64, 65, 200])
    func distinctTokensKeepFirstOrderAndBestField(words: Int) {
        let vocabulary = (0..<words).map { "internationalisation\($0 % 7)x\($0)" } + ["cozo", "cozona", "cozonatural"]
        let description = vocabulary.reversed().joined(separator: " ")
        let sets = [
            AttributeSet(title: vocabulary.prefix(3).joined(separator: " ") + " cozo", contentDescription: description,
                         keywords: ["cozonatural", vocabulary[words / 2]]),
            AttributeSet(title: vocabulary.last, contentDescription: "cozo \(vocabulary[0]) \(vocabulary[words / 3]) \(vocabulary[words / 3])"),
        ]
        let document = Document(
            uniqueIdentifier: "d", title: "t", titleLength: 1, contentType: "public.item", domainIdentifier: nil,
            sources: [.item], visibility: .public
        ).withTokens(from: sets)
        let (tokens, fields) = expected(sets)
        #expect(document.pendingTokens == tokens)
        #expect(document.pendingFields == fields)
        #expect(Set(tokens).count == tokens.count && tokens.count >= words)
    }
}
