/* arch-x86_64.h - the interrupted PC on x86_64 is RIP in the saved gregs. */
#include <stdint.h>
#include <ucontext.h>

/* async-signal-safe */
static inline uintptr_t arch_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}
