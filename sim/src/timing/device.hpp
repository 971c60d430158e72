// The numbers of the timing model, one table per device. Every figure names its source:
// "T<n>" and "G<n>" are the topics of docs/timing-model.md's Sources table (public repositories
// and paths); "assumed" marks a value no source gives (open to calibration).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hipasm::sim::timing {

// The member defaults are the MI300X.
struct DeviceSpec {
  std::string_view name = "mi300x";
  std::string_view target = "gfx942";  // the ISA its code objects are built for (profile checks it)
  // ---- machine shape (T1)
  uint32_t xcds = 8;                 // T1: 8 XCDs on MI300X/MI325X
  uint32_t cus_per_xcd = 38;          // T1: 38 (MI300X: 304 CUs)
  uint32_t simds_per_cu = 4;         // T1: 4
  uint32_t wave_slots_per_simd = 8;  // T1: 8 per SIMD, 32 per CU
  uint32_t vgprs_per_simd_lane = 512;  // T1: 128 KiB/SIMD = 512 x 64 lanes x 4 B (unified VGPR+AGPR)
  uint32_t sgprs_per_simd = 800;       // T1: 12.5 KiB SGPR file per CU = 3200 SGPRs / 4 SIMDs = 800
  uint32_t lds_bytes_per_cu = 65536;     // T1: 64 KiB
  // ---- clocks (T1, T7)
  double peak_mhz = 2100;               // T1: 2100 MHz max
  double sustained_mhz = 1207;          // T7: MI300X BF16 GEMM median 1207 MHz; MI325X 1447; MI308X MFMA 1.0-1.13 GHz
  // ---- peak operations per clock per CU, by sim::peak_dtype (f64, f32, xf32, bf16/f16,
  // fp8/int8, fp6/fp4 matrix; f32 vector): the report's share of peak (at peak_mhz on all CUs).
  // T7 (AMD's MI300X table, mi300.md): matrix FP64 256, FP32 256, TF32 1024, FP16/BF16 2048,
  // FP8/INT8 4096, vector FP32 256 (packed FP32); gfx942 has no fp6/fp4 MFMA (0: no peak).
  std::array<double, 7> peak_ops_per_clk_cu = {256, 256, 1024, 2048, 4096, 0, 256};
  // ---- power and clock (docs/timing-model.md, Clock and power). The clock of a phase follows from
  // the device's power in it at the peak clock, relative to its limit:
  //   power = static + cu x (active CU fraction) + mfma x (matrix-core busy) + valu x (VALU busy)
  //           + hbm x (fraction of the achievable HBM rate)          (device-wide fractions)
  // and power scales as clock^exponent: clock = peak x min(1, power^(-1/exponent)).
  uint32_t clock_window_cycles = 8192;  // assumed: a phase is this many cycles (~4-7 us)
  // The controller does not raise the clock again within a dispatch: every phase runs at the
  // lowest clock the dispatch needs (T7: on MI308X the lowered clock carries across back-to-back
  // kernels; how fast it rises is not given, taken as slower than a dispatch). Measured tables
  // time a loop of the dispatch, so a grid's idle tail runs at its busy phases' clock. The
  // controller sees power averaged over clock_average_phases phases (the whole dispatch when
  // shorter): a one-phase burst does not set the clock alone. 3 (~12-20 us) is **fitted** on
  // the calibration rows of the GEMM and attention validations (docs/timing-model.md).
  bool clock_holds_lowest = true;
  uint32_t clock_average_phases = 3;
  // Power proportional to the clock (exponent 1, **assumed**: with the MAF blog's two clocks
  // of one kernel below, exponent 1 also reproduces its BF16 GEMM clock within 2%).
  double power_exponent = 1;
  // T7 (MAF blog, footnote 1): the same FP8 4096^3 GEMM, matrix cores ~94% busy on every CU,
  // runs at 1792 MHz with zero inputs and 1188 MHz with random ones. Zero data taken to cost no
  // matrix-core data power (**assumed**): every CU active = 2100 / 1792 = 1.172 x the limit;
  // random data adds 2100 / 1188 - 1.172 = 0.596 at 94% busy, so a fully busy matrix core
  // 0.634. (Check: the BF16 GEMM at 94%, T7 1207 MHz, is predicted 1188 MHz.)
  // Of the 1.172 a device with every CU active draws, the static share does not depend on how
  // many CUs hold a workgroup (the I/O dies, fabric, HBM interface, idle CUs' leakage and clock
  // tree): **fitted** on MI300X's 47 calibration rows (the batch-4 rows of AMD's attention table
  // at seqlen 1024 and 2048, every third row of aiter's MI300X int8 GEMM table): 0.54, so a
  // dispatch filling part of the GPU runs slower than its share of active CUs alone would give.
  // No source gives the split (AMD publishes no idle or static power under load).
  double power_static = 0.54, power_cu = 1.172 - 0.54, power_mfma = 0.634;
  double power_valu = 0, power_hbm = 0;  // no MI300X figure (MI308X: below)
  // An integer (i8) MFMA's power per busy cycle as a share of power_mfma. T7 gives clocks by data
  // type for floats only (hipBLASLt on MI300X: FP8 1230 MHz, BF16 1207, FP16 1115 at 83-94% of
  // their peaks: 0.60-0.76 of the limit per busy matrix core, power_mfma's 0.634 among them);
  // none for int8. **Fitted** on the 11 calibration rows of aiter's MI300X int8 GEMMs (every
  // third row of a8w8_bpreshuffle_tuned_gemm.csv, cu_num 304): 0.63; the same share on MI308X's
  // int8 rows lowers their calibration median and their worst row (docs/timing-model.md).
  double power_int_mfma_share = 0.63;
  // ---- VALU / SALU (T2, T3)
  uint32_t issue_interval = 4;       // T2: one SIMD per cycle round-robin -> each SIMD every 4 cycles
  uint32_t valu_cycles = 4;          // T3: 4.008-4.016 cycles per wave64 VALU op (plain, packed, 64-bit)
  uint32_t trans_cycles = 16;         // T3: v_exp/v_rcp 16.0 cycles (quarter rate)
  uint32_t salu_latency = 1;         // T3: LLVM WriteSALU 1 (no measurement)
  // ---- MFMA (T4)
  uint32_t cycles_per_pass = 4;      // T4: pass = 4 cycles
  uint32_t mfma_coexec_delay = 4;    // T4: calculator coexec_delay 4 (dense MFMA)
  uint32_t smfmac_coexec_delay = 8;  // T4: 8 for v_smfmac
  // ---- LDS (T5)
  uint32_t lds_bytes_per_port_clk = 64;  // T5: each SIMD pair's port 64 B/clk (CU 128 B/clk); the
                                         // recorder's LDS port cycles: 128 B (a pass over 32 banks) per 128 / this
  uint32_t lds_base_latency = 48;     // T5: ds_read_b32 52 = 48 + 4 transfer cycles; b128 64 = 48 + 16
  // LDS atomics to one address from several lanes do not broadcast: they cost what as many
  // distinct dwords of one bank cost (T5: full conflict 64 cycles per 64-lane b32 instruction =
  // 1 cycle per lane); the serialisation is assumed (pipeline-descriptions.rst names atomics
  // among bank conflicts and broadcasts only reads). Computed in the recorder from the lanes.
  // ---- vector memory (T1, T6)
  uint32_t line_bytes = 128;           // T1: L2 line 128 B; vL1D request 128 B
  uint32_t l1_bytes = 32768;             // T1: 32 KiB per CU
  uint32_t l1_ways = 64;              // assumed (no source): 64 (fully associative per 2 KiB set)
  uint32_t l2_bytes_per_xcd = 4u << 20;     // T1: 4 MB per XCD
  uint32_t l2_ways = 16;              // assumed: 16
  uint32_t l2_channels = 16;          // T1: 16 channels per XCD
  uint32_t l2_bytes_per_channel_clk = 128;  // T6: 128 B/clk per channel
  // Channel of an address: channels interleave every 256 B ("32 channels on CDNA GPUs at 256-byte
  // interleaving", HIP docs understand/hardware_implementation.rst; "32 on MI100 and MI2XX ... at
  // 256B address interleaving", rocprofiler-compute conceptual/l2-cache.rst), and "a hashing
  // mechanism ... attempts to evenly distribute requests across the L2 channels" (same page):
  // modelled as an XOR fold of the 256-B block index's low 24 bits in 4-bit groups (the fold's
  // form is assumed: the sources give only its purpose). MI300X: 16
  // channels per XCD (T1), the same interleave and hash assumed.
  uint32_t l2_interleave_bytes = 256;
  bool l2_channel_hash = true;
  // Atomics at the L2: each atomic request is a read-modify-write at the line's channel, and its
  // lanes on one address are applied one after another (each must see the previous result).
  // No source in reach gives an L2 atomic rate (timing.md has none; rocprofiler-compute's L2
  // pages give only the channel's 128 B/clk): assumed one read-modify-write per address per
  // channel cycle, the channel's one request per clock (T6).
  double l2_atomic_cycles = 1;
  // Operations of atomic requests the channel's atomic unit performs per cycle (distinct
  // addresses): an f32/u32 lane is one, a pk_add_f16/bf16 lane l2_atomic_packed_lane_ops. No
  // source gives either: **fitted**, per device, on the batch-4 (calibration) rows of the backward
  // attention in AMD's table, whose a16 kernels add bf16 pairs and a32 kernels f32
  // (docs/timing-model.md, Vector memory, L2 atomics). On MI300X a packed lane costs two (the
  // unit adds 16-bit halves one at a time) at 1.75 a cycle; the MI355X rows need one (below). At
  // 64 or more a request costs one channel cycle whatever its lanes, like a store.
  double l2_atomic_ops_per_clk = 1.75;
  double l2_atomic_packed_lane_ops = 2;
  uint32_t ta_cycles_per_line = 4;   // T6: dwordx4 (8 lines) ~32 cycles/instr/CU -> 4 cycles per line
  uint32_t lds_dma_cycles = 11;       // T6: buffer_load_dword ... lds ~11 cycles/instr/CU (23 B/clk)
  // The LDS write of a load to LDS (64 lanes x 4 B at the data's arrival) holds the LDS port of
  // the issuing wave's SIMD pair like a 64-lane 4-byte store: T5 (pipeline-descriptions.rst; HIP
  // docs hardware_implementation.rst "4-byte values: 8 cycles for 64 threads (50% peak bandwidth)").
  uint32_t lds_dma_write_cycles = 8;
  // Which LDS port a load to LDS writes through. No source describes the DMA's LDS write path
  // (**inferred**): true, one port for the whole CU (the vector memory return is one path per
  // CU, not a SIMD pair's), so the writes of all four SIMDs queue on it with the DS instructions
  // of SIMDs 0-1; false, the issuing wave's SIMD pair's port. Chosen on the calibration rows of
  // aiter's MI308X bf16 split-K GEMMs, whose 56 loads to LDS per CU and K step set their time
  // (docs/timing-model.md, Validation): the pair's port predicts every long-K row 12-21% fast,
  // the CU's fits them; the other gfx942 GEMM families stay within a point. gfx950: false (no
  // row has tested it; its loads to LDS move up to 16 B a lane).
  bool lds_dma_one_port = true;
  uint32_t l1_hit_latency = 112;       // T6: 112 cycles
  uint32_t l2_hit_latency = 224;       // T6: 224 cycles
  uint32_t hbm_latency = 650;          // T6: 500-800 (pyhip, MI308X) vs 1212 cold incl. TLB: 650 (midpoint of 500-800)
  double hbm_gbytes_per_s = 5300;       // T1: MI300X 5.3 TB/s peak (the report's reference)
  double hbm_achievable_gbytes_per_s = 4000;  // T6: sequential read kernel 4.0 TB/s (pyhip): what the model streams
  uint32_t vmcnt_max = 63;            // T2: <= 63 VMEM outstanding per wave
  // ---- Infinity Cache (MALL): memory-side, shared by the device; L2 read misses look it up
  uint64_t mall_bytes = 256ull << 20;   // T1: 256 MB (MI300X; MI325X/MI308X: same IODs, assumed)
  uint32_t mall_ways = 16;              // assumed (no source)
  double mall_gbytes_per_s = 17000;     // AMD MI300 launch: "256MB of Infinity Cache with 17TB/s of peak
                                        // bandwidth" (servethehome.com MI300X launch article, p. 3)
  // A hit returns after hbm_latency (assumed: no source separates MALL from HBM latency).
  // ---- sampling (--sample): the fraction of an XCD's L2 channel bandwidth the slice's CUs get
  double l2_channel_share = 1;          // 1 for a whole device
  // ---- scalar memory (T1, T6)
  uint32_t scalar_cache_bytes = 16384;   // T1: 16 KiB per 2 CUs
  uint32_t scalar_line_bytes = 64;    // assumed: 64
  uint32_t scalar_hit_latency = 41;   // T6: no measurement; gem5's s_memtime default 41 used as placeholder
  // ---- others
  uint32_t sleep_cycles_per_unit = 64;  // ISA: s_sleep N sleeps ~64 x N clocks
  uint32_t barrier_release = 0;      // assumed: released waves issue on their next turn (0 extra)
  // Time a dispatch takes beyond its waves' schedule (command processor launch, the end-of-kernel
  // release): no source gives it. Fitted on the calibration rows of hipasm-timing-aiter only
  // (timing-model.md, Validation, has the fit); the fastest GEMMs in aiter's tables (work
  // included) bound it from above.
  double dispatch_overhead_us = 2.5;

