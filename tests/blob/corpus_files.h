// corpus_files.h: reads the lines of a JSON Lines corpus, plain or gzip'd (zlib), for the tests of src/blob.
// Where the corpora live: the committed samples in tests/blob/data; the whole shared corpus in
// the shared/data/driver-encodings directory (present on the team's machine, not in
// CI; first of $TMAPGEN_SHARED_CORPUS, <source>/../shared/..., <source>/../../shared/...); tmapgen's own full corpora in $TMAPGEN_BLOB_CORPUS (a directory of *.jsonl.gz from tools/tmap_corpus).
#ifndef TMAPGEN_TESTS_BLOB_CORPUS_FILES_H_
#define TMAPGEN_TESTS_BLOB_CORPUS_FILES_H_

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <functional>
#include <string>
#include <vector>

namespace tmapgen::testing {

// Calls fn(line, line_number) for every line; false when the file cannot be opened.
inline bool ForEachLine(const std::string& path, const std::function<void(const std::string&, size_t)>& fn) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return false;
  std::string line;
  char buf[1 << 16];
  size_t no = 0;
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buf[i] == '\n') { fn(line, ++no); line.clear(); } else line.push_back(buf[i]);
    }
  }
  if (!line.empty()) fn(line, ++no);
  gzclose(f);
  return true;
}

// The files of a directory whose names end with `suffix`, sorted; empty when it does not exist.
inline std::vector<std::string> FilesIn(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> v;
  DIR* d = opendir(dir.c_str());
  if (!d) return v;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) v.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(v.begin(), v.end());
  return v;
}

// The first candidate directory that holds drv_*.jsonl.gz, or "".
inline std::string SharedCorpusDir() {
  std::vector<std::string> c;
  if (const char* e = std::getenv("TMAPGEN_SHARED_CORPUS")) c.push_back(e);
  c.push_back(std::string(TMAPGEN_SOURCE_DIR) + "/../shared/data/driver-encodings");
  c.push_back(std::string(TMAPGEN_SOURCE_DIR) + "/../../shared/data/driver-encodings");
  for (const std::string& d : c)
    if (!FilesIn(d, ".jsonl.gz").empty()) return d;
  return "";
}

// The driver's encodings to test against: the shared corpus where present, then the committed samples
// (tests/blob/data), always.
inline std::vector<std::string> DriverCorpusFiles() {
  std::vector<std::string> files;
  const std::string shared = SharedCorpusDir();
  if (!shared.empty()) files = FilesIn(shared, ".jsonl.gz");
  for (const std::string& f : FilesIn(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data", ".jsonl.gz"))
    files.push_back(f);
  return files;
}

}  // namespace tmapgen::testing

#endif  // TMAPGEN_TESTS_BLOB_CORPUS_FILES_H_
