#ifndef SEARCHLIGHT_CNCURSES_SHIM_H
#define SEARCHLIGHT_CNCURSES_SHIM_H
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, so ask for the wide-character
// API explicitly, or add_wch and friends vanish.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

// Mutable globals and macros Swift cannot use directly.
static inline WINDOW *sl_stdscr(void) { return stdscr; }
static inline int sl_lines(void) { return LINES; }
static inline int sl_cols(void) { return COLS; }
static inline int sl_colors(void) { return COLORS; }
static inline int sl_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t sl_a_bold(void) { return A_BOLD; }
static inline attr_t sl_a_dim(void) { return A_DIM; }
static inline attr_t sl_a_reverse(void) { return A_REVERSE; }
static inline attr_t sl_a_underline(void) { return A_UNDERLINE; }
static inline attr_t sl_a_normal(void) { return A_NORMAL; }
static inline int sl_key_resize(void) { return KEY_RESIZE; }
static inline int sl_key_mouse(void) { return KEY_MOUSE; }
static inline int sl_err(void) { return ERR; }

/// Paints one cell: a base character plus up to four combining marks.
static inline int sl_put_cell(int y, int x, const wchar_t *text, attr_t attributes, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}

/// Reads one key or character; returns the key code in *code and whether
/// it is a function key (KEY_CODE_YES) as the result, ERR on timeout.
static inline int sl_get_key(wint_t *code) { return get_wch(code); }

/// Enables mouse reports (wheel and clicks) where the terminal sends them.
static inline void sl_enable_mouse(void) {
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
    mouseinterval(0);
}

/// The last mouse event: returns 0 and fills the fields, or ERR.
static inline int sl_mouse_event(int *y, int *x, int *wheel_up, int *wheel_down, int *click) {
    MEVENT event;
    if (getmouse(&event) != OK) return ERR;
    *y = event.y;
    *x = event.x;
    *wheel_up = (event.bstate & BUTTON4_PRESSED) ? 1 : 0;
#ifdef BUTTON5_PRESSED
    *wheel_down = (event.bstate & BUTTON5_PRESSED) ? 1 : 0;
#else
    *wheel_down = 0;
#endif
    /* The press alone: with mouseinterval(0) a click also reports its
       release, which would count as a second click. */
    *click = (event.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) ? 1 : 0;
    return 0;
}
#endif
