# Timer overruns (issue 33): a sample signal that stands for several
# periods (its weight, 1 + the CPU timer's overrun) makes a count vary
# more than Poisson, so sqrt(samples) understates its error.  dd reading
# 256 MiB from /dev/zero in one read(2) spends about 50 ms of CPU in the
# kernel per call, and the signal that falls in it waits for the return
# to user space: one signal for a dozen periods.  `pct record` and `pct
# report` then say so, with the factor by which the errors are too
# narrow, sqrt of the squared weights over the samples; the tick log (in
# `pct timeline`'s TSV, buckets of 0.1 ms, one signal each) gives the
# same figures.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o dd.pct dd if=/dev/zero of=/dev/null bs=256M count=4 2>rec.err || fail "record: $(cat rec.err)"
cat rec.err
note=$(grep '^pct: timer overruns: ' rec.err) || fail "record did not say the signals stood for several periods: $(cat rec.err)"
"$PCTBIN" report dd.pct >rep.txt 2>rep.err || fail "report: $(cat rep.err)"
grep -qxF "# ${note#pct: }" rep.txt || fail "the report's header does not say what record said: $(grep '^#' rep.txt)"
read -r n s m f < <(sed -n 's/.*overruns: \([0-9]*\) samples came in \([0-9]*\) signals, one of them for \([0-9]*\) periods.*about \([0-9.]*\)x too narrow.*/\1 \2 \3 \4/p' <<<"$note")
[ -n "$f" ] || fail "cannot read the sentence: $note"
total=$(sed -n 's/^# \([0-9]*\) samples.*/\1/p' rep.txt)
[ "$n" = "$total" ] || fail "the note counts $n samples, the report $total"
"$PCTBIN" timeline --format=tsv --bucket=0.0001 dd.pct >tl.tsv 2>tl.err || fail "timeline: $(cat tl.err)"
read -r tn ts tm tf < <(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["samples"] > 0 { w = $k["samples"]; n += w; s++; q += w * w; if (w > m) m = w }
	END { printf "%d %d %d %.1f\n", n, s, m, n ? sqrt(q / n) : 0 }' tl.tsv)
echo "note: $n samples in $s signals, at most $m, factor $f; tick log: $tn in $ts, at most $tm, factor $tf"
[ "$n $s $m $f" = "$tn $ts $tm $tf" ] || fail "the note ($n $s $m $f) is not the tick log's ($tn $ts $tm $tf)"
# four reads of about 50 ms: at least one signal stands for several
# periods whatever the load (the machine's load only adds overruns)
[ "$m" -ge 3 ] && [ "$s" -lt "$n" ] || fail "no signal stood for 3 periods: $note"
awk -v f="$f" 'BEGIN { exit !(f >= 1.1) }' || fail "factor $f below 1.1 yet said"
pass "record and report say $n samples came in $s signals (up to $m periods), errors ${f}x too narrow, as the tick log has it"
