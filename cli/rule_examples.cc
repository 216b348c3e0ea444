#include "cli/rule_examples.h"

#include <simdjson.h>

#include <utility>

#include "cli/common_flags.h"
#include "cli/desc_cmd.h"
#include "cli/spec_flags.h"
#include "src/report/report.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

struct Example {
  std::string_view id;
  std::string_view command;
};

// Checked by tests/cli/rules_cmd_test.cc: each command trips its rule.
constexpr Example kExamples[] = {
    {"rank-range", ""},  // every reader refuses tensor_rank outside 1..5 before validating
    {"im2col-rank", "--mode im2col --dims 64,56 --channels 64 --pixels 128"},
    {"interleave-rank", "--dims 4096,4096 --interleave 16B --swizzle none"},
    {"gather4-rank", "--mode gather4 --dims 64,64,4 --box 64,1,1"},
    {"global-dim-range", "--dims 0,64 --box 1,64 --swizzle none"},
    {"global-dim-packed", "--dtype 16u4_align16b --dims 100,64 --box 128,64 --target sm_100a"},
    {"global-stride-align-16", "--dims 4096,4096 --strides 8200"},
    {"global-stride-align-32", "--dtype 16u4_align16b --dims 4096,64 --strides 2064 --box 128,64 --target sm_100a"},
    {"global-stride-max", "--dims 64,4 --strides 1099511627776 --box 64,4"},
    {"global-stride-overlap", "--dims 4096,4096 --strides 4096"},
    {"global-address-align-16", "--global-address 0x1008"},
    {"global-address-align-32", "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --global-address 0x1010 --target sm_100a"},
    {"global-address-align-128-swizzle", "--global-address 0x1040"},
    {"box-dim-range", "--box 64,300"},
    {"box-inner-bytes-16", "--box 60,128 --swizzle none"},
    {"box-packed-128", "--dtype 16u4_align16b --dims 4096,64 --box 64,64 --target sm_100a"},
    {"box-exceeds-tensor", "--dims 32,4096 --box 64,128 --swizzle none"},
    {"gather4-box-rows", "--mode gather4 --box 64,4"},
    {"element-stride-range", "--element-strides 1,9"},
    {"element-stride-dim0", "--element-strides 2,1"},
    {"swizzle-inner-span", "--box 128,64"},
    {"swizzle-inner-below-span", "--box 32,64"},
    {"interleave-32b-swizzle", "--dims 64,64,8 --box 64,8,2 --interleave 32B --swizzle 128B"},
    {"interleave-mode", "--mode gather4 --interleave 16B --swizzle none"},
    {"packed-u6-interleave", "--dtype 16u6_align16b --dims 4096,64,4 --box 128,64,1 --interleave 16B --swizzle none --target sm_100a"},
    {"packed-swizzle", "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --swizzle 64B --target sm_100a"},
    {"packed-direction", "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --direction store --target sm_100a"},
    {"oob-nan-float", "--dtype u32 --box 32,128 --oob nan"},
    {"im2col-lower-corner-range", "--mode im2col --lower-corner -200,-1"},
    {"im2col-upper-corner-range", "--mode im2col --upper-corner 200,-1"},
    {"im2col-box-area", "--mode im2col --dims 64,4,56,32 --lower-corner 2,-1 --upper-corner -3,-1"},
    {"im2col-interleave-box-area", "--mode im2col --dims 64,56,56,32 --interleave 16B --swizzle none --lower-corner 70,0 --upper-corner 0,0"},
    {"im2col-spatial-dim-int32", "--mode im2col --rank 3 --dims 64,2147483647,2 --lower-corner -1 --upper-corner 1 --swizzle none"},
    {"im2col-channels-range", "--mode im2col --channels 300 --swizzle none"},
    {"im2col-channels-bytes-16", "--mode im2col --channels 60 --swizzle none"},
    {"im2col-pixels-range", "--mode im2col --pixels 2000"},
    {"wide-lower-corner-range", "--mode im2col::w --lower-corner-w -200"},
    {"wide-upper-corner-range", "--mode im2col::w --upper-corner-w 200"},
    {"wide-box-area", "--mode im2col::w --dims 64,4,56,32 --lower-corner-w 3 --upper-corner-w -3"},
    {"wide-swizzle", "--mode im2col::w --swizzle 32B --channels 16"},
    {"wide-mode-mismatch", "--mode im2col::w --wide-mode w128"},
    {"wide-w128-pixels", "--mode im2col::w::128 --pixels 64"},
    {"im2col-store-corners", "--mode im2col --direction store"},
    {"mode-direction", "--mode gather4 --direction store"},
    {"swizzle-flip8b-load-only", "--swizzle 128B_atom_32B_flip_8B --direction store --target sm_100a"},
    {"reduce-op-type", "--direction reduce --reduce-op xor"},
    {"store-past-row-end", "--dtype u8 --dims 466,64 --strides 480 --box 64,64 --swizzle none --direction store"},
    {"target-swizzle-atomicity", "--swizzle 128B_atom_32B --target sm_90a"},
    {"target-sub-byte", "--dtype 16u4_align8b --box 128,64 --target sm_90a"},
    {"target-mode", "--mode gather4 --target sm_90a"},
    {"target-sm120-cluster", "--swizzle 128B_atom_32B --direction load_cluster --target sm_120a"},
    {"target-smem-capacity", "--dtype f32 --box 256,256 --swizzle none --direction load"},
    {"box-driver-size-limit", "--dtype f32 --box 256,256 --swizzle none --direction prefetch"},
    {"smem-align-128", "--smem-address 0x40"},
    {"smem-swizzle-phase", "--smem-address 0x80"},
    {"driver-version", "--driver-version 11080"},
    {"driver-oob-address-bug", "--dims 64,64 --strides 256 --box 64,64 --driver-version 13000 --target sm_100a"},
    {"unused-field", "--channels 64"},
    {"desc-layout-type-invalid", "desc decode 0x6000004000010040 --arch tcgen05"},
    {"desc-tcgen05-version", "desc decode 0x4000004000010040 --arch tcgen05"},
    {"desc-tcgen05-fixed-zero", "desc decode 0x4160404000010040 --arch tcgen05"},
    {"desc-reserved-bits", "desc decode 0x400040400001c040 --arch tcgen05"},
    {"desc-base-offset-no-swizzle", "desc decode 0x0002404000010040 --arch tcgen05"},
    {"desc-base-offset-range", "desc decode 0x800e404000010040 --arch tcgen05"},
    {"desc-arch-target", "desc tcgen05 --target sm_90a"},
    {"desc-lbo-absolute-target", "desc tcgen05 --lbo-mode absolute --lbo 0x400 --target sm_100a"},
    {"desc-lbo-absolute-swizzle", "desc tcgen05 --lbo-mode absolute --lbo 0x400 --swizzle 64B --target sm_103a"},
    {"desc-lbo-absolute-base-offset", "desc tcgen05 --lbo-mode absolute --lbo 0x400 --base-offset 1 --smem-address 0x80 --target sm_103a"},
    {"desc-sbo-zero", "desc decode 0x4000000000010040 --arch tcgen05"},
    {"desc-start-align-16", "desc tcgen05 --smem-address 0x408"},
    {"desc-lbo-align-16", "desc tcgen05 --swizzle none --lbo 24"},
    {"desc-sbo-align-16", "desc tcgen05 --sbo 1032"},
    {"desc-start-range", "desc tcgen05 --smem-address 0x40000"},
    {"desc-lbo-range", "desc tcgen05 --swizzle none --lbo 0x40000"},
    {"desc-sbo-range", "desc tcgen05 --sbo 0x40000"},
    {"desc-base-offset-mismatch", "desc tcgen05 --smem-address 0x480 --base-offset 0"},
    {"desc-start-swizzle-phase", "desc tcgen05 --smem-address 0x480"},
    {"desc-wgmma-swizzle", "desc wgmma --swizzle 128B_atom_32B --dtype tf32"},
    {"desc-wgmma-type", "desc wgmma --dtype e2m1"},
    {"desc-wgmma-mn-major-type", "desc wgmma --major MN --dtype e4m3"},
    {"desc-k-major-atom32", "desc tcgen05 --swizzle 128B_atom_32B --dtype bf16"},
    {"desc-mn-major-sub-byte", "desc tcgen05 --major MN --dtype e2m1"},
    {"desc-mn-major-tf32-swizzle", "desc tcgen05 --major MN --dtype tf32 --swizzle 32B"},
    {"desc-atom32-type", "desc tcgen05 --major MN --swizzle 128B_atom_32B --dtype bf16"},
    {"desc-tile-mn", "desc tcgen05 --tile 100,64"},
    {"desc-tile-k", "desc tcgen05 --tile 128,20"},
    {"desc-tile-k-step", "desc tcgen05 --tile 128,8"},
    {"desc-tile-k-atoms", "desc tcgen05 --tile 128,128"},
    {"desc-lbo-unused", "desc tcgen05 --lbo 512"},
    {"desc-lbo-canonical", "desc tcgen05 --swizzle none --lbo 4096"},
    {"desc-sbo-canonical", "desc tcgen05 --sbo 2048"},
    {"desc-lbo-absolute-major", "desc tcgen05 --lbo-mode absolute --lbo 0x400 --major MN --target sm_103a"},
    {"desc-smem-capacity", "desc tcgen05 --tile 256,256 --smem-address 0x30000"},
    {"desc-stride-zero", "desc tcgen05 --swizzle none --lbo 0"},
    {"desc-advance-align-16", "desc tcgen05 --swizzle none --tile 64,64 --dtype e2m1 --sub-tile 0,1"},
    {"desc-advance-base-offset", "desc tcgen05 --tile 128,64 --sub-tile 1,0"},
    {"desc-advance-range", "desc tcgen05 --tile 128,128 --smem-address 0x3c000 --k-slice 4"},
    {"desc-advance-outside-tile", "desc tcgen05 --tile 128,64 --sub-tile 200,0"},
    {"map-interleave", "desc tcgen05 --for-map {\"tensor_data_type\":\"f16\",\"global_dim\":[64,64,4],\"box_dim\":[64,64,2],\"interleave\":\"16B\",\"swizzle\":\"none\"}"},
    {"map-swizzle-unsupported", "desc wgmma --for-map {\"tensor_data_type\":\"f32\",\"global_dim\":[64,64],\"box_dim\":[32,64],\"swizzle\":\"128B_atom_32B\"}"},
    {"map-dtype", "desc tcgen05 --for-map {\"tensor_data_type\":\"f64\",\"global_dim\":[64,64],\"box_dim\":[16,64],\"swizzle\":\"128B\"}"},
    {"map-type-bits", "desc tcgen05 --dtype f16 --for-map {\"tensor_data_type\":\"f32\",\"global_dim\":[64,64],\"box_dim\":[32,64],\"swizzle\":\"128B\"}"},
    {"map-box-wider-than-atom", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[256,64],\"box_dim\":[128,64],\"swizzle\":\"none\"}"},
    {"map-box-narrower-than-atom", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[256,64],\"box_dim\":[32,64],\"swizzle\":\"128B\"}"},
    {"map-dst-align-128", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":64}"},
    {"map-dst-phase", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1152}"},
    {"map-layout-encoding", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x2000404000010040"},
    {"map-swizzle-mismatch", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x8000404000010040"},
    {"map-atomicity-mismatch", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x2000404000010040"},
    {"map-lbo-mismatch", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[8,128],\"swizzle\":\"none\",\"smem_address\":1024} --check 0x0000400800400040"},
    {"map-sbo-mismatch", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000408000010040"},
    {"map-base-offset-mismatch", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4002404000010040"},
    {"map-start-outside", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000404000010010"},
    {"map-start-offset", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000404000010041"},
    {"map-chunks-disagree", "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000402000010040"},
    {"idesc-variant", "idesc --kind mxf4 --ws"},
    {"idesc-m", "idesc --m 100"},
    {"idesc-n", "idesc --n 260"},
    {"idesc-a-tmem-transpose", "idesc --a-source tmem --a-major MN"},
    {"idesc-k96", "idesc --kind mxf4nvf4 --k 96 --target sm_103a"},
    {"idesc-d-type", "idesc --kind i8 --d-type f32"},
    {"idesc-ab-type", "idesc decode 0x08401c10 --kind tf32"},
    {"idesc-ab-type-match", "idesc --a-type f16 --b-type bf16"},
    {"idesc-negate-i8", "idesc --kind i8 --negate-a"},
    {"idesc-saturate", "idesc --saturate"},
    {"idesc-transpose-kind", "idesc --kind mxf4 --m 128 --a-major MN"},
    {"idesc-transpose-type", "idesc --kind f8f6f4 --a-type e2m1 --a-major MN"},
    {"idesc-transpose-n", "idesc --kind f8f6f4 --b-major MN --n 24"},
    {"idesc-sparse-selector", "idesc --sparse-selector 1"},
    {"idesc-max-shift", "idesc --max-shift 8"},
    {"idesc-scale-type", "idesc --kind mxf4 --m 128 --scale-type ue4m3"},
    {"idesc-sf-id", "idesc --kind mxf4 --m 128 --a-sf-id 1"},
    {"idesc-reserved", "idesc decode 0x084004d0 --kind f16"},
    {"idesc-target", "idesc --kind i8 --target sm_103a"},
};

// The diagnostic of `id` in the JSON report of a desc/idesc command (top-level "diagnostics").
bool FindInDescJson(const std::string& json, std::string_view id, ExampleResult* r) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc)) return false;
  simdjson::dom::array diags;
  if (doc["diagnostics"].get_array().get(diags)) return false;
  for (simdjson::dom::element d : diags) {
    std::string_view rule, field, message, fix;
    if (d["rule"].get_string().get(rule) || rule != id || r->fired) continue;
    if (d["field"].get_string().get(field)) field = {};
    if (d["message"].get_string().get(message)) message = {};
    if (d["fix"].get_string().get(fix)) fix = {};
    r->fired = true;
    r->field = std::string(field);
    r->message = std::string(message);
    r->fix = std::string(fix);
  }
  return true;
}

}  // namespace

const std::string_view* RuleExample(std::string_view id) {
  for (const Example& e : kExamples)
    if (e.id == id) return &e.command;
  return nullptr;
}

std::vector<std::string> SplitExample(std::string_view command) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && command[i] == ' ') ++i;
    const size_t b = i;
    while (i < command.size() && command[i] != ' ') ++i;
    if (i > b) out.emplace_back(command.substr(b, i - b));
  }
  return out;
}

