import Foundation
import TestSupport
import Testing
@testable import Catalog
@testable import SearchIndex

@Suite struct WebCrawlerTests {
    func page(_ html: String, url: String = "https://photos.example.com/photos/1") -> SearchableItem? {
        WebCrawler.item(html: Array(html.utf8), url: url, host: "photos.example.com")
    }

    @Test func readsOpenGraphMetaAndJSONLD() throws {
        let item = try #require(page("""
            <html><head><title>Plain title</title>
            <meta property="og:title" content="Northern lights">
            <meta name="description" content="Green aurora">
            <meta name="keywords" content="aurora, night ,  norway">
            <meta property="og:image" content="https://x.example/a.JPG?size=2">
            <meta property="og:image:width" content="120"><meta property="og:image:height" content="80">
            <meta name="apple-itunes-app" content="app-id=1, app-argument=searchlight://photo/1">
            <script type="application/ld+json">{"@type":"Photograph","keywords":["极光"]}</script>
            </head><body></body></html>
            """))
        #expect(item.attributeSet.title == "Northern lights")
        #expect(item.attributeSet.contentDescription == "Green aurora")
        #expect(item.attributeSet.keywords == ["aurora", "night", "norway", "极光"])
        #expect(item.attributeSet.thumbnail == Thumbnail(format: "jpeg", width: 120, height: 80, caption: "image at https://x.example/a.JPG?size=2"))
        #expect(item.attributeSet.extras["appLink"] == "searchlight://photo/1")
        #expect(item.attributeSet.extras["schemaType"] == "Photograph")
        #expect(item.visibility == .public)
        #expect(item.attributeSet.url == "https://photos.example.com/photos/1")
        #expect(item.domainIdentifier == "web.photos.example.com")
    }

    @Test func oddMarkupStillGivesAPage() throws {
        let item = try #require(page("<HTML><HEAD><TITLE>Upload &amp; share</TITLE><META NAME=Keywords CONTENT='a,b'><script type='application/ld+json'>{ broken</script></HEAD><BODY><P>x<P>y<b><i>z</b></i>"))
        #expect(item.attributeSet.title == "Upload & share")
        #expect(item.attributeSet.keywords == ["a", "b"])
        #expect(item.attributeSet.contentDescription == nil)
        #expect(item.attributeSet.thumbnail == nil)
    }

    @Test func missingTitleFallsBackToJSONLDThenHeadingThenURL() throws {
        #expect(page(#"<script type="application/ld+json">{"name":"From LD"}</script><p>x"#)?.attributeSet.title == "From LD")
        #expect(page("<body><h1>  Heading \n text </h1></body>")?.attributeSet.title == "Heading text")
        #expect(page("<body><p>nothing</p></body>", url: "https://h.example/x")?.attributeSet.title == "https://h.example/x")
    }

    @Test func deepNestingDoesNotCrash() {
        let html = String(repeating: "<div>", count: 50_000) + "<title>Deep</title>"
        #expect(page(html) != nil)
    }

    @Test func urlPathsFollowFilePaths() {
        #expect(WebCrawler.urlPath(forFile: "photos/1.html") == "photos/1")
        #expect(WebCrawler.urlPath(forFile: "index.html") == "")
        #expect(WebCrawler.urlPath(forFile: "about/index.htm") == "about/")
    }

    @Test func crawlsTheBundledPagesAndTheyMergeWithTheirItems() throws {
        let crawl = try WebCrawler.crawl(directory: dataDirectory + "/web")
        #expect(crawl.items.count >= 10)
        #expect(Set(crawl.items.compactMap(\.domainIdentifier)).count >= 2)
        var engine = SearchEngine()
        engine.index(try FixtureCatalog.items(in: dataDirectory))
        engine.index(crawl.items, source: .web)
        let aurora = try #require(engine.search(SearchQuery("北极光")).results.first)
        #expect(aurora.uniqueIdentifier == "photo/1")
        #expect(aurora.sources == [.item, .web])
        // A page with no app item is a result of its own.
        #expect(engine.search(SearchQuery("upload")).results.first?.sources == [.web])
    }

    @Test func notADirectory() {
        #expect(throws: ImportError.self) { try WebCrawler.crawl(directory: "/nonexistent/web") }
    }
}

@Suite struct ResultGuidanceTests {
    func rules(_ item: SearchableItem) -> [String] { ResultGuidance.check(item).map(\.rule) }
    let thumbnail = Thumbnail(format: "png", width: 1, height: 1)

    @Test func eachRule() {
        #expect(rules(SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: String(repeating: "x", count: 91), thumbnail: thumbnail))) == ["title-too-long"])
        #expect(rules(SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: "ok", contentDescription: String(repeating: "y", count: 301), thumbnail: thumbnail))) == ["description-too-long"])
        #expect(rules(SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: "ok"))) == ["no-thumbnail"])
        #expect(rules(SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: "ok", keywords: (0..<11).map(String.init), thumbnail: thumbnail))) == ["too-many-keywords"])
        #expect(rules(SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: String(repeating: "x", count: 90), contentDescription: String(repeating: "y", count: 300), keywords: (0..<10).map(String.init), thumbnail: thumbnail))).isEmpty)
        #expect(ResultGuidance.check(UserActivity(activityType: "t"), identifier: "act").map(\.rule) == ["activity-without-related-item"])
    }

    @Test func theFixturesAndPagesPassClean() throws {
        let items = try FixtureCatalog.items(in: dataDirectory) + WebCrawler.crawl(directory: dataDirectory + "/web").items
        #expect(items.flatMap(ResultGuidance.check).isEmpty)
    }
}
