#include "cli/common_flags.h"

#include <unistd.h>

#include <cstdlib>

#include "cli/spec_flags.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

absl::Status Parse(std::vector<std::string>& args, Options* o, std::vector<std::pair<std::string, std::string>>* spec_flags,
                   std::vector<std::string>* positional) {
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
      if (has_value) {
        *out = value;
        return absl::OkStatus();
      }
      if (i + 1 >= args.size()) return Bad(StrCat("--", name, " needs a value"));
      *out = args[++i];
      return absl::OkStatus();
    };
    auto no_value = [&]() { return has_value ? Bad(StrCat("--", name, " takes no value")) : absl::OkStatus(); };
    std::string v;
    if (name == "format") {
      if (absl::Status st = take(&v); !st.ok()) return st;
      if (v == "text") o->format = Format::kText;
      else if (v == "json") o->format = Format::kJson;
      else if (v == "textproto") o->format = Format::kTextproto;
      else if (v == "short") o->format = Format::kShort;
      else
        return Bad(StrCat("--format: unknown value \"", v, "\"; expected text, json, textproto or short",
                          DidYouMean(v, {"text", "json", "textproto", "short"})));
    } else if (name == "input-format") {
      if (absl::Status st = take(&v); !st.ok()) return st;
      if (v == "json") o->input_format = InputFormat::kJson;
      else if (v == "jsonl") o->input_format = InputFormat::kJsonl;
      else if (v == "textproto") o->input_format = InputFormat::kTextproto;
      else return Bad(StrCat("--input-format: unknown value \"", v, "\"; expected json, jsonl or textproto"));
    } else if (name == "color") {
      if (absl::Status st = take(&color); !st.ok()) return st;
      if (color != "auto" && color != "always" && color != "never")
        return Bad(StrCat("--color: unknown value \"", color, "\"; expected auto, always or never"));
    } else if (name == "no-encode") {
      if (absl::Status st = no_value(); !st.ok()) return st;
      o->encode = false;
    } else if (name == "no-gpu") {
      if (absl::Status st = no_value(); !st.ok()) return st;
      o->use_gpu = false;
    } else if (name == "quiet" || name == "q") {
      if (absl::Status st = no_value(); !st.ok()) return st;
      o->quiet = true;
    } else if (name == "spec") {
      if (absl::Status st = take(&o->spec_file); !st.ok()) return st;
    } else if (IsSpecFlag(name)) {
      if (absl::Status st = take(&v); !st.ok()) return st;
      if (name == "target") {
        if (!tmapgen::Parse(v, &o->target))
          return Bad(StrCat("--target: unknown value \"", v, "\"; expected one of: ",
                            AcceptedNames(static_cast<Target*>(nullptr))));
        o->has_target = true;
      }
      spec_flags->emplace_back(name, v);
    } else {
      return Bad(StrCat("unknown flag ", a, DidYouMean(name, CommonFlagNames(), "--")));
    }
  }
  o->color = color == "always" || (color == "auto" && AutoColor(STDOUT_FILENO) && o->format == Format::kText);
  o->progress = isatty(STDERR_FILENO) != 0 && std::getenv("CI") == nullptr;
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseCommon(std::vector<std::string>& args, Options* o,
                         std::vector<std::pair<std::string, std::string>>* spec_flags,
                         std::vector<std::string>* positional) {
  return Parse(args, o, spec_flags, positional);
}

bool AutoColorFor(bool is_terminal, const char* no_color, const char* term) {
  if (!is_terminal) return false;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return term == nullptr || std::string_view(term) != "dumb";
}

bool AutoColor(int fd) { return AutoColorFor(isatty(fd) != 0, std::getenv("NO_COLOR"), std::getenv("TERM")); }

std::vector<std::string_view> CommonFlagNames() {
  std::vector<std::string_view> names = {"format", "input-format", "color", "no-encode", "no-gpu", "quiet", "spec",
                                         "help", "version", "remote", "token", "tls-ca", "deadline-ms"};
  for (std::string_view n : SpecFlagNames()) names.push_back(n);
  return names;
}

absl::StatusOr<std::string> RemoteTarget(const std::string& value) {
  const std::string_view v = value;
  if (v.find("://") != std::string_view::npos || v.rfind("unix:", 0) == 0 || v.rfind("ipv4:", 0) == 0 ||
      v.rfind("ipv6:", 0) == 0) {
    return value;  // a gRPC target URI: its own rules
  }
  if (v.find(',') != std::string_view::npos) {  // a list of servers: each by the rules below
    std::string list;
    size_t start = 0;
    for (;;) {
      const size_t comma = value.find(',', start);
      const std::string one = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (one.empty()) return Bad(StrCat("--remote ", value, ": an empty server in the list"));
      absl::StatusOr<std::string> t = RemoteTarget(one);
      if (!t.ok()) return t.status();
      if (t->rfind("unix:", 0) == 0 || t->find("://") != std::string::npos)
        return Bad(StrCat("--remote ", value, ": a list holds HOST[:PORT] servers, not \"", one, "\""));
      StrAppend(&list, list.empty() ? "" : ",", *t);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return list;
  }
  std::string_view host = v, port;
  if (!v.empty() && v[0] == '[') {  // [IPv6] or [IPv6]:PORT
    const size_t close = v.find(']');
    if (close == std::string_view::npos) return Bad(StrCat("--remote ", value, ": missing ']' after the IPv6 address"));
    host = v.substr(0, close + 1);
    if (close + 1 < v.size()) {
      if (v[close + 1] != ':') return Bad(StrCat("--remote ", value, ": expected [IPv6]:PORT"));
      port = v.substr(close + 2);
      if (port.empty()) return Bad(StrCat("--remote ", value, ": the port after ':' is missing (omit ':' for the default ", kDefaultRemotePort, ")"));
    }
  } else {
    const size_t colon = v.rfind(':');
    if (colon != std::string_view::npos) {
      if (v.find(':') != colon) return Bad(StrCat("--remote ", value, ": write an IPv6 address as [ADDRESS]:PORT"));
      host = v.substr(0, colon);
      port = v.substr(colon + 1);
      if (port.empty()) return Bad(StrCat("--remote ", value, ": the port after ':' is missing (omit ':' for the default ", kDefaultRemotePort, ")"));
    }
  }
  if (host.empty() || host == "[]") return Bad(StrCat("--remote ", value, ": no host (expected HOST or HOST:PORT)"));
  if (port.empty()) {
    return StrCat(host, ":", kDefaultRemotePort);
  }
  uint32_t p = 0;
  for (char ch : port) {
    if (ch < '0' || ch > '9' || p > 65535) { p = 0; break; }
    p = p * 10 + static_cast<uint32_t>(ch - '0');
  }
  if (p == 0 || p > 65535) return Bad(StrCat("--remote ", value, ": port \"", port, "\" is not a number in 1..65535"));
  return value;
}

std::string HelpHint(std::string_view command) {
  return StrCat("see tmapgen ", command, command.empty() ? "" : " ", "--help\n");
}

}  // namespace tmapgen::cli
