"""The shared save: a title wider than its figure is wrapped so that every line fits (a two-panel
tournament plot showed its title clipped at both sides), a title that fits is kept as written."""

from matplotlib.backends.backend_agg import FigureCanvasAgg

from analysis.present.figure import pyplot, save

LONG = ("Tournament of 1-pimc-inf, 2-pimc, 3-pimc: 3,000 deals × 6 seatings (duplicate), seed 4747; "
        "95% intervals")


def _title_after_save(tmp_path, width: float, title: str) -> tuple[list[str], list[float], float]:
    plt = pyplot()
    fig, _ = plt.subplots(1, 2, figsize=(width, 3))
    text = fig.suptitle(title)
    save(fig, tmp_path / "plot.png")
    renderer = FigureCanvasAgg(fig).get_renderer()  # save closed the figure's own canvas
    lines = text.get_text().split("\n")
    widths = []
    for line in lines:
        text.set_text(line)
        widths.append(text.get_window_extent(renderer).width)
    return lines, widths, fig.bbox.width


def test_a_title_wider_than_the_figure_is_wrapped_to_fit(tmp_path):
    lines, widths, room = _title_after_save(tmp_path, 8, LONG)
    assert len(lines) == 2
    assert max(widths) <= room
    assert " ".join(lines) == LONG  # only spaces became line breaks
    assert (tmp_path / "plot.png").stat().st_size > 0


def test_a_title_that_fits_is_kept_with_its_own_lines(tmp_path):
    title = "Short title\nits second line"
    lines, _, _ = _title_after_save(tmp_path, 12, title)
    assert "\n".join(lines) == title
