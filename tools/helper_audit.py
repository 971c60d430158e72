#!/usr/bin/env python3
# The helper-use audit of docs/pyhip-parity.md ("a helper no real kernel uses is not done"):
# every public name of include/hipasm/helpers/*.hpp (outside `namespace detail`, preprocessor
# lines and comments; functions, structs, enums, aliases at namespace level) and the files of
# include/hipasm/kernels/ and examples/ that name it (a word search, comments excluded), as the
# doc's markdown table, then the list of unused names per header.
#   usage: tools/helper_audit.py [REPO_ROOT]
import re, os, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', '', s, flags=re.S)
    return re.sub(r'//[^\n]*', '', s)
def strip_pp(s):
    return re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', '', s, flags=re.M)
def drop_detail(s):
    out = []; i = 0
    while True:
        m = re.search(r'namespace\s+detail\s*\{', s[i:])
        if not m: out.append(s[i:]); break
        out.append(s[i:i + m.start()]); j = i + m.end(); depth = 1
        while depth:
            depth += {'{': 1, '}': -1}.get(s[j], 0); j += 1
        i = j
    return ''.join(out)
def top_level(s):
    stack = []; res = []
    for t in re.split(r'([{}])', s):
        if t == '{':
            prev = res[-1] if res else ''
            stack.append(bool(re.search(r'namespace\s+[\w:]*\s*$', prev)))
            res.append(' { ' if all(stack) else '')
        elif t == '}':
            was = all(stack); stack.pop(); res.append(' } ' if was else ';')
        elif all(stack):
            res.append(t)
    return ''.join(res)
helpers = {}
for h in sorted(glob.glob(os.path.join(root, 'include/hipasm/helpers/*.hpp'))):
    s = top_level(drop_detail(strip_pp(strip_comments(open(h).read()))))
    found = set(m.group(1) for m in re.finditer(r'\b(?:struct|class|enum\s+class|enum|using)\s+(\w+)', s))
    found |= set(m.group(1) for m in re.finditer(r'(\w+)\s*\(', s))
    helpers[os.path.basename(h)] = sorted(n for n in found if n[0].islower() and n not in ('current', 'requires', 'operator'))
users = {}
for f in sorted(glob.glob(os.path.join(root, 'include/hipasm/kernels/*.hpp')) + glob.glob(os.path.join(root, 'examples/*.h*'))):
    users[os.path.splitext(os.path.basename(f))[0]] = strip_comments(open(f).read())
rows = []; unused = {}
for h, ns in helpers.items():
    for n in ns:
        u = sorted(set(k for k, t in users.items() if re.search(r'\b' + n + r'\b', t)))
        rows.append(f"| {h} | `{n}` | {', '.join(u) if u else '-'} |")
        if not u: unused.setdefault(h, []).append(n)
print('\n'.join(rows))
print()
for h, ns in unused.items(): print(f"- {h}: " + ', '.join(f'`{n}`' for n in ns))
