# Many modules and few file descriptors: a program dlopen()s 150 small
# generated libraries and runs a function of each; `pct report` under
# `ulimit -n 64` still names every function of every library (symtab keeps
# a bounded number of modules open and reopens the others on demand), and
# says nothing about a module it cannot open.
. "$(dirname "$0")/lib.sh"
N=150   # more than twice the 64 descriptors (300 before: the same paths, twice the build)
mkdir libs
# one object, its symbols renamed for each library (faster than 300
# compilations): work_N burns about 1.5 ms a call in a loop the compiler keeps
cat >libs/m.c <<'C'
volatile unsigned long sink_X;
void work_X(void)
{
	for (unsigned long k = 0; k < 3000000; k++)
		sink_X += k;
}
C
cc -O1 -fPIC -c -o libs/m.o libs/m.c || fail "cannot compile the library"
for b in 0 1 2 3; do
	(for i in $(seq $b 4 $((N - 1))); do
		objcopy --redefine-sym work_X=work_$i --redefine-sym sink_X=sink_$i libs/m.o libs/m$i.o &&
			cc -shared -Wl,--build-id -o "libs/libm$i.so" libs/m$i.o || exit 1
	done) &
done
wait
for i in $(seq 0 $((N - 1))); do [ -f "libs/libm$i.so" ] || fail "libm$i.so was not built"; done
cat >main.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[2]);
	void (**fn)(void) = calloc(n, sizeof *fn);
	char path[4096], name[64];
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/libm%d.so", argv[1], i);
		snprintf(name, sizeof name, "work_%d", i);
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h == NULL || (fn[i] = (void (*)(void))dlsym(h, name)) == NULL) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
	}
	for (int round = 0; round < 8; round++)   /* each library about 12 ms in all */
		for (int i = 0; i < n; i++)
			fn[i]();
	return 0;
}
C
cc -O1 -o main main.c -ldl || fail "cannot build the loader"
PCT_HZ=1000 "$PCTBIN" record -o many.pct ./main "$PWD/libs" $N 2>err || fail "record: $(cat err)"
nmods=$("$PCTBIN" report --by=module --format=tsv many.pct | grep -c 'libm[0-9]*\.so')
[ "$nmods" -ge $((N / 2)) ] || fail "only $nmods of $N libraries have samples (too few to test)"
(ulimit -n 64 && "$PCTBIN" report --format=tsv many.pct >r.tsv 2>rerr) || fail "report under ulimit -n 64: $(head -5 rerr)"
! grep -q . rerr || fail "report under ulimit -n 64 warned: $(head -3 rerr)"
# every library with samples: its samples are charged to its function by
# name (a few may fall in _init, run by dlopen), and no row of it is left
# unnamed
"$PCTBIN" report --by=module --format=tsv many.pct | awk -F'\t' '$NF ~ /\/libm[0-9]+\.so$/ { print $NF }' |
	sort >mods || fail "report --by=module"
awk -F'\t' 'match($(NF - 1), /\/libm[0-9]+\.so$/) {
	n = substr($(NF - 1), RSTART + 5, RLENGTH - 8)
	if ($NF == "work_" n) print $(NF - 1)
	else if ($NF == "[unknown]" || $NF ~ /\+0x/) print "unnamed: " $(NF - 1) " " $NF >"bad"
}' r.tsv | sort -u >named
[ ! -s bad ] || fail "rows of a library not named by its function: $(head -3 bad)"
missing=$(comm -23 mods named | wc -l)
[ "$missing" -eq 0 ] || fail "$missing libraries' functions are not named under ulimit -n 64: $(comm -23 mods named | head -3)"
echo "$nmods libraries with samples, every function named under ulimit -n 64"
# and the same report as with descriptors to spare
"$PCTBIN" report --format=tsv many.pct >full.tsv 2>/dev/null || fail "report"
cmp -s r.tsv full.tsv || fail "the report under ulimit -n 64 differs: $(diff r.tsv full.tsv | head -5)"
pass "$N dlopen'ed libraries named with 64 file descriptors"
