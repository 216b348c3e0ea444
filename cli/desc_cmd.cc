// desc_cmd.cc: `tmapgen desc ...` and `tmapgen idesc ...`.
#include "cli/desc_cmd.h"

#include "cli/common_flags.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/desc/desc_render.h"
#include "src/desc/desc_request.h"
#include "src/desc/desc_rules.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/desc/smem_descriptor.h"
#include "src/io/file.h"
#include "src/json/json_writer.h"
#include "src/ops/descriptors.h"
#include "src/schema/spec_json.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

using namespace tmapgen::desc;  // NOLINT

const char* kDescUsage =
    "usage: tmapgen desc wgmma|tcgen05 [layout flags] [--for-map SPEC [--check VALUE]] [--k-slice N | --sub-tile MN,K]\n"
    "       tmapgen desc decode VALUE [--arch wgmma|tcgen05] [--tile MN,K --major K|MN --dtype T] [--for-map SPEC]\n"
    "       tmapgen desc --help\n";

const char* kDescHelp =
    "\nBuild a shared-memory matrix descriptor from a tile description, derive it from the tensor map that\n"
    "fills the tile, check one against the map, or decode one (docs/descriptors.md).\n"
    "\nlayout flags:\n"
    "  --operand A|B                 the MMA operand (default A)\n"
    "  --major K|MN                  contiguous dimension: K-major or M/N-major (default K)\n"
    "  --dtype T                     f16 bf16 tf32 e4m3 e5m2 e2m3 e3m2 e2m1 s8 u8 (default bf16, or the map's)\n"
    "  --padded                      e2m1 stored one value per byte (16U4_ALIGN16B; f8f6f4/mxf8f6f4 kinds)\n"
    "  --swizzle S                   none 32B 64B 128B 128B_atom_32B (default 128B, or the map's)\n"
    "  --tile MN,K                   tile extent in elements: M (A) or N (B), then K (default 128 x one swizzle row)\n"
    "  --smem-address ADDR           shared-memory address (or offset) of the tile (default 0)\n"
    "  --lbo BYTES, --sbo BYTES      your own strides (default: the dense tile's, as TMA writes it)\n"
    "  --base-offset N               your own base offset (default: (address % repeat) / 128)\n"
    "  --lbo-mode relative|absolute  tcgen05 leading-dimension mode (absolute: sm_103a; --lbo is then an address)\n"
    "  --mma-k K                     K of one MMA in elements (default: 32 bytes' worth)\n"
    "  --target T                    sm_90a, sm_100a, sm_103a, ... (checks the family and target-only features)\n"
    "\nother flags:\n"
    "  --for-map SPEC                tensor-map spec (JSON file, or inline JSON starting with '{') that fills the tile\n"
    "  --check VALUE                 with --for-map: report every disagreement of VALUE with the map\n"
    "  --arch wgmma|tcgen05          decode: the descriptor family (default: tcgen05 when bits 46-48 are 0b001)\n"
    "  --k-slice N                   the descriptor of the N-th MMA K slice of the tile\n"
    "  --sub-tile MN,K               the descriptor of the sub-tile starting at element (MN, K)\n"
    "  --draw                        draw the 16-byte chunks each core matrix is read from (and where the map put them)\n"
    "  --svg FILE                    write the drawing as SVG to FILE\n"
    "  --max-lines N                 drawing height in 128-byte lines (default 32)\n"
    "  --format text|json            output format (default text)\n"
    "  --color auto|always|never     colors in text output (default auto)\n"
    "\nexit status: 0 valid, 1 invalid, 2 bad usage\n";

const char* kIdescUsage =
    "usage: tmapgen idesc [--kind K] [--m M] [--n N] [--a-type T] [--b-type T] [--d-type T] [flags]\n"
    "       tmapgen idesc decode VALUE [--kind K] [--cta-group 1|2] [--ws] [--a-source smem|tmem] [--target T]\n"
    "       tmapgen idesc --help\n";

