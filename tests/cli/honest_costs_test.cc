// Honest hardware costs end to end (issue 14, item 5): a search with a cycles reward on a
// design with a while loop prints an order that `report` accepts, with the cycles the
// search claimed; a design whose loop has no provable trip count is refused by search,
// report, optimize --target, train and evaluate alike (with the loop's file:line), never
// costed as one trip. And the hardware delta of `optimize --target`, and the Gantt chart
// (bar labels, legend, an axis over the whole schedule).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

std::string data(const std::string& name) { return (source_dir() / "tests" / "data" / name).string(); }
std::string design(const std::string& name) { return (source_dir() / "designs" / name).string(); }

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("hlsgym_honest_" + std::to_string(::getpid()) + "_" + name);
}

std::string joined(const json& order) {
  std::string s;
  for (const auto& p : order) s += (s.empty() ? "" : ",") + p.get<std::string>();
  return s;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(HonestCosts, SearchOnALoopThenReportThePrintedOrder) {
  // The loop runs 16 trips; report costs it so before any pass.
  CliResult before = run_cli("report --json " + data("cordic.hlo"));
  ASSERT_EQ(before.exit_code, 0) << before.err;
  const double initial = json::parse(before.out)["cycles"].get<double>();
  for (const char* algo : {"beam", "greedy"}) {
    CliResult s = run_cli("search " + data("cordic.hlo") + " --algo " + std::string(algo) +
                          " --reward cycles --max-len 8 --budget-steps 3000 --json");
    ASSERT_EQ(s.exit_code, 0) << algo << ": " << s.err;
    const json j = json::parse(s.out);
    EXPECT_EQ(j["initial_cost"].get<double>(), initial) << algo;
    const fs::path out = temp_path(std::string(algo) + ".hlo");
    const std::string order = j["order"].empty() ? "" : " --order " + joined(j["order"]);
    CliResult o = run_cli("optimize " + data("cordic.hlo") + (order.empty() ? " --order dce" : order) +
                          " --check -o " + out.string());
    ASSERT_EQ(o.exit_code, 0) << o.err;
    CliResult r = run_cli("report --json " + out.string());
    ASSERT_EQ(r.exit_code, 0) << algo << ": report refused the order search printed: " << r.err;
    const json rj = json::parse(r.out);
    EXPECT_EQ(rj["cycles"].get<double>(), j["cost"].get<double>()) << algo << " order " << joined(j["order"]);
    EXPECT_EQ(rj["unknown_trip_counts"].get<int>(), 0);
    // Whatever the order did to the loop, 16 rotations still cost more than one would.
    EXPECT_GT(j["cost"].get<double>(), 16.0) << algo;
    fs::remove(out);
  }
}

TEST(HonestCosts, AnUnprovableLoopIsRefusedEverywhere) {
  const std::string loop = data("cordic_converge.hlo");
  const std::regex located("cordic_converge\\.hlo:[0-9]+:.*trip count not statically known");
  CliResult report = run_cli("report " + loop);
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_TRUE(std::regex_search(report.err, located)) << report.err;
  CliResult search = run_cli("search " + loop + " --algo beam --reward cycles --max-len 4");
  EXPECT_EQ(search.exit_code, 1) << search.out;
  EXPECT_TRUE(std::regex_search(search.err, located)) << search.err;
  EXPECT_NE(search.err.find("no hardware cost"), std::string::npos) << search.err;
  CliResult optimize = run_cli("optimize " + loop + " --order dce --target fpga");
  EXPECT_EQ(optimize.exit_code, 1);
  EXPECT_TRUE(std::regex_search(optimize.err, located)) << optimize.err;
  // The op-count reward needs no hardware cost: search works there.
  EXPECT_EQ(run_cli("search " + loop + " --algo greedy --max-len 4").exit_code, 0);
}

TEST(HonestCosts, EvaluateAndTrainCountWhatTheyLeaveOut) {
  const std::string graphs = data("cordic.hlo") + " " + data("cordic_converge.hlo");
  CliResult e = run_cli("evaluate --graphs " + graphs + " --policy greedy --reward cycles --no-baselines --json");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  const json j = json::parse(e.out);
  EXPECT_EQ(j["uncostable"].get<int>(), 1);
  ASSERT_EQ(j["graphs"].size(), 2u);
  for (const json& g : j["graphs"]) {
    if (g["graph"] == "cordic_converge") {
      EXPECT_NE(g["uncostable"].get<std::string>().find("trip count not statically known"), std::string::npos);
      EXPECT_FALSE(g.contains("policy"));  // no number for it
    } else {
      EXPECT_FALSE(g.contains("uncostable"));
      EXPECT_GT(g["policy"].get<double>(), 16.0);
    }
  }
  CliResult table = run_cli("evaluate --graphs " + graphs + " --policy greedy --reward cycles --no-baselines");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("1 of 2 graphs left out"), std::string::npos) << table.out;

  const fs::path policy = temp_path("loops.policy");
  CliResult t = run_cli("train --graphs " + graphs + " --reward cycles --steps 300 --episode-len 6 -o " + policy.string());
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.err.find("left out 1 of 2 graphs"), std::string::npos) << t.err;
  EXPECT_NE(t.out.find("steps into them were refused"), std::string::npos) << t.out;
  CliResult none = run_cli("train --graphs " + data("cordic_converge.hlo") + " --reward cycles --steps 10 -o " +
                           policy.string());
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("none of the 1 graphs has a hardware cost"), std::string::npos) << none.err;
  for (const char* ext : {"", ".csv", ".svg"}) fs::remove(policy.string() + ext);
}

