// py_plan.cc: tmapgen.plan_gemm / plan_conv (python/src/tmapgen/_plan.py wraps these private functions).
//
// The Python arguments become the request values of src/plan (GemmRequest, ConvRequest), which the command line
// (`tmapgen plan gemm|conv`) fills from its flags; the same runners (src/ops/plan.h) and renderers answer both, so the JSON and text reports are the command line's. Malformed arguments raise SpecError naming the
// Python argument.
#include <nanobind/stl/string.h>

#include <string>
#include <type_traits>

#include "python/ext/py_errors.h"
#include "src/ops/plan.h"
#include "src/plan/conv_plan.h"
#include "src/plan/gemm_plan.h"
#include "src/plan/plan_render.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
void BindPlan(nb::module_& m);

namespace {

template <typename E>
E EnumArg(const std::string& v, const char* name) {
  E out{};
  if (desc::Parse(v, &out)) return out;
  const std::string why = std::is_same_v<E, desc::ElemType> ? desc::RefusedElemType(v) : std::string();
  ThrowSpec(name, why.empty() ? StrCat("unknown value \"", v, "\"; expected one of: ",
                                       desc::AcceptedNames(static_cast<E*>(nullptr)))
                              : why);
}

DataType MapTypeArg(const std::string& v, const char* name) {
  DataType t{};
  if (!tmapgen::Parse(v, &t)) ThrowSpec(name, StrCat("unknown value \"", v, "\"; expected f16, bf16, f32 or s32"));
  return t;
}

Target TargetArg(const std::string& v) {
  Target t{};
  if (!tmapgen::Parse(v, &t))
    ThrowSpec("target", StrCat("unknown value \"", v, "\"; expected one of: ",
                               tmapgen::AcceptedNames(static_cast<Target*>(nullptr))));
  return t;
}

void SwizzleArg(const std::string& v, const char* name, bool* has, desc::DescSwizzle* out) {
  *has = !v.empty() && v != "widest";
  if (*has) *out = EnumArg<desc::DescSwizzle>(v, name);
}

plan::McastIssue IssueArg(const std::string& v) {
  plan::McastIssue i{};
  if (!plan::Parse(v, &i)) ThrowSpec("multicast_issue", StrCat("expected \"slice\" or \"leader\", got \"", v, "\""));
  return i;
}

// CheckGemmRequest/CheckConvRequest name the request field, which is the Python argument's name.
void Check(const absl::Status& st) {
  if (st.ok()) return;
  const std::string m(StatusMessage(st));
  const size_t colon = m.find(": ");
  if (colon == std::string::npos) ThrowSpec("", m);
  throw SpecFailure(m.substr(0, colon), m);
}

std::string PlanGemm(uint64_t m, uint64_t n, uint64_t k, const std::string& a_type, const std::string& b_type,
                     const std::string& a_major, const std::string& b_major, uint64_t lda, uint64_t ldb, uint64_t ldc,
                     uint64_t ldd, const std::string& d_type, const std::string& c_type, const std::string& cd_layout,
                     const std::string& accumulator, uint32_t bm, uint32_t bn, uint32_t bk, uint32_t stages,
                     uint32_t cluster_m, uint32_t cluster_n, bool multicast_a, bool multicast_b,
                     const std::string& multicast_issue, const std::string& target, int cta_group,
                     const std::string& swizzle_a, const std::string& swizzle_b, const std::string& swizzle_cd,
                     uint32_t warpgroups, bool epilogue, const std::string& format) {
  plan::GemmRequest r;
  r.m = m;
  r.n = n;
  r.k = k;
  r.a_type = EnumArg<desc::ElemType>(a_type, "a_type");
  r.b_type = EnumArg<desc::ElemType>(b_type, "b_type");
  r.a_major = EnumArg<desc::Major>(a_major, "a_major");
  r.b_major = EnumArg<desc::Major>(b_major, "b_major");
  r.lda = lda;
  r.ldb = ldb;
  r.ldc = ldc;
  r.ldd = ldd;
  r.d_type = MapTypeArg(d_type, "d_type");
  if (!c_type.empty()) {
    r.has_c = true;
    r.c_type = MapTypeArg(c_type, "c_type");
  }
  if (!plan::Parse(cd_layout, &r.cd_layout)) ThrowSpec("cd_layout", StrCat("expected \"row\" or \"col\", got \"", cd_layout, "\""));
  if (!accumulator.empty()) {
    if (!desc::Parse(accumulator, &r.accumulator))
      ThrowSpec("accumulator", StrCat("expected f32, f16 or s32, got \"", accumulator, "\""));
    r.has_accumulator = true;
  }
  r.bm = bm;
  r.bn = bn;
  r.bk = bk;
  r.stages = stages;
  r.cluster_m = cluster_m;
  r.cluster_n = cluster_n;
  r.multicast_a = multicast_a;
  r.multicast_b = multicast_b;
  r.mcast_issue = IssueArg(multicast_issue);
  r.target = TargetArg(target);
  r.cta_group = cta_group;
  SwizzleArg(swizzle_a, "swizzle_a", &r.has_swizzle_a, &r.swizzle_a);
  SwizzleArg(swizzle_b, "swizzle_b", &r.has_swizzle_b, &r.swizzle_b);
  SwizzleArg(swizzle_cd, "swizzle_cd", &r.has_swizzle_cd, &r.swizzle_cd);
  r.math_warpgroups = warpgroups;
  r.epilogue = epilogue;
  absl::StatusOr<plan::GemmPlan> p = ops::RunPlanGemm(r);
  Check(p.status());
  return format == "text" ? plan::RenderGemmText(*p) : plan::RenderGemmJson(*p, false);
}

std::string PlanConv(int spatial, uint64_t n, uint64_t c, uint64_t k, uint64_t w, uint64_t h, uint64_t d, uint32_t s,
                     uint32_t r_, uint32_t t, uint32_t pad_w, uint32_t pad_h, uint32_t pad_d, uint32_t stride_w,
                     uint32_t stride_h, uint32_t stride_d, uint32_t dil_w, uint32_t dil_h, uint32_t dil_d,
                     const std::string& dtype, const std::string& out_type, uint32_t bm, uint32_t bn, uint32_t bk,
                     uint32_t stages, uint32_t cluster_m, uint32_t cluster_n, bool multicast_b,
                     const std::string& multicast_issue, const std::string& target, const std::string& swizzle,
                     const std::string& format) {
  plan::ConvRequest r;
  r.spatial = spatial;
  r.n = n;
  r.c = c;
  r.k = k;
  r.in = {w, h, d};
  r.filter = {s, r_, t};
  r.pad = {pad_w, pad_h, pad_d};
  r.stride = {stride_w, stride_h, stride_d};
  r.dilation = {dil_w, dil_h, dil_d};
  r.type = EnumArg<desc::ElemType>(dtype, "dtype");
  r.out_type = MapTypeArg(out_type, "out_type");
  r.bm = bm;
  r.bn = bn;
  r.bk = bk;
  r.stages = stages;
  r.cluster_m = cluster_m;
  r.cluster_n = cluster_n;
  r.multicast_b = multicast_b;
  r.mcast_issue = IssueArg(multicast_issue);
  r.target = TargetArg(target);
  SwizzleArg(swizzle, "swizzle", &r.has_swizzle, &r.swizzle);
  absl::StatusOr<plan::ConvPlan> p = ops::RunPlanConv(r);
  Check(p.status());
  return format == "text" ? plan::RenderConvText(*p) : plan::RenderConvJson(*p, false);
}

}  // namespace

void BindPlan(nb::module_& m) {
  m.def("_plan_gemm", &PlanGemm, "The GEMM plan as JSON or text (tmapgen.plan_gemm wraps it).");
  m.def("_plan_conv", &PlanConv, "The convolution plan as JSON or text (tmapgen.plan_conv wraps it).");
}

}  // namespace tmapgen::py
