#!/usr/bin/env bash
# scripts/performance-doc's timing-validation part (docs/timing-model.md, Validation), built from
# hand-written saved outputs of hipasm-timing-attn (two devices: a file without the device line
# is MI300X's) and hipasm-timing-aiter (the device in each row): rows parsed (not the headers,
# summaries or error lines), a later file's row replacing the same row of an earlier one, the
# summary per device and family as computed by hand below, the page outside the markers kept.
set -euo pipefail
doc="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ahdr="fam  role  b   h hk      s c     GFLOP   measured  predicted   error  stream  clock  mfma   cus groups   wall"
# MI300X attention, the tool's older output (no device line)
cat > "$work/attn942.txt" <<OUT
$ahdr
fwd  cal   4  32  8   1024 0      68.7     100.00     110.00  +10.0%    0.00   1254  0.54    38    512    3.8
fwd  test  1  32  8   1024 0      17.2     100.00     105.00   +5.0%    0.00   2100  0.63    16    128    0.8
fwd  test  8  32  8   1024 0     137.4     100.00      80.00  -20.0%    0.00   1253  0.55    38   1024    7.7
fwd  test  8  64  8   1024 0  error: something the tool could not run
fwd         3 rows: median |predicted/measured - 1| = 10.0%, worst 20.0%
fwd/test    2 rows: median |predicted/measured - 1| = 12.5%, worst 20.0%
OUT
# a re-run of one MI300X row: replaces the -20% row
cat > "$work/rerun942.txt" <<OUT
$ahdr
fwd  test  8  32  8   1024 0     137.4     100.00      90.00  -10.0%    0.00   1253  0.55    38   1024    7.7
fwd         1 rows: median |predicted/measured - 1| = 10.0%, worst 10.0%
OUT
cat > "$work/attn950.txt" <<OUT
device mi355x (gfx950): fwd hsa/gfx950/fmha_v3_fwd, bwd hsa/gfx950/fmha_v3_bwd
$ahdr
fwd  cal   4  32  8   1024 0      68.7     200.00     190.00   -5.0%    0.00   1821  0.51    16    512    1.0
fwd  test  1  32  8   1024 0      17.2     200.00     220.00  +10.0%    0.00   2400  0.52     8    128    0.2
fwd  test  8  32  8   1024 0     137.4     200.00     250.00  +25.0%    0.00   1821  0.52    16   1024    3.0
fwd  test  1  64  8   1024 0      34.4     200.00     204.00   +2.0%    0.00   1825  0.50    16    256    0.9
fwd         4 rows: median |predicted/measured - 1| = 7.5%, worst 25.0%
OUT
# GEMMs of two devices in one output (aiter_gemm.cpp's columns; ratio = model_us / measured)
cat > "$work/gemm942.txt" <<'OUT'
family role device  kernel                                           M      N      K  ks   measured   model_us   ratio  wall_s    MHz  mfma HBM_GB wps
i8     cal  mi308x  i8gemm_bf16_perTokenI8_BpreShuffle_16x128         128    128   5120   8      10.00       9.00   0.900     1.0   1840  0.30   1200   2
i8     test mi308x  i8gemm_bf16_perTokenI8_BpreShuffle_32x128         192    128   5120   8      10.00      12.00   1.200     1.0   1840  0.30   1200   2
i8     test mi308x  i8gemm_bf16_perTokenI8_BpreShuffle_64x128         128   1280   8192   4      20.00      19.00   0.950     1.0   1840  0.30   1200   2
i8     test mi308x  i8gemm_bf16_perTokenI8_BpreShuffle_32x128         192   1280   1024   1      40.00      26.00   0.650     1.0   1840  0.30   1200   2
i8     test mi300x  i8gemm_bf16_perTokenI8_BpreShuffle_16x128          64   1536   5120   1      10.00      10.50   1.050     1.0   2100  0.30   1200   2
i8          5 rows: median |predicted/measured - 1| = 10.0%, worst 35.0%
i8/cal      1 rows: median |predicted/measured - 1| = 10.0%, worst 10.0%
i8/test     4 rows: median |predicted/measured - 1| = 12.5%, worst 35.0%
all/test    4 rows: median |predicted/measured - 1| = 12.5%, worst 35.0%
all         5 rows: median |predicted/measured - 1| = 10.0%, worst 35.0%
OUT
printf '# Timing\n\n## Validation\n\nthe method\n\n<!-- part: timing-validation -->\nold table\n<!-- end of part: timing-validation -->\n\n## After\n\nkept text\n' \
  > "$work/timing.md"
