import Foundation
import SearchIndex

/// Plain JSON objects for `--json` output, built from engine values.
enum JSONForm {
    static func encodable<T: Encodable>(_ value: T) -> Any {
        encodable(value, with: encoder())
    }

    /// The encoder `encodable` uses; one thread's, many values (making
    /// one costs more than encoding an item).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = StoredDate.encodingStrategy
        return encoder
    }

    static func encodable<T: Encodable>(_ value: T, with encoder: JSONEncoder) -> Any {
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return NSNull() }
        return object
    }

    static func result(_ result: SearchResult, explain: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "uniqueIdentifier": result.uniqueIdentifier,
            "domainIdentifier": result.domainIdentifier ?? NSNull(),
            "contentType": result.contentType,
            "title": result.title,
            "sources": result.sources.map(\.rawValue),
            "highlights": result.highlights.map { ["field": $0.field, "start": $0.start, "length": $0.length] },
        ]
        if explain { object["explain"] = explanation(result.explanation) }
        return object
    }

    /// The strategy that answered a query, and why (`QueryPlan`).
    static func plan(_ plan: QueryPlan) -> [String: Any] {
        var object: [String: Any] = [
            "name": plan.name, "strategy": plan.strategy.rawValue, "exactFirst": plan.exactFirst, "reason": plan.reason,
        ]
        if let fellBackFrom = plan.fellBackFrom { object["fellBackFrom"] = fellBackFrom.rawValue }
        return object
    }

    static func explanation(_ e: Explanation) -> [String: Any] {
        [
            "rules": [
                ["rule": "typos", "value": e.key.typos],
                ["rule": "wholeWords", "value": e.key.wholeWords],
                ["rule": "exact", "value": e.key.exact],
                ["rule": "field", "value": e.key.fieldScore],
                ["rule": "engagement", "value": e.key.engagement, "views": e.views],
                ["rule": "rankingHint", "value": e.key.rankingHint],
                ["rule": "sources", "value": e.key.sources],
                ["rule": "titleLength", "value": e.key.titleLength],
                ["rule": "uniqueIdentifier", "value": e.key.uniqueIdentifier],
            ],
            "matches": e.matches.map {
                ["term": $0.term, "token": $0.token, "field": $0.field, "typos": $0.typos, "whole": $0.whole] as [String: Any]
            },
        ]
    }
}