const char* kIdescHelp =
    "\nBuild or decode the 32-bit tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44).\n"
    "\nflags:\n"
    "  --kind K                      f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4 (default f16; decode: every kind)\n"
    "  --m M, --n N                  instruction shape (default 128 x 256)\n"
    "  --k K                         only to choose K = 96 (mxf4, mxf4nvf4 on sm_103a); otherwise the kind fixes K\n"
    "  --a-type T, --b-type T        operand types (default: the kind's first: bf16, tf32, e4m3, s8, e2m1)\n"
    "  --d-type f16|f32|s32          accumulator type (default f32; s32 for i8)\n"
    "  --a-major K|MN, --b-major K|MN  MN = transposed (default K)\n"
    "  --negate-a, --negate-b        negate an operand\n"
    "  --sparse                      sparse A (K doubles); --sparse-selector N (0..3)\n"
    "  --saturate                    i8 saturation\n"
    "  --cta-group 1|2               .cta_group::1 or ::2 (default 1)\n"
    "  --ws                          tcgen05.mma.ws; --max-shift 0|8|16|32\n"
    "  --a-source smem|tmem          where A is read from: shared memory (a_desc, default) or tensor memory\n"
    "                                ([a_tmem]); the valid shapes depend on it (below)\n"
    "  --scale-type ue8m0|ue4m3      block-scaled kinds (default ue8m0)\n"
    "  --a-sf-id N, --b-sf-id N      block-scaled kinds: scale-factor data ids (0..3)\n"
    "  --target T                    sm_100a, sm_103a, ...\n"
    "  --format text|json            output format (default text)\n"
    "  --color auto|always|never     colors in text output (default auto)\n"
    "\nexit status: 0 valid, 1 invalid, 2 bad usage\n";

struct Io {
  std::string* out;
  std::string* err;
};

int Usage(const Io& io, const char* command, const std::string& msg) {
  *io.err += StrCat("tmapgen: ", msg, "\n", HelpHint(command));
  return 2;
}

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

// Flags: name -> value ("" for switches), in order.
struct Flags {
  std::vector<std::pair<std::string, std::string>> items;
  std::vector<std::string> positional;
  bool Has(std::string_view n) const {
    for (const auto& kv : items)
      if (kv.first == n) return true;
    return false;
  }
  const std::string* Get(std::string_view n) const {
    const std::string* v = nullptr;
    for (const auto& kv : items)
      if (kv.first == n) v = &kv.second;
    return v;
  }
};

struct FlagDef {
  std::string_view name;
  bool takes_value;
};

absl::Status ParseFlags(const std::vector<std::string>& args, size_t start, const std::vector<FlagDef>& defs,
                        Flags* out) {
  for (size_t i = start; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-' || (a[1] != '-' && !(a[1] >= 'a' && a[1] <= 'z'))) {
      out->positional.push_back(a);
      continue;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name)
      if (c == '_') c = '-';
    const FlagDef* def = nullptr;
    for (const FlagDef& d : defs)
      if (d.name == name) def = &d;
    if (def == nullptr) {
      std::vector<std::string_view> names;
      for (const FlagDef& d : defs) names.push_back(d.name);
      return Bad(StrCat("unknown flag ", a, DidYouMean(name, names, "--")));
    }
    if (def->takes_value) {
      if (!has_value) {
        if (i + 1 >= args.size()) return Bad(StrCat("--", name, " needs a value"));
        value = args[++i];
      }
    } else if (has_value) {
      return Bad(StrCat("--", name, " takes no value"));
    }
    out->items.emplace_back(name, value);
  }
  return absl::OkStatus();
}

absl::Status ParseUint(std::string_view flag, std::string_view v, uint64_t* out) {
  std::string_view d = v;
  int base = 10;
  if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
    d.remove_prefix(2);
    base = 16;
  }
  std::string clean;
  for (char c : d)
    if (c != '_' && c != '\'') clean.push_back(c);
  if (clean.empty()) return Bad(StrCat("--", flag, ": expected an unsigned integer, got \"", v, "\""));
  auto r = std::from_chars(clean.data(), clean.data() + clean.size(), *out, base);
  if (r.ec != std::errc() || r.ptr != clean.data() + clean.size())
    return Bad(StrCat("--", flag, ": expected an unsigned integer (decimal or 0x hex) below 2^64, got \"", v, "\""));
  return absl::OkStatus();
}

absl::Status ParseU32(std::string_view flag, std::string_view v, uint32_t* out) {
  uint64_t x = 0;
  if (absl::Status st = ParseUint(flag, v, &x); !st.ok()) return st;
  if (x > UINT32_MAX) return Bad(StrCat("--", flag, ": ", v, " is out of range (at most 4294967295)"));
  *out = static_cast<uint32_t>(x);
  return absl::OkStatus();
}

