/*
 * asmkern.S - code as assemblers export it (x86_64), for e2e 143: kern_a
 * and kern_b are global labels with no type and no size (STT_NOTYPE, size
 * 0 in .dynsym, as nasm's are); hidden_kern, a local label in a section
 * of its own (kernx, right after .text), is reached through run_hidden,
 * so that a stripped library names it nowhere; mid_label is a global
 * label inside the sized function sized_fn.  Every loop is the same
 * instructions: each function's share is its share of the iterations.
 * Each takes the iteration count in %rdi.
 */
	.text
	.globl run_hidden
	.type run_hidden, @function
run_hidden:
	jmp hidden_kern
	.size run_hidden, .-run_hidden

	.globl sized_fn
	.type sized_fn, @function
sized_fn:
	mov %rdi, %rcx
	mov $1, %rax
	.globl mid_label
mid_label:
	imul $7, %rax, %rax
	dec %rcx
	jnz mid_label
	ret
	.size sized_fn, .-sized_fn

	.globl kern_a
kern_a:
	mov %rdi, %rcx
	mov $1, %rax
1:	imul $7, %rax, %rax
	dec %rcx
	jnz 1b
	ret

	.globl kern_b
kern_b:
	mov %rdi, %rcx
	mov $1, %rax
1:	imul $7, %rax, %rax
	dec %rcx
	jnz 1b
	ret

	.section kernx, "ax", @progbits
hidden_kern:
	mov %rdi, %rcx
	mov $1, %rax
1:	imul $7, %rax, %rax
	dec %rcx
	jnz 1b
	ret
	.section .note.GNU-stack, "", @progbits
