/* arch-x86_64.h - the interrupted PC on x86_64 is RIP in the saved gregs. */
#include <stdint.h>
#include <ucontext.h>

/* async-signal-safe */
static inline uintptr_t arch_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}

/* Registers for call-stack records (pct_format.h, struct pct_stack): the
 * 16 general registers in DWARF order (System V x86-64 psABI, table
 * "DWARF Register Number Mapping": rax rdx rcx rbx rsi rdi rbp rsp
 * r8-r15), then the PC. */
#define ARCH_STACK_MACHINE 62          /* EM_X86_64 */
#define ARCH_STACK_REGS 17
#define ARCH_SP_INDEX 7

/* async-signal-safe */
static inline void arch_regs(const void *uc, uint64_t *r)
{
	static const unsigned char greg[16] = { REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
						REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
						REG_R12, REG_R13, REG_R14, REG_R15 };
	const greg_t *g = ((const ucontext_t *)uc)->uc_mcontext.gregs;
	for (int i = 0; i < 16; i++)
		r[i] = (uint64_t)g[greg[i]];
	r[16] = (uint64_t)g[REG_RIP];
}

/* async-signal-safe: the thread pointer (glibc and musl keep the TCB's own
 * address at %fs:0).  Both put a thread's TCB at the top of its stack
 * block, above the stack (x86_64 TLS variant II), so it bounds the stack
 * from above; read without a call, so that it is safe before a
 * sanitizer's runtime has set the thread up. */
static inline uintptr_t arch_thread_pointer(void)
{
	uintptr_t tp;
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}
