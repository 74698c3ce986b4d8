#!/usr/bin/env python3
"""CleanRL-style PPO in PyTorch against hlsgym's cycles reward on designs/ (FPGA target),
compared with random search at an equal number of environment steps.

One file, no framework: a VectorEnv (C++ threads) feeds rollouts to an actor-critic MLP;
passes known to change nothing in the current state (info["action_mask"]) are masked out
of the policy's logits, as in CleanRL's ppo_maskable variants. The reward is the step's
log-decrease of cycles, log(cycles before / cycles after): an episode's return is
log(initial / final cycles) whatever the design's size, so the 16 designs (3 to 2,600
cycles) weigh alike, as they do in the geomean the comparison uses.

The comparison is the "best found within N steps" of CompilerGym's leaderboard: the
agent's result on a design is the fewest cycles any of its own training episodes reached
there (the state that reached it is kept and replays), after N env.step calls in all
(autoreset steps included); random search gets the same N env.step calls, shared equally
by the designs, each a uniformly random pass among those the same action mask allows,
and reports its fewest cycles per design too. The greedy policy's one episode per design
(30 steps) is reported as well, next to random search with 30 steps per design.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ppo_cycles.py --steps 16384 --csv curve.csv
"""
import argparse
import math
import pathlib
import time

import numpy as np
import torch
from torch import nn

import hlsgym

DESIGNS = pathlib.Path(__file__).resolve().parents[2] / "designs"
ENV_KW = dict(reward="cycles", target="fpga", observation="opcount+cost+history")


def layer(i, o, std=math.sqrt(2)):
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_size, actions, hidden=64):
        super().__init__()
        self.critic = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                    layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                   layer(hidden, actions, 0.01))

    def value(self, x):
        return self.critic(x).squeeze(-1)

    def dist(self, x, mask):
        logits = self.actor(x).masked_fill(mask == 0, -1e8)
        return torch.distributions.Categorical(logits=logits)


def design_starts(max_steps=30):
    """{design: (an environment reset on it, the reset's info)}: where every search starts."""
    env = hlsgym.make(graphs=DESIGNS, max_steps=max_steps, **ENV_KW)
    starts = {}
    for g in env.graph_ids:
        _, info = env.reset(seed=0, options={"graph": g})
        starts[g] = (env.fork(), info)
    return starts


class BestFound:
    """The fewest cycles the training episodes themselves reached on each design, and the
    state that reached it ("design|pass,..."; PassOrderEnv.replay restores it). Before an
    episode improves on a design, its best is its initial state."""

    def __init__(self, envs, max_steps):
        self.envs, self.ids = envs, envs.graph_ids
        starts = design_starts(max_steps)
        assert list(starts) == self.ids
        self.initial = np.array([e.initial_cost for e, _ in starts.values()])
        self.best = self.initial.copy()
        self.state = [e.state for e, _ in starts.values()]

    def see(self, info):
        """info: a reset's or step's."""
        cost, graph = info["cost"], info["graph_index"]
        for i in np.flatnonzero(cost < self.best[graph]):
            if cost[i] >= self.best[graph[i]]:  # another environment on this design did better
                continue
            self.best[graph[i]] = cost[i]
            self.state[graph[i]] = self.envs.state(i)

    def result(self):
        """{design: (initial cycles, fewest cycles, state)}."""
        return {g: (self.initial[k], self.best[k], self.state[k]) for k, g in enumerate(self.ids)}


