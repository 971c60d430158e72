define amdgpu_kernel void @xdl_bf16(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load <8 x bfloat>, ptr addrspace(1) %in
  %q = getelementptr i8, ptr addrspace(1) %in, i64 16
  %b = load <8 x bfloat>, ptr addrspace(1) %q
  %r = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> zeroinitializer, i32 0, i32 0, i32 0)
  %s = fadd <4 x float> %r, %r
  store <4 x float> %s, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @dgemm16(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load double, ptr addrspace(1) %in
  %r = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %a, double %a, <4 x double> zeroinitializer, i32 0, i32 0, i32 0)
  %s = fadd <4 x double> %r, %r
  store <4 x double> %s, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @f8f6f4_fp8(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load <8 x i32>, ptr addrspace(1) %in
  %r = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32> %a, <8 x i32> %a, <4 x float> zeroinitializer, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0)
  %s = fadd <4 x float> %r, %r
  store <4 x float> %s, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @f8f6f4_fp4(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load <4 x i32>, ptr addrspace(1) %in
  %r = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v4i32.v4i32(<4 x i32> %a, <4 x i32> %a, <4 x float> zeroinitializer, i32 4, i32 4, i32 0, i32 0, i32 0, i32 0)
  %s = fadd <4 x float> %r, %r
  store <4 x float> %s, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @scale_mfma(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load <8 x i32>, ptr addrspace(1) %in
  %q = getelementptr i8, ptr addrspace(1) %in, i64 64
  %sc = load i32, ptr addrspace(1) %q
  %sa = add i32 %sc, 1
  %sb = xor i32 %sc, 3
  %r = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32> %a, <8 x i32> %a, <4 x float> zeroinitializer, i32 0, i32 0, i32 0, i32 %sa, i32 0, i32 %sb)
  store <4 x float> %r, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @permlane_swap(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %x = load i32, ptr addrspace(1) %p
  %y = add i32 %x, %t
  %z = mul i32 %x, 3
  %r = call {i32, i32} @llvm.amdgcn.permlane32.swap(i32 %y, i32 %z, i1 false, i1 false)
  %r0 = extractvalue {i32, i32} %r, 0
  %r1 = extractvalue {i32, i32} %r, 1
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %s = add i32 %r0, %r1
  store i32 %s, ptr addrspace(1) %o
  ret void
}
define amdgpu_kernel void @cvt_sr_fp8(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %t
  %x = load float, ptr addrspace(1) %p
  %v = call i32 @llvm.amdgcn.cvt.scalef32.sr.fp8.f32(i32 %t, float %x, i32 %t, float 1.0, i32 1)
  %w = add i32 %v, 7
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %w, ptr addrspace(1) %o
  ret void
}
define amdgpu_kernel void @cvt_sr_pk_fp4(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <2 x float>, ptr addrspace(1) %in, i32 %t
  %x = load <2 x float>, ptr addrspace(1) %p
  %v = call i32 @llvm.amdgcn.cvt.scalef32.sr.pk.fp4.f32(i32 0, <2 x float> %x, i32 %t, float 1.0, i32 0)
  %w = add i32 %v, 7
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %w, ptr addrspace(1) %o
  ret void
}
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat>, <8 x bfloat>, <4 x float>, i32, i32, i32)
declare <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double, double, <4 x double>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v4i32.v4i32(<4 x i32>, <4 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32>, <8 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)
declare {i32, i32} @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)
declare i32 @llvm.amdgcn.cvt.scalef32.sr.fp8.f32(i32, float, i32, float, i32)
declare i32 @llvm.amdgcn.cvt.scalef32.sr.pk.fp4.f32(i32, <2 x float>, i32, float, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