ExampleResult RunExample(std::string_view id) {
  ExampleResult r;
  const std::string_view* cmd = RuleExample(id);
  if (cmd == nullptr || cmd->empty()) {
    r.error = cmd == nullptr ? "unknown rule" : "no command-line example";
    return r;
  }
  std::vector<std::string> args = SplitExample(*cmd);
  if (!args.empty() && (args[0] == "desc" || args[0] == "idesc")) {
    const bool idesc = args[0] == "idesc";
    args.erase(args.begin());
    args.push_back("--format");
    args.push_back("json");
    std::string out, err;
    const int rc = idesc ? RunIdescCommandTo(args, &out, &err) : RunDescCommandTo(args, &out, &err);
    if (rc == 2) {
      r.error = err;
      return r;
    }
    r.ran = FindInDescJson(out, id, &r);
    if (!r.ran) r.error = "unreadable report";
    return r;
  }
  Options opt;
  std::vector<std::pair<std::string, std::string>> spec_flags;
  std::vector<std::string> positional;
  if (const absl::Status st = ParseCommon(args, &opt, &spec_flags, &positional); !st.ok()) {
    r.error = std::string(StatusMessage(st));
    return r;
  }
  const absl::StatusOr<TensorMapSpec> built = BuildSpecFromFlags(spec_flags, nullptr);
  if (!built.ok()) {
    r.error = std::string(StatusMessage(built.status()));
    return r;
  }
  const TensorMapSpec& spec = *built;
  Validation v;
  Validate(spec, &v);
  r.ran = true;
  for (const Diagnostic& d : MakeDiagnostics(spec, v)) {
    if (d.rule != id) continue;
    r.fired = true;
    r.field = d.field;
    r.message = d.message;
    r.fix = d.fix;
    break;
  }
  return r;
}

}  // namespace tmapgen::cli
