// The new-partie form: the first dealer is offered by the names typed, and a kind with
// a range of seats (a chouette: 3 to 8) shows only the seats filled in or asked for, with
// "Add a player" for one more. Without JavaScript every seat of the kind shows.
(function () {
  "use strict";

  function setUp(form) {
    const field = (n) => form.querySelector(`[name=player_${n}]`);
    const seatLabel = (n) => {
      const input = field(n);
      const label = input && form.querySelector(`label[for="${input.id}"]`);
      return label ? label.textContent.trim() : String(n);
    };

    function dealerNames() {
      form.querySelectorAll(".field-first_dealer label.choice").forEach((choice) => {
        const n = choice.querySelector("input").value;
        const name = field(n) ? field(n).value.trim() : "";
        choice.querySelector("span").textContent = name || seatLabel(n);
      });
    }

    const add = form.querySelector("[data-add-seat]");
    const ranges = {};
    for (const item of (add ? add.dataset.seats : "").split(" ").filter(Boolean)) {
      const [kind, fewest, most] = item.split(":");
      ranges[kind] = [Number(fewest), Number(most)];
    }
    let asked = 0;

    function seats() {
      if (!add) return;
      const kind = (form.querySelector("[name=kind]:checked") || {}).value;
      const [fewest, most] = ranges[kind] || [2, 2];
      let filled = 0;
      for (let n = 1; n <= most; n++) if (field(n) && field(n).value.trim()) filled = n;
      const shown = Math.min(most, Math.max(fewest, filled, asked));
      form.querySelectorAll(".seat").forEach((seat) => {
        const n = Number(seat.className.match(/seat-(\d+)/)[1]);
        seat.classList.toggle("folded", n > shown);
      });
      add.hidden = shown >= most;
      return shown;
    }

    if (add) {
      add.addEventListener("click", () => {
        asked = seats() + 1;
        seats();
        if (field(asked)) field(asked).focus();
      });
    }
    form.addEventListener("input", (event) => {
      if (/^player_\d$/.test(event.target.name)) dealerNames();
    });
    form.addEventListener("change", (event) => {
      if (event.target.name === "kind") asked = 0;
      seats();
    });
    dealerNames();
    seats();
  }

  document.querySelectorAll("form.partie-form").forEach(setUp);
})();
