"""``manage.py sheet`` and ``manage.py pad``: PDFs from the command line, no database.

The commands run in-process (tests/commands.py), and each once as a real process. No
test here has the django_db mark: pytest-django fails any that touches the database.
"""

import io

import pytest
from pypdf import PdfReader

from tests.commands import RECORDS, manage, run
from tests.sheets.helpers import text_of

# Where the database would be if a command looked for one: nowhere.
NO_DATABASE = {"DATABASE_URL": "postgres://nobody@0.0.0.0:1/x"}


def test_sheet_writes_the_score_sheet_of_a_record(tmp_path):
    out = tmp_path / "sheet.pdf"
    result = run("sheet", str(RECORDS / "format_example.json"), "-o", str(out))
    assert result.status == 0, result.err
    assert (result.out, result.err) == ("", "")
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert "Total 261 86" in text_of(pdf)


def test_sheet_on_the_terminal_reads_standard_input_and_writes_standard_output():
    """The real entry point: the record's bytes in, the PDF's bytes out, no database."""
    record = (RECORDS / "hollywood.json").read_bytes()
    result = manage(
        "sheet", "-", "-o", "-", "--title", "Jürgen's Hollywood", stdin=record, env=NO_DATABASE
    )
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    text = text_of(result.stdout)
    assert text.startswith("Jürgen's Hollywood")
    assert "Total 330 122 292 90 280 120" in text


def test_sheet_prints_the_date_it_is_given(tmp_path):
    out = tmp_path / "sheet.pdf"
    result = run(
        "sheet", str(RECORDS / "three_player.json"), "-o", str(out), "--date", "2025-03-14"
    )
    assert result.status == 0, result.err
    assert "Three players · March 14, 2025 · Paula, Quinn, Rita" in text_of(out.read_bytes())


def test_two_runs_write_the_same_bytes(tmp_path):
    for name in ("one.pdf", "two.pdf"):
        result = run("sheet", str(RECORDS / "chouette.json"), "-o", str(tmp_path / name))
        assert result.status == 0, result.err
    assert (tmp_path / "one.pdf").read_bytes() == (tmp_path / "two.pdf").read_bytes()


@pytest.mark.parametrize(
    ("record", "line"),
    [
        ("broken.json", "error: broken JSON at line 5 column 24: Expecting ',' delimiter"),
        (
            "knock_over_limit.json",
            "error: hand 2: a knock with 12 deadwood is over the knock limit of 10",
        ),
        ("hand_after_close.json", "error: hand 7: the game is over: Anna reached 101 of 100"),
        ("missing.json", "error: cannot read {path}: No such file or directory"),
    ],
)
def test_sheet_refuses_a_bad_record_with_status_2(tmp_path, record, line):
    out = tmp_path / "sheet.pdf"
    path = RECORDS / record
    result = run("sheet", str(path), "-o", str(out))
    assert result.status == 2
    assert result.err == line.format(path=path) + "\n"
    assert not out.exists()


def test_sheet_refuses_a_date_that_is_no_date(tmp_path):
    result = run(
        "sheet",
        str(RECORDS / "format_example.json"),
        "-o",
        str(tmp_path / "x.pdf"),
        "--date",
        "14.3.",
    )
    assert result.status == 2
    assert result.err == "error: --date: '14.3.' is not a date like 2025-03-14\n"


def test_pad_on_the_terminal_writes_a_one_page_pad(tmp_path):
    """The real entry point, without a database."""
    out = tmp_path / "pad.pdf"
    result = manage(
        "pad", "--kind", "hollywood", "--preset", "classic", "--paper", "a4", "-o", str(out),
        env=NO_DATABASE,
    )  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b""), result.stderr
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Gin rummy score pad: Hollywood Rules: Classic" in text
    assert "Game 1 Game 2 Game 3" in text


def test_pad_takes_rule_changes_and_letter_paper(tmp_path):
    out = tmp_path / "pad.pdf"
    result = run(
        "pad",
        "--paper",
        "letter",
        "--rule",
        "gin_bonus=30",
        "--rule",
        "shutout=none",
        "-o",
        str(out),
    )
    assert result.status == 0, result.err
    text = text_of(out.read_bytes())
    assert "Gin bonus: 30*" in text
    assert "Shutout: none*" in text


@pytest.mark.parametrize(
    ("options", "line"),
    [
        (
            ["--kind", "partnership"],
            "error: no score pad for 'partnership': choose one of two_player, hollywood, chouette",
        ),
        (
            ["--preset", "vegas"],
            "error: unknown preset 'vegas': choose one of classic, modern, oklahoma, straight, "
            "hollywood, partnership, round_the_corner",
        ),
        (["--paper", "a5"], "error: unknown paper 'a5': choose one of a4, letter"),
        (["--rule", "gin_bonus=lots"], "error: gin_bonus must be a whole number, not 'lots'"),
        (["--rule", "colour=red"], "error: unknown rule parameter 'colour'"),
        (["--rule", "gin_bonus"], "error: --rule 'gin_bonus': write NAME=VALUE, like gin_bonus=25"),
    ],
)
def test_pad_refuses_what_it_cannot_print_with_status_2(tmp_path, options, line):
    out = tmp_path / "pad.pdf"
    result = run("pad", *options, "-o", str(out))
    assert result.status == 2
    assert result.err == line + "\n"
    assert not out.exists()