absl::Status ParsePair(std::string_view flag, std::string_view v, uint32_t* a, uint32_t* b) {
  const size_t comma = v.find_first_of(",x");
  if (comma == std::string_view::npos) return Bad(StrCat("--", flag, ": expected two numbers MN,K, got \"", v, "\""));
  if (absl::Status st = ParseU32(flag, v.substr(0, comma), a); !st.ok()) return st;
  return ParseU32(flag, v.substr(comma + 1), b);
}

template <typename E>
absl::Status ParseEnum(std::string_view flag, std::string_view v, E* out) {
  if (Parse(v, out)) return absl::OkStatus();
  if constexpr (std::is_same_v<E, ElemType>) {
    const std::string why = RefusedElemType(v);  // a data-type name that is not one MMA type (fp8, u16)
    if (!why.empty()) return Bad(StrCat("--", flag, ": ", why));
  }
  return Bad(
      StrCat("--", flag, ": unknown value \"", v, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
}

absl::Status ParseTarget(std::string_view v, Target* out) {
  if (tmapgen::Parse(v, out)) return absl::OkStatus();
  return Bad(StrCat("--target: unknown value \"", v, "\"; expected one of: ",
                    tmapgen::AcceptedNames(static_cast<Target*>(nullptr))));
}

struct Output {
  bool json = false;
  bool color = false;
};

absl::Status ParseOutput(const Flags& f, Output* o) {
  if (const std::string* v = f.Get("format")) {
    if (*v == "json") o->json = true;
    else if (*v != "text") return Bad(StrCat("--format: unknown value \"", *v, "\"; expected text or json"));
  }
  std::string color = "auto";
  if (const std::string* v = f.Get("color")) color = *v;
  if (color != "auto" && color != "always" && color != "never")
    return Bad(StrCat("--color: unknown value \"", color, "\"; expected auto, always or never"));
  const bool tty = AutoColor(STDOUT_FILENO);  // a terminal, NO_COLOR unset or empty, TERM not dumb
  o->color = !o->json && (color == "always" || (color == "auto" && tty));
  return absl::OkStatus();
}

absl::Status LoadMap(const std::string& spec, TensorMapSpec* map, std::string* source) {
  std::string text;
  size_t i = 0;
  while (i < spec.size() && (spec[i] == ' ' || spec[i] == '\t' || spec[i] == '\n')) ++i;
  if (i < spec.size() && spec[i] == '{') {
    text = spec;
    *source = "inline";
  } else {
    absl::StatusOr<std::string> read = io::ReadWholeFile(spec);
    if (!read.ok()) return Annotate(read.status(), "--for-map");
    text = *std::move(read);
    *source = spec;
  }
  absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(text);
  if (!parsed.ok()) return Annotate(parsed.status(), StrCat("--for-map: ", *source));
  *map = *std::move(parsed);
  return absl::OkStatus();
}

absl::Status WriteFile(const std::string& name, const std::string& text) {
  FILE* f = std::fopen(name.c_str(), "wb");
  if (f == nullptr) return ErrnoStatus(errno, "--svg: cannot open", name);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  std::fclose(f);
  if (!ok) return absl::DataLossError(ToAbsl(StrCat("--svg: cannot write ", name)));
  return absl::OkStatus();
}
// ---------------------------------------------------------------------------------------------- desc

// True when the arguments are a 128-byte tensor map pasted where a descriptor belongs: 256 hex digits in all
// (0x prefixes and separators aside), or 16 values of at most 16 hex digits (the 64-bit words of a dump).
bool LooksLikeTensorMap(const std::vector<std::string>& args) {
  size_t digits = 0, tokens = 0, widest = 0;
  for (const std::string& a : args) {
    std::string_view t = a;
    size_t i = 0, run = 0;
    auto end_token = [&]() {
      if (run > 0) ++tokens;
      widest = std::max(widest, run);
      run = 0;
    };
    while (i < t.size()) {
      const char c = t[i];
      if (c == '0' && run == 0 && i + 1 < t.size() && (t[i + 1] == 'x' || t[i + 1] == 'X')) { i += 2; continue; }
      if (std::isxdigit(static_cast<unsigned char>(c))) { ++digits; ++run; }
      else if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '{' || c == '}') end_token();
      else return false;
      ++i;
    }
    end_token();
  }
  return digits == 256 || (tokens == 16 && widest <= 16);
}

const std::vector<FlagDef>& DescFlagDefs() {
  static const std::vector<FlagDef> d = {
      {"operand", true},   {"major", true},       {"dtype", true},      {"padded", false},   {"swizzle", true},
      {"tile", true},      {"smem-address", true}, {"address", true},   {"start", true},     {"lbo", true},
      {"sbo", true},       {"base-offset", true}, {"lbo-mode", true},   {"mma-k", true},     {"target", true},
      {"for-map", true},   {"check", true},       {"arch", true},       {"k-slice", true},   {"sub-tile", true},
      {"draw", false},     {"svg", true},         {"max-lines", true},  {"format", true},    {"color", true},
      {"help", false},     {"h", false},
  };
  return d;
}

absl::Status DescParse(const std::vector<std::string>& args_in, DescArgs* a) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "desc") args.erase(args.begin());
  *a = DescArgs();
  for (const std::string& x : args)
    if (x == "--help" || x == "-h") {
      a->help = true;
      return absl::OkStatus();
    }
  if (args.empty()) return Bad("desc needs a subcommand: wgmma, tcgen05 or decode");
  const std::string sub = args[0];
  if (sub != "wgmma" && sub != "tcgen05" && sub != "decode")
    return Bad(StrCat("desc: unknown subcommand \"", sub, "\"; expected wgmma, tcgen05 or decode"));
  Flags f;
  if (absl::Status st = ParseFlags(args, 1, DescFlagDefs(), &f); !st.ok()) return st;
  Output out;
  if (absl::Status st = ParseOutput(f, &out); !st.ok()) return st;
  a->json = out.json;
  a->color = out.color;
  MatrixRequest& q = a->request;

  const bool decode = sub == "decode";
  if (decode) {
    if (LooksLikeTensorMap(f.positional))
      return Bad("desc decode: this looks like a 128-byte CUtensorMap (256 hex digits, or 16 64-bit words), "
                 "not a 64-bit matrix descriptor; read a tensor map with `tmapgen decode` and the same text");
    if (f.positional.size() != 1)
      return Bad(f.positional.empty() ? "desc decode needs the descriptor VALUE (0x...)"
                                      : StrCat("desc decode: unexpected argument \"", f.positional[1], "\""));
    if (absl::Status st = ParseUint("value", f.positional[0], &q.value); !st.ok()) return Annotate(st, "desc decode");
  } else if (!f.positional.empty()) {
    return Bad(StrCat("desc ", sub, ": unexpected argument \"", f.positional[0], "\""));
  }
  if (!decode && f.Has("arch")) return Bad("--arch is for desc decode (the subcommand names the family)");

  q.op = decode ? MatrixOp::kDecode : MatrixOp::kBuild;
  q.arch = sub == "wgmma" ? DescArch::kWgmma : DescArch::kTcgen05;
  q.has_arch = !decode;
  if (decode) {
    if (const std::string* v = f.Get("arch")) {
      if (absl::Status st = ParseEnum("arch", *v, &q.arch); !st.ok()) return st;
      q.has_arch = true;
    } else {
      q.arch = ((q.value >> 46) & 7) == 1 ? DescArch::kTcgen05 : DescArch::kWgmma;
    }
  }
  const DescArch arch = q.arch;

  // Layout flags.
  OperandLayout& l = q.layout;
  l.arch = arch;
  if (const std::string* v = f.Get("operand")) { if (absl::Status st = ParseEnum("operand", *v, &l.operand); !st.ok()) return st; q.layout_given = true; }
  if (const std::string* v = f.Get("major")) { if (absl::Status st = ParseEnum("major", *v, &l.major); !st.ok()) return st; q.layout_given = true; }
  if (const std::string* v = f.Get("dtype")) { if (absl::Status st = ParseEnum("dtype", *v, &l.type); !st.ok()) return st; q.has_type = q.layout_given = true; }
  if (f.Has("padded")) { l.padded = true; q.layout_given = true; }
  if (const std::string* v = f.Get("swizzle")) {
    if (decode) return Bad("--swizzle: desc decode takes the swizzle from the value");
    if (absl::Status st = ParseEnum("swizzle", *v, &l.swizzle); !st.ok()) return st;
    q.has_swizzle = true;
  }
  if (const std::string* v = f.Get("tile")) { if (absl::Status st = ParsePair("tile", *v, &l.mn, &l.k); !st.ok()) return st; q.has_tile = q.layout_given = true; }
  for (const char* name : {"smem-address", "address", "start"}) {
    if (const std::string* v = f.Get(name)) {
      if (decode && !f.Has("for-map"))
        return Bad(StrCat("--", name, ": desc decode takes the start address from the value"));
      if (absl::Status st = ParseUint(name, *v, &l.smem_address); !st.ok()) return st;
      q.has_smem_address = true;
    }
  }
  for (const char* name : {"lbo", "sbo", "base-offset", "lbo-mode"})
    if (decode && f.Has(name)) return Bad(StrCat("--", name, ": desc decode takes it from the value"));
  if (const std::string* v = f.Get("lbo")) { if (absl::Status st = ParseUint("lbo", *v, &l.lbo); !st.ok()) return st; l.has_lbo = true; }
  if (const std::string* v = f.Get("sbo")) { if (absl::Status st = ParseUint("sbo", *v, &l.sbo); !st.ok()) return st; l.has_sbo = true; }
  if (const std::string* v = f.Get("base-offset")) {
    if (absl::Status st = ParseU32("base-offset", *v, &l.base_offset); !st.ok()) return st;
    if (l.base_offset > 7) return Bad("--base-offset: the field has 3 bits (0..7)");
    l.has_base_offset = true;
  }
  if (const std::string* v = f.Get("lbo-mode")) {
    if (*v == "absolute") l.lbo_absolute = true;
    else if (*v != "relative") return Bad(StrCat("--lbo-mode: unknown value \"", *v, "\"; expected relative or absolute"));
    if (l.lbo_absolute && arch != DescArch::kTcgen05) return Bad("--lbo-mode absolute: tcgen05 descriptors only");
    if (l.lbo_absolute && !l.has_lbo) return Bad("--lbo-mode absolute needs --lbo ADDRESS (the second K chunk's address)");
  }
  if (const std::string* v = f.Get("mma-k")) { if (absl::Status st = ParseU32("mma-k", *v, &l.mma_k); !st.ok()) return st; }
  if (const std::string* v = f.Get("target")) {
    if (absl::Status st = ParseTarget(*v, &q.target); !st.ok()) return st;
    q.has_target = true;
  }
  bool has_k_slice = false, has_sub_tile = false;
  if (const std::string* v = f.Get("k-slice")) { if (absl::Status st = ParseU32("k-slice", *v, &q.k_slice); !st.ok()) return st; has_k_slice = true; }
  if (const std::string* v = f.Get("sub-tile")) { if (absl::Status st = ParsePair("sub-tile", *v, &q.sub_mn, &q.sub_k); !st.ok()) return st; has_sub_tile = true; }
  if (has_k_slice && has_sub_tile) return Bad("--k-slice and --sub-tile: give one");
  q.advance = has_k_slice ? AdvanceKind::kKSlice : has_sub_tile ? AdvanceKind::kSubTile : AdvanceKind::kNone;
  q.draw = f.Has("draw");
  if (const std::string* v = f.Get("max-lines")) {
    uint32_t n = 0;
    if (absl::Status st = ParseU32("max-lines", *v, &n); !st.ok()) return st;
    q.max_lines = static_cast<int>(n > 100000 ? 100000 : n);
  }
  if (const std::string* v = f.Get("svg")) {
    if (v->empty()) return Bad("--svg: empty file name");
    a->svg = *v;
  }

  // The map (read later, by LoadDescMap) and what it rules out.
  const std::string* for_map = f.Get("for-map");
  const std::string* check = f.Get("check");
  if (check && decode) return Bad("--check: desc decode already checks its VALUE");
  if (check && !for_map)
    return Bad("--check needs --for-map SPEC (to check a value against a tile: desc decode VALUE --tile ...)");
  if (check) {
    if (absl::Status st = ParseUint("check", *check, &q.value); !st.ok()) return st;
  }
  if (for_map) {
    a->for_map = *for_map;
    q.has_map = true;
    if (!decode) q.op = check ? MatrixOp::kCheck : MatrixOp::kDerive;
    if (q.has_swizzle) return Bad("--swizzle: with --for-map the swizzle comes from the map");
    if (q.has_tile) return Bad("--tile: with --for-map the tile comes from the map's box");
    if (l.has_lbo || l.has_sbo || l.has_base_offset || l.lbo_absolute)
      return Bad("--lbo/--sbo/--base-offset/--lbo-mode: with --for-map they come from the map; put your "
                 "descriptor in --check VALUE to compare it");
  } else if (decode && q.layout_given && !q.has_tile) {
    return Bad("desc decode with --major/--dtype/--operand needs --tile MN,K (the tile it reads)");
  }
  if (q.advance != AdvanceKind::kNone && !MatrixRequestHasTile(q))
    return Bad("--k-slice/--sub-tile need the tile (layout flags, --tile or --for-map)");
  if (!a->svg.empty() && !MatrixRequestHasTile(q))
    return Bad("--svg needs the tile (layout flags, --tile or --for-map)");
  return absl::OkStatus();
}

