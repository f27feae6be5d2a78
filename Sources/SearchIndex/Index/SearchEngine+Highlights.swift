import Foundation
import SearchSupport

/// Highlights: the characters of a result's title that the query matched.
extension SearchEngine {
    /// Character ranges of `text` (UTF-8) that the query's terms matched:
    /// a token matched without typo as a prefix is covered as far as the
    /// term goes, any other matched token whole.
    /// `probes`, when the query has them, answer whether a token matches
    /// without the trie; otherwise the evaluators do.
    /// `termsAreASCII` is `areASCII(terms)`, found once for all the results.
    func highlights(
        ofUTF8 text: UnsafeBufferPointer<UInt8>, field: String, terms: [String], termsAreASCII: Bool, probes: [TermProbe]?,
        evaluators: inout [TermEvaluator]
    ) -> HighlightList {
        // The trie goes down by address: closures that captured it (or
        // `self`) would copy it, every array it holds retained and released
        // for each result.
        withUnsafePointer(to: trie) { trie in
            Self.highlights(
                ofUTF8: text, field: field, terms: terms, termsAreASCII: termsAreASCII, probes: probes,
                evaluators: &evaluators, trie: trie)
        }
    }

    /// `highlights(ofUTF8:…)` with the trie by address (what a result's
    /// deferred highlights call, with probes that never read it).
    static func highlights(
        ofUTF8 text: UnsafeBufferPointer<UInt8>, field: String, terms: [String], termsAreASCII: Bool, probes: [TermProbe]?,
        evaluators: inout [TermEvaluator], trie: UnsafePointer<TokenTrie>
    ) -> HighlightList {
        // The probes are read in place: taken out of the array (a probe a
        // token a term), each would be copied, a retain and a release of
        // each of its arrays.
        guard let probes else {
            return highlights(of: text, field: field, terms: terms, termsAreASCII: termsAreASCII, probes: nil, evaluators: &evaluators, trie: trie)
        }
        return probes.withUnsafeBufferPointer {
            highlights(of: text, field: field, terms: terms, termsAreASCII: termsAreASCII, probes: $0, evaluators: &evaluators, trie: trie)
        }
    }

    /// The probes read in place: without them the evaluators read the
    /// trie; with them, only a probe that cannot decide a token alone
    /// does (`TermProbe.decidesTextAlone`).
    private static func highlights(
        of text: UnsafeBufferPointer<UInt8>, field: String, terms: [String], termsAreASCII: Bool, probes: UnsafeBufferPointer<TermProbe>?,
        evaluators: inout [TermEvaluator], trie: UnsafePointer<TokenTrie>
    ) -> HighlightList {
        if termsAreASCII {
            if let plain = plainHighlights(of: text, field: field, terms: terms, probes: probes, evaluators: &evaluators, trie: trie) {
                return plain
            }
        }
        // Text the tokenizer must read (most titles are plain): as a string.
        let string = String(decoding: text, as: UTF8.self)
        if termsAreASCII && isBeyondASCII(string) { return HighlightList() }
        return tokenizedHighlights(of: string, field: field, terms: terms, probes: probes, evaluators: &evaluators, trie: trie)
    }

