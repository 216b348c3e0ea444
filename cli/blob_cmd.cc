#include "cli/blob_cmd.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/common_flags.h"
#include "cli/spec_input.h"
#include "src/blob/blob.h"
#include "src/blob/blob_text.h"
#include "src/blob/layout_doc.h"
#include "src/io/file.h"
#include "src/json/json_writer.h"
#include "src/ops/decode.h"
#include "src/ops/diff.h"
#include "src/report/report.h"
#include "src/schema/corpus_json.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"
#include "src/util/text_util.h"

namespace tmapgen::cli {
namespace {

using blob::MapBytes;
using blob::MapField;

const char* kDecodeUsage =
    "usage: tmapgen decode [--target T] [--format text|json] [--words] [--no-validate] [--color auto|always|never] BLOB...\n"
    "       tmapgen diff A B [--words] [--format text|json]\n"
    "       tmapgen layout [--format text|json|markdown]\n";

const char* kDecodeHelp =
    "\nReads 128-byte CUtensorMaps back into their fields (docs/tensormap-layout.md):\n"
    "  BLOB             '-' (standard input), a file, or the text itself: 256 hex digits (spaces allowed),\n"
    "                   the 16 64-bit words of a CUTLASS-style dump (0x...), 128 bytes (0x..), binary files\n"
    "                   of 128*k bytes, or JSON Lines whose objects carry \"bytes\" (the corpus form);\n"
    "                   consecutive text arguments are joined (16 words may be 16 arguments)\n"
    "  --target T       validate the recovered spec for T (default: for every target)\n"
    "  --format json    one JSON object per map: the spec in the schema form (tmapgen validate reads it back),\n"
    "                   every field, recognised and unexplained bits, findings, and the validation report\n"
    "  --words          read unprefixed 16-digit tokens as 64-bit words (a word dump printed without 0x);\n"
    "                   without it, 16 such tokens are read as words or as bytes, whichever re-encodes\n"
    "  --no-validate    print the fields only\n"
    "diff: the fields (and the raw bits without a name) in which A and B differ; A and B are maps as above,\n"
    "      or spec files (JSON), which are encoded offline first\n"
    "layout: the field table itself (--format markdown is the table of docs/tensormap-layout.md)\n"
    "exit status: decode 0 all maps clean and valid, 1 otherwise; diff 0 equal, 1 different; 2 bad usage or\n"
    "             unreadable input\n";

int Usage(const std::string& cmd, const std::string& msg) {
  std::fprintf(stderr, "tmapgen %s: %s\n%s", cmd.c_str(), msg.c_str(), HelpHint(cmd).c_str());
  return 2;
}

struct Source {
  std::string label;  // "argument 1", "FILE", "FILE:3", "FILE[2]"
  MapBytes bytes{};
};

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

bool IsRegularFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r')) s.remove_prefix(1);
  return s;
}

// A text that is one value of at most 64 bits (0x optional) is not a tensor map but, most likely, a
// descriptor: *hint names the command that decodes it.
bool OneValueHint(std::string_view text, std::string* hint) {
  auto sep = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; };
  size_t b = 0, e = text.size();
  while (b < e && sep(text[b])) ++b;
  while (e > b && sep(text[e - 1])) --e;
  std::string_view t = text.substr(b, e - b);
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty() || t.size() > 16) return false;
  for (char c : t)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  const std::string v = StrCat("0x", t);
  const bool fits32 = t.size() <= 8;
  *hint = StrCat("a single value, not a 128-byte tensor map (256 hex digits, or 16 "
                 "64-bit words); a shared-memory matrix descriptor (wgmma, tcgen05) is read by `tmapgen desc decode ",
                 v, "`", fits32 ? StrCat(", a tcgen05 instruction descriptor by `tmapgen idesc decode ", v, "`") : "");
  return true;
}

