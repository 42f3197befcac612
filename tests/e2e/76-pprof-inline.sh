# The pprof export and inlined code (issue 15, item 9): a location inside
# code inlined from a header has one Line per function holding it,
# innermost first, as perf_to_profile writes them: mix() at its line of
# inlhot.h, then work() at the line of inlhot.c where mix() was inlined
# (before: one Line, work() at a line number of inlhot.h).  Read back by
# `go tool pprof -raw` and checked against `protoc --decode`.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
for t in cc go protoc nm; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
PROTO_DIR=/usr/share/gocode/src/github.com/google/pprof/proto
src=$ROOT/tests/progs/inlhot.c hdr=$ROOT/tests/progs/inlhot.h
cc -O2 -g -o inlhot "$src" || fail "cc inlhot"
! nm inlhot | grep -qw mix || fail "mix() was not inlined: $(nm inlhot | grep -w mix)"
call=$(grep -n 'x = mix(x, i);' "$src" | cut -d: -f1)
for g in "" -g; do
	"$PCTBIN" record $g -o i.pct ./inlhot 0.8 >/dev/null 2>&1 || fail "record $g inlhot"
	total=$("$PCTBIN" report --format=tsv i.pct | awk -F'\t' 'NR > 1 { t += $1 } END { print t + 0 }')
	[ "$total" -ge 100 ] || fail "only $total samples"
	"$PCTBIN" export --format=pprof -o i.pb.gz i.pct || fail "export pprof $g"
	export HOME=$SCRATCH GOCACHE=$SCRATCH/gocache GOTOOLCHAIN=local
	go tool pprof -raw i.pb.gz >raw.txt 2>raw.err || fail "go tool pprof -raw: $(cat raw.err)"
	# Locations: "ID: ADDR M=N FUNC FILE:LINE s=START", then a line per
	# outer inline level; the samples whose leaf (first id) is inlined mix()
	awk -v hdr="$hdr" -v src="$src" -v call="$call" -v total="$total" -v g="$g" '
		/^Samples:/ { part = 1; next }
		/^Locations/ { part = 2; next }
		/^Mappings/ { part = 3; next }
		part == 1 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+:$/ { for (i = 1; i <= NF; i++) if ($i ~ /:$/) break
			leaf[NR] = $(i + 1); count[NR] = $1; all += $1 }
		part == 2 && $1 ~ /^[0-9]+:$/ { id = $1; sub(":", "", id); depth = 0
			inl[id] = ($4 == "mix" && index($5, hdr ":") == 1); next }
		part == 2 && NF == 3 && inl[id] { depth++
			if (depth == 1 && !($1 == "work" && $2 == src ":" call)) inl[id] = 0
			if (depth > 1) inl[id] = 0 }
		END {
			for (r in leaf) if (inl[leaf[r]]) n += count[r]
			printf "pprof: %d of %d samples (pct %d) at mix() inlined into work() at line %d\n", n, all, total, call
			# -g: all but a stack record being written at exit (pct_format.h)
			# a quarter at least: how many of the loop'"'"'s samples land on
			# mix()'"'"'s instructions depends on the CPU (over half on the
			# Intel machines before; 37-53% on an AMD EPYC)
			exit !(all <= total && all >= total - (g == "-g" ? 2 : 0) && n * 4 > total) }' raw.txt ||
		fail "pprof $g: no inline frames of mix() in work(): $(sed -n '/^Locations/,/^Mappings/p' raw.txt | head -20)"
	# the raw message: two line entries, mix() first
	gunzip -c i.pb.gz | protoc --decode=perftools.profiles.Profile -I"$PROTO_DIR" profile.proto >dec.txt 2>perr ||
		fail "protoc --decode: $(cat perr)"
	awk '/^location {/ { n = 0 } /^  line {/ { n++ } /^}/ && n > m { m = n } END { exit m != 2 }' dec.txt ||
		fail "pprof $g: no location with exactly two line entries"
done
pass "pprof: one Line per inline level, innermost first, with and without -g"
