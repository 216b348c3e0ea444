#include "cli/show_cmd.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli/common_flags.h"
#include "src/io/file.h"
#include "src/json/json_writer.h"
#include "src/model/copy_model.h"
#include "src/model/show_render.h"
#include "src/ops/show.h"
#include "src/schema/spec_json.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

const char* kShowUsage =
    "usage: tmapgen show SPEC [--coords x,y,..] [--smem-address A] [--format text|json] [--svg FILE]\n"
    "                    [--mode tile|gather4|scatter4|im2col|im2col::w|im2col::w::128|im2col_no_offs]\n"
    "                    [--direction load|store|reduce] [--im2col-offsets w,h,d] [--w-halo N] [--w-offset N]\n"
    "                    [--rows r0,r1,r2,r3] [--max-lines N]\n";

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen show: %s\n%s", msg.c_str(), HelpHint("show").c_str());
  return 2;
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v > (1ull << 62)) return false;
  *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

// Parses a comma-separated list of at most `max` integers in [lo, hi].
absl::Status ParseList(const std::string& flag, const std::string& v, size_t max, int64_t lo, int64_t hi,
                       std::vector<int64_t>* out) {
  out->clear();
  size_t start = 0;
  while (start <= v.size()) {
    const size_t comma = v.find(',', start);
    const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int64_t x = 0;
    if (!ParseInt(item, &x))
      return absl::InvalidArgumentError(ToAbsl(StrCat("--", flag, ": \"", item, "\" is not an integer")));
    if (x < lo || x > hi)
      return absl::InvalidArgumentError(ToAbsl(StrCat("--", flag, ": ", x, " is out of range [", lo, ", ", hi, "]")));
    out->push_back(x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out->size() > max)
    return absl::InvalidArgumentError(ToAbsl(StrCat("--", flag, ": at most ", max, " values, got ", out->size())));
  return absl::OkStatus();
}

}  // namespace

