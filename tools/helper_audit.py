#!/usr/bin/env python3
# The helper-use audit of docs/pyhip-parity.md ("a helper no real kernel uses is not done"):
# every public name of include/hipasm/helpers/*.hpp (outside `namespace detail` and
# `namespace hipasm::detail`, preprocessor lines and comments; functions, structs, enums,
# aliases at namespace level) and the files of include/hipasm/kernels/ and examples/ that use it
# (comments excluded), as the doc's markdown table, then the list of unused names per header.
# A kernel uses a helper
#  - by name (a word search), or
#  - through a designated initialiser passed to a helper (`shuffle_xor(J, x, 4, {.wait = false})`
#    uses shuffle_opts): the option struct of that parameter of the called function (or method)
#    whose fields hold every designator of the braces, or
#  - transitively, "via X": a kernel uses helper X, and X's definition (or a detail function it
#    reaches) names the helper or passes it designated initialisers. The definitions are the
#    namespace-level declarations of the headers (a struct is one unit with its members); a
#    type named only as a parameter's (`const mem_opts& o`, `scan_opts o = {}`) is not a use,
#    nor a member access (`a.at(i)`) or another namespace's name (`std::exp`).
#  - for the host-only headers (*_host.hpp), by a host program of the library: tests/kernels,
#    bench/kernels, examples (`host:` rows).
#   usage: tools/helper_audit.py [REPO_ROOT]
import re, os, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', '', s, flags=re.S)
    s = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', s)  # strings (may hold // or braces)
    return re.sub(r'//[^\n]*', '', s)
def strip_pp(s):
    return re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', '', s, flags=re.M)
NS = re.compile(r'namespace\s+([\w:]*)\s*$')
def drop_detail(s):
    out = []; i = 0
    while True:
        m = re.search(r'namespace\s+(?:\w+::)*detail\s*\{', s[i:])
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
            stack.append(bool(NS.search(prev)))
            res.append(' { ' if all(stack) else '')
        elif t == '}':
            was = all(stack); stack.pop(); res.append(' } ' if was else ';')
        elif all(stack):
            res.append(t)
    return ''.join(res)
def decls(s):
    # The namespace-level declarations of s, each (text, in_detail): split at `;` and at the `}`
    # closing a definition, outside parentheses and non-namespace braces.
    out = []; cur = []; stack = []; paren = 0; i = 0
    while i < len(s):
        c = s[i]
        if c == '{':
            ns = NS.search(''.join(cur)) if not any(k == 'x' for k in stack) else None
            if ns:
                stack.append('d' if 'detail' in ns.group(1).split('::') else 'n'); cur = []; i += 1; continue
            stack.append('x')
        elif c == '}':
            k = stack.pop()
            if k != 'x':
                cur = []; i += 1; continue
            cur.append(c)
            if 'x' not in stack and paren == 0:
                out.append((''.join(cur), 'd' in stack)); cur = []
            i += 1; continue
        elif c == '(': paren += 1
        elif c == ')': paren -= 1
        elif c == ';' and 'x' not in stack and paren == 0:
            out.append((''.join(cur), 'd' in stack)); cur = []; i += 1; continue
        cur.append(c); i += 1
    return out
def drop_template_heads(h):  # `template <class A, ...>` names no declaration
    while True:
        m = re.search(r'\btemplate\s*<', h)
        if not m: return h
        d = 0
        for j in range(m.end() - 1, len(h)):
            d += {'<': 1, '>': -1}.get(h[j], 0)
            if d == 0: break
        h = h[:m.start()] + ' ' + h[j + 1:]
def decl_names(t):
    head = drop_template_heads(t.split('{', 1)[0])
    m = re.search(r'\b(?:struct|class|enum\s+class|enum|union)\s+(\w+)', head)
    if m and not re.search(r'\w+\s*\(', head[:m.start()]): return {m.group(1)}
    m = re.search(r'\busing\s+(\w+)\s*=', head)
    if m: return {m.group(1)}
    for m in re.finditer(r'(\w+)\s*\(', head):
        if m.group(1) not in ('requires', 'decltype', 'sizeof', 'alignas', 'noexcept', 'static_assert', 'operator'):
            return {m.group(1)}
    m = re.search(r'(\w+)\s*(?:\[[^\]]*\]\s*)?=', head)
    return {m.group(1)} if m else set()
def balanced(s, i):  # s[i] is an opening bracket: the index past its match
    o = s[i]; c = {'(': ')', '{': '}', '[': ']'}[o]; d = 0
    for j in range(i, len(s)):
        if s[j] == o: d += 1
        elif s[j] == c:
            d -= 1
            if d == 0: return j + 1
    return len(s)
def callee_of(s, i):  # the function whose argument list holds position i
    d = 0
    for j in range(i - 1, -1, -1):
        if s[j] in ')]}': d += 1
        elif s[j] in '([{':
            if d == 0:
                if s[j] != '(': return None
                m = re.search(r'(\w+)\s*(?:<[^<>;(){}]*>)?\s*$', s[:j])
                return m.group(1) if m else None
            d -= 1
    return None

helpers = {}; texts = {}
for h in sorted(glob.glob(os.path.join(root, 'include/hipasm/helpers/*.hpp'))):
    raw = strip_pp(strip_comments(open(h).read()))
    texts[os.path.basename(h)] = raw
    s = top_level(drop_detail(raw))
    found = set(m.group(1) for m in re.finditer(r'\b(?:struct|class|enum\s+class|enum|using)\s+(\w+)', s))
    found |= set(m.group(1) for m in re.finditer(r'(\w+)\s*\(', s))
    helpers[os.path.basename(h)] = sorted(n for n in found if n[0].islower() and n not in ('current', 'requires', 'operator'))
