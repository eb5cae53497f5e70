"""The import graph of the project, drawn from the code itself (docs/architecture.md shows it).

The imports are read with ``ast`` by tests/test_structure.py's own functions (``import_graph``:
every import of a project module at any depth, lazy ones and those only for type checking too) and
ranked by its own ``layer``, so that the picture and the structure test cannot disagree. Modules
are gathered into groups: each sub-package of ``sim`` (``sim.game``, ``sim.solver``, ...), the
modules beside them (``sim base``: the Numba settings, the thread pool, the code fingerprint, the
argument checks, the package face), the analysis core (the modules of ``analysis.study``'s layer),
each study (one that is a sub-package, ``analysis.marriages``, one group), ``analysis.present``,
the report, ``cli`` and ``thousand``. Each group is a box on the row of its layer, the lowest at
the bottom; an arrow is an import between two groups. An arrow
within one layer is dashed; one that runs upward, or that belongs to a circle of groups, is drawn
red (there should be none).
Prints the groups, the layers, the edges and any upward edge or circle.

    python benchmarks/import_graph.py [--out docs/architecture.png]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_structure import import_circles, import_graph, layer  # noqa: E402

LAYER_NAMES = {0: "sim base", 1: "rules", 2: "solver", 3: "players", 4: "engine", 5: "runs, training",
               6: "analysis core", 7: "studies", 8: "presenting", 9: "report", 10: "faces"}
CORE = "analysis core"


def group(module: str) -> str:
    """The group a module is drawn in."""
    parts = module.split(".")
    if parts[0] == "sim":
        return f"sim.{parts[1]}" if len(parts) > 1 and (ROOT / "sim" / parts[1]).is_dir() else "sim base"
    if parts[0] == "analysis" and len(parts) > 1:
        if parts[1] in ("present", "report"):  # the presenting wing and the report: one box each
            return f"analysis.{parts[1]}"
        # A study is one box, a module or a sub-package (``analysis.bids``) alike.
        return CORE if layer(module) == layer("analysis.study") else ".".join(parts[:2])
    return module


def group_graph(graph: dict[str, set[str]]) -> tuple[dict[str, int], dict[tuple[str, str], int], dict[str, int]]:
    """({group: its layer}, {(group, imported group): module imports behind it}, {group: modules})."""
    ranks: dict[str, set[int]] = defaultdict(set)
    sizes: dict[str, int] = defaultdict(int)
    edges: dict[tuple[str, str], int] = defaultdict(int)
    for module, targets in graph.items():
        ranks[group(module)].add(layer(module))
        sizes[group(module)] += 1
        for target in targets:
            if group(target) != group(module):
                edges[group(module), group(target)] += 1
    mixed = {g: sorted(r) for g, r in ranks.items() if len(r) > 1}
    assert not mixed, f"groups spanning several layers: {mixed}"
    return {g: r.pop() for g, r in sorted(ranks.items())}, dict(sorted(edges.items())), dict(sizes)


def rows(ranks: dict[str, int], edges: dict[tuple[str, str], int]) -> list[list[str]]:
    """The drawing's rows, lowest first: one per layer, or, in a crowded layer whose groups import
    each other (the studies), one per step of those imports (a group above all it imports; a group
    joined to none of its layer on the least crowded row), so that those arrows point down too."""
    out = []
    for rank in sorted(set(ranks.values())):
        members = sorted(g for g, r in ranks.items() if r == rank)
        inner = [(a, b) for a, b in edges if a in members and b in members and len(members) > 3]
        joined = sorted({g for e in inner for g in e})
        depth = dict.fromkeys(joined, 0)
        for _ in joined:  # longest path down (a circle would stop at len(joined) steps: drawn red)
            for a, b in inner:
                depth[a] = max(depth[a], min(depth[b] + 1, len(joined)))
        steps = [[g for g in joined if depth[g] == d] for d in sorted(set(depth.values()))] or [[]]
        for g in members:
            if g not in depth:
                min(steps, key=len).append(g)
        out += steps
    return out


def layout(row_list: list[list[str]], edges: dict[tuple[str, str], int], width: float) -> dict[str, tuple]:
    """{group: (x, y) centre}: rows evenly spaced, each ordered by the mean x of the groups it
    imports from the rows below (bottom to top), then by that of every group it is joined to in
    another row (a second pass), to shorten the arrows."""
    pos: dict[str, tuple[float, float]] = {}

    def centre(g: str, y: int, both: bool) -> float:
        near = [pos[b][0] for a, b in edges if a == g and b in pos and pos[b][1] != y]
        near += [pos[a][0] for a, b in edges if both and b == g and pos[a][1] != y]
        return sum(near) / len(near) if near else width / 2

    for both in (False, True):
        for y, row in enumerate(row_list):
            ordered = sorted(row, key=lambda g: (centre(g, y, both), g))  # noqa: B023 (used at once)
            for i, g in enumerate(ordered):
                pos[g] = (width / len(ordered) * (i + 0.5), float(y))
    return pos


def label(g: str) -> str:
    whole = ("analysis.present", "analysis.report")
    return g.removeprefix("analysis.") if g.startswith("analysis.") and g not in whole else g


def draw(ranks, edges, bad: set[tuple[str, str]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    row_list = rows(ranks, edges)
    width, box_h = 10.0, 0.44
    pos = layout(row_list, edges, width)
    # ports: where each arrow leaves its source (bottom edge) and enters its target (top edge)
    out_ports: dict[str, list] = defaultdict(list)
    in_ports: dict[str, list] = defaultdict(list)
    for a, b in edges:
        if pos[a][1] != pos[b][1]:
            out_ports[a].append(b)
            in_ports[b].append(a)
    box_w = {g: max(0.105 * len(label(g)) + 0.3, 0.075 * max(len(in_ports[g]), len(out_ports[g]))) for g in pos}
    fig, ax = plt.subplots(figsize=(11, 0.56 * len(row_list) + 0.9))
    ax.set_xlim(-1.6, width)
    ax.set_ylim(-0.45, len(row_list) - 0.55)
    ax.axis("off")
    palette = plt.get_cmap("tab10")
    for rank in sorted(set(ranks.values())):
        ys = [y for y, row in enumerate(row_list) if ranks[row[0]] == rank]
        ax.text(-1.55, sum(ys) / len(ys), f"{rank}  {LAYER_NAMES.get(rank, '')}", va="center", fontsize=11,
                color="0.3")

    def port(g: str, other: str, ports: dict[str, list], top: bool) -> tuple[float, float]:
        peers = sorted(ports[g], key=lambda o: (pos[o][0], o))
        x = pos[g][0] - box_w[g] / 2 + box_w[g] * (peers.index(other) + 1) / (len(peers) + 1)
        return x, pos[g][1] + (box_h / 2 if top else -box_h / 2)

    for a, b in edges:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        red = (a, b) in bad
        within = ranks[a] == ranks[b]  # a study importing a study, say: dashed
        colour = "red" if red else "0.15" if within else palette(ranks[a] % 10)
        if ya == yb:  # within one row: an arc above the boxes, side to side
            sign = 1 if xb > xa else -1
            start, end = (xa + sign * box_w[a] / 2, ya), (xb - sign * box_w[b] / 2, yb)
            style = f"arc3,rad={-sign * min(0.35, 0.45 / abs(xb - xa)):.2f}"
        else:
            upward = yb > ya
            start, end = port(a, b, out_ports, upward), port(b, a, in_ports, not upward)
            # an arrow past several rows bows outward, around the boxes between its ends
            span = abs(ya - yb)
            side = 1 if start[0] < end[0] or (start[0] == end[0] and start[0] < width / 2) else -1
            style = f"arc3,rad={side * min(0.06 * (span - 1), 0.3):.2f}"
        ax.add_patch(FancyArrowPatch(start, end, connectionstyle=style, arrowstyle="-|>", mutation_scale=8,
                                     lw=2.2 if red else 0.9 if within else 0.7, color=colour, zorder=1,
                                     alpha=1.0 if red else 0.8 if within else 0.5, linestyle="--" if within else "-"))
    for g, (x, y) in pos.items():
        ax.add_patch(FancyBboxPatch((x - box_w[g] / 2, y - box_h / 2), box_w[g], box_h, zorder=2,
                                    boxstyle="round,pad=0.02", fc="white", ec=palette(ranks[g] % 10), lw=1.4))
        ax.text(x, y, label(g), ha="center", va="center", fontsize=11, zorder=3)
    verdict = (f"{len(bad)} upward or circular import(s), in red" if bad
               else "every import runs downward or within its layer; no circle")
    ax.set_title(f"Import graph of thousand: {len(pos)} groups, {len(edges)} edges; {verdict}", fontsize=12)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "architecture.png")
    args = parser.parse_args()
    graph = import_graph()
    ranks, edges, sizes = group_graph(graph)
    isolated = sorted(g for g in ranks if not any(g in e for e in edges))
    for g in isolated:  # a package face that imports nothing and that no group imports by its own name
        del ranks[g], sizes[g]
    upward = sorted((a, b) for a, b in edges if ranks[b] > ranks[a])
    module_circles = import_circles(graph)
    group_circles = import_circles({g: {b for a, b in edges if a == g} for g in ranks})
    in_circle = {(a, b) for c in group_circles for a, b in edges if a in c and b in c}
    print(f"{len(graph)} modules, {sum(len(t) for t in graph.values())} imports between them; "
          f"{len(ranks)} groups, {len(edges)} edges between groups")
    for rank in sorted(set(ranks.values()), reverse=True):
        members = ", ".join(f"{label(g)} ({sizes[g]})" for g in sorted(g for g in ranks if ranks[g] == rank))
        print(f"  layer {rank:2} {LAYER_NAMES.get(rank, ''):15} {members}")
    if isolated:
        print(f"not drawn (no edge): {', '.join(isolated)}")
    same = sorted((a, b) for a, b in edges if ranks[a] == ranks[b])
    print(f"edges within a layer ({len(same)}): " + ", ".join(f"{label(a)} -> {label(b)}" for a, b in same))
    print(f"upward edges: {', '.join(f'{a} -> {b}' for a, b in upward) or 'none'}")
    print(f"circles of modules: {module_circles or 'none'}; circles of groups: {group_circles or 'none'}")
    draw(ranks, edges, set(upward) | in_circle, args.out)
    print(f"drawn to {args.out}")


if __name__ == "__main__":
    main()
