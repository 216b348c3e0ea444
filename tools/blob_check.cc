// blob_check.cc: compares the driver's own bytes with tmapgen's offline encoding (src/blob), map by map.
//
// tmap_corpus --random N ... | blob_check [--specs FILE] [--mismatches FILE] [--max-print K]
//
// Reads corpus JSON Lines (tools/tmap_corpus, shared/data/driver-encodings) on standard input. For every
// accepted map: Encode(parameters) must equal the driver's bytes, and Decode(bytes) must recover the
// parameters and re-encode exactly. Prints one summary line per mode and a total; each disagreement goes to
// standard error (the first K) and, with --mismatches, as JSON Lines (the corpus line plus "offline" and
// "differing_bits") to FILE. --specs FILE also writes the accepted maps' parameters as specs (the schema form,
// JSON Lines), so that `tmapgen validate` can run the product path on the same maps. --time then times the offline
// encoder and the decoder alone on the agreeing maps (tmap_corpus --time times the driver on the same calls).
// Exit status: 0 every accepted map agrees, 1 some disagree, 2 usage or unreadable input.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <string>

#include "src/blob/blob.h"
#include "src/json/json_writer.h"
#include "src/schema/corpus_json.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"

namespace {

using tmapgen::blob::MapBytes;

struct Count {
  uint64_t lines = 0, accepted = 0, rejected = 0, agree = 0, encode_differs = 0, encode_error = 0, decode_differs = 0;
};

// "" when Decode(bytes) gives back the parameters (as in tests/blob/blob_corpus_test.cc).
std::string DecodeCheck(const tmapgen::CorpusEntry& e, const MapBytes& driver) {
  using namespace tmapgen;
  const blob::Decoded d = blob::Decode(driver);
  if (!d.spec_ok || !d.unexplained.empty() || !d.findings.empty() || !d.reencodes) return "decode: not clean";
  const TensorMapSpec& s = d.spec;
  const TensorMapSpec& p = e.spec;
  if (s.data_type != p.data_type || s.rank != p.rank || s.global_address != p.global_address || s.interleave != p.interleave ||
      s.swizzle != p.swizzle || s.l2_promotion != p.l2_promotion || s.oob_fill != p.oob_fill)
    return "decode: scalar field";
  for (uint32_t i = 0; i < p.rank; ++i)
    if (s.global_dim[i] != p.global_dim[i] || s.element_strides[i] != p.element_strides[i] ||
        (i + 1 < p.rank && s.global_strides[i] != p.global_strides[i]))
      return "decode: dims/strides";
  if (p.mode == Mode::kTiled) {
    for (uint32_t i = 0; i < p.rank; ++i)
      if (s.box_dim[i] != p.box_dim[i]) return "decode: box_dim";
  } else {
    if (s.channels_per_pixel != p.channels_per_pixel || s.pixels_per_column != p.pixels_per_column) return "decode: channels/pixels";
    for (uint32_t i = 0; i + 2 < p.rank; ++i) {
      const int32_t lo = p.mode == Mode::kIm2col ? p.pixel_box_lower_corner[i] : (i == 0 ? p.pixel_box_lower_corner_width : 0);
      const int32_t up = p.mode == Mode::kIm2col ? p.pixel_box_upper_corner[i] : (i == 0 ? p.pixel_box_upper_corner_width : 0);
      if (s.pixel_box_lower_corner[i] != lo || s.pixel_box_upper_corner[i] != up) return "decode: corners";
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tmapgen;
  const char* mismatch_path = nullptr;
  const char* specs_path = nullptr;
  long max_print = 20;
  bool time_it = false;
  std::vector<TensorMapSpec> timed_specs;
  std::vector<MapBytes> timed_maps;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mismatches") && i + 1 < argc) mismatch_path = argv[++i];
    else if (!std::strcmp(argv[i], "--specs") && i + 1 < argc) specs_path = argv[++i];
    else if (!std::strcmp(argv[i], "--max-print") && i + 1 < argc) max_print = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--time")) time_it = true;
    else {
      std::fprintf(stderr, "usage: %s [--specs FILE] [--mismatches FILE] [--max-print K] [--time] < corpus.jsonl\n", argv[0]);
      return 2;
    }
  }
  FILE* mm = mismatch_path ? std::fopen(mismatch_path, "w") : nullptr;
  FILE* sp = specs_path ? std::fopen(specs_path, "w") : nullptr;
  if ((mismatch_path && !mm) || (specs_path && !sp)) { std::fprintf(stderr, "blob_check: cannot write an output file\n"); return 2; }
  Count total, per_mode[3];
  std::string line;
  char buf[1 << 16];
  long printed = 0;
  uint32_t driver_version = 0;
  json::Writer w;
  while (std::fgets(buf, sizeof(buf), stdin)) {
    line += buf;
    if (line.empty() || line.back() != '\n') {
      if (!std::feof(stdin)) continue;
    }
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    ++total.lines;
    absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
    if (!entry.ok()) {
      std::fprintf(stderr, "blob_check: line %llu: %s\n", static_cast<unsigned long long>(total.lines),
                   std::string(entry.status().message()).c_str());
      return 2;
    }
    CorpusEntry& e = *entry;
    if (e.is_header) {
      const size_t p = line.find("\"driver_version\":");
      if (p != std::string::npos) driver_version = static_cast<uint32_t>(std::atol(line.c_str() + p + 17));
      line.clear();
      continue;
    }
    if (e.is_replace) { line.clear(); continue; }
    const int m = e.spec.mode == Mode::kTiled ? 0 : e.spec.mode == Mode::kIm2col ? 1 : 2;
    Count& c = per_mode[m];
    ++c.lines;
    if (e.driver_result != 0 || !e.has_bytes) { ++c.rejected; ++total.rejected; line.clear(); continue; }
    ++c.accepted;
    ++total.accepted;
    MapBytes driver;
    std::copy(e.bytes.begin(), e.bytes.end(), driver.begin());
    MapBytes offline{};
    std::string problem;
    if (!e.representable) { problem = "accepted but not representable"; ++c.encode_error; ++total.encode_error; }
    else if (const absl::Status st = blob::EncodeInto(e.spec, &offline); !st.ok()) { problem = "encode: " + std::string(st.message()); ++c.encode_error; ++total.encode_error; }
    else if (offline != driver) { problem = "encode: differs"; ++c.encode_differs; ++total.encode_differs; }
    else {
      problem = DecodeCheck(e, driver);
      if (!problem.empty()) { ++c.decode_differs; ++total.decode_differs; }
    }
    if (problem.empty()) {
      ++c.agree;
      ++total.agree;
      if (time_it && timed_specs.size() < 200000) { timed_specs.push_back(e.spec); timed_maps.push_back(driver); }
      if (sp) {
        TensorMapSpec s = e.spec;
        s.name = StrCat("line", total.lines);
        w.Clear();
        WriteSpecJson(s, &w);
        std::fprintf(sp, "%s\n", w.str().c_str());
      }
    } else {
      std::string bits;
      for (int b : blob::DifferingBits(offline, driver)) StrAppend(&bits, bits.empty() ? "" : ",", b);
      if (printed++ < max_print) std::fprintf(stderr, "MISMATCH line %llu: %s; bits [%s]\n  %s\n", static_cast<unsigned long long>(total.lines), problem.c_str(), bits.c_str(), line.c_str());
      if (mm) {
        line.pop_back();  // the closing brace
        std::fprintf(mm, "%s,\"problem\":\"%s\",\"offline\":\"%s\",\"differing_bits\":[%s]}\n", line.c_str(), problem.c_str(),
                     blob::ToHex(offline).c_str(), bits.c_str());
      }
    }
    line.clear();
  }
  if (mm) std::fclose(mm);
  if (sp) std::fclose(sp);
  const char* names[3] = {"tiled", "im2col", "im2col_wide"};
  for (int m = 0; m < 3; ++m)
    std::printf("%-12s %9llu calls %9llu accepted %9llu agree %6llu encode-differs %6llu encode-error %6llu decode-differs\n", names[m],
                (unsigned long long)per_mode[m].lines, (unsigned long long)per_mode[m].accepted, (unsigned long long)per_mode[m].agree,
                (unsigned long long)per_mode[m].encode_differs, (unsigned long long)per_mode[m].encode_error,
                (unsigned long long)per_mode[m].decode_differs);
  std::printf("TOTAL: driver %u, layout measured with %s: %llu accepted maps, %llu agree bit for bit, %llu disagree\n", driver_version,
              std::string(blob::MeasuredEvidence().driver).c_str(), (unsigned long long)total.accepted, (unsigned long long)total.agree,
              (unsigned long long)(total.accepted - total.agree));
  if (time_it && !timed_specs.empty()) {
    // The offline encoder and the decoder alone on the agreeing maps: best of 3 passes.
    double best_e = 1e30, best_d = 1e30;
    MapBytes m;
    blob::Decoded d;
    uint64_t sink = 0;
    for (int pass = 0; pass < 3; ++pass) {
      auto t0 = std::chrono::steady_clock::now();
      for (const TensorMapSpec& s : timed_specs) { (void)blob::EncodeInto(s, &m); sink += m[9]; }
      double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (ns < best_e) best_e = ns;
      t0 = std::chrono::steady_clock::now();
      for (const MapBytes& x : timed_maps) { blob::Decode(x, &d); sink += d.spec.rank; }
      ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (ns < best_d) best_d = ns;
    }
    std::printf("TIME: %zu maps: offline EncodeInto %.1f ns per map, Decode %.1f ns per map (best of 3 passes; %llu)\n",
                timed_specs.size(), best_e / static_cast<double>(timed_specs.size()), best_d / static_cast<double>(timed_maps.size()),
                static_cast<unsigned long long>(sink % 10));
  }
  return total.accepted == total.agree ? 0 : 1;
}
