// What every page shares: table mode and, on a phone, the menu that holds the links.
// Loaded in <head> without defer, so that table mode is on before the first paint.
(function () {
  "use strict";
  const root = document.documentElement;
  const KEY = "scorekeeper.table-mode";
  // The menu folds only when this script runs: without JavaScript every link shows.
  root.classList.add("js");

  function remembered() {
    try {
      return localStorage.getItem(KEY) === "on";
    } catch (error) {
      return false; // storage off (a private window): table mode lasts for the page only
    }
  }
  function remember(on) {
    try {
      if (on) localStorage.setItem(KEY, "on");
      else localStorage.removeItem(KEY);
    } catch (error) {
      // nothing to do: see remembered()
    }
  }
  root.classList.toggle("table-mode", remembered());

  // Table mode: large type, high contrast, for a phone lying on the card table.
  function setUpTableMode(button) {
    button.setAttribute("aria-pressed", String(root.classList.contains("table-mode")));
    button.addEventListener("click", () => {
      const on = !root.classList.contains("table-mode");
      root.classList.toggle("table-mode", on);
      button.setAttribute("aria-pressed", String(on));
      remember(on);
    });
  }

  function setUpMenu(button) {
    const nav = document.getElementById(button.getAttribute("aria-controls"));
    function show(open) {
      nav.classList.toggle("open", open);
      button.setAttribute("aria-expanded", String(open));
    }
    button.addEventListener("click", () => {
      const open = !nav.classList.contains("open");
      show(open);
      if (open) nav.querySelector("a, button")?.focus();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && nav.classList.contains("open")) {
        show(false);
        button.focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-table-mode]").forEach(setUpTableMode);
    document.querySelectorAll(".menu-button[aria-controls]").forEach(setUpMenu);
  });
})();