int DescMain(const std::vector<std::string>& args, const Io& io) {
  DescArgs a;
  if (const absl::Status st = DescParse(args, &a); !st.ok()) return Usage(io, "desc", std::string(StatusMessage(st)));
  if (a.help) {
    *io.out += kDescUsage;
    *io.out += kDescHelp;
    return 0;
  }
  if (const absl::Status st = LoadDescMap(&a); !st.ok()) return Usage(io, "desc", std::string(StatusMessage(st)));
  absl::StatusOr<SmemDescReport> run = ops::RunMatrixDescriptor(a.request);
  if (!run.ok()) return Usage(io, "desc", std::string(StatusMessage(run.status())));
  const SmemDescReport& r = *run;
  if (!a.svg.empty()) {
    if (const absl::Status st = WriteFile(a.svg, DrawSvg(r)); !st.ok()) return Usage(io, "desc", std::string(StatusMessage(st)));
  }
  *io.out += RenderMatrixReport(r, a.json, a.color);
  return r.validation.valid ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------- idesc

const std::vector<FlagDef>& IdescFlagDefs() {
  static const std::vector<FlagDef> d = {
      {"kind", true},       {"m", true},          {"n", true},          {"k", true},            {"a-type", true},
      {"b-type", true},     {"d-type", true},     {"a-major", true},    {"b-major", true},      {"negate-a", false},
      {"negate-b", false},  {"sparse", false},    {"sparse-selector", true}, {"saturate", false}, {"cta-group", true},
      {"ws", false},        {"max-shift", true},  {"scale-type", true}, {"a-sf-id", true},      {"b-sf-id", true},
      {"a-source", true},
      {"target", true},     {"format", true},     {"color", true},      {"help", false},        {"h", false},
  };
  return d;
}

// The form flags of --help (kind, cta-group, ws, sparse, a-source); false on a bad value (--help then shows
// every form of the default kind and no chosen one, so the reason is not needed).
bool ParseIdescForm(const Flags& f, IdescSpec* s) {
  if (const std::string* v = f.Get("kind"))
    if (!ParseEnum("kind", *v, &s->kind).ok()) return false;
  if (const std::string* v = f.Get("cta-group")) {
    uint32_t g = 0;
    if (!ParseU32("cta-group", *v, &g).ok() || (g != 1 && g != 2)) return false;
    s->cta_group = static_cast<int>(g);
  }
  s->ws = f.Has("ws");
  s->sparse = f.Has("sparse");
  if (const std::string* v = f.Get("a-source")) {
    if (*v != "smem" && *v != "tmem") return false;
    s->a_tmem = *v == "tmem";
  }
  return true;
}
bool HasFormFlag(const Flags& f) {
  return f.Has("kind") || f.Has("cta-group") || f.Has("ws") || f.Has("sparse") || f.Has("a-source");
}

// "valid shapes" section of `tmapgen idesc --help`: the rule of the chosen form (when form flags were given),
// then every form of the chosen kind.
std::string IdescShapeHelp(const IdescSpec& chosen, bool show_chosen) {
  std::string o = "\nvalid shapes (PTX ISA 9.7.16.2.1 Table 39; A in tensor memory: CUTLASS SM100_MMA_*_TS):\n";
  if (show_chosen)
    o += StrCat("  chosen form: ", FormText(chosen), ":\n    ", FormShapeText(chosen), "\n");
  o += StrCat("  forms of .kind::", Name(chosen.kind), ":\n");
  for (int cta = 1; cta <= 2; ++cta)
    for (int ws = 0; ws <= 1; ++ws)
      for (int tmem = 0; tmem <= 1; ++tmem)
        for (int sparse = 0; sparse <= 1; ++sparse) {
          IdescSpec t = chosen;
          t.cta_group = cta;
          t.ws = ws != 0;
          t.a_tmem = tmem != 0;
          t.sparse = sparse != 0;
          if (!ValidVariant(t)) continue;
          o += StrCat("    ", FormText(t), ": ", FormShapeText(t), "\n");
        }
  return o;
}

absl::Status IdescParse(const std::vector<std::string>& args_in, IdescArgs* a) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "idesc") args.erase(args.begin());
  *a = IdescArgs();
  for (const std::string& x : args)
    if (x == "--help" || x == "-h") {
      a->help = true;
      return absl::OkStatus();
    }
  const bool decode = !args.empty() && args[0] == "decode";
  Flags f;
  if (absl::Status st = ParseFlags(args, decode ? 1 : 0, IdescFlagDefs(), &f); !st.ok()) return st;
  Output out;
  if (absl::Status st = ParseOutput(f, &out); !st.ok()) return st;
  a->json = out.json;
  a->color = out.color;

  IdescRequest& q = a->request;
  IdescSpec& s = q.spec;
  q.decode = decode;
  bool kind_given = false;
  if (const std::string* v = f.Get("kind")) {
    if (absl::Status st = ParseEnum("kind", *v, &s.kind); !st.ok()) return st;
    kind_given = true;
  }
  if (const std::string* v = f.Get("cta-group")) {
    uint32_t g = 0;
    if (absl::Status st = ParseU32("cta-group", *v, &g); !st.ok()) return st;
    if (g != 1 && g != 2) return Bad(StrCat("--cta-group: expected 1 or 2, got ", *v));
    s.cta_group = static_cast<int>(g);
  }
  s.ws = f.Has("ws");
  if (const std::string* v = f.Get("a-source")) {
    if (*v != "smem" && *v != "tmem")
      return Bad(StrCat("--a-source: expected smem (A through a_desc) or tmem (A in tensor memory, "
                        "[a_tmem]), got \"", *v, "\""));
    s.a_tmem = *v == "tmem";
  }
  if (const std::string* v = f.Get("target")) {
    if (absl::Status st = ParseTarget(*v, &s.target); !st.ok()) return st;
    s.has_target = true;
  }

  if (decode) {
    if (LooksLikeTensorMap(f.positional))
      return Bad("desc decode: this looks like a 128-byte CUtensorMap (256 hex digits, or 16 64-bit words), "
                 "not a 64-bit matrix descriptor; read a tensor map with `tmapgen decode` and the same text");
    if (f.positional.size() != 1)
      return Bad(f.positional.empty() ? "idesc decode needs the descriptor VALUE (0x...)"
                                      : StrCat("idesc decode: unexpected argument \"", f.positional[1], "\""));
    uint64_t v = 0;
    if (absl::Status st = ParseUint("value", f.positional[0], &v); !st.ok()) return Annotate(st, "idesc decode");
    if (v > UINT32_MAX) return Bad("idesc decode: the instruction descriptor has 32 bits");
    for (const auto& kv : f.items) {
      const std::string& n = kv.first;
      if (n != "kind" && n != "cta-group" && n != "ws" && n != "a-source" && n != "target" && n != "format" && n != "color")
        return Bad(StrCat("--", n, ": idesc decode takes it from the value"));
    }
    q.value = static_cast<uint32_t>(v);
    q.kind_given = kind_given;
    return absl::OkStatus();
  }
  if (!f.positional.empty()) return Bad(StrCat("idesc: unexpected argument \"", f.positional[0], "\""));
  s.a_type = s.b_type = DefaultOperandType(s.kind);
  s.d_type = DefaultAccumulator(s.kind);
  if (const std::string* v = f.Get("m")) { if (absl::Status st = ParseU32("m", *v, &s.m); !st.ok()) return st; }
  if (const std::string* v = f.Get("n")) { if (absl::Status st = ParseU32("n", *v, &s.n); !st.ok()) return st; }
  if (const std::string* v = f.Get("a-type")) { if (absl::Status st = ParseEnum("a-type", *v, &s.a_type); !st.ok()) return st; }
  if (const std::string* v = f.Get("b-type")) { if (absl::Status st = ParseEnum("b-type", *v, &s.b_type); !st.ok()) return st; }
  if (const std::string* v = f.Get("d-type")) {
    if (!Parse(*v, &s.d_type)) return Bad(StrCat("--d-type: unknown value \"", *v, "\"; expected f16, f32 or s32"));
  }
  if (const std::string* v = f.Get("a-major")) { if (absl::Status st = ParseEnum("a-major", *v, &s.a_major); !st.ok()) return st; }
  if (const std::string* v = f.Get("b-major")) { if (absl::Status st = ParseEnum("b-major", *v, &s.b_major); !st.ok()) return st; }
  s.negate_a = f.Has("negate-a");
  s.negate_b = f.Has("negate-b");
  s.sparse = f.Has("sparse");
  s.saturate = f.Has("saturate");
  if (const std::string* v = f.Get("sparse-selector")) {
    if (absl::Status st = ParseU32("sparse-selector", *v, &s.sparse_selector); !st.ok()) return st;
    if (s.sparse_selector > 3) return Bad("--sparse-selector: the field has 2 bits (0..3)");
  }
  if (const std::string* v = f.Get("max-shift")) { if (absl::Status st = ParseU32("max-shift", *v, &s.max_shift); !st.ok()) return st; }
  if (const std::string* v = f.Get("scale-type")) {
    if (!Parse(*v, &s.scale_type)) return Bad(StrCat("--scale-type: unknown value \"", *v, "\"; expected ue8m0 or ue4m3"));
  }
  if (const std::string* v = f.Get("a-sf-id")) { if (absl::Status st = ParseU32("a-sf-id", *v, &s.a_sf_id); !st.ok()) return st; }
  if (const std::string* v = f.Get("b-sf-id")) { if (absl::Status st = ParseU32("b-sf-id", *v, &s.b_sf_id); !st.ok()) return st; }
  if (const std::string* v = f.Get("k")) {
    uint32_t k = 0;
    if (absl::Status st = ParseU32("k", *v, &k); !st.ok()) return st;
    if (k == 96 && (s.kind == MmaKind::kMxf4 || s.kind == MmaKind::kMxf4nvf4)) {
      s.k96 = true;
    } else if (k != InstrK(s)) {
      return Bad(StrCat("--k: .kind::", Name(s.kind), s.sparse ? " (sparse)" : "", " has K = ", InstrK(s),
                        "; only .kind::mxf4/.kind::mxf4nvf4 can choose K = 96"));
    }
  }
  return absl::OkStatus();
}

