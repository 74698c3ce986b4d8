#!/usr/bin/env python3
"""The learning curve of ppo_cycles.py (its CSV: steps, mean_return) as a PNG, with
Debian's matplotlib and no display (the Agg backend).

    /usr/bin/python3 examples/python/plot_curve.py ppo_cycles.csv -o ppo_cycles.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(csv_path, png_path, title="PPO on hlsgym designs, cycles reward (FPGA)"):
    with open(csv_path) as f:
        rows = [(int(r["steps"]), float(r["mean_return"])) for r in csv.DictReader(f)]
    if not rows:
        raise SystemExit(f"{csv_path}: no points to plot")
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    xs, ys = [s for s, _ in rows], [r for _, r in rows]
    # Returns are normalized per design by the default order's gain, which is tiny on some
    # designs, so the raw curve is noisy: a moving average over 5 points shows the trend.
    k = min(5, len(ys))
    smooth = [sum(ys[max(0, i - k + 1):i + 1]) / len(ys[max(0, i - k + 1):i + 1]) for i in range(len(ys))]
    ax.plot(xs, ys, color="#1f77b4", alpha=0.35, label="mean of the last 50 episodes")
    ax.plot(xs, smooth, color="#1f77b4", label=f"moving average ({k} points)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("episode return (1 = default order)")
    ax.set_title(title)
    ax.axhline(1.0, color="#999", linestyle="--", linewidth=1)
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
