# Samples in a module whose file cannot be read stay in every export
# (issue 15, item 10).  dlplug dlopens libplug-a.so and libplug-b.so and
# burns in each; both are deleted before the export.  pprof keeps their
# samples as addresses in their Mappings, which carry the build-ids, so
# pprof can symbolize them later (before: left out); callgrind as
# libplug-X.so+0xOFFSET; gperftools and folded keep them as they were.
# Each export's sample count equals the profile's, with and without -g.
# (The two libraries are counted together: dlplug's second library is
# mapped where the first was, and an unwound stack's PC names one module
# by address alone.)
. "$(dirname "$0")/lib.sh"
for t in protoc callgrind_annotate python3; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
PROTO_DIR=/usr/share/gocode/src/github.com/google/pprof/proto
mkdir dl && cp "$PROGS/dlplug" "$PROGS/libplug-a.so" "$PROGS/libplug-b.so" dl/ || fail "copy dlplug"
# libs_min FILE: the fewer of the two libraries' samples (by module)
libs_min() {
	"$PCTBIN" report --format=tsv "$1" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["module"] ~ /\/libplug-a\.so$/ { a += $c["samples"] } $c["module"] ~ /\/libplug-b\.so$/ { b += $c["samples"] }
		END { print (a < b ? a : b) + 0 }'
}
# dlplug burns SECONDS of CPU in each library (0.4 s: 100 samples each at
# 250 Hz), longer (up to 3.2 s each) until each library has 50 samples in
# both profiles, so 100 in the libraries and 100 in all: a loaded machine
# loses CPU-timer expirations, and a fixed 0.4 s got 57 of 198 samples in
# the libraries beside a loaded make check
rec_flat() { "$PCTBIN" record -o flat.pct dl/dlplug "$SCRATCH/dl" "$1" >/dev/null 2>err || fail "record dlplug: $(cat err)"; }
rec_stacks() { "$PCTBIN" record -g -o stacks.pct dl/dlplug "$SCRATCH/dl" "$1" >/dev/null 2>err || fail "record -g dlplug: $(cat err)"; }
until_samples 50 flat.pct 0.4 3.2 rec_flat libs_min
until_samples 50 stacks.pct 0.4 3.2 rec_stacks libs_min
libs="$SCRATCH/dl/libplug-a.so $SCRATCH/dl/libplug-b.so"
# "path build-id" of each library
"$PCTBIN" dump flat.pct | awk -F'\t' '$1 ~ /\/libplug-[ab]\.so$/ && !seen[$1]++ { print $1, $2 }' >ids.txt
[ "$(wc -l <ids.txt)" = 2 ] || fail "the libraries have no samples: $("$PCTBIN" dump flat.pct | head)"
rm $libs
# unreadable: the build-id cache pct record filled would still hold them
export PCT_CACHE=0

