// layers_check: holds every #include of the scanned folders to the rooms table (docs/layers.txt, the
// machine-readable form of the table in docs/design.md).
//
//   layers_check TABLE ROOT     exit 0: every include is allowed; 1: the violations, one per line, as
//                               FILE:LINE: ...; 2: the table or the tree cannot be read
//
// Checked:
// - every file of the scanned folders belongs to a room (its longest matching path);
// - each "#include" of such a file names a file of a room the file's room may include (itself included),
//   or an outside library the room may use; an include without a folder ("x.h") is the including file's
//   folder's; <...> includes of no listed library are the system's and not checked;
// - every path of the table exists and every exception is still needed, so that the table cannot keep a
//   room the tree no longer has or excuse an include that is gone.
// Plain C++17 (std::filesystem), so that it runs wherever the tests build.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Room {
  std::string name;
  std::vector<std::string> paths;
  std::set<std::string> allowed;
};

struct Table {
  std::vector<Room> rooms;
  std::vector<std::pair<std::string, std::string>> externals;  // (prefix, library)
  std::vector<std::string> scan;
  std::set<std::pair<std::string, std::string>> exceptions;    // (file, room)
};

std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

bool ReadTable(const std::string& path, Table* t, std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = "cannot open " + path;
    return false;
  }
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::vector<std::string> w = Words(line);
    if (w.empty()) continue;
    const std::string where = path + ":" + std::to_string(n) + ": ";
    const auto colon = std::find(w.begin(), w.end(), ":");
    if (w[0] == "room") {
      if (w.size() < 4 || colon == w.end() || colon - w.begin() < 3) {
        *err = where + "expected: room NAME PATH... : ALLOWED...";
        return false;
      }
      Room r;
      r.name = w[1];
      r.paths.assign(w.begin() + 2, colon);
      r.allowed.insert(colon + 1, w.end());
      for (const Room& o : t->rooms)
        if (o.name == r.name) {
          *err = where + "room " + r.name + " listed twice";
          return false;
        }
      t->rooms.push_back(r);
    } else if (w[0] == "external") {
      if (w.size() < 3) {
        *err = where + "expected: external NAME PREFIX...";
        return false;
      }
      for (size_t i = 2; i < w.size(); ++i) t->externals.emplace_back(w[i], w[1]);
    } else if (w[0] == "scan") {
      t->scan.insert(t->scan.end(), w.begin() + 1, w.end());
    } else if (w[0] == "exception") {
      if (w.size() < 5 || w[3] != ":") {
        *err = where + "expected: exception FILE ROOM : WHY";
        return false;
      }
      t->exceptions.emplace(w[1], w[2]);
    } else {
      *err = where + "unknown line \"" + w[0] + "\" (room, external, scan or exception)";
      return false;
    }
  }
  // Every allowed name is a room or a library.
  std::set<std::string> names;
  for (const Room& r : t->rooms) names.insert(r.name);
  for (const auto& e : t->externals) names.insert(e.second);
  for (const Room& r : t->rooms)
    for (const std::string& a : r.allowed)
      if (!names.count(a)) {
        *err = path + ": room " + r.name + " may include \"" + a + "\", which is neither a room nor a library";
        return false;
      }
  return true;
}

// The room of a repository-relative path: its longest matching room path ("" when none). A path matches a
// folder (the path itself or below it) or, ending in a '.', a file-name prefix.
const Room* RoomOf(const Table& t, const std::string& file) {
  const Room* best = nullptr;
  size_t best_len = 0;
  for (const Room& r : t.rooms)
    for (const std::string& p : r.paths) {
      bool match;
      if (!p.empty() && p.back() == '.')
        match = file.compare(0, p.size(), p) == 0;
      else
        match = file == p || (file.size() > p.size() && file.compare(0, p.size(), p) == 0 && file[p.size()] == '/');
      if (match && p.size() > best_len) {
        best = &r;
        best_len = p.size();
      }
    }
  return best;
}

std::string External(const Table& t, const std::string& inc) {
  for (const auto& e : t.externals)
    if (inc.compare(0, e.first.size(), e.first) == 0) return e.second;
  return "";
}

