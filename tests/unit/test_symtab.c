/* test_symtab.c - names as people read them: demangling of C++ and of
 * Rust in both its schemes (issue 15: 24% of a Rust program's samples
 * were printed raw, "_RNv...", or kept the legacy "::h<hash>" suffix). */
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "unit.h"

static int demangles_to(const char *mangled, const char *want)
{
	char *d = symtab_demangle(mangled);
	int ok = want == NULL ? d == NULL : d != NULL && strcmp(d, want) == 0;
	if (!ok)
		fprintf(stderr, "demangle %s: got '%s', want '%s'\n", mangled, d ? d : "(null)", want ? want : "(null)");
	free(d);
	return ok;
}

int main(void)
{
	CHECK(demangles_to("_Z9hash_loopm", "hash_loop(unsigned long)"));
	CHECK(demangles_to("_ZN3foo3barEv.cold", "foo::bar() [clone .cold]"));
	CHECK(demangles_to("_ZNSt6vectorIiSaIiEE9push_backERKi",
			   "std::vector<int, std::allocator<int> >::push_back(int const&)"));
	/* Rust, legacy: the hash suffix is left out */
	CHECK(demangles_to("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write"));
	/* Rust, v0 */
	CHECK(demangles_to("_RNvCs1234_7mycrate3foo", "mycrate::foo"));
	CHECK(demangles_to("_RNvNtCs1234_7mycrate5inner3bar", "mycrate::inner::bar"));
	/* not mangled, or not valid */
	CHECK(demangles_to("main", NULL));
	CHECK(demangles_to("_Zjunk", NULL));
	CHECK(demangles_to("_R", NULL));
	CHECK(demangles_to("", NULL));
	return unit_done("test_symtab");
}
