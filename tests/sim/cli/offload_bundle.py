"""Clang offload bundles (fat binaries) written and read from the format as clang-offload-bundler
lays it out, independently of hipasm's reader: the magic "__CLANG_OFFLOAD_BUNDLE__", the entry
count, then per entry its offset, size, id length and id (little-endian u64s); the payloads follow.
Shared by the hipasm-sim CLI tests and python/tests."""
import struct

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def bundle(items):
    """A bundle of (id, payload) items, each payload right after the header (no alignment)."""
    head = MAGIC + struct.pack("<Q", len(items))
    at = len(head) + sum(24 + len(i) for i, _ in items)
    for i, payload in items:
        head += struct.pack("<QQQ", at, len(payload), len(i)) + i.encode()
        at += len(payload)
    return head + b"".join(p for _, p in items)


def entries(data):
    """(id, payload) of each entry of a well-formed bundle."""
    n, = struct.unpack_from("<Q", data, len(MAGIC))
    at, out = len(MAGIC) + 8, []
    for _ in range(n):
        off, size, id_len = struct.unpack_from("<QQQ", data, at)
        out.append((data[at + 24:at + 24 + id_len].decode(), data[off:off + size]))
        at += 24 + id_len
    return out