public = {n for ns in helpers.values() for n in ns}
home = {n: h for h, ns in helpers.items() for n in ns}
all_helper_text = '\n'.join(texts.values())

# option structs: public structs named *_opts / *_options, and their fields
opt_fields = {}
for h, t in texts.items():
    for m in re.finditer(r'\bstruct\s+(\w+_(?:opts|options))\s*\{', t):
        body = t[m.end() - 1:balanced(t, m.end() - 1)]
        inner = re.sub(r'\([^()]*\)', '', body[1:-1])
        opt_fields[m.group(1)] = set(re.findall(r'([A-Za-z_]\w*)\s*(?:=|\{|;|,)', inner))
params_cache = {}
def params_of(callee):  # option structs named in the parameter lists of callee's declarations
    if callee not in params_cache:
        found = set()
        for m in re.finditer(r'\b' + callee + r'\s*\(', all_helper_text):
            p = all_helper_text[m.end() - 1:balanced(all_helper_text, m.end() - 1)]
            found |= {o for o in opt_fields if re.search(r'\b' + o + r'\b', p)}
        params_cache[callee] = found
    return params_cache[callee]
def designated_uses(t):  # option structs that designated initialisers in t are passed as
    used = set()
    for m in re.finditer(r'\{\s*\.(\w+)\s*=', t):
        body = t[m.start():balanced(t, m.start())]
        fields = set(re.findall(r'[{,]\s*\.(\w+)\s*=', re.sub(r'\{[^{}]*\}', lambda x: x.group(0) if x.start() == 0 else '0', body)))
        callee = callee_of(t, m.start())
        if not callee: continue
        for o in params_of(callee):
            if fields <= opt_fields[o]: used.add(o)
    return used
def param_types_removed(t):  # a type named only as a parameter's is not a use (`const mem_opts& o`, `scan_opts o = {}`)
    return re.sub(r'(?<=[(,])\s*(?:const\s+)?\w+\s*&?\s+\w+\s*(?:=\s*\{\s*\})?\s*(?=[,)])', ' ', t)

# the definitions graph: name -> names (public or detail) its declarations use
defs = {}
for h, t in texts.items():
    for d, _ in decls(t):
        for n in decl_names(d):
            defs.setdefault(n, []).append(d)
edges = {}
for n, ds in defs.items():
    body = param_types_removed('\n'.join(ds))
    # (member accesses `x.at(`, `p->load(` and other namespaces' `std::exp` name no helper)
    words = {m.group(2) for m in re.finditer(r'(\.|->|\b(?!detail|dpp|hipasm)\w+::)?\s*\b(\w+)\b', body) if not m.group(1)}
    edges[n] = ({w for w in words if w in defs and w != n}) | designated_uses(body)
def reach(n):
    seen = {n}; todo = [n]
    while todo:
        for m in edges.get(todo.pop(), ()):
            if m not in seen: seen.add(m); todo.append(m)
    return seen - {n}

users = {}
for f in sorted(glob.glob(os.path.join(root, 'include/hipasm/kernels/*.hpp')) + glob.glob(os.path.join(root, 'examples/*.h*'))):
    users[os.path.splitext(os.path.basename(f))[0]] = strip_comments(open(f).read())
# host-only headers (*_host.hpp: the host side of a device helper) are used by host programs:
# the kernel library's tests, benches and examples
host_only = {n for h, ns in helpers.items() if h.endswith('_host.hpp') for n in ns}
for f in sorted(glob.glob(os.path.join(root, 'tests/kernels/*.cpp')) + glob.glob(os.path.join(root, 'bench/kernels/*.cpp')) +
                glob.glob(os.path.join(root, 'examples/*.cpp'))):
    users['host:' + os.path.relpath(f, root)] = strip_comments(open(f).read())
def names(n, t):  # n used in t: not a member (`a.n`, `p->n`, `{.n = }`) nor a variable of a builtin type named n
    for m in re.finditer(r'\b' + n + r'\b', t):
        before = t[:m.start()]
        if re.search(r'(?:\.|->)\s*$', before) or re.search(r'\b(?:bool|auto|int|unsigned|float|double|u?int\d+_t)\s+$', before):
            continue
        return True
    return False
direct = {k: {n for n in (host_only if k.startswith('host:') else public) if names(n, t)} |
             (set() if k.startswith('host:') else designated_uses(t)) for k, t in users.items()}
closure = {n: reach(n) & public for n in public}
rows = []; unused = {}
for h, ns in helpers.items():
    for n in ns:
        d = sorted(k for k in users if n in direct[k])
        via = {}
        for k in users:
            if n in direct[k]: continue
            ys = sorted(y for y in direct[k] if n in closure.get(y, ()))
            if ys: via.setdefault(ys[0], []).append(k)
        cell = ', '.join(d)
        v = '; '.join(f"via `{y}`: {', '.join(sorted(ks))}" for y, ks in sorted(via.items()))
        cell = '; '.join(x for x in (cell, v) if x)
        rows.append(f"| {h} | `{n}` | {cell if cell else '-'} |")
        if not cell: unused.setdefault(h, []).append(n)
if os.environ.get('AUDIT_PATH'):  # debugging: AUDIT_PATH=from,to prints a definition path
    a, b = os.environ['AUDIT_PATH'].split(','); prev = {a: None}; todo = [a]
    while todo:
        x = todo.pop(0)
        for y in sorted(edges.get(x, ())):
            if y not in prev: prev[y] = x; todo.append(y)
    path = [b] if b in prev else []
    while path and prev[path[-1]]: path.append(prev[path[-1]])
    print(' <- '.join(path)); sys.exit()
print('\n'.join(rows))
print()
for h, ns in unused.items(): print(f"- {h}: " + ', '.join(f'`{n}`' for n in ns))
