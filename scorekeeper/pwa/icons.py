"""Draw the home-screen icons: `python -m scorekeeper.pwa.icons` writes static/icons/.

The favicon's card and spade on the app's green, drawn with Pillow (which reportlab
brings along) and committed as PNG files: the manifest names a 192 px and a 512 px icon.
The spade stays inside the middle 80 % of the square, so that a launcher that cuts the
icon into a circle (a "maskable" icon) keeps it whole.
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "static" / "icons"
FONT = ROOT / "scorekeeper" / "sheets" / "fonts" / "DejaVuSans.ttf"  # it has ♠
GREEN, PAPER = "#0b6e4f", "#ffffff"
SIZES = (192, 512)


def icon(size: int) -> Image.Image:
    """The icon at ``size`` × ``size`` pixels: a white card with a green spade, on green."""
    scale = 4  # drawn large and scaled down: smooth edges without an anti-aliasing option
    side = size * scale
    image = Image.new("RGB", (side, side), GREEN)
    draw = ImageDraw.Draw(image)
    card = (side * 0.27, side * 0.19, side * 0.73, side * 0.81)
    draw.rounded_rectangle(card, radius=side * 0.06, fill=PAPER)
    font = ImageFont.truetype(str(FONT), int(side * 0.42))
    draw.text((side / 2, side / 2), "♠", font=font, fill=GREEN, anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        icon(size).save(FOLDER / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
