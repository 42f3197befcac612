/* arch-aarch64.h - the interrupted PC on aarch64 is mcontext.pc. */
#include <stdint.h>
#include <ucontext.h>

/* async-signal-safe */
static inline uintptr_t arch_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
}

/* Registers for call-stack records (pct_format.h, struct pct_stack):
 * x0-x30 and sp, DWARF 0-31 (AArch64 DWARF ABI), then the PC. */
#define ARCH_STACK_MACHINE 183         /* EM_AARCH64 */
#define ARCH_STACK_REGS 33
#define ARCH_SP_INDEX 31

/* async-signal-safe */
static inline void arch_regs(const void *uc, uint64_t *r)
{
	const mcontext_t *m = &((const ucontext_t *)uc)->uc_mcontext;
	for (int i = 0; i < 31; i++)
		r[i] = m->regs[i];
	r[31] = m->sp;
	r[32] = m->pc;
}