// The maps of one input's content.
absl::Status ParseContent(const std::string& label, const std::string& content, bool words,
                          std::vector<Source>* out) {
  std::vector<MapBytes> maps;
  if (!blob::LooksLikeText(content)) {
    absl::StatusOr<std::vector<MapBytes>> binary = blob::ParseBlobBinary(content);
    if (!binary.ok()) return Annotate(binary.status(), label);
    maps = *std::move(binary);
    for (size_t i = 0; i < maps.size(); ++i)
      out->push_back({maps.size() == 1 ? label : StrCat(label, "[", i, "]"), maps[i]});
    return absl::OkStatus();
  }
  if (!TrimLeft(content).empty() && TrimLeft(content)[0] == '{') {
    // JSON Lines with "bytes".
    size_t pos = 0, line_no = 0;
    while (pos <= content.size()) {
      size_t nl = content.find('\n', pos);
      if (nl == std::string::npos) nl = content.size();
      std::string_view line(content.data() + pos, nl - pos);
      ++line_no;
      pos = nl + 1;
      if (TrimLeft(line).empty()) { if (nl == content.size()) break; continue; }
      const absl::StatusOr<std::string> hex = ExtractBytesField(line);
      if (!hex.ok()) return Annotate(hex.status(), StrCat(label, ":", line_no));
      if (hex->empty()) continue;  // a rejected call in a corpus: no map
      const absl::StatusOr<std::vector<MapBytes>> one = blob::ParseBlobText(*hex, false);
      if (!one.ok()) return Annotate(one.status(), StrCat(label, ":", line_no, ": bytes"));
      if (one->size() != 1) return Bad(StrCat(label, ":", line_no, ": bytes: more than one map"));
      out->push_back({StrCat(label, ":", line_no), (*one)[0]});
      if (nl == content.size()) break;
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<MapBytes>> text = blob::ParseBlobText(content, words);
  if (!text.ok()) {
    std::string hint;
    if (OneValueHint(content, &hint)) return Bad(StrCat(label, ": ", hint));
    return Annotate(text.status(), label);
  }
  maps = *std::move(text);
  for (size_t i = 0; i < maps.size(); ++i) out->push_back({maps.size() == 1 ? label : StrCat(label, "[", i, "]"), maps[i]});
  return absl::OkStatus();
}

// Reads the inputs: "-" and files by name, consecutive other arguments as one text.
absl::Status ReadInputs(const std::vector<std::string>& inputs, bool words, std::vector<Source>* out) {
  std::string text;
  std::string text_label;
  auto flush = [&]() {
    if (text.empty()) return absl::OkStatus();
    absl::Status st = ParseContent(text_label, text, words, out);
    text.clear();
    return st;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& a = inputs[i];
    if (a == "-" || IsRegularFile(a)) {
      if (absl::Status st = flush(); !st.ok()) return st;
      const absl::StatusOr<std::string> content = io::ReadWholeFile(a);
      if (!content.ok()) return content.status();
      if (absl::Status st = ParseContent(a == "-" ? "stdin" : a, *content, words, out); !st.ok()) return st;
      continue;
    }
    if (text.empty()) text_label = StrCat("argument ", i + 1);
    StrAppend(&text, text.empty() ? "" : " ", a);
  }
  return flush();
}

std::string Padded(std::string s, size_t n) {
  if (s.size() < n) s.resize(n, ' ');
  return s;
}


bool ParseColor(const std::string& v, bool* color) {
  if (v == "always") *color = true;
  else if (v == "never") *color = false;
  else if (v == "auto") *color = ::isatty(STDOUT_FILENO) != 0;
  else return false;
  return true;
}

}  // namespace

absl::Status ParseDecodeArgs(const std::vector<std::string>& args, DecodeArgs* out) {
  *out = DecodeArgs();
  blob::DecodeOptions& o = out->options;
  o.color = ::isatty(STDOUT_FILENO) != 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    auto fail = [](const std::string& m) { return Bad(m); };
    std::string v;
    if (a == "--help" || a == "-h") {
      out->help = true;
      return absl::OkStatus();
    } else if (a == "--target") {
      if (!value(&v)) return fail("--target needs a value");
      if (!Parse(v, &o.target))
        return fail(StrCat("--target: unknown target \"", v, "\" (expected one of: ", AcceptedNames(static_cast<Target*>(nullptr)), ")"));
      o.has_target = true;
    } else if (a == "--format") {
      if (!value(&v) || (v != "text" && v != "json")) return fail("--format: expected text or json");
      o.json = v == "json";
    } else if (a == "--color") {
      if (!value(&v) || !ParseColor(v, &o.color)) return fail("--color: expected auto, always or never");
    } else if (a == "--words") out->words = true;
    else if (a == "--no-validate") o.validate = false;
    else if (a == "--no-gpu") continue;  // decode never uses a GPU; accepted like the other commands
    else if (a.size() > 2 && a[0] == '-' && a[1] == '-')
      return fail(StrCat("unknown flag ", a, DidYouMean(a, {"--target", "--format", "--color", "--words",
                                                          "--no-validate", "--no-gpu", "--help"})));
    else out->inputs.push_back(a);
  }
  if (o.json) o.color = false;
  if (out->inputs.empty()) return Bad("needs at least one BLOB (hex text, a file, or - for standard input)");
  return absl::OkStatus();
}

absl::Status ReadDecodeInputs(const DecodeArgs& a, std::vector<DecodeSource>* out) {
  std::vector<Source> sources;
  if (absl::Status st = ReadInputs(a.inputs, a.words, &sources); !st.ok()) return st;
  if (sources.empty()) return Bad("the input holds no map");
  for (Source& s : sources) out->push_back({std::move(s.label), s.bytes});
  return absl::OkStatus();
}

