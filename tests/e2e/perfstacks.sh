# tests/e2e/perfstacks.sh - sourced by the tests that hold pct's -g stacks
# against `perf record --call-graph=dwarf` on real programs (e2e 144-148,
# issue 34 item 7).  Both sides become one form, a line per sample:
#   WEIGHT<TAB>MODULE<US>FUNCTION<TAB>...   (leaf first; US is \037)
# with the functions named by pct on both sides (perf's frames are
# symbolized by `pct sym` from their module and address), so that a
# stripped library's functions (pct: MODULE+0xSTART, perf: [unknown])
# compare; kernel frames (perf's) and inlined frames (perf script
# --no-inline; pct marks them "(inlined)") are left out: what is compared
# is the unwinding, frame by frame.  pct and perf run the
# program apart (the trap of issue 34: Debian's perf 6.1 around pct record
# keeps the parent's mappings after exec, and its DWARF stacks then fail).
#
#   perf_record DATA CMD...   perf record --call-graph=dwarf of CMD at 1000 Hz,
#                             of user time only (task-clock:u, as pct's own
#                             event, exclude_kernel: with the kernel's time
#                             counted too, perf's samples in page faults and
#                             system calls are charged to the user stacks
#                             that made them, and numpy's callers of
#                             object_vacall differed from pct's by 14 points,
#                             55/45% against 70/30%; user time only, 31-34%
#                             of CallMethodObjArgs in perf's three runs and
#                             29-42% in pct's five), 64 KiB of stack a sample (perf's default 8 KiB
#                             left half of numpy's stacks unrooted), under
#                             setarch -R: perf 6.1 keeps a process's mappings
#                             across exec, and gcc's cc1 (exec'd by the
#                             driver) then lost its stacks' last frame in
#                             libc, 0.1% rooted in two runs of three; with
#                             the layout fixed, the old mappings are the new
#   pct_record FILE CMD...    pct record -g of CMD at 1000 Hz, 64 KiB of stack
#                             a sample too (pct's default, 16 KiB, left a
#                             quarter of numpy's stacks unrooted), in a stack
#                             area that holds them all
#   perf_stacks DATA OUT [COMM]  perf script of DATA -> OUT (the samples of
#                             the threads named COMM only, if given)
#   pct_stacks FILE.pct OUT [COMM]  pct export --format=perf-script -> OUT
#   stacks_rooted NAME OUT    "rooted P N": the share of samples whose outermost
#                             frame is _start or clone/clone3 (P, 0..1), of N
#   stacks_through OUT LEAF MID  "through P N": of the samples whose leaf is in
#                             a module matching the regex LEAF, the share with a
#                             frame in a module matching MID
#   compare_rooted PCT PERF   the two rooted shares within 2 points
#   compare_callers PCT PERF K  for K of the hottest functions (their total, at
#                             their outermost frame of each stack, at least
#                             40 samples on each side; those with two callers
#                             of 10% or more first), their callers' counts
#                             agree by a chi-square test at 1e-4, of counts
#                             scaled to 300 a side at most (two runs differ
#                             by more than sampling noise); $CALLERS_FOLD, a
#                             regex: functions passed through to their caller;
#                             $CALLERS_DEFF "D NU": the samples are not
#                             independent, a count's variance is D times its
#                             mean (D measured from NU degrees of freedom):
#                             the counts are scaled by 1/D too, and the
#                             statistic is held to DF x F(DF, NU)'s quantile
#                             at 1e-4 (Paulson's approximation, above the
#                             exact quantile: 25.66 for 24.66 at DF 1, NU 18;
#                             47.04 for 43.48 at NU 9), not chi2's
#
# A program that works in phases longer than the sampling period gives
# runs of samples with one caller, whose counts vary between two runs by
# more than a multinomial's (a timer overrun too, one signal for several
# periods: its variance is its weight squared, overrun_weight); a test of
# such a program measures D over runs of its own and sets CALLERS_DEFF.
US=$(printf '\037')

perf_record() {
	local data=$1
	shift
	setarch -R perf record -q -e task-clock:u --call-graph=dwarf,65528 -F 1000 -o "$data" -- "$@" >/dev/null 2>perf.err ||
		{ echo "perf record $*: $(cat perf.err)" >&2; return 1; }
}

pct_record() {
	local file=$1
	shift
	PCT_STACK_AREA=512 "$PCTBIN" record -g --stack-bytes=65536 -F 1000 -o "$file" "$@" >/dev/null 2>rec.err ||
		{ echo "pct record $*: $(cat rec.err)" >&2; return 1; }
}

