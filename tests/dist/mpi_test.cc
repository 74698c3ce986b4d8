// The hlsgym binary under `mpirun -np R` (Open MPI, oversubscribed on small machines, allowed
// as root): train writes the same policy file byte for byte for 1 process and 1, 2, 3 ranks
// (also resumed with another rank count); evaluate, search --restarts and collect print or
// write the same results; more ranks than graphs or environments and an unreadable graph
// are one clear error; a rank that throws or is killed ends the job within seconds naming
// the rank and the graph, and the last checkpoint resumes. Runs are small (designs/, a few
// hundred steps): seconds each.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("hlsgym_mpi_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// mpirun's command line, or a test failure naming the package that provides it.
std::string mpirun(int ranks) {
  const std::string exe = HLSGYM_MPIEXEC;
  if (exe.empty() || !fs::exists(exe)) {
    ADD_FAILURE() << "mpirun not found (configured MPIEXEC_EXECUTABLE='" << exe
                  << "'): install the Debian package openmpi-bin (scripts/install-deps.sh does)";
    return "false";
  }
  // Root is allowed (CI and this machine run as root); more ranks than cores is allowed.
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  // Containers often forbid the cross-process memory reads of Open MPI's shared-memory
  // single-copy path (CMA); plain copies work everywhere.
  ::setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
  return exe + " --oversubscribe -np " + std::to_string(ranks) + " ";
}

// ranks 0: the plain process (no mpirun); otherwise under mpirun with that many ranks.
CliResult run_ranks(int ranks, const std::string& args) {
  return ranks == 0 ? run_cli(args) : run_cli_under(mpirun(ranks), args);
}

std::string designs() { return (source_dir() / "designs").string(); }

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The policy file's step counter (the settings line after "ppo 2").
int64_t policy_steps(const fs::path& p) {
  std::istringstream in(slurp(p));
  std::string line;
  while (std::getline(in, line) && line != "ppo 2") {}
  std::getline(in, line);
  std::istringstream f(line);
  std::string x;
  for (int i = 0; i < 11; ++i) f >> x;
  return std::stoll(x);
}

