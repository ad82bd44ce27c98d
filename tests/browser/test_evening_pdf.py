"""The evening's tally PDF adds up, downloaded through the page in Chromium.

Last week Rosa lost to Paul and has not paid. Tonight Anna plays Rosa and Ben plays
Carl. In the browser the owner settles up, marks one payment paid and downloads the
tally; read back from the PDF's bytes, it shows money with two decimals, tonight's
balances, Rosa's debt carried in, transfers that are exactly the balances plus the
debts carried in, and the paid payment marked.
"""

import re
from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Evening, Partie


def played(
    owner: User, evening: Evening, names: list[str], stake: str, hands: list[tuple[str, int]]
) -> Partie:
    """A two-player partie of ``evening``, played to its end through the services.

    ``hands`` are (knocker, points): a knock with 1 deadwood that scores the knocker
    that many points.
    """
    partie = services.partie_start(
        owner=owner,
        names=names,
        rules=engine.preset("classic"),
        stake=Decimal(stake),
        first_dealer=names[1],
    )
    for knocker, points in hands:
        hand = engine.Hand.knock(1, points + 1, knocker=knocker)
        services.hand_record(partie=partie, hand=hand, user=owner)
    services.partie_evening_set(partie=partie, evening=evening)
    partie.refresh_from_db()
    assert not partie.is_running
    return partie


def test_the_tally_pdf_lists_the_balances_the_debts_carried_in_and_the_transfers(
    logged_in_page: Page, owner: User
):
    last_week = services.evening_start(owner=owner, name="Last week", played_on=date(2026, 11, 13))
    played(owner, last_week, ["Paul", "Rosa"], "0.05", [("Paul", 30), ("Rosa", 12), ("Paul", 75)])
    services.evening_settle(evening=last_week)  # Rosa pays Paul 213 × 0.05, and does not
    tonight = services.evening_start(owner=owner, name="Club night", played_on=date(2026, 11, 20))
    # Rosa pays Anna (245 − 40) × 0.05 = 10.25; Ben pays Carl 345 × 0.07 = 24.15.
    played(owner, tonight, ["Anna", "Rosa"], "0.05", [("Anna", 40), ("Rosa", 20), ("Anna", 65)])
    played(owner, tonight, ["Carl", "Ben"], "0.07", [("Carl", 25), ("Carl", 80)])

    page = logged_in_page
    page.goto(tonight.get_absolute_url())
    payments = page.locator("ul.payments li")
    expect(payments).to_have_text(
        ["Ben pays Carl 24.15", "Rosa pays Anna 10.25", "Rosa pays Paul 10.65"]
    )
    page.get_by_role("button", name="Settle up: freeze these payments").click()
    ben_pays = payments.filter(has_text="Ben pays Carl 24.15")
    ben_pays.get_by_role("button", name="Mark paid").click()
    expect(ben_pays.locator(".badge")).to_have_text("paid")
    expect(ben_pays.get_by_role("button", name="not paid after all")).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("link", name="Tally (PDF)").click()
    assert download.value.suggested_filename == "evening-2026-11-20-club-night.pdf"
    sheets = PdfReader(download.value.path()).pages
    text = " ".join(" ".join(sheet.extract_text() for sheet in sheets).split())

    # stored with four places (10.6500), printed with the stake's two
    assert not re.search(r"\d[.,]\d{3}", text), text
    balances = "Balances Player Points Money " + (
        "Anna +205 +10.25 Ben −345 −24.15 Carl +345 +24.15 Rosa −205 −10.25"
    )
    carried = "Carried in from earlier evenings Owes To Amount From the evening " + (
        "Rosa Paul 10.65 Last week (11/13/2026)"
    )
    transfers = "Settle up Pays To Amount Paid " + (
        "Ben Carl 24.15 ✓ paid Rosa Anna 10.25 open Rosa Paul 10.65 open"
    )
    for words in (balances, carried, transfers):
        assert words in text, text
    assert text.index(balances) < text.index(carried) < text.index(transfers)
    assert "The transfers settle this evening's balances and the debts carried in." in text

    # Each player's transfers come to his balance plus the debts carried in: Rosa pays
    # 10.25 for tonight and 10.65 for last week; Paul, who did not play, gets his 10.65.
    owed = nets(
        rows(text, "Balances Player Points Money", "Carried in", BALANCE)
        + rows(text, "Owes To Amount From the evening", "Settle up", DEBT)
    )
    settled = nets(rows(text, "Settle up Pays To Amount Paid", "The transfers", TRANSFER))
    assert (
        owed
        == settled
        == {
            "Anna": Decimal("10.25"),
            "Ben": Decimal("-24.15"),
            "Carl": Decimal("24.15"),
            "Paul": Decimal("10.65"),
            "Rosa": Decimal("-20.90"),
        }
    )


# The rows of the tally's tables as pypdf reads them, one after the other on a line.
BALANCE = re.compile(r"(?P<payee>\w+) [+−]\d+ (?P<amount>[+−]\d+\.\d\d)")
DEBT = re.compile(r"(?P<payer>\w+) (?P<payee>\w+) (?P<amount>\d+\.\d\d) [^()]+ \([\d/]+\)")
TRANSFER = re.compile(r"(?P<payer>\w+) (?P<payee>\w+) (?P<amount>\d+\.\d\d) (?:✓ paid|open)")


def rows(text: str, head: str, after: str, row: re.Pattern) -> list[re.Match]:
    """Every row of the table under ``head``, up to the words ``after`` it; all of it rows."""
    body = text[text.index(head) + len(head) : text.index(after)].strip()
    found = list(row.finditer(body))
    assert " ".join(match[0] for match in found) == body, body
    return found


def nets(found: list[re.Match]) -> dict[str, Decimal]:
    """What each player gets (+) or gives (−) by these rows: a balance, a debt, a transfer."""
    net: dict[str, Decimal] = defaultdict(Decimal)
    for match in found:
        amount = Decimal(match["amount"].replace("−", "-"))
        if match.re is not BALANCE:
            net[match["payer"]] -= amount
        net[match["payee"]] += amount
    return dict(net)