perf_stacks() {
	local data=$1 out=$2 comm=${3:-}
	perf script --no-inline -i "$data" 2>/dev/null | awk -v us="$US" -v comm="$comm" '
		/^[^\t]/ { if (n) print line; n = 0; line = "1"; skip = comm != "" && $1 != comm; next }
		/^\t/ { if (skip) next; dso = $NF; if (dso == "(inlined)" || dso ~ /kernel\.kallsyms|^\(\[unknown\]\)$/) next
			sub(/^\(/, "", dso); sub(/\)$/, "", dso); line = line "\t" dso us $1; n++ }
		END { if (n) print line }' >"$out.raw"
	# symbolize every (module, address) with pct sym: perf prints a user
	# frame's address relative to its mapping, ip - start + pgoff, which
	# is the file offset pct sym takes
	tr '\t' '\n' <"$out.raw" | grep "$US" | sort -u >"$out.places"
	{ printf 'module\tbuild_id\toffset\tsamples\n'
	  awk -v us="$US" '{ split($0, p, us); printf "%s\t\t0x%s\t1\n", p[1], p[2] }' "$out.places"
	} >"$out.tsv"
	"$PCTBIN" sym "$out.tsv" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["function"] }' >"$out.names"
	[ "$(wc -l <"$out.names")" = "$(wc -l <"$out.places")" ] || { echo "perf_stacks: pct sym named $(wc -l <"$out.names") of $(wc -l <"$out.places") places" >&2; return 1; }
	paste -d"$US" "$out.places" "$out.names" | awk -v us="$US" -v raw="$out.raw" '
		{ split($0, p, us); name[p[1] us p[2]] = p[1] us p[3] }
		END { while ((getline l < raw) > 0) { n = split(l, f, "\t"); s = f[1]
			for (i = 2; i <= n; i++) s = s "\t" name[f[i]]; print s } }' >"$out"
}

pct_stacks() {
	local file=$1 out=$2 comm=${3:-}
	"$PCTBIN" export --format=perf-script "$file" 2>/dev/null >"$out.script" || return 1
	awk -v us="$US" -v comm="$comm" '
		NR == FNR { if (/^[^\t]/ && $4 + 0 > 0 && (u == 0 || $4 + 0 < u)) u = $4 + 0; next }
		/^[^\t]/ { if (n) print line; n = 0; line = int($4 / u + 0.5); skip = comm != "" && $1 != comm; next }
		/^\t/ { if (skip || $NF == "(inlined)") next
			dso = $NF; sub(/^\(/, "", dso); sub(/\)$/, "", dso)
			s = $0; sub(/^\t *[0-9a-f]+ /, "", s); sub(/ \([^(]*\)$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
			line = line "\t" dso us s; n++ }
		END { if (n) print line }' "$out.script" "$out.script" >"$out"
}

stacks_rooted() {
	awk -F'\t' -v us="$US" -v what="$1" '{ split($NF, f, us); n += $1
		if (f[2] == "_start" || f[2] == "clone" || f[2] == "clone3" || f[2] == "__clone" || f[2] == "__clone3") r += $1 }
		END { printf "%s rooted %.4f %d\n", what, n ? r / n : 0, n }' "$2"
}

stacks_through() {
	awk -F'\t' -v us="$US" -v leaf="$2" -v mid="$3" '{ split($2, f, us); if (f[1] !~ leaf) next; n += $1
		for (i = 3; i <= NF; i++) { split($i, g, us); if (g[1] ~ mid) { t += $1; break } } }
		END { printf "through %.4f %d\n", n ? t / n : 0, n }' "$1"
}

compare_rooted() {
	local a b
	a=$(stacks_rooted pct "$1") b=$(stacks_rooted perf "$2")
	echo "$a"; echo "$b"
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
		if (x[4] < 100 || y[4] < 100) { print "too few samples to compare"; exit 1 }
		d = x[3] - y[3]; printf "rooted: pct %.1f%%, perf %.1f%%, %.1f points apart\n", 100 * x[3], 100 * y[3], 100 * (d < 0 ? -d : d)
		exit !(d <= 0.02 && d >= -0.02) }'
}