def train(steps=16384, seed=1, num_envs=8, rollout=128, max_steps=30, lr=2.5e-3, epochs=4, minibatches=4,
          gamma=0.99, lam=0.95, clip=0.2, ent_coef=0.01, threads=2, log=None):
    """Trains for `steps` env.step calls; returns (agent, curve [(steps, mean return of the
    last 50 episodes, geomean ratio of the best found so far)], env.step calls made, best
    found {design: (initial, fewest cycles, state)})."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    envs = hlsgym.VectorEnv(num_envs, graphs=DESIGNS, max_steps=max_steps, threads=threads, **ENV_KW)
    n_obs, n_act = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(n_obs, int(n_act))
    opt = torch.optim.Adam(agent.parameters(), lr=lr, eps=1e-5)
    obs_b = torch.zeros((rollout, num_envs, n_obs))
    mask_b = torch.zeros((rollout, num_envs, int(n_act)), dtype=torch.int8)
    act_b = torch.zeros((rollout, num_envs), dtype=torch.long)
    logp_b, rew_b, val_b = (torch.zeros((rollout, num_envs)) for _ in range(3))
    done_b, valid_b = (torch.zeros((rollout, num_envs)) for _ in range(2))

    obs, info = envs.reset(seed=seed)
    found = BestFound(envs, max_steps)
    found.see(info)
    obs, mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
    cost = info["cost"]
    # Next-step autoreset: the step after an episode's end only resets (its action is
    # ignored, its reward is 0), so it is no transition to learn from.
    resetting = np.zeros(num_envs, dtype=bool)
    returns, episode_return, curve, done_steps = [], np.zeros(num_envs), [], 0
    updates = max(1, steps // (rollout * num_envs))
    for update in range(updates):
        for g in opt.param_groups:
            g["lr"] = lr * (1.0 - update / updates)
        for t in range(rollout):
            obs_b[t], mask_b[t] = obs, mask
            valid_b[t] = torch.from_numpy(~resetting).float()
            with torch.no_grad():
                d = agent.dist(obs, mask)
                action = d.sample()
                logp_b[t], val_b[t] = d.log_prob(action), agent.value(obs)
            act_b[t] = action
            o, r, term, trunc, info = envs.step(action.numpy())
            done_steps += num_envs  # one env.step per environment, autoreset steps included
            # The policy's reward, log(cycles before / after), instead of the env's own (cycles
            # saved), which would let the large designs drown the small ones.
            r = np.where(resetting, 0.0, np.log(cost / info["cost"]))
            cost = info["cost"]
            ended = term | trunc
            episode_return += np.where(resetting, 0.0, r)
            for i in np.flatnonzero(ended & ~resetting):
                returns.append(episode_return[i])
                episode_return[i] = 0.0
            found.see(info)
            rew_b[t] = torch.from_numpy(r).float()
            done_b[t] = torch.from_numpy(ended).float()
            resetting = ended
            obs, mask = torch.from_numpy(o), torch.from_numpy(info["action_mask"])
        with torch.no_grad():  # GAE; an ended episode bootstraps nothing
            next_value = agent.value(obs)
            adv = torch.zeros_like(rew_b)
            last = torch.zeros(num_envs)
            for t in reversed(range(rollout)):
                nv = next_value if t == rollout - 1 else val_b[t + 1]
                nonterminal = 1.0 - done_b[t]
                delta = rew_b[t] + gamma * nv * nonterminal - val_b[t]
                last = delta + gamma * lam * nonterminal * last
                adv[t] = last
            ret = adv + val_b
        b_obs, b_mask, b_act = obs_b.reshape(-1, n_obs), mask_b.reshape(-1, int(n_act)), act_b.reshape(-1)
        b_logp, b_adv, b_ret, b_valid = logp_b.reshape(-1), adv.reshape(-1), ret.reshape(-1), valid_b.reshape(-1)
        idx = np.flatnonzero(b_valid.numpy())
        size = max(1, len(idx) // minibatches)
        for _ in range(epochs):
            np.random.default_rng(seed * 1000 + update).shuffle(idx)
            for start in range(0, len(idx), size):
                mb = torch.from_numpy(idx[start:start + size])
                d = agent.dist(b_obs[mb], b_mask[mb])
                ratio = (d.log_prob(b_act[mb]) - b_logp[mb]).exp()
                a = b_adv[mb]
                a = (a - a.mean()) / (a.std() + 1e-8) if len(mb) > 1 else a
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - clip, 1 + clip)).mean()
                v = 0.5 * ((agent.value(b_obs[mb]) - b_ret[mb]) ** 2).mean()
                loss = pg + 0.5 * v - ent_coef * d.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        if returns:
            curve.append((done_steps, float(np.mean(returns[-50:])), geomean_ratio(found.result())))
            if log:
                log(f"{done_steps} steps  mean return {curve[-1][1]:.3f}  best found (geomean) {curve[-1][2]:.4f}")
    return agent, curve, done_steps, found.result()


def greedy_cycles(agent, max_steps=30):
    """Per design, the greedy policy's one masked episode: (initial, fewest cycles along it,
    state). Returns (that, env.step calls made)."""
    env = hlsgym.make(graphs=DESIGNS, max_steps=max_steps, **ENV_KW)
    out, steps = {}, 0
    for g in env.graph_ids:
        obs, info = env.reset(seed=0, options={"graph": g})
        best, state = env.cost, env.state
        for _ in range(max_steps):
            with torch.no_grad():
                d = agent.dist(torch.from_numpy(obs), torch.from_numpy(info["action_mask"]))
            obs, _, term, trunc, info = env.step(int(d.probs.argmax()))
            steps += 1
            if env.cost < best:
                best, state = env.cost, env.state
            if term or trunc:
                break
        out[g] = (env.initial_cost, best, state)
    return out, steps


def random_search_cycles(budget_steps, seed=1, max_steps=30, checkpoints=()):
    """Random search with exactly `budget_steps` env.step calls: episodes of uniformly random
    passes among those the action mask allows, the designs stepped in turn so that after
    any n steps each design has had n // designs or one more. Returns ({design: (initial,
    fewest cycles, state)}, env.step calls made, [geomean ratio after each checkpoint's steps])."""
    starts = design_starts(max_steps)
    rng = np.random.default_rng(seed)
    envs, infos = [e for e, _ in starts.values()], [info for _, info in starts.values()]
    found = {g: (e.initial_cost, e.cost, e.state) for g, e in zip(starts, envs)}
    at, steps, checkpoints = [], 0, set(checkpoints)
    for steps in range(1, budget_steps + 1):
        k = (steps - 1) % len(envs)
        env, mask = envs[k], infos[k]["action_mask"]
        allowed = np.flatnonzero(mask) if mask.any() else np.arange(mask.size)
        _, _, term, trunc, infos[k] = env.step(int(rng.choice(allowed)))
        if env.cost < found[env.graph][1]:
            found[env.graph] = (env.initial_cost, env.cost, env.state)
        if term or trunc:
            _, infos[k] = env.reset(options={"graph": env.graph})
        if steps in checkpoints:
            at.append(geomean_ratio(found))
    return found, steps, at


def geomean_ratio(result):
    """Geometric mean over designs of fewest cycles / initial cycles (lower is better)."""
    return float(np.exp(np.mean([np.log(r[1] / r[0]) for r in result.values()])))


def write_curve(path, curve, random_best):
    """The CSV plot_curve.py reads: train's curve and random search's best at its steps."""
    assert len(curve) == len(random_best)
    with open(path, "w") as f:
        f.write("steps,mean_return,ppo_best,random_best\n")
        f.writelines(f"{s},{r},{b},{rb}\n" for (s, r, b), rb in zip(curve, random_best))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=16384)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--max-steps", type=int, default=30, help="passes per episode")
    ap.add_argument("--csv", default="ppo_cycles.csv",
                    help="learning curve: steps, mean episode return, best found by PPO and by random search")
    args = ap.parse_args()
    t0 = time.time()
    agent, curve, used, found = train(args.steps, args.seed, args.envs, max_steps=args.max_steps, log=print)
    print(f"trained {used} env steps in {time.time() - t0:.1f} s")
    rnd, rnd_steps, rnd_curve = random_search_cycles(used, args.seed, args.max_steps, [s for s, *_ in curve])
    write_curve(args.csv, curve, rnd_curve)
    greedy, greedy_steps = greedy_cycles(agent, args.max_steps)
    print(f"{'design':<16}{'initial':>9}{'PPO best':>9}{'random':>9}{'greedy':>9}   (cycles)")
    for g in found:
        print(f"{g:<16}{found[g][0]:>9.0f}{found[g][1]:>9.0f}{rnd[g][1]:>9.0f}{greedy[g][1]:>9.0f}")
    short = [geomean_ratio(random_search_cycles(greedy_steps, seed=s, max_steps=args.max_steps)[0])
             for s in range(1, 11)]
    print(f"geomean cycles / initial (lower is better), curve in {args.csv}:\n"
          f"  best found within {used} env steps: PPO's training episodes {geomean_ratio(found):.4f}, "
          f"random search {geomean_ratio(rnd):.4f} ({rnd_steps} steps)\n"
          f"  greedy policy, one episode per design ({greedy_steps} steps): {geomean_ratio(greedy):.4f}; random "
          f"search with those steps {np.mean(short):.4f} (mean of 10 seeds)")


if __name__ == "__main__":
    main()