// The included name and whether it was "" (quoted), or false when the line is no include.
bool ParseInclude(const std::string& line, std::string* name, bool* quoted) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return false;
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) return false;
  const char close = line[i] == '"' ? '"' : '>';
  const size_t end = line.find(close, i + 1);
  if (end == std::string::npos) return false;
  *name = line.substr(i + 1, end - i - 1);
  *quoted = close == '"';
  return true;
}

bool IsSource(const fs::path& p) {
  static const std::set<std::string> kExt = {".h", ".cc", ".cu", ".cuh", ".hpp", ".cpp", ".inc"};
  return kExt.count(p.extension().string()) != 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: layers_check TABLE ROOT\n");
    return 2;
  }
  Table t;
  std::string err;
  if (!ReadTable(argv[1], &t, &err)) {
    std::fprintf(stderr, "layers_check: %s\n", err.c_str());
    return 2;
  }
  const fs::path root = argv[2];
  std::vector<std::string> problems;
  for (const Room& r : t.rooms)
    for (const std::string& p : r.paths) {
      const std::string dir = p.back() == '.' ? fs::path(p).parent_path().string() : p;
      bool exists = fs::exists(root / dir);
      if (exists && p.back() == '.') {
        exists = false;
        for (const auto& e : fs::directory_iterator(root / dir))
          if (fs::relative(e.path(), root).generic_string().compare(0, p.size(), p) == 0) exists = true;
      }
      if (!exists) problems.push_back(std::string(argv[1]) + ": room " + r.name + ": " + p + " does not exist");
    }

  std::set<std::pair<std::string, std::string>> used_exceptions;
  int files = 0, includes = 0;
  for (const std::string& s : t.scan) {
    if (!fs::is_directory(root / s)) {
      problems.push_back(std::string(argv[1]) + ": scan " + s + " is not a folder");
      continue;
    }
    std::vector<fs::path> paths;
    for (const auto& e : fs::recursive_directory_iterator(root / s))
      if (e.is_regular_file() && IsSource(e.path())) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
      const std::string file = fs::relative(p, root).generic_string();
      const Room* room = RoomOf(t, file);
      if (room == nullptr) {
        problems.push_back(file + ": in no room of " + argv[1]);
        continue;
      }
      ++files;
      std::ifstream in(p);
      std::string line, inc;
      bool quoted;
      for (int n = 1; std::getline(in, line); ++n) {
        if (!ParseInclude(line, &inc, &quoted)) continue;
        ++includes;
        const std::string where = file + ":" + std::to_string(n) + ": " + room->name + " (" + file + ") includes ";
        const std::string lib = External(t, inc);
        if (!lib.empty()) {
          if (!room->allowed.count(lib))
            problems.push_back(where + "<" + inc + ">, of library " + lib + ", which room " + room->name +
                               " may not use");
          continue;
        }
        if (!quoted) continue;  // the system's
        std::string target = inc;
        if (inc.find('/') == std::string::npos) target = fs::path(file).parent_path().generic_string() + "/" + inc;
        const Room* to = RoomOf(t, target);
        if (to == nullptr) {
          problems.push_back(where + "\"" + inc + "\", which is in no room of " + argv[1]);
          continue;
        }
        if (to == room || room->allowed.count(to->name)) continue;
        if (t.exceptions.count({file, to->name})) {
          used_exceptions.emplace(file, to->name);
          continue;
        }
        problems.push_back(where + "\"" + inc + "\" of room " + to->name + ", which room " + room->name +
                           " may not include");
      }
    }
  }
  for (const auto& e : t.exceptions)
    if (!used_exceptions.count(e))
      problems.push_back(std::string(argv[1]) + ": exception " + e.first + " " + e.second +
                         " is no longer needed: remove it");
  for (const std::string& p : problems) std::printf("%s\n", p.c_str());
  if (!problems.empty()) {
    std::printf("layers_check: %zu violation(s) of %s (the rooms table of docs/design.md)\n", problems.size(), argv[1]);
    return 1;
  }
  std::printf("layers_check: %d files, %d includes, all within %s\n", files, includes, argv[1]);
  return 0;
}
