// The card picker: choose the hand with its button (or tap its field), then tap cards to put
// them in or take them out. Typing works too; without JavaScript only typing does.
// Scorekeeper reads the fields.
(function () {
  "use strict";
  const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

  function codes(input) {
    return input.value.toUpperCase().replace(/10/g, "T").split(/[\s,]+/).filter(Boolean);
  }

  function setUp(picker) {
    if (picker.dataset.ready) return;
    picker.dataset.ready = "1";
    const box = picker.closest(".cards");
    const fields = box.querySelectorAll("input[name$=knocker_cards], input[name$=defender_cards]");
    let target = fields[0];
    const buttons = {};
    // The hand buttons: each fills the field whose name ends as its data-fills says.
    const hands = [...picker.querySelectorAll("[data-fills]")].map((button) => ({
      button,
      field: box.querySelector(`input[name$=${button.dataset.fills}]`),
    }));
    for (const hand of hands) {
      hand.button.addEventListener("click", () => { target = hand.field; show(); });
    }
    for (const [suit, symbol] of SUITS) {
      const row = document.createElement("div");
      row.className = "card-row";
      for (const rank of RANKS) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "pick" + (suit === "H" || suit === "D" ? " red" : "");
        button.textContent = (rank === "T" ? "10" : rank) + symbol;
        button.dataset.code = rank + suit;
        button.setAttribute("aria-pressed", "false");
        button.addEventListener("click", () => toggle(rank + suit));
        buttons[rank + suit] = button;
        row.append(button);
      }
      picker.append(row);
    }
    function toggle(code) {
      const held = codes(target);
      const at = held.indexOf(code);
      if (at >= 0) held.splice(at, 1); else held.push(code);
      target.value = held.join(" ");
      show();
    }
    function show() {
      for (const field of fields) field.classList.toggle("picking", field === target);
      for (const hand of hands) {
        hand.button.setAttribute("aria-pressed", String(hand.field === target));
        hand.button.querySelector("[data-count]").textContent = `(${codes(hand.field).length})`;
      }
      const mine = new Set(codes(target));
      const other = new Set([...fields].filter((f) => f !== target).flatMap(codes));
      for (const [code, button] of Object.entries(buttons)) {
        button.setAttribute("aria-pressed", String(mine.has(code)));
        button.disabled = other.has(code);
      }
    }
    for (const field of fields) {
      field.addEventListener("focus", () => { target = field; show(); });
      field.addEventListener("input", show);
    }
    picker.hidden = false;
    show();
  }

  function setUpAll(root) {
    root.querySelectorAll("[data-card-picker]").forEach(setUp);
  }
  document.addEventListener("DOMContentLoaded", () => setUpAll(document));
  document.addEventListener("htmx:load", (event) => setUpAll(event.target));
})();