compare_callers() {
	local deff=${CALLERS_DEFF:-1 0}
	awk -F'\t' -v us="$US" -v K="$3" -v CAP=300 -v fold="${CALLERS_FOLD:-}" -v D="${deff% *}" -v NU="${deff#* }" '
		function fn(x,  f) { split(x, f, us); return f[2] }
		FNR == 1 { side++ }
		# each function at its outermost frame of the stack (as pct report
		# --callers takes it), with the frame that called it (past frames
		# matching CALLERS_FOLD, which are not compared themselves)
		{ delete seen
		  for (i = NF; i >= 2; i--) { f = fn($i); if (f in seen) continue; seen[f] = 1
			if (fold != "" && f ~ fold) continue
			for (j = i + 1; j <= NF && fold != "" && fn($j) ~ fold; j++) ;
			who = j <= NF ? fn($j) : "[root]"
			tot[side, f] += $1; cnt[side, f, who] += $1; callers[f, who] = 1; funcs[f] = 1 } }
		# DF x F(DF, NU)'"'"'s quantile at 1e-4 (Paulson; 3.719: the normal
		# quantile of 1e-4)
		function fcrit(d1, d2,  a, b, A, C, y, z) { z = 3.719; a = 2 / (9 * d1); b = 2 / (9 * d2)
			A = (1 - b) ^ 2 - z * z * b; C = (1 - a) ^ 2 - z * z * a
			y = ((1 - a) * (1 - b) + sqrt(((1 - a) * (1 - b)) ^ 2 - A * C)) / A; return d1 * y ^ 3 }
		END {
			if (D < 1) D = 1
			# chi-square critical values at 1e-4, df 1..10; Wilson-Hilferty beyond
			split("15.14 18.42 21.11 23.51 25.74 27.86 29.88 31.83 33.72 35.56", crit, " ")
			# the functions of 40 samples on each side, those with two callers
			# of 10% or more first, then by their total
			for (f in funcs) if (tot[1, f] >= 40 && tot[2, f] >= 40) {
				many = 0
				for (k in callers) { split(k, kk, SUBSEP); if (kk[1] == f && cnt[1, f, kk[2]] >= 0.1 * tot[1, f]) many++ }
				cand[f] = (many >= 2 ? 1e12 : 0) + tot[1, f] }
			bad = 0; done = 0
			while (done < K) {
				best = ""; for (f in cand) if (best == "" || cand[f] > cand[best]) best = f
				if (best == "") break
				delete cand[best]; done++
				n1 = tot[1, best]; n2 = tot[2, best]; chi = 0; df = -1; o1 = 0; o2 = 0; list = ""
				# two runs differ by more than sampling noise (cc1'"'"'s passes:
				# 28.9/70.0% of one run, 39.3/59.0% of the next): the counts
				# are scaled to at most CAP a side
				s1 = n1 > CAP ? CAP / n1 : 1; s2 = n2 > CAP ? CAP / n2 : 1
				# dependent samples: each side at most n / D (CALLERS_DEFF)
				if (s1 > 1 / D) s1 = 1 / D
				if (s2 > 1 / D) s2 = 1 / D
				m1 = s1 * n1; m2 = s2 * n2
				for (k in callers) { split(k, kk, SUBSEP); if (kk[1] != best) continue; w = kk[2]
					a = s1 * cnt[1, best, w]; b = s2 * cnt[2, best, w]
					e1 = (a + b) * m1 / (m1 + m2); e2 = (a + b) * m2 / (m1 + m2)
					if (e1 < 5 || e2 < 5) { o1 += a; o2 += b; continue }
					chi += (a - e1) ^ 2 / e1 + (b - e2) ^ 2 / e2; df++
					list = list sprintf("\n    %-40s pct %5.1f%%  perf %5.1f%%", substr(w, 1, 40), 100 * a / m1, 100 * b / m2) }
				if (o1 + o2 > 0) { e1 = (o1 + o2) * m1 / (m1 + m2); e2 = (o1 + o2) * m2 / (m1 + m2)
					chi += (o1 - e1) ^ 2 / e1 + (o2 - e2) ^ 2 / e2; df++
					list = list sprintf("\n    %-40s pct %5.1f%%  perf %5.1f%%", "(others)", 100 * o1 / m1, 100 * o2 / m2) }
				c = df < 1 ? 0 : NU >= 4 ? fcrit(df, NU) : df <= 10 ? crit[df] : df * (1 - 2 / (9 * df) + 3.719 * sqrt(2 / (9 * df))) ^ 3
				ok = df < 1 || chi <= c
				printf "callers of %s (pct %d, perf %d samples): chi2 %.2f (counts scaled to %d, %d), df %d, critical %.2f  %s%s\n",
					substr(best, 1, 50), n1, n2, chi, m1 + 0.5, m2 + 0.5, df, c, ok ? "ok" : "MISMATCH", list
				if (!ok) bad = 1
			}
			if (done == 0) { print "no function with 40 samples on both sides"; exit 1 }
			exit bad }' "$1" "$2"
}
