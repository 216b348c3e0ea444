// plan_cmd.cc: tmapgen plan gemm (docs/plan.md).
#include "cli/plan_cmd.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/common_flags.h"
#include "src/ops/plan.h"
#include "src/plan/plan_codegen.h"
#include "src/plan/plan_render.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {

namespace {

const char* kPlanUsage =
    "usage: tmapgen plan gemm --m M --n N --k K [--tile BMxBNxBK] [--dtype T | --a-type T --b-type T]\n"
    "                         [--a-major k|mn] [--b-major k|mn] [--cluster MxN] [--multicast a|b|ab|none]\n"
    "                         [--stages N|auto] [--target sm_90a|sm_100a] [--format text|json] ...\n"
    "       tmapgen plan conv --n N --c C --k K --h H --w W [--d D] --r R --s S [--t T] [--pad P] [--stride S]\n"
    "                         [--dilation L] [--dtype T] [--tile BMxBNxBK] [--cluster MxN --multicast b] ...\n";

const char* kConvHelp =
    "\nPlans a forward convolution as an implicit GEMM (channels last: NHWC activations, KRSC filter, NPQK output):\n"
    "the im2col map with its corners and traversal strides, the filter map, the coordinates of a tile and the\n"
    "im2col offsets of every filter tap, and the plan of the equivalent GEMM (docs/plan.md).\n"
    "  --n N, --c C, --k K                 images, input channels, output channels\n"
    "  --h H, --w W, --d D                 input size (--d makes it 3D: NDHWC)\n"
    "  --r R, --s S, --t T                 filter size (--t for 3D)\n"
    "  --pad P, --stride S, --dilation L   one value for every dimension, or one per dimension outermost first\n"
    "                                      (h,w or d,h,w); padding is the same before and after\n"
    "  --dtype T                           bf16 f16 tf32 e4m3 e5m2 s8 u8 (default bf16); --out-type T (default bf16)\n"
    "  --tile BMxBNxBK                     output pixels x output channels x channels of one tap (default 128x128x64)\n"
    "  --stages N|auto, --cluster MxN, --multicast b|none, --multicast-issue slice|leader, --swizzle S,\n"
    "  --target T, --format text|json|cpp, --pretty, --namespace NS\n"
    "\nexit status: 0 valid plan, 1 invalid plan, 2 bad usage\n";

const char* kPlanHelp =
    "\nPlans a GEMM tile D = A x B (+ C): every tensor map, the shared-memory plan, the copies and barrier counts\n"
    "of each CTA of the cluster, the matrix descriptors of every K step, the MMA instruction and the edge tiles,\n"
    "each checked (docs/plan.md). A is M x K, B is N x K (K-major: K contiguous).\n"
    "\nproblem:\n"
    "  --m M, --n N, --k K                 the problem (default 4096 each)\n"
    "  --dtype T                           A and B type: bf16 f16 tf32 e4m3 e5m2 s8 u8 (default bf16)\n"
    "  --a-type T, --b-type T              A's and B's types apart\n"
    "  --a-major k|mn, --b-major k|mn      which dimension is contiguous in global memory (default k)\n"
    "  --lda N, --ldb N, --ldc N, --ldd N  elements between rows (default dense)\n"
    "  --d-type T, --c-type T              D's type (default bf16); --c-type also plans a C load (beta != 0)\n"
    "  --cd-layout row|col                 C and D row-major (N contiguous, default) or column-major\n"
    "  --accumulator f32|f16|s32           (default f32; s32 for s8/u8)\n"
    "tile and pipeline:\n"
    "  --tile BMxBNxBK                     per CTA (default 128x128x64); or --bm, --bn, --bk\n"
    "  --stages N|auto                     pipeline stages (default auto: as many as fit)\n"
    "  --swizzle-a S, --swizzle-b S, --swizzle-cd S\n"
    "                                      none 32B 64B 128B, or widest (default: the widest that fits)\n"
    "  --warpgroups N                      wgmma consumer warpgroups splitting BM (default BM/64, at most 2)\n"
    "  --no-epilogue                       no D store buffer and map\n"
    "cluster:\n"
    "  --cluster MxN                       cluster_m x cluster_n CTAs (default 1x1)\n"
    "  --multicast a|b|ab|none             multicast A (along the cluster's N) and/or B (along its M)\n"
    "  --multicast-issue slice|leader      every CTA issues a slice (CUTLASS, default) or the first issues all (DeepGEMM)\n"
    "target:\n"
    "  --target T                          sm_90a (wgmma) or an sm_100a-family target (tcgen05; modelled, not run)\n"
    "  --cta-group 1|2                     tcgen05: 2-CTA MMA over CTA pairs along M\n"
    "output:\n"
    "  --format text|json|cpp              (default text); --pretty indents the JSON; cpp: the generated header of a\n"
    "                                      valid plan (every map's Encode() and constants, and namespace plan::)\n"
    "  --namespace NS                      the generated header's namespace (default tmapgen_plan)\n"
    "\nexit status: 0 valid plan, 1 invalid plan, 2 bad usage\n";

struct Flag {
  std::string_view name;
  bool takes_value;
};

// A planner message names a request field ("cluster_m: ..."); the user typed a flag. The flag of the same name
// (underscores as dashes) when there is one, else the flag that sets the field.
std::string FlagMessage(std::string_view message, const std::vector<Flag>& flags) {
  const size_t colon = message.find(':');
  if (colon == std::string_view::npos) return std::string(message);
  std::string field(message.substr(0, colon));
  for (char& c : field)
    if (c == '_') c = '-';
  bool known = false;
  for (const Flag& f : flags) known = known || f.name == field;
  if (!known) {
    static const std::pair<std::string_view, std::string_view> kSetBy[] = {
        {"cluster-m", "cluster"}, {"cluster-n", "cluster"}, {"math-warpgroups", "warpgroups"},
        {"bm", "tile"},           {"bn", "tile"},           {"bk", "tile"},
        {"spatial", "d"},         {"mcast-issue", "multicast-issue"}};
    for (const auto& [from, to] : kSetBy)
      if (field == from) field = std::string(to);
  }
  return StrCat("--", field, message.substr(colon));
}

const std::vector<Flag>& GemmFlags() {
  static const std::vector<Flag> f = {
      {"m", true},           {"n", true},           {"k", true},          {"dtype", true},       {"a-type", true},
      {"b-type", true},      {"a-major", true},     {"b-major", true},    {"lda", true},         {"ldb", true},
      {"ldc", true},         {"ldd", true},         {"d-type", true},     {"c-type", true},      {"cd-layout", true},
      {"accumulator", true}, {"tile", true},        {"bm", true},         {"bn", true},          {"bk", true},
      {"stages", true},      {"swizzle-a", true},   {"swizzle-b", true},  {"swizzle-cd", true},  {"warpgroups", true},
      {"no-epilogue", false}, {"cluster", true},    {"multicast", true},  {"multicast-issue", true},
      {"target", true},      {"cta-group", true},   {"format", true},     {"pretty", false},     {"help", false},
      {"h", false},          {"namespace", true},
  };
  return f;
}

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

absl::Status Uint(std::string_view flag, std::string_view v, uint64_t* out) {
  auto r = std::from_chars(v.data(), v.data() + v.size(), *out);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size())
    return Bad(StrCat("--", flag, ": expected an unsigned integer, got \"", v, "\""));
  return absl::OkStatus();
}
absl::Status U32(std::string_view flag, std::string_view v, uint32_t* out) {
  uint64_t x = 0;
  if (absl::Status st = Uint(flag, v, &x); !st.ok()) return st;
  if (x > UINT32_MAX) return Bad(StrCat("--", flag, ": ", v, " is out of range"));
  *out = static_cast<uint32_t>(x);
  return absl::OkStatus();
}

