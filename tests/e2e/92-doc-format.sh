# pct(5) states the file format exactly as include/pct_format.h defines it.
#
# The page gives every offset and size in blocks marked by a roff comment
# ".\" pct-check: struct NAME" (rows "OFF SIZE FIELD ...", closed by a row
# "SIZE end ...") or ".\" pct-check: constants" (rows "NAME VALUE ...").
# This test turns every row into a C check of offsetof/sizeof or of the
# constant's value, compiles it against include/pct_format.h and runs it;
# it also requires that:
#  - the rows of each struct tile it from offset 0 to its sizeof with no gap
#    or overlap, so that no field is left out;
#  - every PCT_* macro and enum constant of pct_format.h is in the
#    constants block, with its value;
#  - a block has no line it cannot read (a row in another shape), every
#    preformatted block of rows is marked, and no size ("N bytes") or
#    offset ("offset N") is stated elsewhere in the page.
# pct-test: plain (it checks documents and sources against each other: nothing for the sanitizers)
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed (scripts/deps.sh installs it)"
MAN=$ROOT/man/pct.5
HDR=$ROOT/include/pct_format.h

python3 - "$MAN" "$HDR" >check.c <<'PY' || fail "pct(5) cannot be checked as it stands (see above)"
import re, sys

man_path, hdr_path = sys.argv[1], sys.argv[2]
lines = open(man_path, encoding='utf-8').read().split('\n')
errors = []
def err(n, msg):
    errors.append('%s:%d: %s' % (man_path, n, msg))

FIELD = re.compile(r'^ {0,3}(\d+) +(\d+) +([a-z_][a-z0-9_]*)(?:\s|$)')
END = re.compile(r'^ {0,3}(\d+) +end\b')
CONST = re.compile(r'^(PCT_[A-Z0-9_]+) +("[^"]*"|0x[0-9a-fA-F]+|\d+)(?:\s|$)')
CONT = re.compile(r'^ {10,}\S')
ROWLIKE = re.compile(r'^\s*\d+\s+\d+\s+[a-z_]')

blocks = []          # (kind, name, [(lineno, text)])
checked = set()      # line numbers inside marked blocks
i = 0
while i < len(lines):
    m = re.match(r'^\.\\" pct-check: (struct (\w+)|constants)\s*$', lines[i])
    if m:
        j = i + 1
        while j < len(lines) and lines[j].strip() != '.nf':
            if not lines[j].startswith('.\\"'):
                err(j + 1, 'a pct-check comment must be followed by .nf')
                break
            j += 1
        body = []
        k = j + 1
        while k < len(lines) and lines[k].strip() != '.fi':
            body.append((k + 1, lines[k]))
            checked.add(k + 1)
            k += 1
        blocks.append(('struct', m.group(2), body) if m.group(2) else ('constants', None, body))
        i = k
    i += 1

# every preformatted block with rows must be marked
nf = None
for n, text in enumerate(lines, 1):
    if text.strip() == '.nf':
        nf = n
    elif text.strip() == '.fi':
        nf = None
    elif nf and n not in checked and ROWLIKE.match(text):
        err(n, 'a row of offsets and sizes outside a pct-check block: %r' % text)

# no size or offset in the prose
SIZE_PROSE = re.compile(r'(?<![\^\w.])\d+\s+bytes?\b|\b(?:offset|at byte)\s+\d+')
for n, text in enumerate(lines, 1):
    if n in checked or text.startswith('.\\"'):
        continue
    plain = text.replace('\\-', '-')
    for m in SIZE_PROSE.finditer(plain):
        err(n, 'a size or offset outside the checked blocks: %r (state it in a pct-check block)' % m.group(0))

