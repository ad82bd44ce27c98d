// The hand form with a keyboard, a screen reader and a bad connection.
//
// After each answer to the hand form, focus goes where the player continues: the first
// field with an error, the result the cards gave, or the first field of the emptied form;
// at the end of the partie, the line that says who won. The status line (#entry-status,
// role=status) says "Hand 3 saved". A request that fails (no connection, a server error)
// changes nothing on the page: what was typed stays, and the status line says why, in the
// words the page gives in its data-* attributes (translated by the server).
(function () {
  "use strict";

  function fromHandForm(detail) {
    const elt = detail && (detail.elt || (detail.requestConfig && detail.requestConfig.elt));
    return !!elt && (elt.id === "hand-form" || !!(elt.closest && elt.closest("#hand-form")));
  }

  function firstField(form) {
    const fields = form.querySelectorAll(
      "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)"
    );
    for (const field of fields) {
      if (!field.getClientRects().length) continue; // not shown for this result
      if (field.type === "radio") {
        // A radio group is one tab stop: its chosen button, else its first.
        const chosen = form.querySelector(`input[type=radio][name="${field.name}"]:checked`);
        return chosen || field;
      }
      return field;
    }
    return null;
  }

  function focusOn(element) {
    if (!element) return;
    if (!element.matches("input, select, textarea, button, a[href]")) {
      element.setAttribute("tabindex", "-1");
    }
    element.focus();
  }

  // The words waiting to be said: a later message (or the server's answer) replaces them.
  let pending = null;

  function say(text, isError) {
    const status = document.getElementById("entry-status");
    if (!status) return;
    status.classList.toggle("error", !!isError);
    status.setAttribute("role", isError ? "alert" : "status");
    // Emptied first, so that a screen reader says the same words again.
    window.clearTimeout(pending);
    status.textContent = "";
    if (text) pending = window.setTimeout(() => { status.textContent = text; }, 50);
  }

  // Set while the hand form's request is on its way: the answer may replace the form (the
  // whole table comes back), and then its settle event no longer names the form.
  let sent = false;

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!fromHandForm(event.detail)) return;
    sent = true;
    window.clearTimeout(pending); // an answer may come before the words were said
    const status = document.getElementById("entry-status");
    if (status && status.classList.contains("error")) say("", false);
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    if (!sent && !fromHandForm(event.detail)) return;
    sent = false;
    const form = document.getElementById("hand-form");
    if (!form) {
      focusOn(document.getElementById("status")); // the partie is over
      return;
    }
    const status = document.getElementById("entry-status");
    if (status && status.textContent.trim()) say(status.textContent.trim(), false);
    const wrong = form.querySelector(".has-error input:not([type=hidden]), .has-error select");
    if (wrong) {
      focusOn(wrong.type === "radio" ? firstField(wrong.closest(".field")) || wrong : wrong);
      return;
    }
    const refusal = form.querySelector("p.error");
    if (refusal) {
      focusOn(refusal);
      return;
    }
    const outcome = form.querySelector("section.outcome");
    focusOn(outcome || firstField(form));
  });

  function failed(event, message) {
    if (!fromHandForm(event.detail)) return;
    sent = false;
    if (event.detail.kept) return; // kept on the phone to be sent later: offline.js says so
    const status = document.getElementById("entry-status");
    if (!status) return;
    let text = status.dataset[message] || "";
    const xhr = event.detail.xhr;
    if (message === "responseError" && xhr && xhr.status) text += ` (${xhr.status})`;
    say(text, true);
  }

  // An answer static/js/offline.js keeps the hand from (not recorded, and waiting on the
  // phone): nothing is swapped, and offline.js says what happened.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.kept && fromHandForm(event.detail)) sent = false;
  });

  document.addEventListener("htmx:sendError", (event) => failed(event, "sendError"));
  document.addEventListener("htmx:responseError", (event) => failed(event, "responseError"));
})();
