// The worker of src/gpu/runtime/worker.h without a GPU: callbacks that succeed, fault, crash, exit, hang,
// or cannot open, and what the caller learns of each. The expected values are the contract's (worker.h):
// the texts each item sent, in order; the item a child died on; the next child starting after it.
#include "src/gpu/runtime/worker.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace tmapgen::gpu {
namespace {

struct Seen {
  std::vector<std::pair<size_t, std::string>> lines;
  std::vector<std::pair<size_t, std::string>> faults;
  std::vector<std::pair<size_t, WorkerDeath>> deaths;
};

// Callbacks that record what the caller receives; `run` decides per item.
WorkerCallbacks Recording(Seen* seen, std::function<absl::Status(size_t, const WorkerSend&)> run) {
  WorkerCallbacks cb;
  cb.open = []() -> absl::StatusOr<std::string> { return std::string("fake device (sm_90)"); };
  cb.run = std::move(run);
  cb.on_line = [seen](size_t i, const std::string& text) { seen->lines.emplace_back(i, text); };
  cb.on_fault = [seen](size_t i, const std::string& m) { seen->faults.emplace_back(i, m); };
  cb.on_death = [seen](size_t i, const WorkerDeath& d) { seen->deaths.emplace_back(i, d); };
  return cb;
}

absl::Status Answer(size_t i, const WorkerSend& send) {
  send("item " + std::to_string(i));
  return absl::OkStatus();
}

std::vector<std::pair<size_t, std::string>> Answers(std::vector<size_t> items) {
  std::vector<std::pair<size_t, std::string>> v;
  for (size_t i : items) v.emplace_back(i, "item " + std::to_string(i));
  return v;
}

TEST(Worker, EveryItemAnswersInOneChildWithItsTextsAsSent) {
  Seen seen;
  int opened_here = 0;
  WorkerCallbacks cb = Recording(&seen, [](size_t i, const WorkerSend& send) {
    send("item " + std::to_string(i));
    send("  two lines\nback\\slash n\\n|bar ");  // newlines, backslashes, leading spaces kept
    send("");
    return absl::OkStatus();
  });
  cb.open = [&opened_here]() -> absl::StatusOr<std::string> {
    ++opened_here;  // in the child: the caller's copy stays 0
    return std::string("fake device (sm_90)");
  };
  const WorkerRun run = RunWorker(3, 30, cb);
  EXPECT_TRUE(run.opened);
  EXPECT_EQ(run.device, "fake device (sm_90)");
  EXPECT_EQ(run.why_not, "");
  EXPECT_EQ(run.children, 1);
  EXPECT_EQ(opened_here, 0) << "open runs in the child, never in the caller";
  ASSERT_EQ(seen.lines.size(), 9u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(seen.lines[3 * i], std::make_pair(i, "item " + std::to_string(i)));
    EXPECT_EQ(seen.lines[3 * i + 1], std::make_pair(i, std::string("  two lines\nback\\slash n\\n|bar ")));
    EXPECT_EQ(seen.lines[3 * i + 2], std::make_pair(i, std::string()));
  }
  EXPECT_TRUE(seen.faults.empty());
  EXPECT_TRUE(seen.deaths.empty());
}

TEST(Worker, AFaultEndsTheChildAndTheNextStartsAfterIt) {
  Seen seen;
  const WorkerRun run = RunWorker(4, 30, Recording(&seen, [](size_t i, const WorkerSend& send) -> absl::Status {
    if (i == 1) {
      send("before the fault");
      return absl::InternalError("kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS\nsecond line");
    }
    return Answer(i, send);
  }));
  EXPECT_TRUE(run.opened);
  EXPECT_EQ(run.children, 2);
  std::vector<std::pair<size_t, std::string>> want = Answers({0});
  want.emplace_back(1, "before the fault");
  for (const auto& a : Answers({2, 3})) want.push_back(a);
  EXPECT_EQ(seen.lines, want);
  ASSERT_EQ(seen.faults.size(), 1u);
  EXPECT_EQ(seen.faults[0], std::make_pair(size_t{1}, std::string("kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS\nsecond line")));
  EXPECT_TRUE(seen.deaths.empty());
}

TEST(Worker, ACrashNamesItsItemAndANewChildRunsTheRest) {
  Seen seen;
  const WorkerRun run = RunWorker(5, 30, Recording(&seen, [](size_t i, const WorkerSend& send) -> absl::Status {
    if (i == 2) {
      send("sent before the crash");
      raise(SIGKILL);
    }
    return Answer(i, send);
  }));
  EXPECT_TRUE(run.opened);
  EXPECT_EQ(run.children, 2);
  std::vector<std::pair<size_t, std::string>> want = Answers({0, 1});
  want.emplace_back(2, "sent before the crash");
  for (const auto& a : Answers({3, 4})) want.push_back(a);
  EXPECT_EQ(seen.lines, want);
  ASSERT_EQ(seen.deaths.size(), 1u);
  EXPECT_EQ(seen.deaths[0].first, 2u);
  EXPECT_FALSE(seen.deaths[0].second.hung);
  EXPECT_TRUE(WIFSIGNALED(seen.deaths[0].second.wait_status));
  EXPECT_EQ(WTERMSIG(seen.deaths[0].second.wait_status), SIGKILL);
  EXPECT_TRUE(seen.faults.empty());
}

TEST(Worker, AChildThatExitsInAnItemDiedOnIt) {
  Seen seen;
  const WorkerRun run = RunWorker(3, 30, Recording(&seen, [](size_t i, const WorkerSend& send) -> absl::Status {
    if (i == 0) _exit(5);
    return Answer(i, send);
  }));
  EXPECT_EQ(run.children, 2);
  EXPECT_EQ(seen.lines, Answers({1, 2}));
  ASSERT_EQ(seen.deaths.size(), 1u);
  EXPECT_EQ(seen.deaths[0].first, 0u);
  EXPECT_FALSE(seen.deaths[0].second.hung);
  ASSERT_TRUE(WIFEXITED(seen.deaths[0].second.wait_status));
  EXPECT_EQ(WEXITSTATUS(seen.deaths[0].second.wait_status), 5);
}

TEST(Worker, AHangIsEndedByTheWatchdogAndNamed) {
  Seen seen;
  const WorkerRun run = RunWorker(3, 1, Recording(&seen, [](size_t i, const WorkerSend& send) -> absl::Status {
    if (i == 1)
      for (;;) pause();
    return Answer(i, send);
  }));
  EXPECT_TRUE(run.opened);
  EXPECT_EQ(run.children, 2);
  EXPECT_EQ(seen.lines, Answers({0, 2}));
  ASSERT_EQ(seen.deaths.size(), 1u);
  EXPECT_EQ(seen.deaths[0].first, 1u);
  EXPECT_TRUE(seen.deaths[0].second.hung);
}

TEST(Worker, EveryItemCrashingTakesOneChildEach) {
  Seen seen;
  const WorkerRun run = RunWorker(3, 30, Recording(&seen, [](size_t, const WorkerSend&) -> absl::Status {
    raise(SIGKILL);
    return absl::OkStatus();
  }));
  EXPECT_TRUE(run.opened);
  EXPECT_EQ(run.children, 3);
  ASSERT_EQ(seen.deaths.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(seen.deaths[i].first, i);
  EXPECT_TRUE(seen.lines.empty());
}

TEST(Worker, AnOpenErrorEndsTheRunWithItsMessage) {
  Seen seen;
  WorkerCallbacks cb = Recording(&seen, Answer);
  cb.open = []() -> absl::StatusOr<std::string> { return absl::UnavailableError("no CUDA driver\n(libcuda.so.1)"); };
  const WorkerRun run = RunWorker(4, 30, cb);
  EXPECT_FALSE(run.opened);
  EXPECT_EQ(run.why_not, "no CUDA driver\n(libcuda.so.1)");
  EXPECT_EQ(run.device, "");
  EXPECT_EQ(run.children, 1);
  EXPECT_TRUE(seen.lines.empty());
  EXPECT_TRUE(seen.deaths.empty());
}

TEST(Worker, AChildThatDiesBeforeOpeningLeavesTheReasonToTheCaller) {
  Seen seen;
  WorkerCallbacks cb = Recording(&seen, Answer);
  cb.open = []() -> absl::StatusOr<std::string> { _exit(1); };
  const WorkerRun run = RunWorker(2, 30, cb);
  EXPECT_FALSE(run.opened);
  EXPECT_EQ(run.why_not, "");
  EXPECT_EQ(run.children, 1);
  EXPECT_TRUE(seen.deaths.empty());
}

TEST(Worker, NoItemsNoChild) {
  Seen seen;
  const WorkerRun run = RunWorker(0, 30, Recording(&seen, Answer));
  EXPECT_FALSE(run.opened);
  EXPECT_EQ(run.children, 0);
  EXPECT_EQ(run.why_not, "");
}

}  // namespace
}  // namespace tmapgen::gpu
