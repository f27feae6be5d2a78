#include "CHTMLParser.h"
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ATTRIBUTES = 64, MAX_DEPTH = 4096 };

static int wants_text(const char *name) {
    return strcmp(name, "title") == 0 || strcmp(name, "h1") == 0 || strcmp(name, "script") == 0;
}

static void visit(xmlNodePtr node, void *context, sl_html_element_callback callback) {
    // An explicit stack: hostile pages nest deeply.
    xmlNodePtr *stack = malloc(sizeof(xmlNodePtr) * MAX_DEPTH);
    if (!stack) return;
    int depth = 0;
    stack[depth++] = node;
    while (depth > 0) {
        xmlNodePtr current = stack[--depth];
        if (current->type == XML_ELEMENT_NODE && current->name) {
            const char *keys[MAX_ATTRIBUTES];
            const char *values[MAX_ATTRIBUTES];
            xmlChar *owned[MAX_ATTRIBUTES];
            int count = 0;
            for (xmlAttrPtr a = current->properties; a && count < MAX_ATTRIBUTES; a = a->next) {
                xmlChar *value = xmlNodeGetContent((xmlNodePtr)a);
                keys[count] = (const char *)a->name;
                values[count] = value ? (const char *)value : "";
                owned[count] = value;
                count++;
            }
            xmlChar *text = NULL;
            if (wants_text((const char *)current->name)) text = xmlNodeGetContent(current);
            callback(context, (const char *)current->name, count, keys, values, (const char *)text);
            if (text) xmlFree(text);
            for (int i = 0; i < count; i++) if (owned[i]) xmlFree(owned[i]);
        }
        // Push children in reverse so they come out in document order.
        int first = depth;
        for (xmlNodePtr child = current->children; child; child = child->next) {
            if (child->type != XML_ELEMENT_NODE) continue;
            if (depth >= MAX_DEPTH) break;
            stack[depth++] = child;
        }
        for (int i = first, j = depth - 1; i < j; i++, j--) {
            xmlNodePtr t = stack[i]; stack[i] = stack[j]; stack[j] = t;
        }
    }
    free(stack);
}

int sl_html_walk(const char *bytes, int length, void *context, sl_html_element_callback callback) {
    htmlDocPtr document = htmlReadMemory(bytes, length, NULL, "UTF-8",
        HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    if (!document) return -1;
    xmlNodePtr root = xmlDocGetRootElement(document);
    if (!root) { xmlFreeDoc(document); return -1; }
    visit(root, context, callback);
    xmlFreeDoc(document);
    return 0;
}
