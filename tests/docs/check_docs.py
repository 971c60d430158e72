#!/usr/bin/env python3
"""What a user's page must not carry: a development log ("session N", commit hashes) in the
README, docs/ or the code's comments (every source folder), and README lines over 160 characters outside code blocks
and tables. Prints each finding as file:line and exits 1 if there is any."""
import os
import re
import sys

root = sys.argv[1]
findings = []
SESSION = re.compile(r"session [0-9]+", re.I)
HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def scan(path, hashes):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if SESSION.search(line):
                findings.append(f"{path}:{n}: names a session: {line.strip()[:100]}")
            if hashes and HASH.search(line):
                findings.append(f"{path}:{n}: a commit hash? {HASH.search(line).group(0)}")


scan(os.path.join(root, "README.md"), True)
for top in ("docs", "include", "sim", "bench", "tests", "examples", "tools", "scripts", "cmake", "python"):
    for d, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if name.endswith((".md", ".hpp", ".cpp", ".h", ".hip", ".py", ".sh", ".cmake", ".txt", ".in")):
                scan(os.path.join(d, name), False)

with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
    fenced = False
    for n, line in enumerate(f, 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced and not line.lstrip().startswith("|") and len(line.rstrip("\n")) > 160:
            findings.append(f"README.md:{n}: {len(line.rstrip())} characters (at most 160 outside code and tables)")
    if n > 300:
        findings.append(f"README.md: {n} lines (a user's page: at most 300)")

for x in findings:
    print(x)
print(f"{0 if findings else 1} passed, {1 if findings else 0} failed")
sys.exit(1 if findings else 0)
