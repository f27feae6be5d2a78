#ifndef SEARCHLIGHT_CHTMLPARSER_H
#define SEARCHLIGHT_CHTMLPARSER_H

/// Called once per element, in document order. Names are lowercased by the
/// parser; `text` is the element's text content for title, h1 and script
/// elements and NULL otherwise. Pointers are valid during the call only.
typedef void (*sl_html_element_callback)(void *context, const char *name, int attribute_count,
                                         const char *const *keys, const char *const *values, const char *text);

/// Parses `length` bytes of HTML with libxml2's forgiving HTML parser (no
/// network, no messages on stderr) and walks its elements. Returns 0, or -1
/// when the bytes are not HTML at all.
int sl_html_walk(const char *bytes, int length, void *context, sl_html_element_callback callback);

#endif
