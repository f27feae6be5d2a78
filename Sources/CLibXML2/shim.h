// libxml2's HTML parser, found through pkg-config (libxml-2.0) as the
// ncurses module is: CHTMLParser includes it, Swift never does.
#include <libxml/HTMLparser.h>