# gperftools: the sum of the records' counts (native words: header of 5,
# then count, depth, PCs..., until the trailer 0 1 0)
gperf_total() {
	python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
w = struct.unpack("=%dQ" % (len(d) // 8), d[:len(d) // 8 * 8])
i, t = 5, 0
while not (w[i] == 0 and w[i + 1] == 1 and w[i + 2] == 0):
    t += w[i]; i += 2 + w[i + 1]
print(t)' "$1"
}

for f in flat stacks; do
	"$PCTBIN" report --format=tsv $f.pct >r.tsv 2>/dev/null || fail "report $f"
	total=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { t += $k["samples"] }
		END { print t + 0 }' r.tsv)
	inlibs=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$k["module"] ~ /\/libplug-[ab]\.so$/ { t += $k["samples"] } END { print t + 0 }' r.tsv)
	# (until_samples ran dlplug until it had them)
	[ "$total" -ge 100 ] && [ "$inlibs" -ge 100 ] || fail "$f: $total samples, $inlibs in the libraries: $(cat r.tsv)"
	# the exports of stacks hold the samples that have a stack record: all
	# but a record being written at exit (pct_format.h), which the folded
	# export counts; the flat samples are the profile's
	want=$total slack=0
	if [ $f = stacks ]; then
		"$PCTBIN" export --format=folded stacks.pct >folded.txt 2>err || fail "export folded: $(cat err)"
		want=$(awk '{ t += $NF } END { print t + 0 }' folded.txt)
		slack=$((total - want))
		echo "folded: $want of $total samples"
		[ $slack -ge 0 ] && [ $slack -le 2 ] || fail "folded: $want of $total samples"
	fi

	# pprof: every sample, and libplug-a.so's in its mapping with its build-id
	"$PCTBIN" export --format=pprof -o $f.pb.gz $f.pct 2>err || fail "export pprof $f: $(cat err)"
	gunzip -c $f.pb.gz | protoc --decode=perftools.profiles.Profile -I"$PROTO_DIR" profile.proto >dec.txt 2>perr ||
		fail "protoc --decode: $(cat perr)"
	awk -v total="$want" -v inlibs="$inlibs" -v slack="$slack" '
		FNR == NR { id[$1] = $2; next }
		/^sample {/ { s = 1; k = 0; first = 0 }
		s && /location_id:/ && !first { first = $2 }
		s && /value:/ { if (k++ == 0) { v = $2; all += v } }
		s && /^}/ { s = 0; leafv[FNR] = v; leaf[FNR] = first }
		/^mapping {/ { m = 1 } m && /^  id:/ { mid = $2 } m && /filename:/ { mf[mid] = $2 }
		m && /build_id:/ { mb[mid] = $2 } m && /^}/ { m = 0 }
		/^location {/ { l = 1 } l && /^  id:/ { lid = $2 } l && /mapping_id:/ { lm[lid] = $2 } l && /^}/ { l = 0 }
		/^string_table:/ { str[ns++] = $2 }
		END {
			for (x in mf) { p = str[mf[x]]; gsub("\"", "", p); b = str[mb[x]]; gsub("\"", "", b)
				if (p in id) { lib[x] = 1; nlib++; printf "mapping %s: %s build-id %s\n", x, p, b
					if (b != id[p]) bad = 1 } }
			for (r in leaf) if (lib[lm[leaf[r]]]) a += leafv[r]
			printf "pprof: %d of %d samples; %d in the libraries'"'"' mappings (pct %d)\n", all, total, a, inlibs
			exit !(all == total && nlib == 2 && !bad && a <= inlibs && a >= inlibs - slack) }' ids.txt dec.txt ||
		fail "pprof export of $f lost samples"

	# callgrind: the sum of the cost lines (not the inclusive cost of calls)
	"$PCTBIN" export --format=callgrind -o $f.cg $f.pct 2>err || fail "export callgrind $f: $(cat err)"
	grep -q 'in modules whose file cannot be read' err || fail "callgrind: no note of the unreadable module: $(cat err)"
	cg=$(awk '/^calls=/ { skip = 1; next } /^0x/ { if (!skip) t += $3; skip = 0 } END { print t + 0 }' $f.cg)
	a=$(awk '/^fn=/ { cur = $0 } /^calls=/ { skip = 1; next }
		/^0x/ { if (!skip && cur ~ /libplug-[ab]\.so\+0x/) t += $3; skip = 0 } END { print t + 0 }' $f.cg)
	echo "callgrind: $cg of $total samples, $a in libplug-X.so+0x... (pct $inlibs)"
	[ "$cg" = "$total" ] && [ "$a" = "$inlibs" ] || fail "callgrind export of $f: $cg samples, $a in the libraries"
	callgrind_annotate $f.cg >cga.txt 2>&1 || fail "callgrind_annotate: $(cat cga.txt)"
	cga=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' cga.txt)
	[ "$cga" = "$total" ] || fail "callgrind_annotate: $cga of $total"

	# gperftools keeps the PCs as they were
	"$PCTBIN" export --format=gperftools -o $f.prof $f.pct 2>err || fail "export gperftools $f: $(cat err)"
	gp=$(gperf_total $f.prof)
	echo "gperftools: $gp of $want samples"
	[ "$gp" = "$want" ] || fail "gperftools export of $f: $gp samples of $want"
done
# gmon holds only the main executable, which has no samples here: it says so
"$PCTBIN" export --format=gmon -o x.gmon flat.pct 2>err && fail "gmon of a profile without samples in the executable"
grep -q "no samples in the main executable" err || fail "gmon: $(cat err)"
pass "exports keep the samples of a module that cannot be read"
