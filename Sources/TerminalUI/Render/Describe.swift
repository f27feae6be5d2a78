import SearchIndex

/// Words for values the screen shows.
public enum Describe {
    /// `14801` as `14,801`.
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    /// A short badge for a content type.
    public static func badge(_ contentType: String) -> String {
        switch contentType {
        case "public.contact": "person"
        case "public.image": "photo"
        case "public.movie": "show"
        case "public.folder": "album"
        case "public.html": "web"
        case "public.item": "item"
        default: String(contentType.split(separator: ".").last ?? "item")
        }
    }

    /// `▣ 120×80 JPEG · 15 KB · green aurora`.
    public static func thumbnail(_ thumbnail: Thumbnail?) -> String? {
        guard let t = thumbnail else { return nil }
        var parts: [String] = []
        var size = ""
        if let w = t.width, let h = t.height { size = "\(w)×\(h)" }
        if let format = t.format { size += (size.isEmpty ? "" : " ") + format.uppercased() }
        if !size.isEmpty { parts.append(size) }
        if let bytes = t.byteCount { parts.append("\(max(1, (bytes + 512) / 1024)) KB") }
        if let caption = t.caption { parts.append(caption) } else if let color = t.dominantColor { parts.append(color) }
        return "▣ " + parts.joined(separator: " · ")
    }

    public static func sources(_ sources: [Source]) -> String {
        sources.map { source -> String in
            switch source {
            case .item: "Core Spotlight item"
            case .activity: "activity"
            case .web: "web page"
            }
        }.joined(separator: " + ")
    }

    /// Every attribute worth showing, as (label, value).
    public static func facts(_ a: AttributeSet) -> [(String, String)] {
        var out: [(String, String)] = []
        if let name = a.displayName { out.append(("name", name)) }
        if let d = a.contentDescription { out.append(("description", d)) }
        if !a.keywords.isEmpty { out.append(("keywords", a.keywords.joined(separator: ", "))) }
        for phone in a.phoneNumbers { out.append(("phone", phone)) }
        for email in a.emailAddresses { out.append(("e-mail", email)) }
        if let rating = a.rating { out.append(("rating", String(rating))) }
        if let hint = a.rankingHint {
            out.append(("rankingHint", hint == hint.rounded() && hint < 1e15 ? String(Int(hint)) : String(hint)))
        }
        if let url = a.url { out.append(("web page", url)) }
        for key in a.extras.keys.sorted() { out.append((key, a.extras[key]!)) }
        if let t = thumbnail(a.thumbnail) { out.append(("thumbnail", t)) }
        if let related = a.relatedUniqueIdentifier { out.append(("related", related)) }
        return out
    }
}