// "AxB" or "AxBxC" (x or comma).
absl::Status Dims(std::string_view flag, std::string_view v, uint32_t* out, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t end = i + 1 < n ? v.find_first_of("x,", at) : v.size();
    if (end == std::string_view::npos)
      return Bad(StrCat("--", flag, ": expected ", n == 3 ? "BMxBNxBK" : "MxN", ", got \"", v, "\""));
    if (absl::Status st = U32(flag, v.substr(at, end - at), &out[i]); !st.ok()) return st;
    at = end + 1;
  }
  return absl::OkStatus();
}

template <typename E>
absl::Status Enum(std::string_view flag, std::string_view v, E* out) {
  if (desc::Parse(v, out)) return absl::OkStatus();
  const std::string why = std::is_same_v<E, desc::ElemType> ? desc::RefusedElemType(v) : std::string();
  if (!why.empty()) return Bad(StrCat("--", flag, ": ", why));
  return Bad(StrCat("--", flag, ": unknown value \"", v, "\"; expected one of: ",
                    desc::AcceptedNames(static_cast<E*>(nullptr))));
}

absl::Status Swz(std::string_view flag, std::string_view v, bool* has, desc::DescSwizzle* out) {
  if (v == "widest" || v == "auto") {
    *has = false;
    return absl::OkStatus();
  }
  *has = true;
  return Enum(flag, v, out);
}