int RunShowCommand(const std::vector<std::string>& args) {
  std::string spec_path, svg_path, format = "text", mode_name, direction_name;
  std::vector<std::pair<std::string, std::string>> lists;  // flag -> value, applied after the spec is read
  int64_t smem_address = -1, w_halo = 0, w_offset = 0, max_lines = 64;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kShowUsage, stdout);
      return 0;
    }
    if (a.size() < 2 || a[0] != '-' || a == "-") {
      if (!spec_path.empty()) return Usage(StrCat("unexpected argument \"", a, "\" (one SPEC only)"));
      spec_path = a;
      continue;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    const size_t eq = name.find('=');
    bool has_value = false;
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name) if (c == '_') c = '-';
    static const char* kKnown[] = {"coords", "svg", "smem-address", "format", "mode", "direction", "im2col-offsets",
                                   "w-halo", "w-offset", "rows", "max-lines"};
    bool known = false;
    for (const char* k : kKnown) known = known || name == k;
    if (!known) {
      std::vector<std::string_view> names(std::begin(kKnown), std::end(kKnown));
      return Usage(StrCat("unknown flag ", a, DidYouMean(name, names, "--")));
    }
    if (!has_value) {
      if (i + 1 >= args.size()) return Usage(StrCat("--", name, " needs a value"));
      value = args[++i];
    }
    int64_t x = 0;
    if (name == "svg") {
      svg_path = value;
    } else if (name == "format") {
      if (value != "text" && value != "json") return Usage(StrCat("--format: unknown value \"", value, "\"; expected text or json"));
      format = value;
    } else if (name == "smem-address") {
      if (!ParseInt(value, &x) || x < 0 || x >= (int64_t{1} << 32))
        return Usage(StrCat("--smem-address: \"", value, "\" is not an address (0 to 2^32-1, decimal or 0x...)"));
      smem_address = x;
    } else if (name == "w-halo" || name == "w-offset" || name == "max-lines") {
      if (!ParseInt(value, &x) || x < 0 || x > 65535) return Usage(StrCat("--", name, ": \"", value, "\" is not an integer in [0, 65535]"));
      (name == "w-halo" ? w_halo : name == "w-offset" ? w_offset : max_lines) = x;
    } else if (name == "mode") {
      mode_name = value;
    } else if (name == "direction") {
      direction_name = value;
    } else {
      lists.emplace_back(name, value);
    }
  }
  if (spec_path.empty()) return Usage("missing SPEC (a JSON spec file, or - for standard input)");

  absl::StatusOr<std::string> text = io::ReadWholeFile(spec_path);
  if (!text.ok()) return Usage(std::string(StatusMessage(text.status())));
  absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(*text);
  if (!parsed.ok()) return Usage(StrCat(spec_path, ": ", StatusMessage(parsed.status())));
  TensorMapSpec spec = *std::move(parsed);

  model::CopyInstruction in = model::DefaultInstruction(spec);
  if (!direction_name.empty()) {
    if (!Parse(direction_name, &in.direction) || in.direction == Direction::kPrefetch)
      return Usage(StrCat("--direction: unknown value \"", direction_name, "\"; expected load, load_cluster, store or reduce"));
    in = [&] {
      TensorMapSpec s2 = spec;
      s2.direction = in.direction;
      model::CopyInstruction d = model::DefaultInstruction(s2);
      return d;
    }();
  }
  if (!mode_name.empty() && !model::Parse(mode_name, &in.mode))
    return Usage(StrCat("--mode: unknown value \"", mode_name,
                     "\"; expected tile, gather4, scatter4, im2col, im2col::w, im2col::w::128 or im2col_no_offs"));
  if (smem_address >= 0) in.smem_address = static_cast<uint64_t>(smem_address);
  in.w_halo = static_cast<uint16_t>(w_halo);
  in.w_offset = static_cast<uint16_t>(w_offset);
  for (const auto& [name, value] : lists) {
    std::vector<int64_t> v;
    if (name == "coords") {
      if (const absl::Status st = ParseList(name, value, spec.rank, INT32_MIN, INT32_MAX, &v); !st.ok()) return Usage(std::string(StatusMessage(st)));
      if (v.size() != spec.rank && !IsGatherScatter(spec.mode))
        return Usage(StrCat("--coords: the map has rank ", spec.rank, "; give ", spec.rank, " coordinates, got ", v.size()));
      for (size_t i = 0; i < v.size(); ++i) in.coords[i] = static_cast<int32_t>(v[i]);
    } else if (name == "rows") {
      if (const absl::Status st = ParseList(name, value, 4, INT32_MIN, INT32_MAX, &v); !st.ok()) return Usage(std::string(StatusMessage(st)));
      if (v.size() != 4) return Usage(StrCat("--rows: gather4/scatter4 take 4 row indices, got ", v.size()));
      for (size_t i = 0; i < 4; ++i) in.rows[i] = static_cast<int32_t>(v[i]);
    } else if (name == "im2col-offsets") {
      if (const absl::Status st = ParseList(name, value, 3, 0, 65535, &v); !st.ok()) return Usage(std::string(StatusMessage(st)));
      for (size_t i = 0; i < v.size(); ++i) in.im2col_offsets[i] = static_cast<uint16_t>(v[i]);
    }
  }

  ops::ShowRequest req;
  req.spec = std::move(spec);
  req.instruction = in;
  const absl::StatusOr<model::ShowData> run = ops::RunShow(req);
  if (!run.ok()) {
    std::fprintf(stderr, "tmapgen show: %s\n", std::string(StatusMessage(run.status())).c_str());
    return 1;
  }
  const model::ShowData& d = *run;
  if (format == "json") {
    json::Writer w(json::WriterOptions{true});
    model::RenderJson(d, &w);
    std::printf("%s\n", w.str().c_str());
  } else {
    std::fputs(model::RenderText(d, static_cast<int>(max_lines)).c_str(), stdout);
  }
  if (!svg_path.empty()) {
    const std::string svg = model::RenderSvg(d, static_cast<int>(max_lines));
    FILE* f = std::fopen(svg_path.c_str(), "wb");
    if (f == nullptr) return Usage(StrCat("--svg: cannot write ", svg_path, ": ", std::strerror(errno)));
    const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
    if (std::fclose(f) != 0 || !ok) return Usage(StrCat("--svg: cannot write ", svg_path));
    if (format == "text") std::fprintf(stderr, "wrote %s\n", svg_path.c_str());
  }
  return 0;
}

}  // namespace tmapgen::cli
