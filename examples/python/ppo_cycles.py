#!/usr/bin/env python3
"""CleanRL-style PPO in PyTorch against hlsgym's cycles reward on designs/ (FPGA target).

One file, no framework: a VectorEnv (C++ threads) feeds rollouts to an actor-critic MLP;
invalid actions (passes known to change nothing in the current state) are masked out of
the policy's logits, as in CleanRL's ppo_maskable variants. At the end the greedy policy
is compared with random search given the same number of environment steps, and the
learning curve is written as CSV (plot it with plot_curve.py).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ppo_cycles.py --steps 60000 --csv curve.csv
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
ENV_KW = dict(reward="cycles", target="fpga", observation="opcount+cost+history", normalize=True)


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


def train(steps=60000, seed=1, num_envs=8, rollout=128, max_steps=30, lr=2.5e-3, epochs=4, minibatches=4,
          gamma=0.99, lam=0.95, clip=0.2, ent_coef=0.01, threads=2, log=None):
    """Trains for `steps` environment steps; returns (agent, curve [(steps, mean return)])."""
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
    obs, mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
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
            ended = term | trunc
            episode_return += np.where(resetting, 0.0, r)
            for i in np.flatnonzero(ended & ~resetting):
                returns.append(episode_return[i])
                episode_return[i] = 0.0
            rew_b[t] = torch.from_numpy(r).float()
            done_b[t] = torch.from_numpy(ended).float()
            resetting = ended
            obs, mask = torch.from_numpy(o), torch.from_numpy(info["action_mask"])
        done_steps += rollout * num_envs
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
            curve.append((done_steps, float(np.mean(returns[-50:]))))
            if log:
                log(f"{done_steps} steps  mean return {curve[-1][1]:.3f}")
    return agent, curve, done_steps


def greedy_cycles(agent, max_steps=30):
    """Per design: initial cycles and the fewest cycles along the greedy masked episode
    (its best prefix is an order `hlsgym optimize --order` replays)."""
    env = hlsgym.make(graphs=DESIGNS, max_steps=max_steps, **ENV_KW)
    out = {}
    for gid in env.graph_ids:
        obs, info = env.reset(seed=0, options={"graph": gid})
        best = env.cost
        for _ in range(max_steps):
            with torch.no_grad():
                d = agent.dist(torch.from_numpy(obs), torch.from_numpy(info["action_mask"]))
            obs, _, term, trunc, info = env.step(int(d.probs.argmax()))
            best = min(best, env.cost)
            if term or trunc:
                break
        out[gid] = (env.initial_cost, best)
    return out


def random_search_cycles(budget_steps, seed=1, max_steps=30):
    """Per design: random search's fewest cycles with an equal share of `budget_steps`."""
    files = sorted(DESIGNS.glob("*.yaml"))
    env = hlsgym.make(graphs=DESIGNS, max_steps=max_steps, **ENV_KW)
    share = max(1, budget_steps // len(env.graph_ids))
    out = {}
    for f in files:
        if f.stem not in env.graph_ids:
            continue
        r = hlsgym.search(f, algo="random", reward="cycles", target="fpga", budget_steps=share, max_len=max_steps,
                          seed=seed)
        out[f.stem] = (r["initial_cost"], r["cost"])
    return out


def geomean_ratio(result):
    return float(np.exp(np.mean([np.log(best / initial) for initial, best in result.values()])))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=60000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--max-steps", type=int, default=30, help="passes per episode")
    ap.add_argument("--csv", default="ppo_cycles.csv", help="learning curve: steps, mean episode return")
    args = ap.parse_args()
    t0 = time.time()
    agent, curve, used = train(args.steps, args.seed, args.envs, max_steps=args.max_steps, log=print)
    with open(args.csv, "w") as f:
        f.write("steps,mean_return\n")
        f.writelines(f"{s},{r}\n" for s, r in curve)
    ppo, rnd = greedy_cycles(agent, args.max_steps), random_search_cycles(used, args.seed, args.max_steps)
    print(f"trained {used} steps in {time.time() - t0:.1f} s; curve in {args.csv}")
    print(f"{'design':<16}{'initial':>10}{'ppo':>10}{'random':>10}")
    for g in ppo:
        print(f"{g:<16}{ppo[g][0]:>10.0f}{ppo[g][1]:>10.0f}{rnd.get(g, (0, float('nan')))[1]:>10.0f}")
    short = [geomean_ratio(random_search_cycles(args.max_steps * len(ppo), seed=s)) for s in range(1, 11)]
    print(f"geomean cycles / initial (lower is better): PPO greedy episode {geomean_ratio(ppo):.4f}; random search "
          f"with the policy's {args.max_steps} steps per design {np.mean(short):.4f} (mean of 10 seeds); "
          f"random search with the whole training budget ({used} steps) {geomean_ratio(rnd):.4f}")


if __name__ == "__main__":
    main()