absl::Status MapType(std::string_view flag, std::string_view v, DataType* out) {
  if (tmapgen::Parse(v, out)) return absl::OkStatus();
  return Bad(StrCat("--", flag, ": unknown value \"", v, "\"; expected f16, bf16, f32 or s32"));
}

}  // namespace

absl::Status ParsePlanGemmArgs(const std::vector<std::string>& args, PlanGemmArgs* out) {
  *out = PlanGemmArgs();
  plan::GemmRequest& r = out->request;
  std::vector<std::pair<std::string, std::string>> items;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') return Bad(StrCat("unexpected argument \"", a, "\""));
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name)
      if (c == '_') c = '-';
    const Flag* def = nullptr;
    for (const Flag& f : GemmFlags())
      if (f.name == name) def = &f;
    if (def == nullptr) {
      std::vector<std::string_view> names;
      for (const Flag& f : GemmFlags()) names.push_back(f.name);
      return Bad(StrCat("unknown flag ", a, DidYouMean(name, names, "--")));
    }
    if (def->takes_value && !has_value) {
      if (i + 1 >= args.size()) return Bad(StrCat("--", name, " needs a value"));
      value = args[++i];
    } else if (!def->takes_value && has_value) {
      return Bad(StrCat("--", name, " takes no value"));
    }
    items.emplace_back(name, value);
  }
  for (const auto& [f, v] : items) {
    if (f == "help" || f == "h") out->help = true;
    else if (f == "m") { if (absl::Status st = Uint(f, v, &r.m); !st.ok()) return st; }
    else if (f == "n") { if (absl::Status st = Uint(f, v, &r.n); !st.ok()) return st; }
    else if (f == "k") { if (absl::Status st = Uint(f, v, &r.k); !st.ok()) return st; }
    else if (f == "dtype") {
      if (absl::Status st = Enum(f, v, &r.a_type); !st.ok()) return st;
      r.b_type = r.a_type;
    }
    else if (f == "a-type") { if (absl::Status st = Enum(f, v, &r.a_type); !st.ok()) return st; }
    else if (f == "b-type") { if (absl::Status st = Enum(f, v, &r.b_type); !st.ok()) return st; }
    else if (f == "a-major") { if (absl::Status st = Enum(f, v, &r.a_major); !st.ok()) return st; }
    else if (f == "b-major") { if (absl::Status st = Enum(f, v, &r.b_major); !st.ok()) return st; }
    else if (f == "lda") { if (absl::Status st = Uint(f, v, &r.lda); !st.ok()) return st; }
    else if (f == "ldb") { if (absl::Status st = Uint(f, v, &r.ldb); !st.ok()) return st; }
    else if (f == "ldc") { if (absl::Status st = Uint(f, v, &r.ldc); !st.ok()) return st; }
    else if (f == "ldd") { if (absl::Status st = Uint(f, v, &r.ldd); !st.ok()) return st; }
    else if (f == "d-type") { if (absl::Status st = MapType(f, v, &r.d_type); !st.ok()) return st; }
    else if (f == "c-type") {
      if (absl::Status st = MapType(f, v, &r.c_type); !st.ok()) return st;
      r.has_c = true;
    }
    else if (f == "cd-layout") {
      if (!plan::Parse(v, &r.cd_layout)) return Bad(StrCat("--cd-layout: expected row or col, got \"", v, "\""));
    }
    else if (f == "accumulator") {
      if (!desc::Parse(v, &r.accumulator)) return Bad(StrCat("--accumulator: expected f32, f16 or s32, got \"", v, "\""));
      r.has_accumulator = true;
    }
    else if (f == "tile") {
      uint32_t t[3];
      if (absl::Status st = Dims(f, v, t, 3); !st.ok()) return st;
      r.bm = t[0];
      r.bn = t[1];
      r.bk = t[2];
    }
    else if (f == "bm") { if (absl::Status st = U32(f, v, &r.bm); !st.ok()) return st; }
    else if (f == "bn") { if (absl::Status st = U32(f, v, &r.bn); !st.ok()) return st; }
    else if (f == "bk") { if (absl::Status st = U32(f, v, &r.bk); !st.ok()) return st; }
    else if (f == "stages") {
      if (v == "auto") r.stages = 0;
      else if (absl::Status st = U32(f, v, &r.stages); !st.ok()) return st;
      else if (r.stages == 0) return Bad("--stages: give at least 1, or auto");
    }
    else if (f == "swizzle-a") { if (absl::Status st = Swz(f, v, &r.has_swizzle_a, &r.swizzle_a); !st.ok()) return st; }
    else if (f == "swizzle-b") { if (absl::Status st = Swz(f, v, &r.has_swizzle_b, &r.swizzle_b); !st.ok()) return st; }
    else if (f == "swizzle-cd") { if (absl::Status st = Swz(f, v, &r.has_swizzle_cd, &r.swizzle_cd); !st.ok()) return st; }
    else if (f == "warpgroups") { if (absl::Status st = U32(f, v, &r.math_warpgroups); !st.ok()) return st; }
    else if (f == "no-epilogue") r.epilogue = false;
    else if (f == "cluster") {
      uint32_t c[2];
      if (absl::Status st = Dims(f, v, c, 2); !st.ok()) return st;
      r.cluster_m = c[0];
      r.cluster_n = c[1];
    }
    else if (f == "multicast") {
      if (v == "a") { r.multicast_a = true; r.multicast_b = false; }
      else if (v == "b") { r.multicast_a = false; r.multicast_b = true; }
      else if (v == "ab" || v == "both") { r.multicast_a = r.multicast_b = true; }
      else if (v == "none") { r.multicast_a = r.multicast_b = false; }
      else return Bad(StrCat("--multicast: expected a, b, ab or none, got \"", v, "\""));
    }
    else if (f == "multicast-issue") {
      if (!plan::Parse(v, &r.mcast_issue)) return Bad(StrCat("--multicast-issue: expected slice or leader, got \"", v, "\""));
    }
    else if (f == "target") {
      if (!tmapgen::Parse(v, &r.target))
        return Bad(StrCat("--target: unknown value \"", v, "\"; expected one of: ",
                          tmapgen::AcceptedNames(static_cast<Target*>(nullptr))));
    }
    else if (f == "cta-group") {
      uint32_t g = 0;
      if (absl::Status st = U32(f, v, &g); !st.ok()) return st;
      r.cta_group = static_cast<int>(g);
    }
    else if (f == "format") {
      out->json = v == "json";
      out->cpp = v == "cpp";
      if (v != "json" && v != "text" && v != "cpp")
        return Bad(StrCat("--format: expected text, json or cpp, got \"", v, "\""));
    }
    else if (f == "namespace") out->name_space = v;
    else if (f == "pretty") out->pretty = true;
  }
  if (out->help) return absl::OkStatus();
  const absl::Status st = plan::CheckGemmRequest(r);
  if (!st.ok()) return Bad(FlagMessage(StatusMessage(st), GemmFlags()));
  return absl::OkStatus();
}