TEST(Mpi, TrainWritesTheSamePolicyForOneProcessAndOneTwoThreeRanks) {
  const fs::path dir = fresh_dir("train");
  const std::string common = "train --graphs " + designs() + " --steps 1536 --episode-len 8 --hidden 16 --envs 5 ";
  const CliResult single = run_ranks(0, common + "-o " + (dir / "p0.policy").string());
  ASSERT_EQ(single.exit_code, 0) << single.err;
  const std::string want = slurp(dir / "p0.policy");
  ASSERT_FALSE(want.empty());
  for (int ranks : {1, 2, 3}) {
    const std::string out = (dir / ("p" + std::to_string(ranks) + ".policy")).string();
    // --workers 2: each rank steps its environments on two threads, which changes nothing.
    const CliResult r = run_ranks(ranks, common + "--workers 2 -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(out), want) << ranks << " ranks";
    EXPECT_EQ(count(r.out, "policy " + out), 1u) << "rank 0 alone reports: " << r.out;
    if (ranks > 1) EXPECT_NE(r.err.find(std::to_string(ranks) + " ranks: per update"), std::string::npos) << r.err;
  }
  // A run checkpointed by 2 ranks resumes with 3 ranks or one process to the same policy.
  const std::string half = (dir / "half.policy").string();
  ASSERT_EQ(run_ranks(2, "train --graphs " + designs() + " --steps 768 --episode-len 8 --hidden 16 --envs 5 -o " + half).exit_code, 0);
  fs::copy_file(half, half + ".b");
  const CliResult r3 = run_ranks(3, common + "--resume -o " + half);
  ASSERT_EQ(r3.exit_code, 0) << r3.err;
  EXPECT_NE(r3.err.find("resuming " + half + " at step 768"), std::string::npos) << r3.err;
  const CliResult r0 = run_ranks(0, common + "--resume -o " + half + ".b");
  ASSERT_EQ(r0.exit_code, 0) << r0.err;
  EXPECT_EQ(slurp(half), slurp(half + ".b"));
  EXPECT_EQ(policy_steps(half), 1536);
  fs::remove_all(dir);
}

nlohmann::json without_clock(nlohmann::json j) {
  // Wall-clock fields are the only ones allowed to differ between runs.
  if (j.is_object()) {
    j.erase("seconds");
    j.erase("policy_seconds");
    for (auto& [k, v] : j.items()) v = without_clock(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = without_clock(v);
  }
  return j;
}

TEST(Mpi, EvaluateAndSearchPrintTheSameJsonOnAnyNumberOfRanks) {
  const std::string eval = "evaluate --graphs " + designs() + " --policy learned --no-baselines --json";
  const std::string search = "search " + designs() + "/matvec.yaml --algo random --restarts 5 --budget-steps 200 --json";
  for (const std::string& args : {eval, search}) {
    const CliResult single = run_ranks(0, args);
    ASSERT_EQ(single.exit_code, 0) << single.err;
    const nlohmann::json want = without_clock(nlohmann::json::parse(single.out));
    for (int ranks : {1, 2, 3}) {
      const CliResult r = run_ranks(ranks, args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(without_clock(nlohmann::json::parse(r.out)), want) << ranks << " ranks: " << args;
    }
  }
  // The restarts really are different searches: the reported one is the best of them.
  const nlohmann::json j = nlohmann::json::parse(run_ranks(0, search).out);
  EXPECT_EQ(j["restarts"], 5);
  const nlohmann::json one = nlohmann::json::parse(
      run_ranks(0, "search " + designs() + "/matvec.yaml --algo random --budget-steps 200 --json").out);
  EXPECT_LE(j["cost"].get<double>(), one["cost"].get<double>());
  EXPECT_GT(j["evaluations"].get<int64_t>(), one["evaluations"].get<int64_t>());
}

TEST(Mpi, CollectWritesTheSameDatasetOnAnyNumberOfRanks) {
  const fs::path dir = fresh_dir("collect");
  const std::string args = "collect --graphs " + designs() + " --episodes 2 --episode-len 6 --threads 2 -o ";
  ASSERT_EQ(run_ranks(0, args + (dir / "d0.csv").string()).exit_code, 0);
  const std::string want = slurp(dir / "d0.csv");
  ASSERT_GT(want.size(), 1000u);
  for (int ranks : {1, 2, 3}) {
    const CliResult r = run_ranks(ranks, args + (dir / "d.csv").string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(dir / "d.csv"), want) << ranks << " ranks";
  }
  fs::remove_all(dir);
}

TEST(Mpi, MoreRanksThanWorkOrABadGraphIsOneClearError) {
  const std::string two = designs() + "/fir8.yaml " + designs() + "/sad.yaml";
  CliResult r = run_ranks(3, "evaluate --graphs " + two + " --policy greedy --no-baselines");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(count(r.err, "error: 3 ranks for 2 graphs"), 1u) << r.err;
  r = run_ranks(3, "train --graphs " + two + " --steps 256 --envs 2 -o /tmp/never.policy");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(count(r.err, "error: 3 ranks for 2 environments"), 1u) << r.err;
  EXPECT_FALSE(fs::exists("/tmp/never.policy"));
  r = run_ranks(2, "search " + designs() + "/fir8.yaml --json");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(count(r.err, "error: 2 ranks for 1 search restarts"), 1u) << r.err;

  const fs::path dir = fresh_dir("bad");
  std::ofstream(dir / "bad.yaml") << "design: bad\ninputs:\n  x: s16[8\nops: []\noutputs: [x]\n";
  r = run_ranks(3, "evaluate --graphs " + designs() + "/fir8.yaml " + (dir / "bad.yaml").string() + " --policy greedy");
  EXPECT_EQ(r.exit_code, 1);  // every rank exits 1, and so does mpirun
  EXPECT_EQ(count(r.err, "error: " + (dir / "bad.yaml").string() + ":3:"), 1u) << "once, from rank 0: " << r.err;
  fs::remove_all(dir);
}

TEST(Mpi, ARankThatThrowsEndsTheJobNamingTheRankAndTheGraph) {
  // Rank 1 alone gets an impossible search length (mpirun's MPMD form), so it throws on the
  // first graph it takes while rank 0 works on. A large real graph first keeps rank 0 busy
  // for seconds, so rank 1 surely gets a graph before rank 0 has done them all.
  const fs::path big = hlo_data_dir() / "train" / "gemma2_2b_keras_generate.before_opt.hlo";
  ASSERT_TRUE(fs::exists(big)) << big;
  const std::string args =
      HLSGYM_CLI + std::string(" evaluate --graphs ") + big.string() + " " + designs() + " --policy greedy --no-baselines";
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path dir = fresh_dir("throw");
  const std::string cmd = mpirun(1) + args + " : -np 1 " + args + " --max-len 0 >" + (dir / "out").string() + " 2>" +
                          (dir / "err").string();
  const int status = std::system(cmd.c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string err = slurp(dir / "err");
  EXPECT_NE(status, 0);
  EXPECT_LT(seconds, 20);
  EXPECT_TRUE(std::regex_search(err, std::regex("error: rank 1: on graph [A-Za-z0-9_.]+: the longest order \\(max_len\\) must be positive")))
      << err;
  fs::remove_all(dir);
}

// The pid of the hlsgym process of `rank` whose command line mentions `marker`, or 0.
pid_t find_rank(int rank, const std::string& marker) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp(e.path() / "cmdline"), environ = slurp(e.path() / "environ");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    std::replace(environ.begin(), environ.end(), '\0', '\n');
    if (cmdline.find(marker) != std::string::npos && cmdline.find("mpirun") == std::string::npos &&
        environ.find("\nOMPI_COMM_WORLD_RANK=" + std::to_string(rank) + "\n") != std::string::npos)
      return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

TEST(Mpi, AKilledRankEndsTheJobWithinSecondsAndTheCheckpointResumes) {
  const fs::path dir = fresh_dir("kill");
  const std::string policy = (dir / "p.policy").string();
  const std::string train = "train --graphs " + designs() + " --episode-len 8 --hidden 16 --envs 6 ";
  const std::string cmd = "exec " + mpirun(3) + HLSGYM_CLI + " " + train + "--steps 100000000 --checkpoint-steps 256 -o " +
                          policy + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const pid_t job = ::fork();
  ASSERT_GE(job, 0);
  if (job == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto finished = [&](double limit_s, int* status) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(job, status, WNOHANG) == job) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  };
  int status = 0;
  // Wait for the first checkpoint, then kill rank 1 (SIGKILL: it can say nothing itself).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(policy) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(policy)) << slurp(dir / "err");
  const pid_t victim = find_rank(1, policy);
  ASSERT_GT(victim, 0) << "rank 1 not found";
  ASSERT_EQ(::kill(victim, SIGKILL), 0);
  const auto killed = std::chrono::steady_clock::now();
  const bool ended = finished(15, &status);
  if (!ended) ::kill(job, SIGKILL), ::waitpid(job, &status, 0);
  ASSERT_TRUE(ended) << "the job did not end within 15 s of the kill";
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count(), 10);
  EXPECT_NE(status, 0);
  const std::string err = slurp(dir / "err");
  EXPECT_NE(err.find("process rank 1"), std::string::npos) << err;  // mpirun names the rank
  // ... and rank 0's table names what it was doing: its environments and their graphs,
  // kept in POLICY.ranks (its SIGTERM handler also prints it, which mpirun forwards only
  // while it still reads the ranks' stderr: not always on a loaded machine).
  const std::regex doing("rank 1: environment [0-9]+ on graph [A-Za-z0-9_.]+");
  EXPECT_TRUE(std::regex_search(slurp(policy + ".ranks"), doing)) << slurp(policy + ".ranks");
  if (!std::regex_search(err, doing)) std::cerr << "note: the table did not reach stderr this time\n";
  // The last complete checkpoint resumes, with another rank count.
  const int64_t steps = policy_steps(policy);
  EXPECT_GE(steps, 256);
  const CliResult r = run_ranks(2, train + "--steps " + std::to_string(steps + 512) + " --resume -o " + policy);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming " + policy + " at step " + std::to_string(steps)), std::string::npos) << r.err;
  EXPECT_EQ(policy_steps(policy), steps + 512);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
