/* arch-aarch64.h - the interrupted PC on aarch64 is mcontext.pc. */
#include <stdint.h>
#include <ucontext.h>

/* async-signal-safe */
static inline uintptr_t arch_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
}
