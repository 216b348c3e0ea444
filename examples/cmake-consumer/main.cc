// consumer: the generated constants of map tile_a (tile.gen.h, made at build time by tmapgen codegen)
// next to the library's verdict on the same spec file, read at run time. Exit 0 when they agree.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "tile.gen.h"

int main() {
  namespace gen = tmapgen_gen::tile_a;
  std::printf("generated: tile_a box %ux%u, %u transaction bytes, shared memory aligned to %u (recommended)\n",
              gen::kBoxDim[0], gen::kBoxDim[1], gen::kTransactionBytes, gen::kSmemAlignmentRecommended);

  std::ifstream in(CONSUMER_SPEC);
  if (!in.is_open()) {
    std::fprintf(stderr, "consumer: cannot read %s\n", CONSUMER_SPEC);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<tmapgen::TensorMapSpec> spec = tmapgen::ParseSpecJson(text.str());
  if (!spec.ok()) {
    std::fprintf(stderr, "consumer: %s\n", std::string(spec.status().message()).c_str());
    return 2;
  }
  tmapgen::Validation v;
  tmapgen::Validate(*spec, &v);
  std::printf("library: tile_a %s for %s, %llu transaction bytes\n", v.valid ? "valid" : "invalid",
              std::string(tmapgen::Name(v.reported_target)).c_str(),
              static_cast<unsigned long long>(v.facts.transaction_bytes));
  return v.valid && v.facts.transaction_bytes == gen::kTransactionBytes ? 0 : 1;
}
