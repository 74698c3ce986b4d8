#!/usr/bin/env python3
"""The learning curve of ppo_cycles.py (its CSV: steps, mean_return, ppo_best, random_best)
as a PNG, with Debian's matplotlib and no display (the Agg backend): the mean episode
return on the left, and on the right the best found within the steps so far by PPO's
training episodes and by random search given the same steps.

    /usr/bin/python3 examples/python/plot_curve.py ppo_cycles.csv -o ppo_cycles.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(csv_path, png_path, title="PPO on hlsgym designs, cycles (FPGA)"):
    with open(csv_path) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if not rows:
        raise SystemExit(f"{csv_path}: no points to plot")
    xs = [r["steps"] for r in rows]
    fig, (ret, best) = plt.subplots(1, 2, figsize=(10, 3.8), dpi=100)
    ys = [r["mean_return"] for r in rows]
    # Episodes differ a lot by design, so the raw curve is noisy: a moving average over 5
    # points shows the trend.
    k = min(5, len(ys))
    smooth = [sum(ys[max(0, i - k + 1):i + 1]) / len(ys[max(0, i - k + 1):i + 1]) for i in range(len(ys))]
    ret.plot(xs, ys, color="#1f77b4", alpha=0.35, label="mean of the last 50 episodes")
    ret.plot(xs, smooth, color="#1f77b4", label=f"moving average ({k} points)")
    ret.set_ylabel("episode return, log(initial / final cycles)")
    ret.set_title(title, fontsize=10)
    best.plot(xs, [r["ppo_best"] for r in rows], color="#1f77b4", label="PPO (its training episodes)")
    best.plot(xs, [r["random_best"] for r in rows], color="#d62728", label="random search, same steps")
    best.set_yscale("log")
    best.set_ylabel("best found: geomean cycles / initial")
    best.set_title("best found within the steps (lower is better)", fontsize=10)
    for ax in (ret, best):
        ax.set_xlabel("environment steps")
        ax.legend(loc="best", fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png_path)
    plt.close(fig)
    return len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="ppo_cycles.png")
    args = ap.parse_args()
    n = plot(args.csv, args.output)
    print(f"wrote {args.output} ({n} points)")


if __name__ == "__main__":
    main()
