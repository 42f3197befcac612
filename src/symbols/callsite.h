/*
 * callsite.h - the call instruction before a return address.
 *
 * A caller's frame in an unwound stack is known by its return address:
 * the instruction after the call.  Tools that show code (KCachegrind,
 * the Callgrind format's "source position" of a calls= line) want the
 * call instruction itself.  On AArch64 it is the 4 bytes before; on
 * x86-64 instructions have 1 to 15 bytes, so the function's code is
 * decoded with capstone from its first byte up to the return address.
 */
#ifndef PCT_CALLSITE_H
#define PCT_CALLSITE_H

#include <stdint.h>

#include "symtab.h"

/*
 * The link-time address of the instruction that ends at ret (a link-time
 * return address) in the function that starts at fn_start, in *call.
 * Returns 0, or -1 if the code cannot be read from the module's file,
 * the architecture is not x86-64 or AArch64, or no instruction decoded
 * from fn_start ends at ret (data in the code, or a wrong start).
 */
int callsite_start(struct symtab *st, uint64_t fn_start, uint64_t ret, uint64_t *call);

#endif