  constexpr uint32_t cus() const { return xcds * cus_per_xcd; }
};

// The MI355X / MI350X (gfx950, CDNA4), every number with its source (docs/timing-model.md,
// MI350X and MI355X, lists them and where sources disagree). G<n> and T<n> are topics of its
// Sources table (repositories and paths); "gpu-specs" is ROCm's GPU specification
// table (rocm.docs.amd.com reference/gpu-specs, the MI355X and MI350X rows).
// The power of the MI300X split (T7) scaled to what the calibration rows need (**fitted**: no
// MI355X clock under load or zero-data figure is published; 0.81 gives the lowest median |error|
// of the 30 calibration rows of the gfx950 validation, docs/timing-model.md, Validation).
inline constexpr double kMi355xPowerScale = 0.81;
inline constexpr DeviceSpec mi355x_spec() {
  DeviceSpec d;
  d.name = "mi355x";
  d.target = "gfx950";
  d.xcds = 8;                  // gpu-specs: 256 CUs, "32 per XCD"; G5 (rocprofv3 agent info: Num_Xcc 8,
  d.cus_per_xcd = 32;          // Cu_Count 256); ISSCC 2026 (32 active CUs per XCD)
  d.simds_per_cu = 4;          // G5: 4 SIMDs, 8 waves per SIMD, wave64 (rocprofv3 agent info)
  d.wave_slots_per_simd = 8;
  d.vgprs_per_simd_lane = 512;  // gpu-specs: VGPR file 512 KiB per CU (as MI300X)
  d.sgprs_per_simd = 800;       // gpu-specs: SGPR file 12.5 KiB (as MI300X)
  d.lds_bytes_per_cu = 160 * 1024;  // gpu-specs: LDS 160 KiB; clang-22's limit 163840 (G1)
  d.peak_mhz = 2400;  // G5: MI355X max clock 2.4 GHz (Hot Chips 2025); agent info Max_Engine_Clk 2400
  // G5 (AMD's MI355X figures: BF16 2.5, FP8 5.0, FP6/FP4 10.1 PFLOP/s dense, FP64 matrix 78.6
  // TFLOP/s; / (256 CUs x 2.4 GHz)): FP64 128, BF16/F16 4096, FP8/INT8 8192, FP6/FP4 16384; no
  // xf32 MFMA on gfx950; matrix and vector FP32 **assumed** MI300X's 256 a CU (no source in reach).
  d.peak_ops_per_clk_cu = {128, 256, 0, 4096, 8192, 16384, 256};
  // Report column only: the fitted power's clock with every CU active and the matrix cores 90%
  // busy, 2400 / (0.81 x (1.172 + 0.9 x 0.634)) = 1695 MHz.
  d.sustained_mhz = 1700;
  d.power_static = DeviceSpec{}.power_static * kMi355xPowerScale;
  d.power_cu = DeviceSpec{}.power_cu * kMi355xPowerScale;
  d.power_mfma = DeviceSpec{}.power_mfma * kMi355xPowerScale;
  // MFMA passes: the target's cost table (sim/src/target.cpp, SISchedule.td
  // SIDPGFX950FullSpeedModel); a pass is 4 cycles and the co-issue rules are CDNA3's (G6: packed
  // FP32 never co-issues with an MFMA on gfx950 either).
  // LDS: 64 banks (G5: HipKittens' ds_read_b128/b64 bank tests on MI355X) x 4 B = 256 B/clk per
  // CU **inferred**, 128 B/clk per SIMD-pair port; read latency 69 cycles measured (G5, triton
  // PR #2507) = 65 + the 4 cycles the MI300X model gives a b32 transfer (T5).
  d.lds_bytes_per_port_clk = 128;
  d.lds_base_latency = 65;
  d.lds_dma_one_port = false;  // untested on gfx950: the pair's port kept (DeviceSpec)
  // Caches: gpu-specs gives MI300X's sizes (L1 32 KiB per CU, L2 4 MB per XCD, Infinity Cache
  // 256 MB, scalar 16 KiB per 2 CUs): kept. L2 channels, lines, latencies, the address path and
  // the Infinity Cache bandwidth: no gfx950 source, MI300X's kept (assumed).
  d.hbm_gbytes_per_s = 8000;  // G5: HBM3E 8 TB/s (AMD product pages; boston-uk MI355X blog)
  // What the model streams: MI300X's achievable fraction (T6: 4.0 of 5.3 TB/s) of 8 TB/s,
  // **assumed** (aiter's gluon README calls 6.5 TB/s "MI350's HBM peak").
  d.hbm_achievable_gbytes_per_s = 8000.0 * 4000 / 5300;
  // L2 atomics (**fitted** on MI355X's 24 batch-4 backward rows, seqlen 1024 and 2048): AMD
  // measured the a32 kernels (72 f32 atomics a step) 19-33% slower than the a16 ones (36 packed
  // bf16) on full grids; with a packed lane costing two operations, as on MI300X, both cost the
  // same. A packed lane is one operation here, at 1.35 a cycle (a32 rows within 1-6%, a16 2-6%).
  d.l2_atomic_ops_per_clk = 1.35;
  d.l2_atomic_packed_lane_ops = 1;
  return d;
}

