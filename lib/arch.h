/*
 * arch.h - the architecture-specific facts the runtime needs: the
 * interrupted program counter and registers, read from the signal's
 * ucontext, and the thread pointer.  Porting pct to another architecture
 * means adding one arch-NAME.h beside this.
 */
#ifndef PCT_ARCH_H
#define PCT_ARCH_H

#if defined(__x86_64__)
#include "arch-x86_64.h"
#elif defined(__aarch64__)
#include "arch-aarch64.h"
#else
#error "pct: no arch-*.h for this architecture; add one that defines arch_pc()"
#endif

#endif
