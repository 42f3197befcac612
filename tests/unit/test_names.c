/*
 * test_names.c - names as a text report shows them (names.h): C++ and Rust
 * names shortened as pprof does, and names cut to a terminal's width.
 */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "unit.h"

static int short_is(const char *full, const char *want)
{
	char *s = name_short(full);
	int ok = strcmp(s, want) == 0;
	if (!ok)
		fprintf(stderr, "name_short(\"%s\") = \"%s\", want \"%s\"\n", full, s, want);
	free(s);
	return ok;
}

static int cut_is(const char *s, size_t cols, const char *want)
{
	char *c = text_cut(s, cols, "~");
	int ok = strcmp(c, want) == 0 && text_columns(c) <= (cols ? cols : (size_t)-1);
	if (!ok)
		fprintf(stderr, "text_cut(\"%s\", %zu) = \"%s\", want \"%s\"\n", s, cols, c, want);
	free(c);
	return ok;
}

int main(void)
{
	/* C names and pct's own names pass as they are */
	CHECK(short_is("main", "main"));
	CHECK(short_is("hash_loop.cold", "hash_loop.cold"));
	CHECK(short_is("[unknown]", "[unknown]"));
	CHECK(short_is("libx.so.1+0x26020", "libx.so.1+0x26020"));
	CHECK(short_is("memcpy@plt", "memcpy@plt"));
	/* parameters and template arguments */
	CHECK(short_is("std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector::push_back"));
	CHECK(short_is("std::vector<int>::push_back(int const&)", "std::vector::push_back"));
	CHECK(short_is("hash_loop(unsigned long)", "hash_loop"));
	CHECK(short_is("ns::Foo::bar() const", "ns::Foo::bar"));
	CHECK(short_is("ns::Foo::bar() const &&", "ns::Foo::bar"));
	CHECK(short_is("f(int) [clone .cold]", "f"));
	CHECK(short_is("f(std::function<void (int)>)", "f"));
	CHECK(short_is("std::map<std::string, std::vector<std::pair<int, int> > >::operator[](std::string const&)",
		       "std::map::operator[]"));
	/* a template function's return type goes too */
	CHECK(short_is("int foo<int>(int)", "foo"));
	CHECK(short_is("std::vector<int, std::allocator<int> >::iterator ns::find<int>(int)", "ns::find"));
	CHECK(short_is("void std::__insertion_sort<int*, __gnu_cxx::__ops::_Iter_less_iter>(int*, int*, "
		       "__gnu_cxx::__ops::_Iter_less_iter)", "std::__insertion_sort"));
	/* operators keep their token */
	CHECK(short_is("operator<(S const&, S const&)", "operator<"));
	CHECK(short_is("bool operator< <int>(S<int> const&, S<int> const&)", "operator<"));
	CHECK(short_is("operator<<(std::ostream&, S const&)", "operator<<"));
	CHECK(short_is("std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >"
		       "(std::basic_ostream<char, std::char_traits<char> >&, char const*)", "std::operator<<"));
	CHECK(short_is("Cmp::operator()(int, int) const", "Cmp::operator()"));
	CHECK(short_is("S::operator>>=(int)", "S::operator>>="));
	CHECK(short_is("S::operator<=>(S const&) const", "S::operator<=>"));
	CHECK(short_is("S::operator->() const", "S::operator->"));
	CHECK(short_is("operator new(unsigned long)", "operator new"));
	CHECK(short_is("operator delete[](void*)", "operator delete[]"));
	CHECK(short_is("S::operator int() const", "S::operator int"));
	CHECK(short_is("operator\"\"_km(unsigned long long)", "operator\"\"_km"));
	CHECK(short_is("std::_Function_handler<void (), main::{lambda()#1}>::_M_invoke(std::_Any_data const&)",
		       "std::_Function_handler::_M_invoke"));
	CHECK(short_is("std::vector<int>::push_back(int const&)@plt", "std::vector::push_back@plt"));
	/* lambdas and local entities */
	CHECK(short_is("main::{lambda(int)#1}::operator()(int) const", "main::{lambda#1}::operator()"));
	CHECK(short_is("work(int)::{lambda()#2}::operator()() const", "work::{lambda#2}::operator()"));
	CHECK(short_is("f()::{unnamed type#1}::g()", "f::{unnamed type#1}::g"));
	CHECK(short_is("(anonymous namespace)::spin(unsigned long)", "(anonymous namespace)::spin"));
	CHECK(short_is("ns::(anonymous namespace)::S<int>::f()", "ns::(anonymous namespace)::S::f"));
	/* Rust, legacy and v0 as demangled */
	CHECK(short_is("core::ptr::drop_in_place<alloc::vec::Vec<u8>>", "core::ptr::drop_in_place"));
	CHECK(short_is("<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
		       "<alloc::vec::Vec as core::ops::drop::Drop>::drop"));
	CHECK(short_is("<std::fs::File as std::io::Read>::read", "<std::fs::File as std::io::Read>::read"));
	CHECK(short_is("rayon::iter::plumbing::bridge::{{closure}}", "rayon::iter::plumbing::bridge::{{closure}}"));
	CHECK(short_is("<&T as core::fmt::Display>::fmt", "<&T as core::fmt::Display>::fmt"));
	CHECK(short_is("std::rt::lang_start::<()>::{closure#0}", "std::rt::lang_start::{closure#0}"));
	CHECK(short_is("core::ptr::drop_in_place::<alloc::vec::Vec<u8>>", "core::ptr::drop_in_place"));
	CHECK(short_is("<std::collections::hash::map::HashMap<K, V, S> as core::ops::index::Index<&Q>>::index",
		       "<std::collections::hash::map::HashMap as core::ops::index::Index>::index"));
	CHECK(short_is("<<A as B>::C as D>::f", "<<A as B>::C as D>::f"));
	/* a long name (rows of 354 columns were seen) comes out short */
	char *big = malloc(70000);
	strcpy(big, "deep::f<");
	for (int i = 0; i < 5000; i++)
		strcat(big + strlen(big) - 1, "A<");
	size_t l = strlen(big);
	memset(big + l, '>', 5001);
	strcpy(big + l + 5001, "(int)");
	CHECK(short_is(big, "deep::f"));
	free(big);

	/* cutting: the start of the name and a mark, never wider than asked */
	CHECK(cut_is("std::vector::push_back", 40, "std::vector::push_back"));
	CHECK(cut_is("std::vector::push_back", 22, "std::vector::push_back"));
	CHECK(cut_is("std::vector::push_back", 21, "std::vector::push_ba~"));
	CHECK(cut_is("abc", 1, "~"));
	CHECK(cut_is("caf\xc3\xa9 na\xc3\xafve", 6, "caf\xc3\xa9 ~"));
	CHECK(text_columns("caf\xc3\xa9 \xe2\x82\xac") == 6);
	CHECK(text_columns("a\\x1bb") == 6);
	return unit_done("test_names");
}