// DeviceSpec's defaults are the MI300X; the other gfx942 devices differ only where listed.
inline constexpr DeviceSpec kDevices[] = {
    DeviceSpec{},
    [] {
      DeviceSpec d;
      d.name = "mi308x";
      // T1: 80 CUs (issue 10) on 4 XCDs (rocprofiler-compute mi_gpu_spec.yaml: mi308x num_xcds spx 4)
      d.xcds = 4;
      d.cus_per_xcd = 20;
      d.peak_mhz = 1840;      // T7: MI308X pure VALU / EXP run unthrottled at ~1.84 / ~1.83 GHz (pyhip)
      d.sustained_mhz = 1014;  // T7: pyhip, MI308X pure MFMA, steady clock
      // T7 (pyhip gpu-frequency-probe, MI308X): MFMA <= ~53% busy keeps ~1.8 GHz (power_cu + 0.53 x
      // power_mfma = 1840/1800); at 100% busy the steady clock is 1014 MHz (power_cu + power_mfma
      // = 1840/1014); an HBM-load kernel holds 1588 MHz (power_cu + power_hbm = 1840/1588). The
      // steady clocks (the second half of a 3-s run) rather than the run's averages: pyhip finds
      // the lowered clock carries across back-to-back kernels, as in a benchmark's loop of rows.
      d.power_static = 0;  // (its 58 calibration rows fit none: power_cu is only 0.13 here)
      d.power_mfma = (1840.0 / 1014 - 1840.0 / 1800) / (1 - 0.53);
      d.power_cu = 1840.0 / 1800 - 0.53 * d.power_mfma;
      d.power_hbm = 1840.0 / 1588 - d.power_cu;
      // VALU power: pure VALU and EXP run unthrottled (T7: power_cu + power_valu <= 1840/1837);
      // within that bound **fitted** on MI308X's 58 calibration rows (the batch-4 rows of AMD's
      // attention table at seqlen 1024 and 2048, every third GEMM row): 0.34 (docs/timing-model.md).
      d.power_valu = 0.34;
      return d;
    }(),
    [] {
      DeviceSpec d;
      d.name = "mi325x";
      d.sustained_mhz = 1447;      // T7: MI325X BF16 GEMM 843 TFLOP/s at 1447 MHz
      // T7: the BF16 GEMM at 94% busy, 1447 MHz: power 2100/1447 at the peak clock, split between
      // CUs and matrix cores as on MI300X (**assumed**: no zero-data figure for MI325X).
      const double k = (2100.0 / 1447) / (1.172 + 0.94 * 0.634);
      d.power_static = DeviceSpec{}.power_static * k;
      d.power_cu = DeviceSpec{}.power_cu * k;
      d.power_mfma = DeviceSpec{}.power_mfma * k;
      d.hbm_gbytes_per_s = 6000;   // assumed: AMD's MI325X spec (HBM3E 6 TB/s), not in T1
      d.hbm_achievable_gbytes_per_s = 4000 * 6000 / 5300;  // assumed: MI300X's achievable fraction
      return d;
    }(),
    mi355x_spec(),
    [] {
      DeviceSpec d = mi355x_spec();  // the same chip (gpu-specs: identical rows), lower power
      d.name = "mi350x";
      d.peak_mhz = 2200;  // G5: MI350X max clock 2.2 GHz, 1000 W (Hot Chips 2025, wccftech)
      // Board power 1000 W vs 1400 W (G5): the same power at the peak clock against a limit
      // 1000/1400 as large, scaled by the clock (power ~ clock, exponent 1) **assumed**.
      d.power_static = mi355x_spec().power_static * (1400.0 / 1000) * (2200.0 / 2400);
      d.power_cu = mi355x_spec().power_cu * (1400.0 / 1000) * (2200.0 / 2400);
      d.power_mfma = mi355x_spec().power_mfma * (1400.0 / 1000) * (2200.0 / 2400);
      d.sustained_mhz = mi355x_spec().sustained_mhz * 1000 / 1400 * 2400 / 2200;
      return d;
    }(),
};

inline const DeviceSpec* find_device(std::string_view name) {
  for (const auto& d : kDevices)
    if (d.name == name) return &d;
  return nullptr;
}

// The one-line refusal of a code object built for `code_target` on device `dev` of another
// target, naming both and the devices that run it: "gfx950 code object on device mi300x (a gfx942
// GPU); gfx950 devices: mi355x, mi350x".
inline std::string wrong_target_message(std::string_view code_target, const DeviceSpec& dev) {
  std::string same;
  for (const auto& d : kDevices)
    if (d.target == code_target) same += (same.empty() ? "" : ", ") + std::string(d.name);
  return std::string(code_target) + " code object on device " + std::string(dev.name) + " (a " +
         std::string(dev.target) + " GPU); " + std::string(code_target) + " devices: " + (same.empty() ? "none" : same);
}

}  // namespace hipasm::sim::timing