    /// Whether every term is ASCII, asked once a query rather than by each
    /// result's highlights of every term again.
    static func areASCII(_ terms: [String]) -> Bool {
        terms.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// Whether no term can match a token of `text`: ASCII terms against a
    /// text of Chinese, Japanese or Korean characters and ASCII
    /// separators only. Its tokens are those characters and their pairs,
    /// none of which starts with an ASCII character, and a term allowed a
    /// typo has at least five characters, more than one edit from any
    /// prefix of a one- or two-character token. (Such a title, met as a
    /// result matched in another field, would go through the tokenizer
    /// for nothing.)
    static func isBeyondASCIITerms(_ text: String, terms: [String]) -> Bool {
        areASCII(terms) && isBeyondASCII(text)
    }

    /// `isBeyondASCIITerms` once the terms are known to be ASCII.
    static func isBeyondASCII(_ text: String) -> Bool {
        var sawCJK = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                if Tokenizer.isASCIIWord(UInt8(scalar.value)) { return false }
            } else if TextNormalizer.isCJK(scalar) {
                sawCJK = true
            } else {
                return false
            }
        }
        return sawCJK
    }

    /// `highlights(of:…)` for plain text, read in place: ASCII whose tokens
    /// are exactly its runs of letters and digits (see `Tokenizer.isPlain`), with
    /// ASCII terms (the caller knows they are). Nil for any other text,
    /// which the tokenizer reads.
    ///
    /// Most titles are plain, and no token's string is made for them.
    /// Static, with the trie by address (see `highlights`).
    private static func plainHighlights(
        of bytes: UnsafeBufferPointer<UInt8>, field: String, terms: [String], probes: UnsafeBufferPointer<TermProbe>?, evaluators: inout [TermEvaluator],
        trie: UnsafePointer<TokenTrie>
    ) -> HighlightList? {
        guard Tokenizer.isPlain(bytes) else { return nil }
        // By index: `allSatisfy` hands each probe over as a copy.
        if let probes, probes.count == terms.count, probes.indices.allSatisfy({ probes[$0].singleLeadByte != nil }) {
            return singleHeadHighlights(of: bytes, field: field, terms: terms, probes: probes)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { folded in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(bytes.count, 1)) { scalars in
                var out = HighlightList()
                // A token that no term's probe can match by its first byte
                // (most of a title's, for a term with typos) is passed over
                // unfolded: its codes would all be misses.
                let leadTests = probes.map { $0.count == terms.count } ?? false
                Tokenizer.forEachASCIIWord(in: bytes) { start, end in
                    if leadTests, let probes {
                        let lead = Tokenizer.foldedASCII(bytes[start])
                        // By index: `contains(where:)` hands each probe over as a copy.
                        guard probes.indices.contains(where: { probes[$0].mayMatch(lead: lead) }) else { return }
                    }
                    // One token: folded (lowercased) as the index stores it.
                    let length = end - start
                    for offset in 0..<length {
                        let lower = Tokenizer.foldedASCII(bytes[start + offset])
                        folded[offset] = lower
                        scalars[offset] = UInt32(lower)
                    }
                    let token = UnsafeBufferPointer(rebasing: folded[..<length])
                    let tokenScalars = UnsafeBufferPointer(rebasing: scalars[..<length])
                    var node: Int32 = -1
                    if probes == nil {
                        guard let found = trie.pointee.node(ofScalars: tokenScalars) else { return }
                        node = found
                    }
                    var covered = 0
                    for (index, term) in terms.enumerated() {
                        guard let (typos, whole) = Self.hit(
                            ofTerm: index, node: node, probes: probes, evaluators: &evaluators, trie: trie,
                            code: { TermProbe.code(of: $0, token: token, scalars: tokenScalars, trie: trie) })
                        else { continue }
                        // A character of plain text folds to one scalar.
                        if typos == 0 && !whole && token.starts(withUTF8Of: term) {
                            covered = max(covered, term.utf8.count)
                        } else {
                            covered = length
                        }
                    }
                    // Tokens are apart (a separator between two runs): nothing to merge.
                    if covered > 0 { out.append(Highlight(field: field, start: start, length: covered)) }
                }
                return out
            }
        }
    }

    /// `plainHighlights` when every term reaches one node without typos
    /// in at most eight bytes (`TermProbe.singleCode`: most keystrokes):
    /// a token matches a term when its first eight bytes, folded, fall
    /// under the node's path, which its first byte mostly rules out, so
    /// each token is folded only when its first byte is a term's. (Every
    /// token folded into two buffers, then tested, would be most of a
    /// short keystroke's highlighting.)
    private static func singleHeadHighlights(
        of bytes: UnsafeBufferPointer<UInt8>, field: String, terms: [String], probes: UnsafeBufferPointer<TermProbe>
    ) -> HighlightList {
        var out = HighlightList()
        Tokenizer.forEachASCIIWord(in: bytes) { start, end in
            let length = end - start
            let first = Tokenizer.foldedASCII(bytes[start])
            var covered = 0
            for index in terms.indices where probes[index].singleLeadByte == first {
                let head = TokenArena.head(of: UnsafeBufferPointer(rebasing: bytes[start..<end]).lazy.map(Tokenizer.foldedASCII))
                guard let code = probes[index].singleCode(head: head, length: length),
                    let (_, whole) = TermProbe.hit(ofCode: code)
                else { continue }
                var term = terms[index]
                let startsWithTerm = term.withUTF8 { term in
                    term.count <= length && term.indices.allSatisfy { Tokenizer.foldedASCII(bytes[start + $0]) == term[$0] }
                }
                covered = !whole && startsWithTerm ? max(covered, term.utf8.count) : length
            }
            // Tokens are apart (a separator between two runs): nothing to merge.
            if covered > 0 { out.append(Highlight(field: field, start: start, length: covered)) }
        }
        return out
    }

    /// Typos and wholeness of the term at `index` against one token: from
    /// its probe's `code` for the token when the query has probes, else
    /// from its evaluator at the token's `node`. Nil when it does not match.
    @inline(__always)
    private static func hit(
        ofTerm index: Int, node: Int32, probes: UnsafeBufferPointer<TermProbe>?, evaluators: inout [TermEvaluator],
        trie: UnsafePointer<TokenTrie>,
        code: (UnsafePointer<TermProbe>) -> UInt8
    ) -> (typos: UInt8, whole: Bool)? {
        // By address: a probe handed over whole is copied (`TermProbe.code(of:…)`).
        if let probes { return TermProbe.hit(ofCode: code(probes.baseAddress.unsafelyUnwrapped + index)) }
        guard let hit = evaluators[index].hit(for: node, trie: trie.pointee) else { return nil }
        return (hit.typos, hit.whole)
    }

    /// `highlights(of:…)` for any text: its tokens as the index made them.
    private static func tokenizedHighlights(
        of text: String, field: String, terms: [String], probes: UnsafeBufferPointer<TermProbe>?, evaluators: inout [TermEvaluator],
        trie: UnsafePointer<TokenTrie>
    ) -> HighlightList {
        var out: [Highlight] = []
        var characters: [Character]?
        for token in Tokenizer.indexTokens(text) {
            var bestLength = 0
            // The token's bytes and scalars made once for every term (and
            // the node), and the probe asked through them: made for each
            // term in closures, they would hold copies of the probe (a
            // retain and a release of each of its arrays) for every token
            // and term, a large share of a keystroke of Chinese characters.
            var tokenText = token.text
            TokenTrie.withScalars(of: tokenText) { scalars in
                var node: Int32 = -1
                if probes == nil {
                    // A token the trie lacks matches no term.
                    guard let found = trie.pointee.node(ofScalars: scalars) else { return }
                    node = found
                }
                tokenText.withUTF8 { utf8 in
                    for (index, term) in terms.enumerated() {
                        guard let (typos, whole) = Self.hit(
                            ofTerm: index, node: node, probes: probes, evaluators: &evaluators, trie: trie,
                            code: { TermProbe.code(of: $0, token: utf8, scalars: scalars, trie: trie) })
                        else { continue }
                        if typos == 0 && !whole && token.text.hasPrefix(term) {
                            // Cover the original characters that fold to the term.
                            if characters == nil { characters = Array(text) }
                            let want = term.unicodeScalars.count
                            var have = 0
                            var length = 0
                            while have < want, length < token.length {
                                have += TextNormalizer.fold(characters![token.start + length]).unicodeScalars.count
                                length += 1
                            }
                            bestLength = max(bestLength, length)
                        } else {
                            bestLength = token.length
                        }
                    }
                }
            }
            if bestLength > 0 { out.append(Highlight(field: field, start: token.start, length: bestLength)) }
        }
        // Overlapping ranges (CJK pairs) are merged.
        out.sort { ($0.start, -$0.length) < ($1.start, -$1.length) }
        var merged: [Highlight] = []
        for h in out {
            if let last = merged.last, h.start <= last.start + last.length {
                merged[merged.count - 1].length = max(last.length, h.start + h.length - last.start)
            } else {
                merged.append(h)
            }
        }
        return HighlightList(merged)
    }
}
