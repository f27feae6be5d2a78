import CHTMLParser

/// A parsed HTML page, read through libxml2's forgiving HTML parser (never
/// regular expressions): its elements with their attributes and text.
struct HTMLDocument {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    /// Every element in document order; attribute names lowercased.
    private(set) var elements: [Element] = []

    private final class Collector {
        var elements: [Element] = []
    }

    init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
        let collector = Collector()
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                sl_html_walk(pointer, Int32(buffer.count), Unmanaged.passUnretained(collector).toOpaque()) {
                    context, name, count, keys, values, text in
                    guard let context, let name else { return }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    var attributes: [String: String] = [:]
                    for i in 0..<Int(count) {
                        guard let key = keys?[i], let value = values?[i] else { continue }
                        attributes[String(cString: key).lowercased()] = String(cString: value)
                    }
                    collector.elements.append(Element(
                        name: String(cString: name).lowercased(), attributes: attributes,
                        text: text.map { String(cString: $0) } ?? ""))
                }
            }
        }
        guard status == 0 else { return nil }
        elements = collector.elements
    }

    func first(_ name: String) -> Element? { elements.first { $0.name == name } }

    /// `content` of the first `<meta>` whose `name` or `property` is `key`.
    func meta(_ key: String) -> String? {
        for element in elements where element.name == "meta" {
            let names = [element.attributes["name"], element.attributes["property"]].compactMap { $0?.lowercased() }
            if names.contains(key), let content = element.attributes["content"] { return content }
        }
        return nil
    }
}
