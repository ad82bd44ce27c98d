"""``manage.py standings FILE``: a season document's standings as JSON, or error lines
naming the party and hand, nothing on standard output, and status 2.

The command runs in-process (tests/commands.py), and once as a real process. No test
here has the django_db mark: a season document needs no database.
"""

import csv
import io
import json
from pathlib import Path

from tests.commands import RECORDS, Run, manage, run


def standings(*args: str, stdin: bytes | None = None) -> Run:
    return run("standings", *args, stdin=stdin)


def season(*names: str, **extra) -> dict:
    parties = [json.loads((RECORDS / f"{name}.json").read_text()) for name in names]
    return {"format": "scorekeeper-season/1", "name": "Autumn league", "parties": parties} | extra


def test_standings_of_a_season_file(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season("format_example", "match")), encoding="utf-8")

    result = standings(str(path))

    assert result.status == 0, result.err
    data = json.loads(result.out)
    # FORMAT.md's example gives Anna 1 win; the best-of-3 match is Anna's 2 to 1.
    lines = {line["player"]: line for line in data["standings"]}
    assert [line["player"] for line in data["standings"]] == ["Anna", "Ben"]
    assert (lines["Anna"]["rank"], lines["Anna"]["games"], lines["Anna"]["won"]) == (1, 4, 3)
    assert set(lines["Anna"]) == {
        "rank", "player", "games", "won", "lost", "shutout_wins", "league_points",
        "net_points", "money", "rating",
    }  # fmt: skip
    assert set(lines["Anna"]["rating"]) == {"mu", "sigma", "ordinal"}
    assert data["head_to_head"]["Anna"]["Ben"]["won"] == 3
    assert result.out == json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def test_standings_on_the_terminal_reads_standard_input_for_a_dash():
    """The real entry point: the season in on standard input, its JSON out."""
    document = season("chouette", min_games=3)
    result = manage("standings", "-", stdin=json.dumps(document).encode())
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    ranks = [line["rank"] for line in json.loads(result.stdout)["standings"]]
    assert None in ranks  # a player with fewer than 3 counted games has no rank


def test_a_bad_record_names_the_party_and_hand_and_writes_nothing():
    document = season("format_example", "unknown_player")

    result = standings("-", stdin=json.dumps(document).encode())

    assert result.status == 2
    assert result.out == ""
    assert result.err.startswith("error: party 2, hand ")
    assert "is not a player of this game" in result.err


def test_broken_json_and_a_missing_file_are_refused_with_status_2(tmp_path):
    broken = standings("-", stdin=b'{"parties": [')
    assert (broken.status, broken.out) == (2, "")
    assert broken.err.startswith("error: the season is not valid JSON")

    missing = standings(str(tmp_path / "nowhere.json"))
    assert missing.status == 2
    assert missing.err.startswith("error: cannot read ")


def test_a_season_file_prints_as_csv_too(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season("format_example")), encoding="utf-8")

    result = standings(str(path), "--format", "csv")

    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == (
        "Rank,Player,Games,Won,Lost,Shutout wins,League points,Net points,Money,"
        "Skill (μ),Uncertainty (σ),Rating"
    )
    assert lines[1].startswith("1,Anna,1,1,0,0,2,+175,+8.75,")
    assert lines[2].startswith("2,Ben,1,0,1,0,0,−175,−8.75,")
    # The ratings to two decimals, as the JSON has them in full.
    rating = json.loads(standings(str(path)).out)["standings"][0]["rating"]
    assert lines[1].split(",")[9:] == [
        f"{rating[name]:.2f}".replace("-", "−") for name in ("mu", "sigma", "ordinal")
    ]


def csv_of(path: Path, *options: str) -> list[list[str]]:
    result = standings(str(path), "--format", "csv", *options)
    assert result.status == 0, result.err
    return list(csv.reader(io.StringIO(result.out), delimiter=";" if "de" in options else ","))


def test_the_csv_speaks_the_language_asked_for(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season("format_example")), encoding="utf-8")

    english, german = csv_of(path), csv_of(path, "--language", "de")

    assert german[0] == [
        "Platz", "Spieler", "Partien", "Gewonnen", "Verloren", "Shutout-Siege", "Ligapunkte",
        "Punktdifferenz", "Geld", "Spielstärke (μ)", "Unsicherheit (σ)", "Wertung",
    ]  # fmt: skip
    assert german[1][:9] == ["1", "Anna", "1", "1", "0", "0", "2", "+175", "+8,75"]
    assert german[2][7:9] == ["−175", "−8,75"]
    # the same figures, with a decimal comma
    assert [line[9:] for line in german[1:]] == [
        [figure.replace(".", ",") for figure in line[9:]] for line in english[1:]
    ]
    assert all(len(figure.split(",")[1]) == 2 for line in german[1:] for figure in line[9:])


def test_the_json_is_the_same_in_every_language(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season("format_example", "match")), encoding="utf-8")
    english, german = standings(str(path)), standings(str(path), "--language", "de")
    assert german.out == english.out
    assert json.loads(english.out)["standings"][1]["net_points"] < 0  # a plain -


def test_a_file_and_a_season_together_are_refused():
    result = standings("x.json", "--season", "1")
    assert (result.status, result.out) == (2, "")
    assert "not both" in result.err