int IdescMain(const std::vector<std::string>& args_in, const Io& io) {
  IdescArgs a;
  if (const absl::Status st = IdescParse(args_in, &a); !st.ok()) return Usage(io, "idesc", std::string(StatusMessage(st)));
  if (a.help) {
    *io.out += kIdescUsage;
    *io.out += kIdescHelp;
    // The shape rules, per form; with form flags given, the chosen form's rule first.
    std::vector<std::string> args = args_in;
    if (!args.empty() && args[0] == "idesc") args.erase(args.begin());
    const bool decode = !args.empty() && args[0] == "decode";
    Flags hf;
    IdescSpec chosen;
    const bool parsed = ParseFlags(args, decode ? 1 : 0, IdescFlagDefs(), &hf).ok() && ParseIdescForm(hf, &chosen);
    *io.out += IdescShapeHelp(chosen, parsed && HasFormFlag(hf));
    return 0;
  }
  absl::StatusOr<IdescResult> run = ops::RunInstructionDescriptor(a.request);
  if (!run.ok()) return Usage(io, "idesc", std::string(StatusMessage(run.status())));
  const IdescResult& r = *run;
  *io.out += RenderIdescResult(r, a.json, a.color);
  return r.valid ? 0 : 1;
}

int Flush(int rc, const std::string& out, const std::string& err) {
  if (!out.empty()) std::fwrite(out.data(), 1, out.size(), stdout);
  if (!err.empty()) std::fwrite(err.data(), 1, err.size(), stderr);
  std::fflush(stdout);
  return rc;
}

}  // namespace