want_structs = {'pct_header', 'pct_module', 'pct_thread', 'pct_entry', 'pct_stack'}
seen_structs = set()
checks = []          # C statements
consts_seen = set()
for kind, name, body in blocks:
    if kind == 'struct':
        seen_structs.add(name)
        expect, end = 0, None
        for n, text in body:
            if text.startswith('off ') or CONT.match(text) or not text.strip():
                continue
            m = FIELD.match(text)
            if m and end is None:
                off, size, field = int(m.group(1)), int(m.group(2)), m.group(3)
                if off != expect:
                    err(n, '%s.%s at offset %d, but the row before ends at %d' % (name, field, off, expect))
                expect = off + size
                checks.append('FIELD(%d, %s, %s, %d, %d);' % (n, name, field, off, size))
                continue
            m = END.match(text)
            if m and end is None:
                end = int(m.group(1))
                if end != expect:
                    err(n, 'struct %s ends at %d, but its last row ends at %d' % (name, end, expect))
                checks.append('SIZE(%d, %s, %d);' % (n, name, end))
                continue
            err(n, 'cannot read this line of the struct %s block: %r' % (name, text))
        if end is None:
            err(body[-1][0] if body else 1, 'struct %s block has no "SIZE end" row' % name)
    else:
        for n, text in body:
            if text.startswith('name ') or CONT.match(text) or not text.strip():
                continue
            m = CONST.match(text)
            if not m:
                err(n, 'cannot read this line of the constants block: %r' % text)
                continue
            cname, val = m.group(1), m.group(2)
            consts_seen.add(cname)
            if val.startswith('"'):
                checks.append('STR(%d, %s, %s);' % (n, cname, val))
            else:
                checks.append('NUM(%d, %s, %sULL);' % (n, cname, val))
for s in sorted(want_structs - seen_structs):
    err(1, 'no pct-check block for struct %s' % s)
if not any(k == 'constants' for k, _, _ in blocks):
    err(1, 'no pct-check block for the constants')

# every constant the header defines is in the page
hdr = open(hdr_path).read()
defined = set(re.findall(r'^#define (PCT_[A-Z0-9_]+)[ \t]', hdr, re.M))
defined |= set(re.findall(r'^\s*(PCT_[A-Z0-9_]+)\s*=', hdr, re.M))
for c in sorted(defined - consts_seen):
    errors.append('%s: %s (pct_format.h) is not in the constants block' % (man_path, c))

if errors:
    sys.stderr.write('\n'.join(errors) + '\n')
    sys.exit(1)
print('''#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "pct_format.h"
static int bad, rows;
#define FIELD(line, s, f, off, size) do { rows++; \\
	if (offsetof(struct s, f) != (off) || sizeof(((struct s *)0)->f) != (size)) { bad = 1; \\
		printf("pct.5:%d: %s.%s: the page says offset %d, size %d; pct_format.h has offset %zu, size %zu\\n", \\
		       line, #s, #f, off, size, offsetof(struct s, f), sizeof(((struct s *)0)->f)); } } while (0)
#define SIZE(line, s, size) do { rows++; if (sizeof(struct s) != (size)) { bad = 1; \\
		printf("pct.5:%d: struct %s: the page says %d bytes; pct_format.h has %zu\\n", line, #s, size, \\
		       sizeof(struct s)); } } while (0)
#define NUM(line, c, v) do { rows++; if ((unsigned long long)(c) != (v)) { bad = 1; \\
		printf("pct.5:%d: %s: the page says %llu (0x%llx); pct_format.h has %llu (0x%llx)\\n", line, #c, \\
		       (unsigned long long)(v), (unsigned long long)(v), (unsigned long long)(c), \\
		       (unsigned long long)(c)); } } while (0)
#define STR(line, c, v) do { rows++; if (strcmp(c, v) != 0 || sizeof(c) != sizeof(v)) { bad = 1; \\
		printf("pct.5:%d: %s: the page says \\"%s\\"; pct_format.h has \\"%s\\"\\n", line, #c, v, c); } \\
	} while (0)
int main(void)
{''')
for c in checks:
    print('\t' + c)
print('''\tprintf("%d rows of pct(5) checked, %s\\n", rows, bad ? "some disagree with pct_format.h" : "all agree");
\treturn bad;
}''')
PY
cc -std=gnu11 -Wall -Werror -I"$ROOT/include" -o check check.c 2>cc.err ||
	fail "pct(5) names a field or constant that pct_format.h does not have: $(grep -m5 error cc.err)"
./check || fail "pct(5) disagrees with pct_format.h"
rows=$(grep -c '^	\(FIELD\|SIZE\|NUM\|STR\)(' check.c)
[ "$rows" -ge 90 ] || fail "only $rows rows found in pct(5): a check block was lost"
pass "pct(5): $rows sizes, offsets and constants agree with pct_format.h"
