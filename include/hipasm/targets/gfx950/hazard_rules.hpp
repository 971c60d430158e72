// gfx950's (CDNA4) hazard rules: gfx942's with LLVM's IsGFX950 changes in GCNHazardRecognizer
// (../shared/reference/gfx950.md section 4): XDL producers of 4+ passes need one more wait state
// before SrcA/B, VALU/memory reads and overwrites (5/8/12/20), an XDL result read as an
// overlapping SrcC needs NP+2 for an XDL or SMFMAC reader (4/6/10/18) and 3/6/10/18 for a
// non-XDL one (llc-22: s_nop 3 and s_nop 2 after a 2-pass XDL), and v_mfma_f64_16x16x4 (16 passes on gfx950)
// needs 19 before a VALU read or SrcA/B and 17 before an overlapping SrcC. Two rules gfx942
// lacks: a VALU writing EXEC (v_cmpx, or any VALU with EXEC as sdst) needs 4 wait states before
// v_permlane16/32_swap (checkPermlaneHazards), and a byte-select scaled convert writing byte
// 1-3, or any stochastic fp4 pair, needs 1 before a VALU reading or writing its result
// (hasCvtScaleForwardingHazard). llc-22 -mcpu=gfx950 puts s_nop 3 and s_nop 0 there.
#pragma once
#include <array>
#include <cstddef>
#include <iterator>

#include "../../hazard_rules.hpp"
#include "../gfx942/hazard_rules.hpp"

namespace hipasm {

namespace detail {
inline constexpr std::size_t gfx950_shared_count = sizeof(gfx942_hazard_rules) / sizeof(gfx942_hazard_rules[0]);
inline constexpr hazard_rule gfx950_own_rules[] = {
    {hazard_check::valu_exec_then_permlane, "cmpx-permlane", "VALU writes EXEC -> v_permlane*_swap (4)", {4, 4, 4, 4, 4}},
    {hazard_check::cvt_fwd_then_valu, "cvt-scale-forward", "byte-select/fp4 scaled convert -> VALU reads or writes it (1)", {1, 1, 1, 1, 1}},
};
inline constexpr std::size_t gfx950_hazard_count = gfx950_shared_count + std::size(gfx950_own_rules);
constexpr std::array<hazard_rule, gfx950_hazard_count> gfx950_hazard_list() {
  std::array<hazard_rule, gfx950_hazard_count> r{};
  for (std::size_t i = 0; i < gfx950_shared_count; ++i) r[i] = gfx942_hazard_rules[i];
  for (std::size_t i = 0; i < std::size(gfx950_own_rules); ++i) r[gfx950_shared_count + i] = gfx950_own_rules[i];
  auto set = [&](hazard_check c, std::string_view name, std::array<int8_t, 5> w) {
    for (hazard_rule& x : r)
      if (x.check == c) {
        x.name = name;
        for (int k = 0; k < 5; ++k) x.wait[k] = w[k];
      }
  };
  set(hazard_check::xdl_then_overlap_srcc, "XDL MFMA -> XDL MFMA overlapping SrcC (NP+2)", {0, 4, 6, 10, 18});
  set(hazard_check::xdl_then_overlap_srcc_nonxdl, "XDL MFMA -> non-XDL MFMA overlapping SrcC (3/6/10/18)", {0, 3, 6, 10, 18});
  set(hazard_check::xdl_then_srcab, "XDL MFMA -> MFMA SrcA/B (5/8/12/20)", {0, 5, 8, 12, 20});
  set(hazard_check::xdl_then_read, "XDL MFMA -> VALU/VMEM/DS read (5/8/12/20)", {0, 5, 8, 12, 20});
  set(hazard_check::xdl_then_waw, "XDL MFMA -> VALU/memory overwrites result (5/8/12/20)", {0, 5, 8, 12, 20});
  set(hazard_check::dgemm_then_valu_read, "DGEMM -> VALU reads result (6/11/19)", {0, 6, 6, 11, 19});
  set(hazard_check::dgemm_then_srcab, "DGEMM -> MFMA SrcA/B (6/11/19)", {0, 6, 6, 11, 19});
  set(hazard_check::dgemm_then_overlap_srcc, "DGEMM -> MFMA overlapping SrcC (4/9/17)", {0, 4, 4, 9, 17});
  return r;
}
}  // namespace detail

inline constexpr std::array<hazard_rule, detail::gfx950_hazard_count> gfx950_hazard_rules = detail::gfx950_hazard_list();
inline constexpr hazard_table gfx950_hazards = make_hazard_table(gfx950_hazard_rules.data(), detail::gfx950_hazard_count);

}  // namespace hipasm
