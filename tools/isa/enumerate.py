"""Every valid opcode of the target (mc.set_arch), found by letting llvm-mc's disassembler name each
encoding family's opcode space. Each opcode is decoded with a few operand-field
variants (all VGPR, an SGPR source, all zero fields, ...) because some instructions
only decode, or only re-assemble, with particular operand kinds."""
from . import mc


def _bytes(words):
    return [(w >> (8 * i)) & 0xFF for w in words for i in range(4)]


V = lambda n: 0x100 + n  # VGPR in a 9-bit source field


def _families():
    # (family, op, words) ; register numbers are even (64-bit tuples must be) and
    # multiples of 4 for SGPR quads.
    for op in range(256):  # SOP1
        yield "sop1", [0xBE800000 | 4 << 16 | op << 8 | 8]
    for op in range(0x60):  # SOP2 (0x60+ is SOPK/SOP1/SOPC/SOPP space)
        yield "sop2", [0x80000000 | op << 23 | 4 << 16 | 12 << 8 | 8]
    for op in range(29):  # SOPK (29..31 are SOP1/SOPC/SOPP space)
        yield "sopk", [0xB0000000 | op << 23 | 4 << 16 | 0x10]
        yield "sopk", [0xB0000000 | op << 23 | 4 << 16 | 0x10, 0x1234]  # s_setreg_imm32_b32
    for op in range(128):  # SOPC
        yield "sopc", [0xBF000000 | op << 16 | 12 << 8 | 8]
    for op in range(128):  # SOPP
        yield "sopp", [0xBF800000 | op << 16 | 0]
        yield "sopp", [0xBF800000 | op << 16 | 3]
    for op in range(256):  # SMEM: sdata s16, sbase s[8:9]
        yield "smem", [0xC0000000 | op << 18 | 1 << 17 | 16 << 6 | 4, 0x10]
        yield "smem", [0xC0000000 | op << 18 | 16 << 6 | 4, 12]
    for op in range(256):  # VOP1
        yield "vop1", [0x7E000000 | 4 << 17 | op << 9 | V(8)]
        yield "vop1", [0x7E000000 | 4 << 17 | op << 9 | 8]
        yield "vop1", [0x7E000000 | op << 9]
    for op in range(0x3E):  # VOP2
        yield "vop2", [op << 25 | 4 << 17 | 12 << 9 | V(8)]
        yield "vop2", [op << 25 | 4 << 17 | 12 << 9 | 8]
        yield "vop2", [op << 25 | 4 << 17 | 12 << 9 | V(8), 0x1234]  # v_fmaak/v_fmamk: a literal K
    for op in range(256):  # VOPC
        yield "vopc", [0x7C000000 | op << 17 | 12 << 9 | V(8)]
        yield "vopc", [0x7C000000 | op << 17 | 12 << 9 | 8]
    for op in range(1024):  # VOP3 (promoted VOPC/VOP2/VOP1 and VOP3-only)
        yield "vop3", [0xD0000000 | op << 16 | 4, V(16) << 18 | V(12) << 9 | V(8)]
        yield "vop3", [0xD0000000 | op << 16 | 4, V(16) << 18 | V(12) << 9 | 8]
        yield "vop3", [0xD0000000 | op << 16 | 4, V(16) << 18 | 12 << 9 | V(8)]
        yield "vop3", [0xD0000000 | op << 16 | 4, 16 << 18 | V(12) << 9 | V(8)]
        yield "vop3", [0xD0000000 | op << 16 | 4, V(16) << 18 | 124 << 9 | 8]  # v_writelane_b32 (m0 lane)
    for op in range(128):  # VOP3P incl. MAI (MFMA/SMFMAC)
        yield "vop3p", [0xD3800000 | op << 16 | 1 << 14 | 4, 3 << 27 | V(16) << 18 | V(12) << 9 | V(8)]
        yield "vop3p", [0xD3800000 | op << 16 | 1 << 15 | 4, V(16) << 18 | V(12) << 9 | V(8)]
        yield "vop3p", [0xD3800000 | op << 16 | 4, V(16) << 18 | V(12) << 9 | V(8)]
        # MFMA results overlapping a source are rejected: dst = C at v64/a64
        yield "vop3p", [0xD3800000 | op << 16 | 64, V(64) << 18 | V(12) << 9 | V(8)]
        yield "vop3p", [0xD3800000 | op << 16 | 1 << 15 | 64, V(64) << 18 | V(12) << 9 | V(8)]
    # gfx950's scaled MFMAs are two encodings llvm-mc treats as one instruction:
    # v_mfma_ld_scale_b32 (VOP3P 0x2C: the two scale sources, op_sel) then an f8f6f4 MFMA.
    # The MFMA half alone is the unscaled form; the pair only decodes as the scaled one.
    for op in (0x2D, 0x2E):
        yield "vop3p", [0xD3AC0000, V(21) << 9 | V(20), 0xD3800000 | op << 16 | 1 << 11 | 64,
                        1 << 26 | V(64) << 18 | V(40) << 9 | V(16)]
    for op in range(256):  # DS: vdst v4, addr v8, data0 v12, data1 v16
        yield "ds", [0xD8000000 | op << 17, 4 << 24 | 16 << 16 | 12 << 8 | 8]
        yield "ds", [0xD8000000 | op << 17, 0]
        yield "ds", [0xD8000000 | op << 17 | 1 << 16, 0]  # GWS: only with gds
    for op in range(128):  # FLAT / SCRATCH / GLOBAL: vdst v4, data v12
        for seg, fam in ((0, "flat"), (1, "scratch"), (2, "global")):
            for sc0 in (0, 1):
                for saddr, addr in (((0, 8),) if seg == 0 else ((0x7F, 8), (10, 8))):
                    yield fam, [0xDC000000 | op << 18 | sc0 << 16 | seg << 14, 4 << 24 | saddr << 16 | 12 << 8 | addr]
            if seg == 1:  # scratch with vaddr off (sve=0 and saddr given)
                yield fam, [0xDC000000 | op << 18 | seg << 14, 4 << 24 | 10 << 16 | 12 << 8 | 0]
    for op in range(128):  # MUBUF: vdata v4, vaddr v8, srsrc s[8:11], soffset s12, offen
        for lds in (0, 1):
            for sc0 in (0, 1):
                yield "mubuf", [0xE0000000 | op << 18 | lds << 16 | sc0 << 14 | 1 << 12, 12 << 24 | 2 << 16 | 4 << 8 | 8]
        yield "mubuf", [0xE0000000 | op << 18, 0]  # buffer_wbl2, buffer_inv: no operands


def _family(fam, words):
    # The VOP3 opcode space also holds VOP3P (op >= 0x380): classify by the encoding.
    if fam == "vop3" and (words[0] >> 16) & 0x3FF >= 0x380:
        return "vop3p"
    return fam


def decoded():
    """[(family, text)] for every encoding that decodes to a well-formed instruction."""
    items = list(_families())
    texts = mc.disassemble([_bytes(w) for _, w in items])
    return [(_family(fam, w), t) for (fam, w), t in zip(items, texts)
            if t is not None and "/*" not in t]