python3 "$doc" --only timing-validation --timing-doc "$work/timing.md" --out "$work/perf.md" \
  --timing-saved "$work/attn942.txt" "$work/gemm942.txt" "$work/attn950.txt" "$work/rerun942.txt" 2> "$work/err"
out="$work/timing.md"
want() { grep -qF -- "$1" "$out" || { echo "FAIL: missing: $1"; cat "$out"; exit 1; }; }
# MI300X i8: one test row +5%. MI300X fwd: cal |+10%|; test |+5%|, |-10%| (the re-run replaced
# -20%): median 7.5%, worst 10%, mean (5 - 10) / 2 = -2.5%.
want "| MI300X | i8 | GEMM | 1 (0 + 1) | - | 5.0% | 5.0% | +5.0% | met |"
want "| MI300X | fwd | attention | 3 (1 + 2) | 10.0% | 7.5% | 10.0% | -2.5% | met |"
# MI308X i8: cal |-10%|; test |+20%|, |-5%|, |-35%|: median 20%, worst 35%, mean -20 / 3 = -6.7%
want "| MI308X | i8 | GEMM | 4 (1 + 3) | 10.0% | 20.0% | 35.0% | -6.7% | not met |"
# MI355X fwd: cal |-5%|; test |+10%|, |+25%|, |+2%|: median 10% (the goal's bound: met), worst
# 25%, mean 37 / 3 = +12.3%
want "| MI355X | fwd | attention | 4 (1 + 3) | 5.0% | 10.0% | 25.0% | +12.3% | met |"
want "Goal met by 3 of 4 device and family groups with test rows."
# groups in device order, GEMM families before attention's
[ "$(grep -o '^| MI3[0-9]*X | [a-z0-9]* |' "$out" | tr -d '| ' | tr '\n' ' ')" = "MI300Xi8 MI300Xfwd MI308Xi8 MI355Xfwd " ] \
  || { echo "FAIL: group order"; cat "$out"; exit 1; }
# every row on the page, the failed one listed
want "| test | 8 | 32 | 8 | 1024 | 0 | 100.00 | 90.00 | -10.0% | 0.00 | 1253 | 0.55 |"
want "| test | i8gemm_bf16_perTokenI8_BpreShuffle_32x128 | 192 | 1280 | 1024 | 1 | 40.00 | 26.00 | -35.0% | 1840 | 0.30 | 1200 |"
want "- not run: test b8 h64 hk8 s1024 causal 0: something the tool could not run"
want "<details><summary>MI355X fwd (attention): 4 rows (1 cal + 3 test); from attn950.txt</summary>"
if grep -qF "| -20.0% |" "$out"; then echo "FAIL: the replaced row is still there"; cat "$out"; exit 1; fi
want "the method"
want "kept text"
if grep -qF "old table" "$out"; then echo "FAIL: the old part is still there"; exit 1; fi
[ ! -e "$work/perf.md" ] || { echo "FAIL: --only timing-validation wrote performance.md"; exit 1; }
# bad input: a one-line error and a nonzero exit
printf '# Timing\n\nno markers\n' > "$work/bare.md"
if python3 "$doc" --only timing-validation --timing-doc "$work/bare.md" --timing-saved "$work/attn942.txt" \
     2> "$work/err2"; then echo "FAIL: a page without markers accepted"; exit 1; fi
grep -q "no '<!-- part: timing-validation -->' ... '<!-- end of part: timing-validation -->' markers" "$work/err2" \
  || { echo "FAIL: message"; cat "$work/err2"; exit 1; }
echo "nothing here" > "$work/empty.txt"
if python3 "$doc" --only timing-validation --timing-doc "$work/timing.md" --timing-saved "$work/empty.txt" \
     2> "$work/err3"; then echo "FAIL: a file without rows accepted"; exit 1; fi
grep -q "empty.txt has no row" "$work/err3" || { echo "FAIL: message"; cat "$work/err3"; exit 1; }
if python3 "$doc" --only timing-validatio 2> "$work/err4"; then echo "FAIL: unknown part accepted"; exit 1; fi
grep -q "unknown part(s) timing-validatio" "$work/err4" || { echo "FAIL: message"; cat "$work/err4"; exit 1; }
echo "PASS: performance-doc's timing-validation part"
