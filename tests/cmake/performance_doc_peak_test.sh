#!/usr/bin/env bash
# scripts/performance-doc's share of the peak: a compute-bound row (mfma_busy >= 0.25) is held
# against its kernel's input type's dense peak: gemm_fp4 (MI355X) against fp4's 10066.3 TFLOP/s
# (256 CUs x 2.4 GHz x 16384 FLOP a clock), not MI300X's bf16 1307.4; gemm_fp8 against 2614.9;
# a memory-bound row against its device's HBM.
set -euo pipefail
python3 - "$1" <<'PY'
import runpy, sys
ns = runpy.run_path(sys.argv[1], run_name="performance_doc_test")
of_peak = ns["of_peak"]
cases = [
    ({"kernel": "gemm_fp4", "tflops": "2617.982", "mfma_busy": "0.292", "hbm_gbps": "1168", "device": "mi355x"},
     "26% of 10066.3 TFLOP/s"),
    ({"kernel": "gemm_fp8", "tflops": "1307.45", "mfma_busy": "0.6", "hbm_gbps": "100"}, "50% of 2614.9 TFLOP/s"),
    ({"kernel": "gemm_fp4", "tflops": "25", "mfma_busy": "0.04", "hbm_gbps": "800", "device": "mi355x"}, "10% of 8 TB/s"),
]
for row, want in cases:
    got = of_peak(row)
    if got != want:
        sys.exit(f"FAIL: {row['kernel']}: {got!r}, want {want!r}")
print("PASS: performance-doc peaks")
PY