std::string DecodeUsageText(const std::string& msg) { return StrCat("tmapgen decode: ", msg, "\n", HelpHint("decode")); }

int RunDecodeCommand(const std::vector<std::string>& args) {
  DecodeArgs a;
  if (const absl::Status st = ParseDecodeArgs(args, &a); !st.ok()) {
    std::fputs(DecodeUsageText(std::string(StatusMessage(st))).c_str(), stderr);
    return 2;
  }
  if (a.help) {
    std::printf("%s%s", kDecodeUsage, kDecodeHelp);
    return 0;
  }
  std::vector<DecodeSource> sources;
  if (const absl::Status st = ReadDecodeInputs(a, &sources); !st.ok()) {
    std::fprintf(stderr, "tmapgen decode: %s\n", std::string(StatusMessage(st)).c_str());
    return 2;
  }
  ops::DecodeRequest req;
  req.options = a.options;
  for (DecodeSource& s : sources) {
    req.maps.push_back(s.bytes);
    req.labels.push_back(std::move(s.label));
  }
  json::Writer w;
  std::string out;
  const absl::StatusOr<ops::DecodeSummary> sum = ops::RunDecode(req, [&](const ops::DecodedMap& m) {
    bool valid = false;
    out += blob::RenderDecoded(m.index, m.label, *m.bytes, m.decoded, req.options, &valid, &w);
    if (out.size() > (1 << 16)) { std::fwrite(out.data(), 1, out.size(), stdout); out.clear(); }
    return absl::OkStatus();
  });
  std::fwrite(out.data(), 1, out.size(), stdout);
  return sum.ok() && sum->all_clean_and_valid ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------- diff

namespace {

// One side of a diff: a map, or a spec file encoded offline.
absl::Status ReadSide(const std::string& arg, bool words, Source* out) {
  if (IsRegularFile(arg) || arg == "-") {
    const absl::StatusOr<std::string> read = io::ReadWholeFile(arg);
    if (!read.ok()) return read.status();
    const std::string& content = *read;
    const std::string_view t = TrimLeft(content);
    if (blob::LooksLikeText(content) && !t.empty() && t[0] == '{') {
      if (!ExtractBytesField(t.substr(0, t.find('\n'))).ok()) {
        // A spec: encode it offline.
        const absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(content);
        if (!parsed.ok()) return Annotate(parsed.status(), StrCat(arg, ": neither a map nor a spec"));
        const TensorMapSpec& spec = *parsed;
        absl::StatusOr<blob::Encoded> e = blob::Encode(spec);
        if (!e.ok()) return Annotate(e.status(), StrCat(arg, ": the spec cannot be encoded offline"));
        *out = {StrCat(arg, " (spec, encoded offline)"), e->bytes};
        return absl::OkStatus();
      }
    }
  }
  std::vector<Source> v;
  if (absl::Status st = ReadInputs({arg}, words, &v); !st.ok()) return st;
  if (v.size() != 1)
    return Bad(StrCat(arg.size() > 40 ? arg.substr(0, 40) + "..." : arg, ": holds ", v.size(),
                      " maps; diff compares one map with one"));
  *out = v[0];
  if (out->label.rfind("argument", 0) == 0) out->label = "hex text";
  return absl::OkStatus();
}

}  // namespace

int RunDiffCommand(const std::vector<std::string>& args) {
  bool words = false, json_out = false;
  std::vector<std::string> sides;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") { std::printf("%s%s", kDecodeUsage, kDecodeHelp); return 0; }
    if (a == "--words") { words = true; continue; }
    if (a == "--no-gpu") continue;
    if (a == "--format") {
      if (i + 1 >= args.size() || (args[i + 1] != "text" && args[i + 1] != "json")) return Usage("diff", "--format: expected text or json");
      json_out = args[++i] == "json";
      continue;
    }
    if (a.size() > 2 && a[0] == '-' && a[1] == '-')
      return Usage("diff", StrCat("unknown flag ", a, DidYouMean(a, {"--words", "--format", "--no-gpu", "--help"})));
    sides.push_back(a);
  }
  if (sides.size() != 2) return Usage("diff", StrCat("needs exactly two maps or specs, A and B (got ", sides.size(), ")"));
  Source a, b;
  absl::Status st = ReadSide(sides[0], words, &a);
  if (st.ok()) st = ReadSide(sides[1], words, &b);
  if (!st.ok()) {
    std::fprintf(stderr, "tmapgen diff: %s\n", std::string(StatusMessage(st)).c_str());
    return 2;
  }
  ops::DiffRequest req;
  req.a = a.bytes;
  req.b = b.bytes;
  const absl::StatusOr<ops::DiffResult> diff = ops::RunDiff(req);
  if (!diff.ok()) {
    std::fprintf(stderr, "tmapgen diff: %s\n", std::string(StatusMessage(diff.status())).c_str());
    return 2;
  }
  const std::vector<ops::DiffRow>& rows = diff->rows;
  const std::vector<int>& raw_bits = diff->raw_bits;
  const bool equal = diff->equal;
  if (json_out) {
    json::Writer w;
    w.BeginObject().Key("a").String(a.label).Key("b").String(b.label).Key("equal").Bool(equal);
    w.Key("fields").BeginArray();
    for (const ops::DiffRow& r : rows) w.BeginObject().Key("name").String(r.name).Key("bits").String(r.bits).Key("a").String(r.a).Key("b").String(r.b).EndObject();
    w.EndArray().Key("raw_bits").BeginArray();
    for (int bit : raw_bits)
      w.BeginObject().Key("bit").Int(bit).Key("a").Int(blob::GetBit(a.bytes, bit)).Key("b").Int(blob::GetBit(b.bytes, bit)).EndObject();
    w.EndArray().EndObject();
    std::printf("%s\n", w.str().c_str());
    return equal ? 0 : 1;
  }
  std::printf("A: %s\nB: %s\n", a.label.c_str(), b.label.c_str());
  if (equal) { std::printf("identical (128 bytes)\n"); return 0; }
  for (const ops::DiffRow& r : rows)
    std::printf("  %s %s %s -> %s\n", Padded(r.name, 28).c_str(), Padded(StrCat("[", r.bits, "]"), 20).c_str(), r.a.c_str(), r.b.c_str());
  for (int bit : raw_bits)
    std::printf("  %s %s %d -> %d (a bit no field explains)\n", Padded(StrCat("bit ", bit), 28).c_str(), Padded("", 20).c_str(),
                blob::GetBit(a.bytes, bit), blob::GetBit(b.bytes, bit));
  return 1;
}