absl::Status ParseDescArgs(const std::vector<std::string>& args, DescArgs* out) { return DescParse(args, out); }
absl::Status ParseIdescArgs(const std::vector<std::string>& args, IdescArgs* out) { return IdescParse(args, out); }

absl::Status LoadDescMap(DescArgs* a) {
  if (a->for_map.empty() && !a->request.has_map) return absl::OkStatus();
  return LoadMap(a->for_map, &a->request.map, &a->request.map_source);
}

std::string DescUsageText(const std::string& msg) { return StrCat("tmapgen: ", msg, "\n", HelpHint("desc")); }
std::string IdescUsageText(const std::string& msg) { return StrCat("tmapgen: ", msg, "\n", HelpHint("idesc")); }

int RunDescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err) {
  return DescMain(args, Io{out, err});
}
int RunIdescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err) {
  return IdescMain(args, Io{out, err});
}
int RunDescCommand(const std::vector<std::string>& args) {
  std::string out, err;
  const int rc = RunDescCommandTo(args, &out, &err);
  return Flush(rc, out, err);
}
int RunIdescCommand(const std::vector<std::string>& args) {
  std::string out, err;
  const int rc = RunIdescCommandTo(args, &out, &err);
  return Flush(rc, out, err);
}

}  // namespace tmapgen::cli
