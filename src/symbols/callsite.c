/* callsite.c - see callsite.h. */
#include <capstone/capstone.h>
#include <elf.h>

#include "callsite.h"

int callsite_start(struct symtab *st, uint64_t fn_start, uint64_t ret, uint64_t *call)
{
	int machine = symtab_machine(st);
	const uint8_t *code;
	if (ret <= fn_start)
		return -1;
	if (machine == EM_AARCH64) {
		/* fixed 4-byte instructions */
		if (ret % 4 || ret - fn_start < 4 || symtab_code(st, ret - 4, 4, &code) != 4)
			return -1;
		*call = ret - 4;
		return 0;
	}
	if (machine != EM_X86_64)
		return -1;
	size_t len = symtab_code(st, fn_start, ret - fn_start, &code);
	if (len != ret - fn_start)
		return -1;
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -1;
	cs_insn *insn = cs_malloc(cs);
	uint64_t at = fn_start, last = 0;
	int rc = -1;
	/* cs_disasm_iter advances code, len and at past each instruction */
	while (insn && len > 0 && cs_disasm_iter(cs, &code, &len, &at, insn))
		last = insn->address;
	if (insn && len == 0 && at == ret && last >= fn_start) {
		*call = last;
		rc = 0;
	}
	if (insn)
		cs_free(insn, 1);
	cs_close(&cs);
	return rc;
}
