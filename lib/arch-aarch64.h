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

/* async-signal-safe: the thread pointer (TPIDR_EL0).  glibc and musl put a
 * thread's TCB, which it points at, at the top of its stack block, above
 * the stack; read without a call, so that it is safe before a sanitizer's
 * runtime has set the thread up. */
static inline uintptr_t arch_thread_pointer(void)
{
	uintptr_t tp;
	__asm__("mrs %0, tpidr_el0" : "=r"(tp));
	return tp;
}