TEST(HonestCosts, OptimizeWithATargetPrintsTheHardwareDelta) {
  CliResult j = run_cli("optimize " + design("fir8.yaml") + " --order default --target fpga --json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json h = json::parse(j.out)["hardware"];
  EXPECT_EQ(h["target"], "fpga");
  for (const char* k : {"cycles", "ii", "dsp", "lut", "ff", "bram18k", "energy_pj", "memory_bytes"}) {
    ASSERT_TRUE(h["before"].contains(k)) << k;
    EXPECT_DOUBLE_EQ(h["change"][k].get<double>(), h["after"][k].get<double>() - h["before"][k].get<double>()) << k;
  }
  EXPECT_EQ(h["before"]["cycles"].get<double>(), 20);  // report's number for fir8 (estimate_test.cc)
  CliResult report = run_cli("report --json " + design("fir8.yaml"));
  EXPECT_EQ(json::parse(report.out)["cycles"].get<double>(), h["before"]["cycles"].get<double>());
  CliResult t = run_cli("optimize " + design("fir8.yaml") + " --order default --target fpga");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  for (const char* s : {"hardware (fpga)", "cycles", "dsp", "lut", "ff", "bram18k", "fits the part"})
    EXPECT_NE(t.out.find(s), std::string::npos) << s << "\n" << t.out;
  CliResult plain = run_cli("optimize " + design("fir8.yaml") + " --order default --json");
  EXPECT_FALSE(json::parse(plain.out).contains("hardware"));
}

// Every x coordinate of the SVG (bars, ticks, labels) lies inside its width.
void expect_inside(const std::string& svg) {
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("width=\"([0-9]+)\"")));
  const double width = std::stod(m[1]);
  const std::regex xs("\\bx[12]?=\"([0-9.]+)\"");
  int checked = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), xs); it != std::sregex_iterator(); ++it, ++checked)
    EXPECT_LE(std::stod((*it)[1]), width) << (*it)[0];
  EXPECT_GT(checked, 10);
}

// The tick labels: every number drawn on the axis.
std::vector<int64_t> ticks(const std::string& svg) {
  std::vector<int64_t> out;
  const std::regex tick("class=\"tick\"[^>]*>([0-9]+)<");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it)
    out.push_back(std::stoll((*it)[1]));
  return out;
}

TEST(HonestCosts, GanttHasLabelsLegendAndTheWholeAxis) {
  for (const std::string& d : {design("softmax.yaml"), data("cordic.hlo"), design("conv2d.yaml")}) {
    const fs::path svg = temp_path("gantt.svg");
    CliResult r = run_cli("report --json " + d + " --gantt " + svg.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const int64_t cycles = json::parse(r.out)["cycles"].get<int64_t>();
    const std::string text = read(svg);
    EXPECT_NE(text.find("class=\"bar\""), std::string::npos) << d;     // bar labels
    EXPECT_NE(text.find("class=\"legend\""), std::string::npos) << d;  // legend
    const auto t = ticks(text);
    ASSERT_GE(t.size(), 3u) << d;
    EXPECT_EQ(t.front(), 0);
    EXPECT_GE(t.back(), cycles) << d << ": the axis stops before the schedule ends";
    EXPECT_LT(t.size(), 25u) << d;
    expect_inside(text);
    fs::remove(svg);
  }
  // softmax's exponential bar is labelled with its op name, its legend names fp_special.
  const fs::path svg = temp_path("softmax.svg");
  ASSERT_EQ(run_cli("report " + design("softmax.yaml") + " --target fpga --gantt " + svg.string()).exit_code, 0);
  const std::string text = read(svg);
  EXPECT_NE(text.find(">fp_special</text>"), std::string::npos);
  fs::remove(svg);
}

}  // namespace
}  // namespace hlsgym::testing
