#!/usr/bin/env bash
# scripts/performance-doc's attention part, built from saved hipasm-timing-attn outputs
# (--attn-saved): rows parsed (not the summary or error lines), medians, worst rows and the goal
# per family computed as by hand below, the other parts of the page kept.
set -euo pipefail
doc="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
dev="device mi300x (gfx942): fwd hsa/gfx942/fmha_v3_fwd/MI300, bwd hsa/gfx942/fmha_v3_bwd"  # not a row
hdr="fam  role  b   h hk      s c     GFLOP   measured  predicted   error  stream  clock  mfma   cus groups   wall"
cat > "$work/fwd.txt" <<OUT
$dev
$hdr
fwd  cal   4  32  8   1024 0      17.2     100.00     110.00 +10.0%    0.00   1254  0.54    38    512    1.0
fwd  test  1  32  8   1024 0       4.3     100.00     105.00  +5.0%    0.00   2100  0.63    38    128    1.0
fwd  test  8  32  8   1024 0      34.4     100.00      80.00 -20.0%    0.00   1253  0.55    38   1024    1.0
fwd  test  8  64  8   1024 0  error: something the tool could not run
fwd         3 rows: median |predicted/measured - 1| = 10.0%, worst 20.0%
OUT
cat > "$work/bwd.txt" <<OUT
$dev
$hdr
a16  test  1  32  8   2048 0     171.8     100.00      70.00 -30.0%   10.00   1860  0.76     8    352    1.0
a16  cal   4  32  8   2048 0     687.2     100.00      92.00  -8.0%   20.00   1174  0.67     8   1408    1.0
a32  test  8  32  8   2048 1     687.2     100.00      50.00 -50.0%   30.00   1175  0.60     8   1408    1.0
a16/test    1 rows: median |predicted/measured - 1| = 30.0%, worst 30.0%
OUT
printf '# Performance\n\n<!-- part: compile -->\nkept compile table\n' > "$work/perf.md"
python3 "$doc" --skip kernels,validation,compile,sim,quickstart,timing-validation --attn-runs "--seqlen 1024; --seqlen 2048" \
  --attn-saved "$work/fwd.txt" "$work/bwd.txt" --out "$work/perf.md" 2> "$work/err"
out="$work/perf.md"
want() { grep -qF -- "$1" "$out" || { echo "FAIL: missing: $1"; cat "$out"; exit 1; }; }
# fwd test rows |+5%|, |-20%|: median 12.5%, worst 20%; bwd test rows |-30%|, |-50%|: 40%, 50%
want "fwd met (2 test rows: median 12.5%, worst 20.0%)"
want "bwd (a16 + a32) not met (2 test rows: median 40.0%, worst 50.0%)"
want "Predicted faster than measured: 4 of 6 rows."  # -20, -30, -8, -50
want "| fwd | 1: 10.0% / 10.0% | 2: 12.5% / 20.0% | 2: 12.5% / 20.0% | - |"
want "| bwd (a16 + a32) | 1: 8.0% / 8.0% | 2: 40.0% / 50.0% | - | 2: 40.0% / 50.0% |"
want "| a32 | - | 1: 50.0% / 50.0% | - | 1: 50.0% / 50.0% |"
want "| a32 | test | 8 | 32 | 8 | 2048 | 1 | 100.00 | 50.00 | -50.0% | 30.00 | 1175 | 0.60 |"
want "\`build/bin/hipasm-timing-attn AITER_A83421_DIR --seqlen 2048\`"
want "kept compile table"
[ "$(grep -c '^| fwd | test |' "$out")" = 2 ] || { echo "FAIL: fwd test rows"; cat "$out"; exit 1; }
# a saved file per run, or a one-line error
if python3 "$doc" --skip kernels,validation,compile,sim,quickstart,timing-validation --attn-runs "--seqlen 1024" \
     --attn-saved "$work/fwd.txt" "$work/bwd.txt" --out "$work/x.md" 2> "$work/err2"; then
  echo "FAIL: two saved files for one run accepted"; exit 1
fi
grep -q "attn-saved: 2 files for 1 runs" "$work/err2" || { echo "FAIL: message"; cat "$work/err2"; exit 1; }
echo "PASS: performance-doc's attention part"
