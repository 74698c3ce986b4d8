// The offline dataset (rl/dataset.h): collection is a function of the seed alone (not of
// the thread count), every row replays in a fresh environment to the same reward and
// observations, the CSV round-trips exactly, and bad files are refused at file:line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ir/error.h"
#include "rl/dataset.h"
#include "ir/output_file.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {
namespace fs = std::filesystem;

std::vector<std::pair<std::string, ir::Module>> some_designs() {
  std::vector<std::pair<std::string, ir::Module>> out;
  for (const char* n : {"fir8", "dot_product", "bit_mix", "layernorm", "matvec"}) out.emplace_back(n, testutil::design(n));
  return out;
}

bool same_rows(const Dataset& a, const Dataset& b) {
  if (a.rows.size() != b.rows.size()) return false;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const auto &x = a.rows[i], &y = b.rows[i];
    if (x.graph != y.graph || x.episode != y.episode || x.step != y.step || x.t.action != y.t.action ||
        x.t.reward != y.t.reward || x.t.done != y.t.done || x.t.observation != y.t.observation ||
        x.t.next_observation != y.t.next_observation)
      return false;
  }
  return true;
}

TEST(Dataset, CollectionDependsOnTheSeedNotTheThreads) {
  EnvOptions eo;
  eo.max_steps = 6;
  CollectOptions o;
  o.episodes_per_graph = 3;
  o.threads = 1;
  const Dataset one = collect(some_designs(), eo, o);
  o.threads = 2;
  const Dataset two = collect(some_designs(), eo, o);
  EXPECT_EQ(one.rows.size(), 5u * 3u * 6u);
  EXPECT_TRUE(same_rows(one, two));
  o.seed = 2;
  EXPECT_FALSE(same_rows(one, collect(some_designs(), eo, o)));
}

TEST(Dataset, RowsReplayInAFreshEnvironment) {
  EnvOptions eo;
  eo.max_steps = 8;
  eo.observation = "opcount+cost";
  eo.shaping = true;
  CollectOptions o;
  o.episodes_per_graph = 2;
  const auto graphs = some_designs();
  const Dataset d = collect(graphs, eo, o);
  ASSERT_FALSE(d.rows.empty());
  EXPECT_EQ(d.info.observation_size, static_cast<int>(d.rows[0].t.observation.size()));
  Env env(eo);
  std::vector<double> obs;
  for (size_t i = 0; i < d.rows.size(); ++i) {
    const DatasetRow& r = d.rows[i];
    if (r.step == 0) {
      const auto& g = *std::find_if(graphs.begin(), graphs.end(), [&](const auto& x) { return x.first == r.graph; });
      obs = env.reset(g.second, g.first);
    }
    ASSERT_EQ(r.t.observation, obs) << i;
    const StepResult s = env.step(r.t.action);
    EXPECT_EQ(r.t.reward, s.reward) << i;
    EXPECT_EQ(r.t.next_observation, s.observation) << i;
    EXPECT_EQ(r.t.done, r.step == eo.max_steps - 1) << i;
    obs = s.observation;
  }
}

TEST(Dataset, CsvRoundTripsExactlyAndRefusesBadFiles) {
  EnvOptions eo;
  eo.max_steps = 5;
  eo.observation = "opcount+features";
  CollectOptions o;
  o.episodes_per_graph = 2;
  Dataset d = collect(some_designs(), eo, o);
  d.rows[0].graph = "a, \"quoted\" name";  // CSV quoting
  const fs::path dir = hlsgym::testing::scratch("hlsgym_dataset_test");
  fs::create_directories(dir);
  const std::string path = (dir / "d.csv").string();
  save_dataset(d, path);
  const Dataset back = load_dataset(path);
  EXPECT_TRUE(same_rows(d, back));
  EXPECT_EQ(back.info.observation, "opcount+features");
  EXPECT_EQ(back.info.episode_len, 5);
  EXPECT_EQ(back.transitions().size(), d.rows.size());

  // Hand-made files carry a valid end line, so each case tests what it names.
  auto error_of = [&](const std::string& text, bool with_end_line = true) {
    const std::string bad = (dir / "bad.csv").string();
    std::ofstream(bad) << (with_end_line ? ir::with_end_marker(text) : text);
    try {
      load_dataset(bad);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  std::ifstream in(path);
  std::string header, columns, row;
  std::getline(in, header), std::getline(in, columns), std::getline(in, row);
  EXPECT_NE(error_of("graph,action\n").find("not an hlsgym dataset"), std::string::npos);
  std::string v2 = header;
  v2.replace(v2.find(" 1 "), 3, " 2 ");
  EXPECT_NE(error_of(v2 + "\n").find("version 2"), std::string::npos);
  std::string renamed = header;
  renamed.replace(renamed.find("\"algsimp\""), 9, "\"algebra\"");
  EXPECT_NE(error_of(renamed + "\n").find("'algebra'"), std::string::npos);
  const std::string short_row = error_of(header + "\n" + columns + "\n" + row + "\n" + row.substr(0, row.rfind(',')) + "\n");
  EXPECT_NE(short_row.find("bad.csv:4:"), std::string::npos) << short_row;
  EXPECT_NE(short_row.find("columns"), std::string::npos) << short_row;
  std::string nan_row = row;
  nan_row.replace(nan_row.rfind(',') + 1, std::string::npos, "x1");
  EXPECT_NE(error_of(header + "\n" + columns + "\n" + nan_row + "\n").find("not a number"), std::string::npos);
  EXPECT_THROW(load_dataset((dir / "missing.csv").string()), Error);
  // Issue 17: a dataset cut short, even inside its last number, or edited, is refused.
  std::ifstream whole_in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(whole_in)), std::istreambuf_iterator<char>());
  const size_t end_line = whole.rfind("# end-of-file");
  ASSERT_NE(end_line, std::string::npos);
  EXPECT_NE(error_of(whole.substr(0, end_line - 3), false).find("truncated"), std::string::npos);
  EXPECT_NE(error_of(whole.substr(0, whole.size() - 5), false).find("truncated"), std::string::npos);
  std::string edited = whole;
  edited[edited.find('\n', edited.find('\n') + 1) + 1] ^= 1;  // first byte of the first row
  EXPECT_NE(error_of(edited, false).find("checksum does not match"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::rl
