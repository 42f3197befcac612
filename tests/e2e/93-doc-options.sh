# Each command's --help and its man page agree.
#
# For every command that `pct --help` lists:
#  - man/pct-CMD.1 exists, `pct CMD --help` exits 0 and names pct-CMD(1),
#    and `pct help CMD` prints the same;
#  - every option that --help states (in its usage lines or its option
#    list) is a tag of the man page's OPTIONS section, and every option tag
#    of OPTIONS is in --help;
#  - the man page's SYNOPSIS has the options of --help's usage lines and
#    the same operands in the same order (names compared without case and
#    punctuation, option arguments not compared);
# and the commands of pct(1) (COMMANDS) and of `pct --help` are the same,
# as are the pct-CMD(1) pages in man/ and those pct(1) refers to (SEE
# ALSO); pct(1)'s SYNOPSIS is `pct --help`'s usage.
# -h and --help are left out of the comparison: every command takes them
# (this test runs each), and pct(1) documents them once for all.
# pct-test: plain (it checks documents and sources against each other: nothing for the sanitizers)
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed (scripts/deps.sh installs it)"

"$PCTBIN" --help >top.txt || fail "pct --help exits $?"
cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]+  / { print $1 } on && /^$/ { on = 0 }' top.txt)
[ "$(echo "$cmds" | wc -w)" -ge 12 ] || fail "pct --help lists only: $cmds"
for c in $cmds; do
	"$PCTBIN" "$c" --help >"help-$c.txt" 2>"help-$c.err" || fail "pct $c --help exits $?: $(cat "help-$c.err")"
	[ -s "help-$c.err" ] && fail "pct $c --help writes to standard error: $(cat "help-$c.err")"
	"$PCTBIN" help "$c" >"helpcmd-$c.txt" || fail "pct help $c exits $?"
	cmp -s "help-$c.txt" "helpcmd-$c.txt" || fail "pct help $c differs from pct $c --help"
	grep -q "pct-$c(1)" "help-$c.txt" || fail "pct $c --help does not name pct-$c(1)"
done

python3 - "$ROOT/man" $cmds <<'PY' || fail "the man pages and --help disagree (see above)"
import os, re, sys

mandir, cmds = sys.argv[1], sys.argv[2:]
errors = []
OPT = re.compile(r'(?<![\w-])(--?[A-Za-z][\w-]*)')
IGNORED = {'-h', '--help'}

def unescape(s):
    s = re.sub(r'\\f(\[[^\]]*\]|\(..|.)', '', s)       # font changes
    s = re.sub(r'\\\[[^\]]*\]|\\\(..', '?', s)         # special characters
    return (s.replace('\\-', '-').replace('\\~', ' ').replace('\\ ', ' ')
             .replace('\\&', '').replace('\\e', '\\'))

def roff_line(line):
    """The text a roff source line contributes, fonts dropped."""
    if not line.startswith('.'):
        return unescape(line)
    m = re.match(r'^\.(\w+)\s*(.*)$', line)
    if not m:
        return ''
    macro, rest = m.group(1), m.group(2)
    args = [a if a else b for a, b in re.findall(r'"((?:[^"]|"")*)"|(\S+)', rest)]
    args = [a.replace('""', '"') for a in args]
    if macro in ('B', 'I', 'SM', 'SB'):
        return unescape(' '.join(args))
    if macro in ('BR', 'RB', 'IR', 'RI', 'BI', 'IB'):
        return unescape(''.join(args))
    return ''

def sections(path):
    secs, cur = {}, None
    for line in open(path, encoding='utf-8').read().split('\n'):
        m = re.match(r'^\.SH\s+"?([^"]*)"?\s*$', line)
        if m:
            cur = m.group(1).strip()
            secs[cur] = []
        elif cur is not None:
            secs[cur].append(line)
    return secs

def tags(lines, where=None):
    """The tag lines of .TP/.TQ items, as text; with where, an item whose
    tag has no description (before the next .TP, .SS or the end) is an
    error (.TQ gives a tag the next tag's description)."""
    out, take, pending = [], False, None
    for line in lines + ['.TP']:
        if line.startswith('.TP') or line.startswith('.SS'):
            if where and pending is not None:
                errors.append('%s: %r has no description' % (where, pending))
            take, pending = line.startswith('.TP'), None
        elif line.startswith('.TQ'):
            take, pending = True, None
        elif line.startswith('.RS'):       # a nested list describes it
            pending = None
        elif take and not line.startswith('.\\"'):
            out.append(roff_line(line))
            take, pending = False, out[-1]
        elif pending is not None and roff_line(line).strip():
            pending = None
    return out

