#include "rl/graph_train_env.h"

#include <cmath>

#include "ir/error.h"
#include "ir/module_hash.h"
#include "rl/gnn.h"

namespace hlsgym::rl {

namespace {
std::vector<GraphTrainEnv::Graph> share(std::vector<std::pair<std::string, ir::Module>> graphs) {
  std::vector<GraphTrainEnv::Graph> out;
  out.reserve(graphs.size());
  for (auto& [id, m] : graphs) {
    auto shared = std::make_shared<const ir::Module>(std::move(m));
    const uint64_t hash = ir::structural_hash(*shared);
    out.push_back({std::move(id), std::move(shared), hash});
  }
  return out;
}
}  // namespace

GraphTrainEnv::GraphTrainEnv(std::vector<std::pair<std::string, ir::Module>> graphs, EnvOptions o)
    : graphs_(std::make_shared<const std::vector<Graph>>(share(std::move(graphs)))), env_(std::move(o)) {
  if (graphs_->empty()) throw Error("no graphs to train on");
  const Graph& g = (*graphs_)[0];
  observation_size_ = static_cast<int>(env_.reset(g.module, g.hash, g.id).size());
}

std::unique_ptr<GraphTrainEnv> GraphTrainEnv::worker_copy() const {
  std::unique_ptr<GraphTrainEnv> copy(new GraphTrainEnv(*this));  // Env's copy is a fork
  copy->env_.unshare_passes();
  return copy;
}

std::vector<double> GraphTrainEnv::reset(uint64_t seed) {
  const Graph& g = (*graphs_)[seed % graphs_->size()];
  graph_ = g.id;
  return env_.reset(g.module, g.hash, g.id, seed);
}

TrainEnv::Step GraphTrainEnv::step(int action) {
  const StepResult r = env_.step(action);
  return {r.observation, r.reward, r.terminated || r.truncated};
}

std::shared_ptr<const GnnGraph> GraphTrainEnv::graph_input() const {
  if (!graph_input_ || graph_input_hash_ != env_.state_hash())
    graph_input_ = gnn_graph(env_.module()), graph_input_hash_ = env_.state_hash();
  return graph_input_;
}

std::vector<double> GraphTrainEnv::critic_features() const {
  const ir::Features& now = env_.metrics().features;
  const ir::Features& first = env_.initial_metrics().features;
  auto rel = [](double x, double x0) { return x0 > 0 ? x / x0 : (x > 0 ? 2.0 : 1.0); };
  return {rel(now.flops, first.flops),
          rel(now.transcendentals, first.transcendentals),
          rel(now.bytes_accessed, first.bytes_accessed),
          rel(static_cast<double>(now.instructions), static_cast<double>(first.instructions)),
          std::log1p(std::max(first.flops, 0.0)) / 30.0,
          std::log1p(static_cast<double>(first.instructions)) / 12.0};
}

}  // namespace hlsgym::rl
