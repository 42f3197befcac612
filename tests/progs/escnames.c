/*
 * escnames.c - a program whose names carry terminal escapes, for
 * tests/e2e/47-escapes.sh: its hot function's symbol, its source file's
 * name (in DWARF, through #line) and its thread's name hold ESC [ 2 J
 * (clear the screen), ESC ] 0;title BEL (set the window title), the C1
 * byte 0x9b (CSI on some terminals) and 0xff (never valid UTF-8); the
 * file name a backslash too.  The test adds its own module path and
 * command line.  GNU as takes any byte but NUL in a quoted symbol name.
 *
 * usage: escnames [SECONDS] [ARGS...]   (CPU seconds to burn; default 0.3)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "burn.h"

#line 1 "esc\033[2J\033]0;title\007\233\377\\src.c"
static void hot(double s) __asm__("\"hot\033[2J\033]0;title\007\233\377fn\"");
DEFINE_BURN(static, hot)

int main(int argc, char **argv)
{
	pthread_setname_np(pthread_self(), "t\033[2J\033]0;\007\233\377");
	hot(argc > 1 ? atof(argv[1]) : 0.3);
	return 0;
}