namespace {

const std::vector<Flag>& ConvFlags() {
  static const std::vector<Flag> f = {
      {"n", true},        {"c", true},       {"k", true},          {"h", true},      {"w", true},
      {"d", true},        {"r", true},       {"s", true},          {"t", true},      {"pad", true},
      {"stride", true},   {"dilation", true}, {"dtype", true},     {"out-type", true}, {"tile", true},
      {"stages", true},   {"cluster", true}, {"multicast", true},  {"multicast-issue", true},
      {"swizzle", true},  {"target", true},  {"format", true},     {"pretty", false}, {"help", false},
      {"namespace", true},
  };
  return f;
}

// One value for every dimension, or one per dimension outermost first (h,w or d,h,w); stored W first.
absl::Status PerDim(std::string_view flag, std::string_view v, int spatial, std::array<uint32_t, 3>* out) {
  std::vector<uint32_t> vals;
  size_t at = 0;
  while (true) {
    const size_t end = v.find(',', at);
    uint32_t x = 0;
    const std::string_view item = v.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (absl::Status st = U32(flag, item, &x); !st.ok()) return st;
    vals.push_back(x);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  if (vals.size() == 1) {
    for (int i = 0; i < spatial; ++i) (*out)[static_cast<size_t>(i)] = vals[0];
    return absl::OkStatus();
  }
  if (vals.size() != static_cast<size_t>(spatial))
    return Bad(StrCat("--", flag, ": expected 1 or ", spatial, " values (", spatial == 2 ? "h,w" : "d,h,w", "), got ",
                      vals.size()));
  for (int i = 0; i < spatial; ++i) (*out)[static_cast<size_t>(i)] = vals[vals.size() - 1 - static_cast<size_t>(i)];
  return absl::OkStatus();
}

absl::Status SplitFlags(const std::vector<std::string>& args, const std::vector<Flag>& defs,
                        std::vector<std::pair<std::string, std::string>>* items) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') return Bad(StrCat("unexpected argument \"", a, "\""));
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name)
      if (c == '_') c = '-';
    const Flag* def = nullptr;
    for (const Flag& f : defs)
      if (f.name == name) def = &f;
    if (def == nullptr) {
      std::vector<std::string_view> names;
      for (const Flag& f : defs) names.push_back(f.name);
      return Bad(StrCat("unknown flag ", a, DidYouMean(name, names, "--")));
    }
    if (def->takes_value && !has_value) {
      if (i + 1 >= args.size()) return Bad(StrCat("--", name, " needs a value"));
      value = args[++i];
    } else if (!def->takes_value && has_value) {
      return Bad(StrCat("--", name, " takes no value"));
    }
    items->emplace_back(name, value);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParsePlanConvArgs(const std::vector<std::string>& args, PlanConvArgs* out) {
  *out = PlanConvArgs();
  plan::ConvRequest& r = out->request;
  std::vector<std::pair<std::string, std::string>> items;
  if (absl::Status st = SplitFlags(args, ConvFlags(), &items); !st.ok()) return st;
  for (const auto& [f, v] : items)
    if (f == "d" || f == "t") r.spatial = 3;
  if (r.spatial == 3) {
    r.in[2] = 1;
    r.filter[2] = 1;
    r.pad[2] = 0;
  }
  for (const auto& [f, v] : items) {
    uint64_t x = 0;
    if (f == "help") out->help = true;
    else if (f == "n") { if (absl::Status st = Uint(f, v, &r.n); !st.ok()) return st; }
    else if (f == "c") { if (absl::Status st = Uint(f, v, &r.c); !st.ok()) return st; }
    else if (f == "k") { if (absl::Status st = Uint(f, v, &r.k); !st.ok()) return st; }
    else if (f == "w" || f == "h" || f == "d") {
      if (absl::Status st = Uint(f, v, &x); !st.ok()) return st;
      r.in[f == "w" ? 0 : f == "h" ? 1 : 2] = x;
    }
    else if (f == "s" || f == "r" || f == "t") {
      if (absl::Status st = Uint(f, v, &x); !st.ok()) return st;
      if (x > 255) return Bad(StrCat("--", f, ": ", v, " is more than 255"));
      r.filter[f == "s" ? 0 : f == "r" ? 1 : 2] = static_cast<uint32_t>(x);
    }
    else if (f == "pad") { if (absl::Status st = PerDim(f, v, r.spatial, &r.pad); !st.ok()) return st; }
    else if (f == "stride") { if (absl::Status st = PerDim(f, v, r.spatial, &r.stride); !st.ok()) return st; }
    else if (f == "dilation") { if (absl::Status st = PerDim(f, v, r.spatial, &r.dilation); !st.ok()) return st; }
    else if (f == "dtype") { if (absl::Status st = Enum(f, v, &r.type); !st.ok()) return st; }
    else if (f == "out-type") { if (absl::Status st = MapType(f, v, &r.out_type); !st.ok()) return st; }
    else if (f == "tile") {
      uint32_t t[3];
      if (absl::Status st = Dims(f, v, t, 3); !st.ok()) return st;
      r.bm = t[0];
      r.bn = t[1];
      r.bk = t[2];
    }
    else if (f == "stages") {
      if (v == "auto") r.stages = 0;
      else if (absl::Status st = U32(f, v, &r.stages); !st.ok()) return st;
      else if (r.stages == 0) return Bad("--stages: give at least 1, or auto");
    }
    else if (f == "cluster") {
      uint32_t c[2];
      if (absl::Status st = Dims(f, v, c, 2); !st.ok()) return st;
      r.cluster_m = c[0];
      r.cluster_n = c[1];
    }
    else if (f == "multicast") {
      if (v == "b") r.multicast_b = true;
      else if (v == "none") r.multicast_b = false;
      else return Bad(StrCat("--multicast: expected b (the filter) or none, got \"", v, "\"",
                             v == "a" || v == "ab" ? " (an im2col walk cannot be split into slices)" : ""));
    }
    else if (f == "multicast-issue") {
      if (!plan::Parse(v, &r.mcast_issue)) return Bad(StrCat("--multicast-issue: expected slice or leader, got \"", v, "\""));
    }
    else if (f == "swizzle") { if (absl::Status st = Swz(f, v, &r.has_swizzle, &r.swizzle); !st.ok()) return st; }
    else if (f == "target") {
      if (!tmapgen::Parse(v, &r.target))
        return Bad(StrCat("--target: unknown value \"", v, "\"; expected one of: ",
                          tmapgen::AcceptedNames(static_cast<Target*>(nullptr))));
    }
    else if (f == "format") {
      out->json = v == "json";
      out->cpp = v == "cpp";
      if (v != "json" && v != "text" && v != "cpp")
        return Bad(StrCat("--format: expected text, json or cpp, got \"", v, "\""));
    }
    else if (f == "namespace") out->name_space = v;
    else if (f == "pretty") out->pretty = true;
  }
  if (out->help) return absl::OkStatus();
  const absl::Status st = plan::CheckConvRequest(r);
  if (!st.ok()) return Bad(FlagMessage(StatusMessage(st), ConvFlags()));
  return absl::OkStatus();
}

namespace {

// One plan command after its name: parse its flags, answer --help, run it, and write the header (--format cpp),
// the JSON or the text. Exit status: 0 written and valid, 1 an invalid plan, 2 bad usage.
template <class Args, class Parse, class Run, class Header, class Text, class Json>
int RunOnePlan(const char* kind, const std::vector<std::string>& args, const char* help, Parse parse, Run run,
               Header header, Text text, Json json, std::string* out, std::string* err) {
  Args a;
  if (const absl::Status st = parse(args, &a); !st.ok()) {
    *err += StrCat("tmapgen: plan ", kind, ": ", StatusMessage(st), "\n", HelpHint("plan"));
    return 2;
  }
  if (a.help) {
    *out += kPlanUsage;
    *out += help;
    return 0;
  }
  auto got = run(a.request);
  if (!got.ok()) {
    *err += StrCat("tmapgen: plan ", kind, ": --", StatusMessage(got.status()), "\n", HelpHint("plan"));
    return 2;
  }
  const auto& p = *got;
  if (a.cpp) {
    const absl::StatusOr<std::string> h = header(p, a.name_space);
    if (!h.ok()) {
      *err += text(p) + StrCat("tmapgen: plan ", kind, ": ", StatusMessage(h.status()), "\n");
      return 1;
    }
    *out += *h;
    return 0;
  }
  *out += a.json ? json(p, a.pretty) : text(p);
  return p.valid ? 0 : 1;
}

}  // namespace

int RunPlanCommandTo(const std::vector<std::string>& args_in, std::string* out, std::string* err) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "plan") args.erase(args.begin());
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    *(args.empty() ? err : out) += kPlanUsage;
    if (args.empty()) return 2;
    *out += kPlanHelp;
    return 0;
  }
  const std::string sub = args[0];
  args.erase(args.begin());
  if (sub == "conv") {
    return RunOnePlan<PlanConvArgs>(
        "conv", args, kConvHelp, ParsePlanConvArgs, ops::RunPlanConv, plan::GenerateConvHeader,
        [](const plan::ConvPlan& p) { return plan::RenderConvText(p); },
        [](const plan::ConvPlan& p, bool pretty) { return plan::RenderConvJson(p, pretty); }, out, err);
  }
  if (sub != "gemm") {
    *err += StrCat("tmapgen: plan: unknown plan \"", sub, "\"", DidYouMean(sub, {"gemm", "conv"}, ""), "\n",
                   HelpHint("plan"));
    return 2;
  }
  return RunOnePlan<PlanGemmArgs>(
      "gemm", args, kPlanHelp, ParsePlanGemmArgs, ops::RunPlanGemm, plan::GeneratePlanHeader,
      [](const plan::GemmPlan& p) { return plan::RenderGemmText(p); },
      [](const plan::GemmPlan& p, bool pretty) { return plan::RenderGemmJson(p, pretty); }, out, err);
}

int RunPlanCommand(const std::vector<std::string>& args) {
  std::string out, err;
  const int rc = RunPlanCommandTo(args, &out, &err);
  if (!out.empty()) std::fwrite(out.data(), 1, out.size(), stdout);
  if (!err.empty()) std::fwrite(err.data(), 1, err.size(), stderr);
  std::fflush(stdout);
  return rc;
}

}  // namespace tmapgen::cli
