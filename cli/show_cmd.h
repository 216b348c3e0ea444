// show_cmd.h: `tmapgen show`: where each 16-byte chunk of a tensor copy lands in shared memory.
//
//   tmapgen show SPEC [--coords x,y,..] [--smem-address A] [--format text|json] [--svg FILE]
//                     [--mode M] [--direction D] [--im2col-offsets w,h,d] [--w-halo N] [--w-offset N]
//                     [--rows r0,r1,r2,r3] [--max-lines N]
//
// SPEC is a JSON spec file (docs/schema.md) or - for standard input. The copy is modelled by src/model
// (docs/model.md): a text grid (or JSON) on standard output, and with --svg a picture with the box, the
// shared-memory lines, the 32 banks, the swizzle pattern and out-of-bounds cells, plus the bank conflicts of
// the common read patterns.
//
// Exit status: 0 shown, 1 the model refuses the spec or instruction (the message names the rule), 2 bad usage
// or unreadable input (the message names the flag).
#ifndef TMAPGEN_CLI_SHOW_CMD_H_
#define TMAPGEN_CLI_SHOW_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

// `args` are the arguments after "show".
int RunShowCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_SHOW_CMD_H_
