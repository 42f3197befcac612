/* plug.c - a plug-in for dlplug: built twice, as libplug-a.so (-DNAME=plug_a_work)
 * and libplug-b.so (-DNAME=plug_b_work). */
#include "burn.h"

DEFINE_BURN(, NAME)