// ---------------------------------------------------------------------------------------------- layout

int RunLayoutCommand(const std::vector<std::string>& args) {
  std::string format = "text";
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") { std::printf("%s%s", kDecodeUsage, kDecodeHelp); return 0; }
    if (args[i] == "--format" && i + 1 < args.size()) { format = args[++i]; continue; }
    return Usage("layout", StrCat("unexpected argument ", args[i]));
  }
  int n = 0;
  const MapField* f = blob::Fields(&n);
  const blob::Evidence& ev = blob::MeasuredEvidence();
  if (format == "markdown") {
    std::printf("%s", blob::LayoutMarkdown().c_str());
    return 0;
  }
  if (format == "json") {
    json::Writer w;
    w.BeginObject().Key("evidence").BeginObject().Key("driver").String(ev.driver).Key("cuda_driver_version").Int(ev.cuda_driver_version)
        .Key("device").String(ev.device).Key("corpora").String(ev.corpora).EndObject();
    w.Key("fields").BeginArray();
    for (int k = 0; k < n; ++k) {
      w.BeginObject().Key("name").String(f[k].name).Key("bits").String(blob::BitsText(f[k])).Key("width").Int(blob::FieldWidth(f[k]));
      w.Key("pieces").BeginArray();
      for (const blob::Piece& p : f[k].pieces)
        if (p.width) w.BeginObject().Key("lo").Int(p.lo).Key("width").Int(p.width).EndObject();
      w.EndArray();
      w.Key("encoding").String(blob::FieldCodingText(f[k].coding)).Key("kind").String(blob::KindName(f[k].kind));
      w.Key("layouts").String(blob::LayoutMaskText(f[k].layouts)).Key("min_rank").Int(f[k].min_rank).Key("meaning").String(f[k].meaning);
      w.EndObject();
    }
    w.EndArray().Key("never_written").String(blob::NeverWrittenText()).EndObject();
    std::printf("%s\n", w.str().c_str());
    return 0;
  }
  if (format != "text") return Usage("layout", "--format: expected text, json or markdown");
  std::printf("CUtensorMap layout (measured: driver %s on %s)\n", std::string(ev.driver).c_str(), std::string(ev.device).c_str());
  for (int k = 0; k < n; ++k)
    std::printf("  %s %s %s %s\n", Padded(std::string(f[k].name), 28).c_str(), Padded(blob::BitsText(f[k]), 18).c_str(),
                Padded(std::string(blob::FieldCodingText(f[k].coding)), 28).c_str(), std::string(f[k].meaning).c_str());
  std::printf("never written: %s\n", blob::NeverWrittenText().c_str());
  return 0;
}

}  // namespace tmapgen::cli
