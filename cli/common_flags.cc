#include "cli/common_flags.h"

#include <unistd.h>

#include <cstdlib>

#include "cli/spec_flags.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

bool Parse(std::vector<std::string>& args, Options* o, std::vector<std::pair<std::string, std::string>>* spec_flags,
           std::vector<std::string>* positional, std::string* err) {
  std::string color = "auto";
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "-" || a.size() < 2 || a[0] != '-') {
      positional->push_back(a);
      continue;
    }
    if (a == "--") {
      for (size_t j = i + 1; j < args.size(); ++j) positional->push_back(args[j]);
      break;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name) if (c == '_') c = '-';
    auto take = [&](std::string* out) {
      if (has_value) { *out = value; return true; }
      if (i + 1 >= args.size()) { *err = StrCat("--", name, " needs a value"); return false; }
      *out = args[++i];
      return true;
    };
    auto no_value = [&]() {
      if (has_value) { *err = StrCat("--", name, " takes no value"); return false; }
      return true;
    };
    std::string v;
    if (name == "format") {
      if (!take(&v)) return false;
      if (v == "text") o->format = Format::kText;
      else if (v == "json") o->format = Format::kJson;
      else if (v == "textproto") o->format = Format::kTextproto;
      else { *err = StrCat("--format: unknown value \"", v, "\"; expected text, json or textproto"); return false; }
    } else if (name == "input-format") {
      if (!take(&v)) return false;
      if (v == "json") o->input_format = InputFormat::kJson;
      else if (v == "jsonl") o->input_format = InputFormat::kJsonl;
      else if (v == "textproto") o->input_format = InputFormat::kTextproto;
      else { *err = StrCat("--input-format: unknown value \"", v, "\"; expected json, jsonl or textproto"); return false; }
    } else if (name == "color") {
      if (!take(&color)) return false;
      if (color != "auto" && color != "always" && color != "never") {
        *err = StrCat("--color: unknown value \"", color, "\"; expected auto, always or never");
        return false;
      }
    } else if (name == "no-encode") {
      if (!no_value()) return false;
      o->encode = false;
    } else if (name == "no-gpu") {
      if (!no_value()) return false;
      o->use_gpu = false;
    } else if (name == "quiet" || name == "q") {
      if (!no_value()) return false;
      o->quiet = true;
    } else if (name == "spec") {
      if (!take(&o->spec_file)) return false;
    } else if (IsSpecFlag(name)) {
      if (!take(&v)) return false;
      if (name == "target") {
        if (!tmapgen::Parse(v, &o->target)) {
          *err = StrCat("--target: unknown value \"", v, "\"; expected one of: ", AcceptedNames(static_cast<Target*>(nullptr)));
          return false;
        }
        o->has_target = true;
      }
      spec_flags->emplace_back(name, v);
    } else {
      *err = StrCat("unknown flag ", a);
      return false;
    }
  }
  const bool tty = isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
  o->color = color == "always" || (color == "auto" && tty && o->format == Format::kText);
  o->progress = isatty(STDERR_FILENO) != 0 && std::getenv("CI") == nullptr;
  return true;
}

}  // namespace

absl::Status ParseCommon(std::vector<std::string>& args, Options* o,
                         std::vector<std::pair<std::string, std::string>>* spec_flags,
                         std::vector<std::string>* positional) {
  std::string err;
  if (!Parse(args, o, spec_flags, positional, &err)) return absl::InvalidArgumentError(ToAbsl(err));
  return absl::OkStatus();
}

}  // namespace tmapgen::cli
