import Foundation

/// What makes a result's highlights when they are read, shared by the
/// results of one query: its terms and their probes.
///
/// A keystroke answers fifty results, and a screen shows a dozen or two
/// of them; making highlights decodes and scans a title. Made when a row
/// is drawn (or a result is written out), they cost only the results shown.
///
/// Only probes that decide every token alone are kept
/// (`TermProbe.decidesTextAlone`): nothing here refers to the engine's
/// trie, whose arrays a result kept alive would make the next change of
/// the index copy.
final class DeferredHighlights: Sendable {
    let terms: [String]
    let termsAreASCII: Bool
    let probes: [TermProbe]

    /// Nil when a probe is missing or needs the trie: those results are
    /// highlighted as they are made.
    init?(terms: [String], termsAreASCII: Bool, probes: [TermProbe]?) {
        guard let probes, probes.count == terms.count, probes.allSatisfy(\.decidesTextAlone) else { return nil }
        self.terms = terms
        self.termsAreASCII = termsAreASCII
        self.probes = probes
    }

    /// The title's highlights, as `SearchEngine.highlights(ofUTF8:…)` makes them.
    func highlights(ofTitle text: UnsafeBufferPointer<UInt8>) -> HighlightList {
        var noEvaluators: [TermEvaluator] = []
        return SearchEngine.highlights(
            ofUTF8: text, field: HighlightList.inlineField, terms: terms, termsAreASCII: termsAreASCII, probes: probes,
            evaluators: &noEvaluators, trie: Self.unread)
    }

    /// The trie the highlight functions take, never read through here
    /// (every probe decides alone): an empty one.
    private nonisolated(unsafe) static let unread: UnsafePointer<TokenTrie> = {
        let trie = UnsafeMutablePointer<TokenTrie>.allocate(capacity: 1)
        trie.initialize(to: TokenTrie())
        return UnsafePointer(trie)
    }()
}