def options(text):
    return {o for o in OPT.findall(text) if o not in IGNORED}

def operands(text):
    s = re.sub(r'\[\s*--?[A-Za-z][^\]]*\]', ' ', text)   # optional options with their arguments
    s = re.sub(r'(?<![\w-])--?[A-Za-z][\w-]*(=\S*)?', ' ', s)
    return re.findall(r'[a-z0-9]+', s.lower())

def help_parts(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    usage = []
    for line in lines:
        if usage and not line.strip():
            break
        if usage or line.startswith('usage:'):
            usage.append(line[len('usage:'):] if line.startswith('usage:') else line)
    listed = set()
    for line in lines:
        m = re.match(r'^ {2,8}((?:--?[A-Za-z][\w-]*(?:=\S+)?(?:, )?)+)(?:\s|$)', line)
        if m:
            listed |= options(m.group(1))
    return ' '.join(usage), listed

for c in cmds:
    page = os.path.join(mandir, 'pct-%s.1' % c)
    if not os.path.exists(page):
        errors.append('pct %s: no man page %s' % (c, page))
        continue
    usage, listed = help_parts('help-%s.txt' % c)
    secs = sections(page)
    synopsis = ' '.join(roff_line(l) for l in secs.get('SYNOPSIS', []))
    man_opts = set()
    for t in tags(secs.get('OPTIONS', []), 'pct-%s(1) OPTIONS' % c):
        man_opts |= options(t)
    help_opts = options(usage) | listed
    for o in sorted(help_opts - man_opts):
        errors.append('pct %s: %s is in --help but not in the OPTIONS of pct-%s(1)' % (c, o, c))
    for o in sorted(man_opts - help_opts):
        errors.append('pct %s: %s is in the OPTIONS of pct-%s(1) but not in --help' % (c, o, c))
    su, ss = options(usage), options(synopsis)
    for o in sorted(su - ss):
        errors.append('pct %s: %s is in the usage of --help but not in the SYNOPSIS of pct-%s(1)' % (c, o, c))
    for o in sorted(ss - su):
        errors.append('pct %s: %s is in the SYNOPSIS of pct-%s(1) but not in the usage of --help' % (c, o, c))
    if operands(usage) != operands(synopsis):
        errors.append('pct %s: operands differ: --help usage %s, pct-%s(1) SYNOPSIS %s' %
                      (c, operands(usage), c, operands(synopsis)))
    print('pct %-8s %2d options, usage %s' % (c, len(help_opts), ' '.join(operands(usage))))

# pct(1) lists the same commands, and man/ has a page for each and no other
secs = sections(os.path.join(mandir, 'pct.1'))
man_cmds = set()
for t in tags(secs.get('COMMANDS', [])):
    m = re.match(r'^([a-z]+)$', t.strip())
    if m:
        man_cmds.add(m.group(1))
for x in sorted(set(cmds) - man_cmds):
    errors.append('pct %s: listed by pct --help, not in the COMMANDS of pct(1)' % x)
for x in sorted(man_cmds - set(cmds)):
    errors.append('pct %s: in the COMMANDS of pct(1), not listed by pct --help' % x)
usage, _ = help_parts('top.txt')
synopsis = ' '.join(roff_line(l) for l in secs.get('SYNOPSIS', []))
if re.findall(r'--[a-z]+', usage) != re.findall(r'--[a-z]+', synopsis) or \
        operands(usage) != operands(synopsis):
    errors.append('pct(1) SYNOPSIS %r differs from pct --help usage %r' % (synopsis.strip(), usage.strip()))
see_also = ' '.join(roff_line(l) for l in secs.get('SEE ALSO', []))
for x in sorted(set(cmds)):
    if 'pct-%s(1)' % x not in see_also.replace(' ', ''):
        errors.append('pct(1): SEE ALSO does not name pct-%s(1)' % x)
pages = {f[len('pct-'):-len('.1')] for f in os.listdir(mandir) if re.match(r'^pct-[a-z]+\.1$', f)}
for x in sorted(pages - set(cmds)):
    errors.append('man/pct-%s.1 documents a command that pct --help does not list' % x)

sys.stdout.flush()
if errors:
    sys.stderr.write('\n'.join(errors) + '\n')
    sys.exit(1)
PY
pass "$(echo "$cmds" | wc -w) commands: --help, their man pages and pct(1) agree"
